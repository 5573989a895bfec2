"""`hazard-dsl serve`'s pages in a real browser: Debian's Chromium driven by Selenium through the
system's chromedriver (nothing is downloaded). What only a browser shows: the library's figures
change with an option, compare shows each variant's chance, the workbench places a diagnostic on
its line and its fix clears it, rule text that looks like HTML is shown and never run, no page
scrolls sideways at 375 px, no table cell breaks a word, compare's charts draw a negative edge and
are readable on a phone, every chart puts each figure where its labelled scale says (chances as
dots in their order, edges and throws as bars from 0%), no page has an error in its console, and
the workbench gives up what a newer request replaces, asks before unsaved changes are left, and
dims the figures of an older version of the text, saying so, until the current text's arrive. One browser and one server for
the module (CI has two cores).

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


def settled(browser, script, ready, timeout=20, message=""):
    """What `script` returns once `ready(it)` holds and two reads a quarter second apart agree: a
    page still drawing (a chart laid out again as its fonts or its width arrive, under a loaded
    machine's pace) is read when it is done, not after a fixed nap."""
    last = [None]

    def steady(d):
        now = d.execute_script(script)
        if not ready(now):
            last[0] = None
            return False
        if now == last[0]:
            return True
        last[0] = now
        time.sleep(0.25)
        return False

    wait(browser, steady, timeout=timeout, message=message)
    return last[0]


def text_of(browser, selector):
    from selenium.webdriver.common.by import By

    from selenium.common.exceptions import StaleElementReferenceException

    found = browser.find_elements(By.CSS_SELECTOR, selector)
    try:
        return found[0].text if found else ""
    except StaleElementReferenceException:  # drawn again between finding it and reading it: not yet
        return ""


def no_alert(browser):
    from selenium.common.exceptions import NoAlertPresentException

    try:
        alert = browser.switch_to.alert
    except NoAlertPresentException:
        return True
    text = alert.text
    alert.dismiss()
    pytest.fail(f"a dialog opened: {text!r}")


@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
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
    wait(browser, lambda d: "1 to 1" in text_of(d, "#bets") and "7/495 (1.414%)" in text_of(d, "#bets"),
         message="the bets once the main is called")  # the bets may be drawn after the figures
    assert "/api/rules/cotton?main=called" in browser.find_element(By.ID, "sheet").get_attribute("src")


@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
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
    assert charts[1].startswith("The edge against the caster, per stake laid: cotton 1.835%")
    # an edge to thousandths of a percent, as the terminal and `analyse` print it; a chance to hundredths
    assert text_of(browser, "#column-0 #figure-edge") == "37/2016 (1.835%)"
    # the shared bets' charts by what players call them (show --json's `called`), never an identifier
    assert [c.split(":")[0] for c in charts[2:]] == ["The edge of the stake, where the variants share it",
                                                      "The edge of a side bet on the caster, where the variants share it"]
    # the rule differences' phases in words, as the rule sheet writes them
    phases = {td.text for td in browser.find_elements("css selector", "#differences tbody tr td:first-child")}
    assert {"chance throw", "set main"} <= phases and not any("_" in p for p in phases), phases


@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
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


@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
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


@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
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
@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
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


@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
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


def console_errors(browser) -> list[str]:
    """The page's errors in the console since the last call (a failed request, an attribute the
    browser refused, an exception)."""
    return [e["message"] for e in browser.get_log("browser") if e["level"] == "SEVERE"]


@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_compare_draws_a_negative_edge_with_no_error(browser, server):
    """Petty Hazard's edge against the caster is negative (−1.533%): its bar is drawn to its length
    from the exact fraction, not from the text with its minus sign (which made every width NaN);
    and no page of the three has an error in the console, the favicon included."""
    address, _ = server
    console_errors(browser)
    browser.get(f"{address}/compare?v=cotton&v=petty")
    wait(browser, lambda d: d.find_elements("css selector", "#charts svg rect"), message="the charts")
    time.sleep(0.3)
    bars = browser.execute_script(
        "return [...document.querySelectorAll('#charts svg')].map(s => [...s.querySelectorAll('rect, line, text')]"
        ".map(e => [...e.attributes].filter(a => /^(x|y|x1|x2|y1|y2|width|height)$/.test(a.name)).map(a => a.value)));")
    values = [v for chart in bars for element in chart for v in element]
    assert values and all(v not in ("NaN", "Infinity", "-Infinity") for v in values), values
    edge = browser.find_elements("css selector", "#charts svg")[1]
    widths = [float(r.get_attribute("width")) for r in edge.find_elements("css selector", "rect")]
    assert len(widths) == 2 and min(widths) > 20, widths  # cotton's 1.835% and petty's −1.533%, each a bar
    assert console_errors(browser) == []
    for page, ready in (("/?ruleset=petty", "#figure-win"), ("/workbench", "#new-base option")):
        browser.get(address + page)
        wait(browser, lambda d: d.find_elements("css selector", ready), message=page)
        time.sleep(0.5)
        assert console_errors(browser) == [], page


# Every word of every table cell on the page that is drawn on more than one line (cut inside the
# word), and each header cell that takes more than one line.
BROKEN_WORDS = """
const broken = [], headers = [];
const lines = range => new Set([...range.getClientRects()].filter(r => r.width > 0).map(r => Math.round(r.top))).size;
for (const cell of document.querySelectorAll('main table th, main table td')) {
  if (!cell.getClientRects().length) continue;
  const walk = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
  for (let node; (node = walk.nextNode());) {
    for (const m of node.data.matchAll(/[^\\s\\-\\u2010-\\u2014]+/g)) {
      const range = document.createRange();
      range.setStart(node, m.index);
      range.setEnd(node, m.index + m[0].length);
      if (lines(range) > 1) broken.push(m[0]);
    }
  }
  if (cell.closest('thead')) {
    const range = document.createRange();
    range.selectNodeContents(cell);
    if (lines(range) > 1) headers.push(cell.textContent);
  }
}
const bets = document.getElementById('bets');
return {broken, headers, bets: bets ? [bets.getBoundingClientRect().width, bets.parentElement.clientWidth] : null,
        page: [document.documentElement.scrollWidth, window.innerWidth]};
"""


@pytest.mark.parametrize("width", [1280, 375])
@pytest.mark.parametrize("ruleset", ["azar", "bank_craps", "chicken", "cho_han", "chuck_a_luck", "cotton",
                                     "crapless_craps", "craps", "crown_and_anchor", "french", "fullams",
                                     "grand_hazard", "high_point_craps", "history_sheet", "hoyle", "inn_and_inn",
                                     "passage", "petty", "raffle", "sic_bo"])
@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_no_table_cell_breaks_a_word(browser, server, ruleset, width):
    """French Hazard's payout of `odds` in words runs to 280 characters: it wraps, and no other
    column is squeezed to a letter a line. At 1280 px every header is one line and the bets fit
    their box; at 375 px a wide table scrolls in its own box, the page never sideways."""
    from hazard_dsl.parse.files import builtin_names

    assert ruleset in builtin_names() and len(builtin_names()) == 20  # each built-in is one case here
    address, _ = server
    if width != 1280:
        browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                {"width": width, "height": 800, "deviceScaleFactor": 1, "mobile": True})
    try:
        browser.get(f"{address}/?ruleset={ruleset}")
        wait(browser, lambda d: "%" in text_of(d, "#figure-win"), message="the figures")
        time.sleep(0.3)
        found = browser.execute_script(BROKEN_WORDS)
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    assert found["broken"] == [], found["broken"]
    assert found["page"][0] <= found["page"][1], found["page"]
    if width == 1280:
        assert found["headers"] == [], found["headers"]
        assert found["bets"] is None or found["bets"][0] <= found["bets"][1] + 1, found["bets"]


