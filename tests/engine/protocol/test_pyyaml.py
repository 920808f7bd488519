"""PyYAML imported through pbem.protocol.pyyaml: its patterns compiled when first used, with the
same results as compiled ones (what PyYAML resolves and dumps is unchanged)."""

from __future__ import annotations

import re
import subprocess
import sys

from pbem.protocol.pyyaml import LazyPattern, yaml


def test_yaml_resolves_and_dumps_as_ever() -> None:
    text = "a: yes\nb: 2026-01-01\nc: 1:30\nd: 0x1f\ne: ~\nf: 1.5e+3\n"
    loaded = yaml.safe_load(text)
    assert loaded["a"] is True and loaded["c"] == 90 and loaded["d"] == 31 and loaded["e"] is None
    assert str(loaded["b"]) == "2026-01-01" and loaded["f"] == 1500.0
    assert yaml.safe_dump({"a": "no", "b": "012", "c": "1:30"}) == "a: 'no'\nb: '012'\nc: '1:30'\n"
    # the pure-Python reader's test for unprintable characters, lazy or not
    try:
        yaml.load("a: \x07", Loader=yaml.SafeLoader)
    except yaml.YAMLError as exc:
        assert "special characters are not allowed" in str(exc)
    else:  # pragma: no cover
        raise AssertionError("an unprintable character was read")


def test_a_lazy_pattern_is_its_compiled_pattern() -> None:
    lazy = LazyPattern(r"^(?:yes|no)$", re.X)
    assert lazy.match("yes") and not lazy.match("maybe") and lazy.search("no")
    assert lazy.pattern == r"^(?:yes|no)$" and lazy.flags & re.X
    assert lazy.compiled() is lazy.compiled()


def test_pyyaml_compiles_no_pattern_at_import_and_no_other_module_is_touched() -> None:
    probe = ("import re, sys; import pbem.protocol.pyyaml as p; import yaml;"
             "print(type(yaml.reader.Reader.NON_PRINTABLE).__name__, re.compile is p._COMPILE,"
             " type(re.compile('x')).__name__)")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          check=True, timeout=60)
    assert done.stdout.split() == ["LazyPattern", "True", "Pattern"]
