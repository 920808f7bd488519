"""A real headless Chromium for the archive tests: Debian's chromium and chromium-driver, driven
by Selenium (a well-kept WebDriver client rather than a DevTools client of our own).

Missing browser or driver fails the test with one sentence naming what to install (``make
test`` installs both with apt-get when it runs as root); it never skips.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-dev-shm-usage")
"""Without the background-networking flags Chromium opens connections at start that this
machine refuses many at a time; none of them is wanted in a test anyway."""


def _find(*names: str) -> str | None:
    for name in names:
        found = shutil.which(name)
        if found:
            return found
    return None


_OPEN: list[tuple[Any, str]] = []  # this process's one browser: (driver, profile directory)


def _start() -> tuple[Any, str]:
    """A Selenium WebDriver on a fresh headless Chromium profile, with the console log kept."""
    browser = _find("chromium", "chromium-browser")
    driver_path = _find("chromedriver")
    if browser is None or driver_path is None:
        pytest.fail("the archive tests need a headless Chromium: install the Debian packages "
                    "chromium and chromium-driver (make test does so when run as root)")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    profile = tempfile.mkdtemp(prefix="pbem-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = browser
    for flag in FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={profile}")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    os.environ.setdefault("SE_OFFLINE", "true")  # never let Selenium Manager fetch anything
    return webdriver.Chrome(options=options, service=Service(executable_path=driver_path)), profile


def _quit() -> None:
    while _OPEN:
        driver, profile = _OPEN.pop()
        with contextlib.suppress(Exception):
            driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


@contextmanager
def chromium(width: int = 1000, height: int = 900) -> Iterator[Any]:
    """This process's headless Chromium (started on first use, quit when the process ends: a
    start and quit cost seconds), on a blank page with the window ``width`` x ``height`` (the
    page's viewport: ``--window-size`` would not go below 500 px), its console log and cookies
    cleared. A test that breaks the browser gets a new one next time. One use at a time: a
    fixture hands it to one test (function scope), not to a module's."""
    if _OPEN:
        try:
            _OPEN[0][0].get("about:blank")
        except Exception:  # noqa: BLE001 - a dead browser is replaced, not reused
            _quit()
    if not _OPEN:
        _OPEN.append(_start())
        atexit.register(_quit)
    driver = _OPEN[0][0]
    driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})  # an earlier test's
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": ""})  # (the screen's)
    driver.set_window_size(width, height)
    driver.get("about:blank")
    driver.delete_all_cookies()
    driver.get_log("browser")  # what an earlier test left in the console is not this test's
    yield driver


def console_problems(driver: Any) -> list[str]:
    """Console messages at warning level or above since the last call (CSP violations, script
    errors, failed loads all land here)."""
    return [f"{m['level']}: {m['message']}" for m in driver.get_log("browser")
            if m["level"] in ("SEVERE", "WARNING")]


def url_of(path: Path) -> str:
    return path.resolve().as_uri()
