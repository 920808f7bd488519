"""``pbem audit --checkpoint`` as a player gives it (README, "Audit"): the saved report or
welcome mail itself, the checkpoint.txt it carries, or the two lines; a file that holds none,
or a name that is neither a file nor a checkpoint, is one line naming it and what to give."""

from __future__ import annotations

from pathlib import Path

from tests.support.pbem_host import Host, at, attachment
from tests.support.run import pbem_ok


def test_audit_takes_the_saved_mail_its_checkpoint_file_or_neither(tmp_path: Path) -> None:
    host = Host(tmp_path, "independents-3")
    host.run(at(1))
    (mail,) = [m for m in host.sent() if "Welcome" in str(m["Subject"])
               and str(m["To"]) == f"{host.powers[0]}@example.org"]
    saved = tmp_path / "welcome.eml"
    saved.write_bytes(mail.as_bytes())
    part = attachment(mail, "checkpoint.txt")
    assert part is not None
    cp = tmp_path / "checkpoint.txt"
    cp.write_bytes(part)
    export = tmp_path / "g1.jsonl"
    pbem_ok("export", host.path, "-o", export)
    for given in (saved, cp, part.decode()):
        said = pbem_ok("audit", export, "--checkpoint", given)
        assert "--checkpoint #1 g1@" in said and "is extended by this log" in said, said
    plain = tmp_path / "notes.txt"
    plain.write_text("nothing here\n")
    said = pbem_ok("audit", export, "--checkpoint", plain, ok=False)
    assert said.startswith(f"pbem audit: --checkpoint {plain}: holds no checkpoint"), said
    said = pbem_ok("audit", export, "--checkpoint", tmp_path / "gone.txt", ok=False)
    assert "no such file, and not a checkpoint's text" in said and said.count("\n") == 1, said
