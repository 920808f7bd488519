from pbem.cli.main import main

raise SystemExit(main())
