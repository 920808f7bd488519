"""A real headless Chromium for the archive tests: Debian's chromium and chromium-driver, driven
by Selenium (a well-kept WebDriver client rather than a DevTools client of our own).

Missing browser or driver fails the test with one sentence naming what to install (``make
test`` installs both with apt-get when it runs as root); it never skips.
"""

from __future__ import annotations

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


@contextmanager
def chromium(width: int = 1000, height: int = 900) -> Iterator[Any]:
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
    options.add_argument(f"--window-size={width},{height}")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    os.environ.setdefault("SE_OFFLINE", "true")  # never let Selenium Manager fetch anything
    driver = webdriver.Chrome(options=options, service=Service(executable_path=driver_path))
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


def console_problems(driver: Any) -> list[str]:
    """Console messages at warning level or above since the last call (CSP violations, script
    errors, failed loads all land here)."""
    return [f"{m['level']}: {m['message']}" for m in driver.get_log("browser")
            if m["level"] in ("SEVERE", "WARNING")]


def url_of(path: Path) -> str:
    return path.resolve().as_uri()
