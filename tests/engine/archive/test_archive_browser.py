"""The archive in a real headless Chromium (tests/support/browser.py): every page renders without a
console problem, the slider and the arrow keys reach every step, the in-page verification
passes on an honest export and fails on a tampered one, and no request leaves the page.

Screenshots at 1000 and 420 px are written to the test's temporary directory, and also to
$PBEM_SCREENSHOTS when set (e.g. PBEM_SCREENSHOTS=/work/tmp)."""

from __future__ import annotations

import base64
import os
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

from pbem.archive import build_archive
from tests.support.archive_site import EMBEDDED, running
from tests.support.browser import chromium, console_problems, url_of
from tests.support.played import played

WAIT = 60  # seconds: an upper bound for a slow machine, never a timing assertion


@pytest.fixture(scope="module")
def sites(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    out = tmp_path_factory.mktemp("archive-sites")
    game = played(tmp_path_factory)
    build_archive(game.export, "game.export", out / "full")
    build_archive(running(tmp_path_factory).public, "public.export", out / "public")
    return {"full": out / "full", "public": out / "public"}


@pytest.fixture
def browser() -> Iterator[Any]:
    """The process's one Chromium, reset for this test (tests/support/browser.chromium)."""
    with chromium() as driver:
        yield driver


def open_page(driver: Any, path: Path) -> None:
    driver.get(url_of(path))
    WebDriverWait(driver, WAIT).until(
        lambda d: d.execute_script("return document.readyState") == "complete")


def at_page(driver: Any, name: str) -> None:
    WebDriverWait(driver, WAIT).until(lambda d: d.current_url.endswith("/" + name))
    WebDriverWait(driver, WAIT).until(
        lambda d: d.execute_script("return document.readyState") == "complete")


def verify_in_page(driver: Any, index: Path) -> tuple[str, str]:
    open_page(driver, index)
    driver.find_element(By.ID, "verify-button").click()
    WebDriverWait(driver, WAIT).until(
        lambda d: d.find_element(By.ID, "verify-result").get_attribute("data-verdict"))
    result = driver.find_element(By.ID, "verify-result")
    return str(result.get_attribute("data-verdict")), str(result.text)


@pytest.mark.parametrize("kind", ["full", "public"])
def test_every_page_renders_without_a_console_problem(browser, sites, kind):
    site = sites[kind]
    console_problems(browser)  # drop what came before
    pages = [site / "index.html", *sorted(site.glob("step-*.html"))]
    for page in pages:
        open_page(browser, page)
        assert console_problems(browser) == [], page.name
        h1 = browser.find_element(By.TAG_NAME, "h1").text
        assert h1, page.name
        for landmark in ("header", "nav", "main", "footer"):
            assert browser.find_elements(By.TAG_NAME, landmark), (page.name, landmark)
        for svg in browser.find_elements(By.CSS_SELECTOR, "svg"):
            assert svg.get_attribute("role") == "img" and svg.get_attribute("aria-label")
    if kind == "full":  # every step has a public view, so a map
        open_page(browser, site / "step-001.html")
        assert browser.find_elements(By.CSS_SELECTOR, "svg.map")
    else:  # after the first withheld resolution the page says the state is not in the export
        open_page(browser, site / "step-001.html")
        assert "the state after this step is not in it" in browser.page_source


def test_the_slider_and_the_arrow_keys_reach_every_step(browser, sites):
    site = sites["full"]
    count = len(list(site.glob("step-*.html")))
    open_page(browser, site / "step-000.html")
    for i in range(1, count):  # the slider, step by step
        browser.execute_script(
            "const s = document.getElementById('step-slider'); s.value = arguments[0];"
            "s.dispatchEvent(new Event('change'));", i)
        at_page(browser, f"step-{i:03d}.html")
        assert browser.find_element(By.ID, "step-slider").get_attribute("value") == str(i)
    body = browser.find_element(By.TAG_NAME, "body")
    for i in range(count - 2, -1, -1):  # ← back to the start
        body.send_keys(Keys.ARROW_LEFT)
        at_page(browser, f"step-{i:03d}.html")
        body = browser.find_element(By.TAG_NAME, "body")
    for i in range(1, count):  # → forward to the end
        body.send_keys(Keys.ARROW_RIGHT)
        at_page(browser, f"step-{i:03d}.html")
        body = browser.find_element(By.TAG_NAME, "body")
    # on the slider itself the arrow keys step too
    browser.find_element(By.ID, "step-slider").send_keys(Keys.ARROW_LEFT)
    at_page(browser, f"step-{count - 2:03d}.html")


@pytest.mark.parametrize("kind", ["full", "public"])
def test_in_page_verification_passes_on_the_honest_export(browser, sites, kind):
    verdict, text = verify_in_page(browser, sites[kind] / "index.html")
    assert verdict == "pass", text
    assert "PASSED" in text and "only pbem audit checks" in text
    # this Chromium has Ed25519 in Web Crypto: the referee's signatures were checked
    assert "Ed25519 signatures over the export header and over the checkpoint" in text
    if kind == "public":
        assert "finished from their SHA-256 midstates" in text
    assert console_problems(browser) == []


def _tampered(site: Path, out: Path, change: Any) -> Path:
    shutil.copytree(site, out)
    index = out / "index.html"
    html = index.read_bytes()
    match = EMBEDDED.search(html)
    assert match
    data = bytearray(base64.b64decode(match[1]))
    change(data)
    index.write_bytes(html[:match.start(1)] + base64.b64encode(bytes(data))
                      + html[match.end(1):])
    return index


def _flip_in_line(n: int, marker: bytes) -> Any:
    """Flip one bit of the first byte after ``marker`` on line ``n`` (1-based) of the export."""
    def change(data: bytearray) -> None:
        start = sum(len(x) + 1 for x in bytes(data).split(b"\n")[:n - 1])
        at = bytes(data).index(marker, start) + len(marker)
        data[at] ^= 0x01
    return change


@pytest.mark.parametrize(("kind", "line", "marker", "expect"), [
    ("full", 4, b'"turn":', "line 4 (seq 2): its content does not match its hash"),
    ("full", 1, b'"game":"', "signature is not the referee's"),
    ("public", 3, b'"state":"', "line 3 (seq 1): this withheld record is not the one"),
])
def test_in_page_verification_fails_on_a_tampered_export(browser, sites, tmp_path, kind, line,
                                                         marker, expect):
    index = _tampered(sites[kind], tmp_path / "site", _flip_in_line(line, marker))
    verdict, text = verify_in_page(browser, index)
    assert verdict == "fail", text
    assert "FAILED" in text and expect in text


def test_no_request_leaves_the_file_system(browser, sites):
    for kind, site in sites.items():
        for path in site.iterdir():
            assert not re.search(rb"https?://", path.read_bytes()), (kind, path.name)
        for page in [site / "index.html", site / "step-001.html"]:
            open_page(browser, page)
            names = browser.execute_script(
                "return performance.getEntriesByType('resource').map(e => e.name)")
            assert names == [], names
    # the page's policy refuses a request even if a script asks for one
    open_page(browser, sites["full"] / "index.html")
    console_problems(browser)
    blocked = browser.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "document.addEventListener('securitypolicyviolation', e => done(e.blockedURI));"
        "const img = new Image(); img.src = 'http://127.0.0.1:9/x.png';")
    assert blocked.startswith("http://127.0.0.1:9")  # refused by the policy, never sent


