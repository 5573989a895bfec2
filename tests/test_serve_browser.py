"""`hazard-dsl serve`'s pages in a real browser: Debian's Chromium driven by Selenium through the
system's chromedriver (nothing is downloaded). What only a browser shows: the library's figures
change with an option, compare shows each variant's chance, the workbench places a diagnostic on
its line and its fix clears it, rule text that looks like HTML is shown and never run, and no page
scrolls sideways at 375 px. One browser and one server for the module (CI has two cores).

Skipped, saying why, only where Chromium, chromedriver or Selenium cannot be found; `.ci/run`
installs them as it installs Graphviz.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import time

import pytest

from hazard_dsl.parse.files import builtin_dir

pytestmark = pytest.mark.browser

COTTON = (builtin_dir() / "cotton.yaml").read_text(encoding="utf-8")
TYPO = COTTON.replace("choose main from 5..9 by caster; goto chance_throw",
                      "choose main from 5..9 by caster; goto chanse_throw")
SCRIPT = "<script>alert(1)</script>"
IMAGE = "<img src=x onerror=alert(2)>"
HOSTILE = (COTTON.replace("name: Hazard (Cotton, 1674)", f"name: \"Hostile {SCRIPT}\"")
           .replace('nick: "{caster} nicks it and sweeps the board."', f'nick: "{{caster}} nicks it {IMAGE}"')
           .replace("notes:\n", f"notes:\n  - \"{SCRIPT} and {IMAGE} in a note\"\n", 1))
assert HOSTILE.count(SCRIPT) == 2 and HOSTILE.count(IMAGE) == 2


def _chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        if shutil.which(name):
            return shutil.which(name)
    return None


@pytest.fixture(scope="module")
def browser():
    webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed (pip install '.[test]')")
    from selenium.webdriver.chrome.service import Service

    binary, driver = _chromium(), shutil.which("chromedriver") or (
        "/usr/bin/chromedriver" if shutil.os.path.exists("/usr/bin/chromedriver") else None)
    if binary is None or driver is None:
        pytest.skip("no Chromium and chromedriver here (apt-get install chromium chromium-driver; .ci/run does)")
    options = webdriver.ChromeOptions()
    options.binary_location = binary
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1280,1000", "--disable-extensions"):
        options.add_argument(argument)
    try:
        chrome = webdriver.Chrome(service=Service(driver), options=options)
    except Exception as exc:  # a Chromium that cannot start here (no display libraries, …)
        pytest.skip(f"Chromium could not be started: {str(exc).splitlines()[0]}")
    chrome.set_page_load_timeout(30)
    yield chrome
    chrome.quit()


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    pytest.importorskip("uvicorn")
    folder = tmp_path_factory.mktemp("browser")
    (folder / "typo.yaml").write_text(TYPO, encoding="utf-8")
    (folder / "hostile.yaml").write_text(HOSTILE, encoding="utf-8")
    process = subprocess.Popen([sys.executable, "-m", "hazard_dsl", "serve", "--port", "0", "--folder", str(folder)],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = process.stdout.readline()
    if " at http://" not in line:
        process.kill()
        pytest.fail(f"serve did not start: {line}{process.stderr.read()}")
    yield line.split(" at ")[1].split()[0].rstrip("/"), folder
    process.terminate()
    process.wait(timeout=20)


def wait(browser, condition, timeout=20, message=""):
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(browser, timeout).until(lambda d: condition(d), message)


def text_of(browser, selector):
    from selenium.webdriver.common.by import By

    found = browser.find_elements(By.CSS_SELECTOR, selector)
    return found[0].text if found else ""


def no_alert(browser):
    from selenium.common.exceptions import NoAlertPresentException

    try:
        alert = browser.switch_to.alert
    except NoAlertPresentException:
        return True
    text = alert.text
    alert.dismiss()
    pytest.fail(f"a dialog opened: {text!r}")


def test_the_library_shows_cottons_chance_and_the_called_main(browser, server):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    address, _ = server
    browser.get(f"{address}/?ruleset=cotton")
    wait(browser, lambda d: "1979/4032 (49.08%)" in text_of(d, "#figure-win"), message="Cotton's 1979/4032")
    assert "Hazard (Cotton, 1674)" in text_of(browser, "#title")
    assert "/api/graph/cotton.svg" in browser.find_element(By.CSS_SELECTOR, "#drawing img").get_attribute("src")
    select = browser.find_element(By.ID, "option-main")
    Select(select).select_by_value("called")
    wait(browser, lambda d: "244/495 (49.29%)" in text_of(d, "#figure-win"), message="244/495 once the main is called")
    assert "main=called" in browser.current_url
    # each bet's payout and edge, and the sheet of the rules in force
    assert "1 to 1" in text_of(browser, "#bets") and "7/495 (1.41%)" in text_of(browser, "#bets")
    assert "/api/rules/cotton?main=called" in browser.find_element(By.ID, "sheet").get_attribute("src")


def test_compare_shows_each_variants_chance(browser, server):
    address, _ = server
    browser.get(f"{address}/compare?v=cotton&v=petty&v=cotton:main=called")
    wait(browser, lambda d: len(d.find_elements("css selector", ".column")) == 3, message="three columns")
    chances = [text_of(browser, f"#column-{i} #figure-win") for i in range(3)]
    assert chances == ["1979/4032 (49.08%)", "5629/11088 (50.77%)", "244/495 (49.29%)"]
    assert "throw again" in text_of(browser, "#differences")  # Petty Hazard's 11 and 12 on the chance throw
    # the charts of compare --plot: each one's chance beside 50%, and its edge
    charts = [c.get_attribute("aria-label") for c in browser.find_elements("css selector", "#charts svg")]
    assert charts[0] == ("The caster's chance of winning a game: cotton 49.08%, petty 50.77%, "
                         "cotton:main=called 49.29%")
    assert charts[1].startswith("The edge against the caster: cotton 1.84%")


def test_the_workbench_places_a_misspelt_phase_and_its_fix_clears_it(browser, server):
    from selenium.webdriver.common.by import By

    address, folder = server
    line = next(i for i, text in enumerate(TYPO.splitlines(), 1) if "chanse_throw" in text)
    browser.get(f"{address}/workbench?file=typo.yaml")
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#diagnostics li.severity-error"),
         message="the diagnostic")
    [error] = browser.find_elements(By.CSS_SELECTOR, "#diagnostics li.severity-error")
    assert error.get_attribute("data-line") == str(line)
    assert "chanse_throw" in error.text
    # its place is a button that takes the cursor there; squiggled in the editor there
    error.find_element(By.CSS_SELECTOR, "button.where").click()
    time.sleep(0.3)
    marked = browser.execute_script(
        "const r = document.getElementById('editor').shadowRoot;"
        "return [...r.querySelectorAll('.cm-lintRange-error')].map(e => e.textContent);")
    assert marked == ["chanse_throw"]
    error.find_element(By.CSS_SELECTOR, "button.fix").click()
    wait(browser, lambda d: not d.find_elements(By.CSS_SELECTOR, "#diagnostics li.severity-error"),
         message="the fix clears the error")
    wait(browser, lambda d: "1979/4032 (49.08%)" in text_of(d, "#figure-win"), message="the figures appear")
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#drawing img"), message="the machine drawn")
    assert (folder / "typo.yaml").read_text(encoding="utf-8") == TYPO  # nothing saved until asked
    browser.find_element(By.ID, "save").click()
    wait(browser, lambda d: "Saved typo.yaml" in text_of(d, "#status"), message="saved")
    assert (folder / "typo.yaml").read_text(encoding="utf-8") == COTTON


def test_rule_text_that_looks_like_html_is_shown_and_never_run(browser, server):
    from selenium.webdriver.common.by import By

    address, _ = server
    browser.get(f"{address}/?ruleset=hostile.yaml")
    wait(browser, lambda d: "1979/4032" in text_of(d, "#figure-win"), message="the hostile file's figures")
    no_alert(browser)
    assert browser.find_element(By.ID, "title").text == f"Hostile {SCRIPT}"
    assert f"{SCRIPT} and {IMAGE} in a note" in text_of(browser, "#notes")
    assert not browser.find_elements(By.CSS_SELECTOR, "main img[src='x'], main script")
    # the rule sheet, in its frame, shows the label's text too
    browser.switch_to.frame(browser.find_element(By.ID, "sheet"))
    wait(browser, lambda d: IMAGE in d.find_element(By.TAG_NAME, "body").text, message="the sheet shows the text")
    browser.switch_to.default_content()
    browser.get(f"{address}/workbench?file=hostile.yaml")
    wait(browser, lambda d: "1979/4032" in text_of(d, "#figure-win"), message="the workbench's figures")
    time.sleep(0.3)
    no_alert(browser)
    requests = browser.execute_script("return performance.getEntriesByType('resource').map(e => e.name)")
    assert not [r for r in requests if r.rstrip("/").endswith("/x")], requests


def test_a_new_file_from_a_built_in_in_one_click(browser, server):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    address, folder = server
    browser.get(f"{address}/workbench")
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#new-base option"), message="the built-ins")
    Select(browser.find_element(By.ID, "new-base")).select_by_value("petty")
    browser.find_element(By.CSS_SELECTOR, "#new-file button").click()
    wait(browser, lambda d: "5629/11088 (50.77%)" in text_of(d, "#figure-win"), message="Petty Hazard's figures")
    assert text_of(browser, "#diagnostics") == "No problems."
    browser.find_element(By.ID, "save").click()
    wait(browser, lambda d: (folder / "my_variant.yaml").exists(), message="the new file saved")
    assert "extends: petty" in (folder / "my_variant.yaml").read_text(encoding="utf-8")


@pytest.mark.parametrize("page, ready", [("/?ruleset=cotton", "#figure-win"),
                                         ("/compare?v=cotton&v=petty&v=french", "#column-2 #figure-win"),
                                         ("/workbench?file=typo.yaml", "#diagnostics li")])
def test_no_page_scrolls_sideways_at_375_px(browser, server, page, ready):
    address, _ = server
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                            {"width": 375, "height": 800, "deviceScaleFactor": 1, "mobile": True})
    try:
        browser.get(address + page)
        wait(browser, lambda d: d.find_elements("css selector", ready), message="the page's figures")
        time.sleep(0.3)
        width = browser.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")
        assert width[1] == 375 and width[0] <= 375, width
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def test_the_workbench_completes_and_explains_from_the_language_service(browser, server):
    """Completion comes from the language service `hazard-dsl lsp` serves (hover too: tested
    through the API): at the place of a misspelt phase after `goto`, Ctrl-Space offers the phases."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    address, folder = server
    (folder / "completing.yaml").write_text(TYPO, encoding="utf-8")  # its own file: another test saves typo.yaml
    browser.get(f"{address}/workbench?file=completing.yaml")
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#diagnostics li.severity-error"),
         message="the diagnostic")
    browser.find_element(By.CSS_SELECTOR, "#diagnostics li.severity-error button.where").click()
    time.sleep(0.3)
    ActionChains(browser).key_down(Keys.CONTROL).send_keys(" ").key_up(Keys.CONTROL).perform()
    offered = "const r = document.getElementById('editor').shadowRoot;" \
              "return [...r.querySelectorAll('.cm-tooltip-autocomplete li')].map(e => e.textContent);"
    wait(browser, lambda d: d.execute_script(offered), message="the completions")
    labels = browser.execute_script(offered)
    assert any(label.startswith("chance_throw") for label in labels), labels
    assert any(label.startswith("set_main") for label in labels), labels
