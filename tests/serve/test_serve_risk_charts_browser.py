"""The library's risk charts in a real browser (issue 38): the three charts are drawn from the
form, each bar where its scale says, a wrong setting is said in words, and at 375 px the page does
not scroll sideways and each chart fits the screen. The browser, the server and the helpers are
test_serve_browser's (Debian's Chromium and chromedriver; skipped, saying why, without them)."""

from __future__ import annotations

import time

import pytest

from tests.serve.test_serve_browser import browser, server, text_of, wait  # noqa: F401  (fixtures)

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def _charts(browser, address, **fields):  # noqa: F811 (the page's browser, given)
    from selenium.webdriver.common.by import By

    browser.get(f"{address}/?ruleset=cotton")
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#session-chart svg.risk"), message="the first charts")
    for name, value in fields.items():
        box = browser.find_element(By.ID, f"risk-{name}")
        box.clear()
        box.send_keys(value)
    before = browser.find_element(By.CSS_SELECTOR, "#session-chart svg")
    browser.find_element(By.CSS_SELECTOR, "#risk-form button").click()
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#session-chart svg") != [before]
         or "cannot" in text_of(d, "#risk-status"), message="the charts drawn again")


def test_the_three_charts_follow_the_form(browser, server):  # noqa: F811
    address, _ = server
    _charts(browser, address, games="50", stop_loss="3", stop_win="2", bankroll="10", goal="20")
    bars = browser.execute_script(
        "return [...document.querySelectorAll('#session-chart rect')].map(r => [Number(r.dataset.net), "
        "Number(r.dataset.value), r.getAttribute('class')])")
    nets = [n for n, _, _ in bars]
    assert min(nets) == -3 and max(nets) == 2  # the stops, as the form says
    assert sum(v for _, v, _ in bars) == pytest.approx(100, abs=1e-9)  # every session ends somewhere
    assert all(c == ("ahead" if n > 0 else "behind" if n < 0 else "even") for n, _, c in bars)
    # a taller bar stands higher: its top is where the scale puts its share
    tops = browser.execute_script(
        "return [...document.querySelectorAll('#session-chart rect')].map(r => [Number(r.dataset.value), "
        "Number(r.getAttribute('height'))])")
    ordered = sorted(tops)
    assert [h for _, h in ordered] == sorted(h for _, h in ordered)
    stakes = browser.execute_script(
        "return [...document.querySelectorAll('#best-chart rect')].map(r => [Number(r.dataset.purse), "
        "Number(r.dataset.value)])")
    assert dict(stakes)[10] == 10 and len(stakes) == 19  # Cotton's caster: one stake of the whole purse at 10
    assert "1979/4032" in text_of(browser, "#best-caption")
    assert "hand" in text_of(browser, "#tail-caption")
    assert browser.find_elements("css selector", "#tail-chart svg polyline")


def test_a_wrong_setting_is_said_in_words(browser, server):  # noqa: F811
    address, _ = server
    _charts(browser, address, goal="abc")
    wait(browser, lambda d: "cannot be drawn" in text_of(d, "#risk-status"), message="the error said")
    assert "goal" in text_of(browser, "#risk-status")


def test_the_charts_fit_a_phone(browser, server):  # noqa: F811
    address, _ = server
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                            {"width": 375, "height": 800, "deviceScaleFactor": 1, "mobile": True})
    try:
        browser.get(f"{address}/?ruleset=craps")
        wait(browser, lambda d: d.find_elements("css selector", "#best-chart svg.risk"), message="the charts")
        time.sleep(0.3)
        width = browser.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")
        assert width[1] == 375 and width[0] <= 375, width
        boxes = browser.execute_script(
            "return [...document.querySelectorAll('svg.risk')].map(s => s.getBoundingClientRect())"
            ".map(b => [b.left, b.right, b.width])")
        assert len(boxes) == 3 and all(0 <= left and right <= 375 and w > 250 for left, right, w in boxes), boxes
        browser.save_screenshot("/tmp/risk_charts_375.png")
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