@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_compare_charts_are_readable_at_375_px(browser, server):
    """On a phone the charts are drawn to the page's width, a unit a pixel: their words are at
    least 11 px high, and none runs out of its chart."""
    address, _ = server
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                            {"width": 375, "height": 800, "deviceScaleFactor": 1, "mobile": True})
    try:
        browser.get(f"{address}/compare?v=cotton&v=petty&v=cotton:main=called")
        texts = settled(
            browser,
            "return [...document.querySelectorAll('#charts svg text')].map(t => { const r = t.getBoundingClientRect(),"
            " s = t.ownerSVGElement.getBoundingClientRect(); return [t.textContent, r.height, r.left - s.left,"
            " s.right - r.right]; });", lambda found: found, message="the charts")
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    assert texts and all(height >= 11 for _, height, _, _ in texts), texts
    assert all(left >= -0.5 and right >= -0.5 for _, _, left, right in texts), texts


@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_the_workbench_gives_up_what_a_newer_request_replaces_and_warns_of_unsaved_changes(browser, server):
    """While a file's figures are worked out, an edit gives that request up (the server then stops
    its work); leaving the page with the edit unsaved asks first, and not once it is saved."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    address, folder = server
    # a count to 5,000 by the totals thrown: some seconds to analyse (and new to the reading cache)
    (folder / "counting.yaml").write_text(
        f"# {time.time_ns()}\nname: counting\nvariables:\n  n: 0..5012\nphases:\n  roll:\n"
        "    - when: n >= 5000 and total == 7\n      do: win\n    - when: n >= 5000\n      do: lose\n"
        "    - otherwise: set n = n + total; throw again\n", encoding="utf-8")
    watch = browser.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": """
        window.__asked = []; window.__given_up = [];
        const fetching = window.fetch;
        window.fetch = (url, init) => {
          window.__asked.push(String(url));
          if (init && init.signal) init.signal.addEventListener('abort', () => window.__given_up.push(String(url)));
          return fetching(url, init);
        };"""})
    leaving = ("const e = new Event('beforeunload', {cancelable: true}); window.dispatchEvent(e);"
               "return e.defaultPrevented;")
    try:
        browser.get(f"{address}/workbench?file=counting.yaml")
        wait(browser, lambda d: "/api/analyse" in d.execute_script("return window.__asked"),
             message="the analysis asked")
        assert browser.execute_script(leaving) is False  # nothing changed yet
        content = browser.execute_script(
            "return document.getElementById('editor').shadowRoot.querySelector('.cm-content')")
        content.click()
        ActionChains(browser).key_down(Keys.CONTROL).send_keys(Keys.END).key_up(Keys.CONTROL).send_keys(
            "# an edit\n").perform()
        wait(browser, lambda d: "/api/analyse" in d.execute_script("return window.__given_up"),
             message="the analysis of the text before the edit given up")
        assert browser.execute_script(leaving) is True  # the edit is not saved
        browser.find_element(By.ID, "save").click()
        wait(browser, lambda d: "Saved counting.yaml" in text_of(d, "#status"), message="saved")
        assert browser.execute_script(leaving) is False
        assert (folder / "counting.yaml").read_text(encoding="utf-8").endswith("# an edit\n")
    finally:
        browser.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", {"identifier": watch["identifier"]})
        browser.get("about:blank")


# Each chart of compare as the page draws it: its ticks ([value, x, text]), its marks ([value,
# left, right, cx]) in the order of the rows, and its words.
CHARTS = """
return [...document.querySelectorAll('#charts svg.compare-chart')].map(s => ({
  kind: s.classList.contains('dots') ? 'dots' : 'bars',
  label: s.getAttribute('aria-label'),
  ticks: [...s.querySelectorAll('text.tick')].map(t => [+t.dataset.value, +t.getAttribute('x'), t.textContent]),
  marks: [...s.querySelectorAll('[data-value]:not(text)')].map(m => m.tagName === 'circle'
    ? [+m.dataset.value, null, null, +m.getAttribute('cx')]
    : [+m.dataset.value, +m.getAttribute('x'), +m.getAttribute('x') + +m.getAttribute('width'), null]),
  base: [...s.querySelectorAll('line.base')].map(l => +l.getAttribute('x1')),
  words: [...s.querySelectorAll('text.unit')].map(t => t.textContent).join(' ')}));
