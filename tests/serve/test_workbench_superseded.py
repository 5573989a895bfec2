"""A superseded answer is never shown after a newer one (issue 39), in a real Chromium: the
workbench asks for a text's check and analysis, the text changes, and the older answers are
made to arrive last (the page's `fetch` holds back, by 1.5 s, the answers of one route to a text
holding the marker SLOW; the server answers as always). What the page shows at the end is the newest
text's: its problems, and its figures, not dimmed as those of an older version would be.

    python -m pytest tests/serve/test_workbench_superseded.py -p no:cacheprovider
"""

from __future__ import annotations

import os
import subprocess
import sys
import time

import pytest

from hazard_dsl.parse.files import builtin_dir

from .test_serve_browser import browser, wait  # noqa: F401  (the fixture of a Chromium)

pytestmark = [pytest.mark.browser, pytest.mark.slow]

HOLD_MS = 1500  # how long the page's fetch holds back an answer to a text with the marker

# each answer the page's own code receives, in order: (its route, whether the text had the
# marker, when); and every list of problems shown, with its words
HOLD_BACK = """
window.__answers = []; window.__shown = []; window.__hold = '';
const asked = window.fetch.bind(window);
window.fetch = async (url, init) => {
  const slow = String(url) === window.__hold && !!(init && typeof init.body === 'string'
                                                   && init.body.includes('SLOW'));
  const answer = await asked(url, init);
  if (slow) await new Promise(done => setTimeout(done, HOLD_MS));
  window.__answers.push([String(url), slow, performance.now()]);
  return answer;
};
new MutationObserver(() => window.__shown.push(
    [document.getElementById('diagnostics').textContent, performance.now()]))
  .observe(document.getElementById('diagnostics'), {childList: true});
""".replace("HOLD_MS", str(HOLD_MS))


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """`hazard-dsl serve` on a folder of its own, with a tables' file of its own."""
    pytest.importorskip("uvicorn")
    folder = tmp_path_factory.mktemp("superseded")
    process = subprocess.Popen([sys.executable, "-m", "hazard_dsl", "serve", "--port", "0", "--folder", str(folder),
                                "--db", str(folder / "tables.db")],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=folder,
                               env=dict(os.environ, XDG_CACHE_HOME=str(folder / "cache")))
    line = process.stdout.readline()
    if " at http://" not in line:
        process.kill()
        pytest.fail(f"serve did not start: {line}{process.stderr.read()}")
    yield line.split(" at ")[1].split()[0].rstrip("/"), folder
    process.terminate()
    process.wait(timeout=20)


def _type(browser, *keys) -> None:  # noqa: F811
    from selenium.webdriver.common.action_chains import ActionChains

    ActionChains(browser).send_keys(*keys).perform()


def _settled(browser) -> None:  # noqa: F811
    """Until every answer held back has arrived, and a moment more for the page to use it."""
    time.sleep(HOLD_MS / 1000 + 1.0)
    wait(browser, lambda d: d.execute_script(
        "return window.__answers.length && performance.now() - window.__answers.at(-1)[2] > 500"),
         message="the answers arrived")


def test_an_older_texts_answers_arriving_last_are_not_shown(browser, server):  # noqa: F811
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    address, folder = server
    # Cotton's Hazard, ending in a comment line without a line break
    text = (builtin_dir() / "cotton.yaml").read_text(encoding="utf-8").rstrip("\n")
    (folder / "race.yaml").write_text(f"{text}\n# race: ", encoding="utf-8")
    browser.get(f"{address}/workbench?file=race.yaml")
    # Cotton's chance of winning, 1979/4032 (tests/solve's enumeration of his rules)
    wait(browser, lambda d: "1979/4032" in d.find_element(By.ID, "figure-win").text, timeout=60,
         message="Cotton's figures")
    browser.execute_script(HOLD_BACK)
    browser.execute_script("return document.getElementById('editor').shadowRoot"
                           ".querySelector('.cm-content')").click()
    ActionChains(browser).key_down(Keys.CONTROL).send_keys(Keys.END).key_up(Keys.CONTROL).perform()

    # 1. an error, then undone: the error's check arrives last, and is not shown
    browser.execute_script("window.__hold = '/api/check'")
    _type(browser, Keys.ENTER, "SLOW")  # a word alone on a line: no `key: value`, an error
    time.sleep(0.3)  # its check asked (40 ms after the key) and held back
    _type(browser, *[Keys.BACKSPACE] * 5)  # the text as it was: no problems
    undone = browser.execute_script("return performance.now()")
    wait(browser, lambda d: d.execute_script(f"return window.__shown.some(s => s[1] > {undone})"),
         message="the newer text's problems")
    fresh_at = browser.execute_script("return window.__shown.at(-1)[1]")
    _settled(browser)
    answers = browser.execute_script("return window.__answers")
    held = [a for a in answers if a[1] and a[0].endswith("/api/check")]
    assert held and held[-1][2] > fresh_at, ("the older check did not arrive last: the race did not happen", answers)
    shown = browser.execute_script("return window.__shown")
    assert [s for s in shown if s[1] > fresh_at] == [], shown  # nothing replaced the newer list
    assert browser.find_element(By.ID, "diagnostics").text == "No problems."

    # 2. a valid text, then another: the older one's analysis arrives last, and is not shown
    browser.execute_script("window.__answers = []; window.__hold = '/api/analyse'")
    _type(browser, "SLOW")  # in the comment: valid, its check and analysis held back
    time.sleep(0.3)
    _type(browser, Keys.BACKSPACE)  # "…SLO": valid, answered at once
    wait(browser, lambda d: d.execute_script(
        "return window.__answers.some(a => !a[1] && a[0].endsWith('/api/analyse'))"), message="the newer analysis")
    _settled(browser)
    answers = browser.execute_script("return window.__answers")
    newer = max(a[2] for a in answers if not a[1] and a[0].endswith("/api/analyse"))
    assert any(a[1] and a[0].endswith("/api/analyse") and a[2] > newer for a in answers), answers
    # the figures shown are of the text in the editor: not dimmed as an older version's are
    box = browser.find_element(By.ID, "figures-box")
    assert "stale" not in box.get_attribute("class")
    assert browser.find_element(By.ID, "figures-state").get_attribute("hidden") is not None
    assert "1979/4032" in browser.find_element(By.ID, "figure-win").text
