"""Render a report's HTML part to a PNG with headless Chromium, to look at it as a player would.

    .venv/bin/python tools/screenshot_report.py report.html out.png [--width 420 --height 2400]
    .venv/bin/python tools/screenshot_report.py --demo out.png        # a scripted game's report

``--demo`` plays the scripted game of tests/support/report_scenario.py and renders Algol's turn-3
report (combined arrival, battle, capture, threat list). Needs /usr/bin/chromium (Debian:
``apt-get install -y chromium``); the test suite never does.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def chromium() -> str:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    sys.exit("screenshot_report: no chromium found (apt-get install -y chromium)")


def screenshot(html: str, png: Path, width: int = 420, height: int = 2400) -> None:
    with tempfile.TemporaryDirectory(prefix="pbem-shot-") as tmp:
        page = Path(tmp) / "report.html"
        page.write_text(html, encoding="utf-8")
        profile = Path(tmp) / "profile"
        cmd = [
            chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
            "--no-first-run", "--disable-background-networking", "--disable-component-update",
            "--disable-sync", "--hide-scrollbars", f"--user-data-dir={profile}",
            f"--screenshot={png.resolve()}", f"--window-size={width},{height}",
            page.as_uri(),
        ]
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=120, check=False)
        if done.returncode != 0 or not png.exists():
            sys.exit(f"screenshot_report: chromium failed ({done.returncode}):\n{done.stderr}")


def demo_html(power: str = "algol", index: int = 2) -> str:
    sys.path.insert(0, str(ROOT))
    from pbem.render import mails
    from tests.support.ad_driver import AD
    from tests.support.report_scenario import GAME, PLAYERS, golden_game

    _, rounds = golden_game()
    r = rounds[index]
    mail = mails.turn_report(mails.Renderer("4000ad"), AD, r.before, r.after, r.events,
                              [power], PLAYERS[power], GAME)
    return mail.html


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("html", nargs="?", type=Path, help="the HTML file to render")
    p.add_argument("png", type=Path, help="the PNG to write")
    p.add_argument("--demo", action="store_true", help="render the scripted game's report")
    p.add_argument("--power", default="algol", help="with --demo: whose report")
    p.add_argument("--round", type=int, default=2, help="with --demo: which round (0-3)")
    p.add_argument("--width", type=int, default=420, help="window width (420: a phone)")
    p.add_argument("--height", type=int, default=2400, help="window height")
    args = p.parse_args(argv)
    if args.demo:
        html = demo_html(args.power, args.round)
    elif args.html:
        html = args.html.read_text(encoding="utf-8")
    else:
        p.error("give an HTML file or --demo")
    screenshot(html, args.png, args.width, args.height)
    print(args.png)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