"""


def _scale(ticks):
    """The page's own scale, read back from two of its ticks: value → x."""
    (v0, x0, _), (v1, x1, _) = ticks[0], ticks[-1]
    return lambda v: x0 + (x1 - x0) * (v - v0) / (v1 - v0)


@pytest.mark.parametrize("width", [1280, 390])
@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_compare_places_each_chance_on_a_labelled_scale_in_its_order(browser, server, width):
    """Issue 34: each chance was a bar from its value to the 50% line, so Chicken's 49.29% (the
    best of the three below 50%) had a shorter bar than Cotton's 49.08%. Now each chance is a dot
    on a scale of % with labelled ticks, where the ticks say it is: Cotton (1979/4032, 49.08%)
    left of Chicken (244/495, 49.29%) left of Petty Hazard (5629/11088, 50.77%), and 50% drawn as
    a dashed line; the edges are bars from the tick "0%", each as long as its value."""
    address, _ = server
    if width != 1280:
        browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                {"width": width, "height": 844, "deviceScaleFactor": 1, "mobile": True})
    try:
        browser.get(f"{address}/compare?v=cotton&v=chicken&v=petty")
        chance, edge = settled(browser, CHARTS, lambda charts: len(charts) >= 2 and all(c["marks"] for c in charts),
                               message="the charts")[:2]
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    # the chances, exactly 1979/4032, 244/495, 5629/11088 as percentages
    exact = [100 * 1979 / 4032, 100 * 244 / 495, 100 * 5629 / 11088]
    # (drawn from the fraction to six decimals: toNumber)
    assert chance["kind"] == "dots" and all(abs(m[0] - v) < 1e-3 for m, v in zip(chance["marks"], exact, strict=True))
    assert len(chance["ticks"]) >= 3 and all(t[2].endswith("%") for t in chance["ticks"]), chance["ticks"]
    assert chance["ticks"][0][0] <= min(exact) and chance["ticks"][-1][0] >= max(exact), chance["ticks"]
    at = _scale(chance["ticks"])
    places = [m[3] for m in chance["marks"]]
    assert places == sorted(places) and len(set(places)) == 3, places  # in the order of the values
    assert all(abs(x - at(v)) < 0.6 for x, v in zip(places, exact)), (places, [at(v) for v in exact])
    assert "% of games the caster wins" in chance["words"] and "50%" in chance["words"]
    # the edges against the caster: 37/2016 (1.835%), 7/495 (1.414%), −85/5544 (−1.533%), bars from 0
    edges = [100 * 37 / 2016, 100 * 7 / 495, -100 * 85 / 5544]
    assert edge["kind"] == "bars" and all(abs(m[0] - v) < 1e-3 for m, v in zip(edge["marks"], edges, strict=True))
    zero = [t for t in edge["ticks"] if t[0] == 0]
    assert zero and zero[0][2] == "0%" and abs(edge["base"][0] - zero[0][1]) < 0.2, (edge["ticks"], edge["base"])
    at = _scale(edge["ticks"])
    for value, left, right, _ in edge["marks"]:
        start, end = (left, right) if value > 0 else (right, left)  # a bar runs from 0 towards its value
        assert abs(start - at(0)) < 0.2 and abs(end - at(value)) < 0.6, (value, left, right)
    signed = [(right - left) * (1 if value > 0 else -1) for value, left, right, _ in edge["marks"]]
    assert sorted(range(3), key=lambda i: signed[i]) == sorted(range(3), key=lambda i: edges[i]), signed
    assert "% of the stake" in edge["words"]