def test_phone_width_print_and_screenshots(sites, tmp_path):
    """At each width, the browser's window of that size and the CSS viewport set to it (each
    use of the browser starts with the screen's media and no emulation)."""
    target = os.environ.get("PBEM_SCREENSHOTS")
    site = sites["full"]
    for width in (1000, 420):
        with chromium(width=width, height=1400) as driver:
            _phone_width_print_and_screenshots(driver, site, tmp_path, target, width)


def _phone_width_print_and_screenshots(driver: Any, site: Path, tmp_path: Path,
                                       target: str | None, width: int) -> None:
    """The pages at ``width`` (a phone's at 420 px: nothing wider than the screen), their
    screenshots, and the print style (no navigation, the map kept)."""
    # the CSS viewport itself (a headless window has a minimum width of its own)
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": width, "height": 1400, "deviceScaleFactor": 1, "mobile": width < 600})
    for page in ("index.html", "step-002.html"):
        open_page(driver, site / page)
        if width == 420:  # readable on a phone: nothing wider than the screen
            over = driver.execute_script(
                "return document.documentElement.scrollWidth - "
                "document.documentElement.clientWidth")
            assert over <= 0, (page, over)
        shot = tmp_path / f"archive-{page.split('.')[0]}-{width}.png"
        driver.save_screenshot(str(shot))
        assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        if target:
            shutil.copy(shot, Path(target) / shot.name)
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print"})
    nav = driver.find_element(By.CSS_SELECTOR, "header.site nav")
    assert not nav.is_displayed()
    assert driver.find_element(By.CSS_SELECTOR, "svg.map").is_displayed()
