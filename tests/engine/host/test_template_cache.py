"""Compiled templates are kept in ROOT/.pbem-run/jinja/ (pbem.host.templatecache): a later process
loads them instead of compiling; a changed template, or an environment made with other options,
compiles its own. Real Jinja environments over real template files, a real order mail."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import jinja2

from pbem.host.templatecache import FOLDER, cache_templates
from pbem.store.layout import RUN_DIR


class Counting(jinja2.Environment):
    """An environment that counts the templates it compiles from source."""

    compiled = 0

    def compile(self, *args: Any, **kwargs: Any) -> Any:  # type: ignore[override]
        type(self).compiled += 1
        return super().compile(*args, **kwargs)


def _env(templates: Path, **options: Any) -> Counting:
    Counting.compiled = 0
    return Counting(loader=jinja2.FileSystemLoader(str(templates)), **options)


def test_a_second_environment_loads_the_compiled_template(tmp_path: Path) -> None:
    root, templates = tmp_path / "root", tmp_path / "templates"
    root.mkdir()
    templates.mkdir()
    (templates / "hello.txt").write_text("Hello {{ name }}!\n{% if x %}x{% endif %}\n")
    first = _env(templates)
    cache_templates(first, root)
    assert first.get_template("hello.txt").render(name="Vega") == "Hello Vega!\n"
    assert Counting.compiled == 1
    assert list((root / RUN_DIR / FOLDER).iterdir())
    second = _env(templates)
    cache_templates(second, root)
    assert second.get_template("hello.txt").render(name="Mira", x=1) == "Hello Mira!\nx"
    assert Counting.compiled == 0  # loaded, not compiled


def test_a_changed_template_or_other_options_compile_again(tmp_path: Path) -> None:
    root, templates = tmp_path / "root", tmp_path / "templates"
    root.mkdir()
    templates.mkdir()
    (templates / "t.txt").write_text("{% if x %}\nyes\n{% endif %}\n")
    env = _env(templates)
    cache_templates(env, root)
    assert env.get_template("t.txt").render(x=1) == "\nyes\n"
    trimmed = _env(templates, trim_blocks=True)  # other whitespace options: other code
    cache_templates(trimmed, root)
    assert trimmed.get_template("t.txt").render(x=1) == "yes\n"
    assert Counting.compiled == 1
    (templates / "t.txt").write_text("changed {{ x }}\n")
    again = _env(templates, trim_blocks=True)
    cache_templates(again, root)
    assert again.get_template("t.txt").render(x=2) == "changed 2"
    assert Counting.compiled == 1


def test_a_damaged_cache_file_is_compiled_again(tmp_path: Path) -> None:
    root, templates = tmp_path / "root", tmp_path / "templates"
    root.mkdir()
    templates.mkdir()
    (templates / "t.txt").write_text("v={{ v }}\n")
    env = _env(templates)
    cache_templates(env, root)
    env.get_template("t.txt")
    for path in (root / RUN_DIR / FOLDER).iterdir():
        path.write_bytes(path.read_bytes()[:20])  # torn
    fresh = _env(templates)
    cache_templates(fresh, root)
    assert fresh.get_template("t.txt").render(v=3) == "v=3"
    assert Counting.compiled == 1


def test_a_mail_rendered_from_templates_leaves_them_compiled(tmp_path: Path) -> None:
    """A real rejected order mail (``pbem ingest --stdin``): its rejection is rendered through
    the cache, whose compiled templates are in the root's run folder afterwards. An accepted
    one leaves none: its receipt is written without Jinja (pbem.render.plain)."""
    import subprocess
    import sys

    from tests.support.ingest_helpers import REPO, order_mail
    from tests.support.pbem_host import Host

    host = Host(tmp_path)
    folder = host.root / RUN_DIR / FOLDER
    for n, (body, verdict) in enumerate((({}, b"accepted"), ({"nonsense": 1}, b"rejected"))):
        raw = order_mail(host.orders_text("algol", body), msgid=f"<o.{n}@players.example>")
        done = subprocess.run([sys.executable, "-m", "pbem", "ingest", str(host.root),
                               "--stdin", "--now", "2026-12-01T05:00:00Z"], input=raw,
                              capture_output=True, cwd=REPO, check=True, timeout=120)
        assert verdict in done.stdout, done.stdout
        compiled = sorted(folder.glob("__jinja2_*.cache")) if folder.is_dir() else []
        assert bool(compiled) is (verdict == b"rejected"), compiled