@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_the_throws_chart_stands_on_zero_with_a_scale_of_the_share_of_games(browser, server):
    """The throws per game (the library's, compare's and the workbench's chart): bars from the
    tick "0%" on a scale of % of games, each bar's top where the scale puts its share. Cotton
    ends on the second throw in 131/648 of games (20.22%: the chance of throwing the main)."""
    address, _ = server
    browser.get(f"{address}/?ruleset=cotton")
    wait(browser, lambda d: d.find_elements("css selector", "#throws-chart svg rect"), message="the chart")
    chart = browser.execute_script("""
      const s = document.querySelector('#throws-chart svg');
      return {ticks: [...s.querySelectorAll('text.tick-y')].map(t => [+t.dataset.value, +t.getAttribute('y') - 4, t.textContent]),
              bars: [...s.querySelectorAll('rect')].map(r => [+r.dataset.value, +r.getAttribute('y'), +r.getAttribute('y') + +r.getAttribute('height')]),
              words: [...s.querySelectorAll('text')].map(t => t.textContent)};""")
    ticks = chart["ticks"]
    assert ticks[0][0] == 0 and ticks[0][2] == "0%" and ticks[-1][0] >= 20.22, ticks
    (v0, y0, _), (v1, y1, _) = ticks[0], ticks[-1]
    at = lambda v: y0 + (y1 - y0) * (v - v0) / (v1 - v0)  # noqa: E731
    assert abs(chart["bars"][0][0] - 100 * 131 / 648) < 1e-4, chart["bars"][0]
    for value, top, bottom in chart["bars"]:
        assert abs(bottom - at(0)) < 0.05 and abs(top - at(value)) < 0.05, (value, top, bottom)
    assert "% of games" in chart["words"] and "throws in the game" in chart["words"]


STALE = """
const box = document.getElementById('figures-box'), note = document.getElementById('figures-state');
const drawing = document.getElementById('drawing'), said = document.getElementById('drawing-state');
return {dimmed: box.classList.contains('stale'), opacity: +getComputedStyle(box).opacity,
        note: note.hidden ? '' : note.textContent, win: document.getElementById('figure-win').textContent,
        drawingDimmed: drawing.classList.contains('stale'), drawn: drawing.children.length > 0,
        drawingNote: said.hidden ? '' : said.textContent};
"""


@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_the_workbench_dims_the_figures_of_an_older_version_and_says_so(browser, server):
    """Issue 34: a file broken by an edit kept the last valid figures on screen, undimmed, under
    "The figures appear when the file has no errors". Now they are dimmed and say they are of
    the last valid version, how many edits ago; the fix un-dims them once the figures of the
    text in the editor arrive; the machine drawn likewise."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    address, folder = server
    (folder / "stale.yaml").write_text(COTTON, encoding="utf-8")
    browser.get(f"{address}/workbench?file=stale.yaml")
    wait(browser, lambda d: "1979/4032" in text_of(d, "#figure-win") and d.execute_script(STALE)["drawn"],
         message="the figures")
    wait(browser, lambda d: not d.execute_script(STALE)["drawingDimmed"], message="the drawing of this text")
    fresh = browser.execute_script(STALE)
    assert not fresh["dimmed"] and fresh["opacity"] == 1 and fresh["note"] == "" and fresh["drawingNote"] == "", fresh
    content = browser.execute_script(
        "return document.getElementById('editor').shadowRoot.querySelector('.cm-content')")
    content.click()
    ActionChains(browser).key_down(Keys.CONTROL).send_keys(Keys.END).key_up(Keys.CONTROL).send_keys(
        "bogus: 1").perform()  # 8 edits, each keystroke one; every one of them an unknown key or worse
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#diagnostics li.severity-error"), message="the error")
    wait(browser, lambda d: "errors" in d.execute_script(STALE)["note"] and d.execute_script(STALE)["opacity"] < 0.6,
         message="the note, and the figures dimmed")
    broken = browser.execute_script(STALE)
    assert broken["dimmed"] and broken["opacity"] < 0.6, broken
    assert broken["win"].startswith("1979/4032")  # the last valid figures, kept
    assert broken["note"].startswith("Dimmed: the figures of the last valid version, 8 edits ago (from "), broken
    assert "The text now has errors" in broken["note"], broken
    assert broken["drawingDimmed"] and broken["drawingNote"].startswith("Dimmed: the drawing of the last valid version")
    ActionChains(browser).key_down(Keys.SHIFT).send_keys(Keys.HOME).key_up(Keys.SHIFT).send_keys(Keys.BACKSPACE).perform()
    wait(browser, lambda d: not d.find_elements(By.CSS_SELECTOR, "#diagnostics li.severity-error"), message="fixed")
    wait(browser, lambda d: not d.execute_script(STALE)["dimmed"] and not d.execute_script(STALE)["drawingDimmed"],
         message="the figures of the text now")
    time.sleep(0.3)  # the fade back
    fixed = browser.execute_script(STALE)
    assert fixed["opacity"] == 1 and fixed["note"] == "" and fixed["drawingNote"] == "", fixed
    assert fixed["win"].startswith("1979/4032")
