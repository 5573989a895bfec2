"""The workbench keeps up with typing (issue 39, point 1), in a real Chromium: a key typed in
the editor → the diagnostics of the new text shown, and → its figures shown, each timed in the
page itself (the key's `keydown` to the moment the list or the figures are replaced, both by
`performance.now()`, so the driver's own polling adds nothing). Targets: 0.2 s and 0.4 s; the
bound asserted is looser (a loaded machine of two cores), the figures are printed beside it.

Every key makes a new text (a letter at the end of a comment: the file stays valid, so its
figures are worked out again; never found in the reading cache), and a last one makes an error,
whose diagnostic must be the one shown. `--durations`-free: run with -s to see the figures.

    python -m pytest tests/serve/test_workbench_typing.py -s -p no:cacheprovider

With HAZARD_DSL_BEFORE=FOLDER (a copy of an older `hazard_dsl` package's parent, e.g. from
`git archive REF hazard_dsl | tar -x -C FOLDER`), the server run is that copy's: the same
keys timed against the workbench before a change, in the same conditions.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time

import pytest

from hazard_dsl.parse.files import builtin_dir

from .test_serve_browser import browser, wait  # noqa: F401  (the fixture of a Chromium)

pytestmark = [pytest.mark.browser, pytest.mark.slow]

KEYS = 12  # keystrokes timed
TARGET_DIAGNOSTICS, TARGET_FIGURES = 0.2, 0.4  # seconds (issue 39)
BOUND = 3.0  # seconds asserted: a key's answers never wait behind the keys before it

# keydown in the editor, and each replacement of the diagnostics list and of the figures,
# stamped in the page
WATCH = """
window.__typing = {keys: [], diagnostics: [], figures: []};
const root = document.getElementById('editor').shadowRoot;
root.querySelector('.cm-content').addEventListener('keydown',
    () => window.__typing.keys.push(performance.now()), true);
for (const kind of ['diagnostics', 'figures']) {
  new MutationObserver(() => window.__typing[kind].push(performance.now()))
      .observe(document.getElementById(kind), {childList: true});
}
"""


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """`hazard-dsl serve` on a folder of its own: (its address, the folder)."""
    pytest.importorskip("uvicorn")
    folder = tmp_path_factory.mktemp("typing")
    env = dict(os.environ)
    if os.environ.get("HAZARD_DSL_BEFORE"):  # the workbench of an older copy, timed the same way
        env["PYTHONPATH"] = os.environ["HAZARD_DSL_BEFORE"]
    process = subprocess.Popen([sys.executable, "-m", "hazard_dsl", "serve", "--port", "0", "--folder", str(folder)],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                               cwd=folder)  # (not this checkout's folder, which `-m` would import first)
    line = process.stdout.readline()
    if " at http://" not in line:
        process.kill()
        pytest.fail(f"serve did not start: {line}{process.stderr.read()}")
    yield line.split(" at ")[1].split()[0].rstrip("/"), folder
    process.terminate()
    process.wait(timeout=20)


def _answered(page, key_at: float, kind: str, timeout: float = 30) -> float:
    """Seconds from the key (stamped `key_at`) to the first replacement of `kind` after it that is
    followed by no other within a quarter of a second (the answer to this key, not to an older)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        marks = [t for t in page.execute_script(f"return window.__typing.{kind}") if t > key_at]
        if marks and page.execute_script("return performance.now()") - marks[-1] > 250:
            return (marks[-1] - key_at) / 1000
        time.sleep(0.05)
    raise AssertionError(f"no {kind} shown within {timeout} s of the key")


def editor_clicked(page) -> None:
    """The workbench's editor given the focus (CodeMirror's content, inside its shadow root)."""
    page.execute_script(
        "return document.getElementById('editor').shadowRoot.querySelector('.cm-content')").click()


def cotton_at_the_end(page, address: str, folder, name: str, script: str | None = None,
                      written: bool = True) -> str:
    """Cotton's Hazard as `name` in the server's folder (`written`: written anew), ending in a
    comment line without a line break (each letter typed extends it), opened in the workbench;
    once its figures are shown, `script` run in the page and the cursor put at the end. The
    built-in text it begins with."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    text = (builtin_dir() / "cotton.yaml").read_text(encoding="utf-8").rstrip("\n")
    if written:
        (folder / name).write_text(f"{text}\n# typed {time.time_ns()}: ", encoding="utf-8")
    page.get(f"{address}/workbench?file={name}")
    wait(page, lambda d: "1979/4032" in d.find_element(By.ID, "figure-win").text, timeout=60,
         message="Cotton's figures")
    if script is not None:
        page.execute_script(script)
    editor_clicked(page)
    ActionChains(page).key_down(Keys.CONTROL).send_keys(Keys.END).key_up(Keys.CONTROL).perform()
    return text


def test_a_key_in_the_workbench_shows_its_diagnostics_and_figures_soon(browser, server):  # noqa: F811
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    address, folder = server
    text = cotton_at_the_end(browser, address, folder, "typing.yaml", WATCH)
    shown = {"diagnostics": [], "figures": []}
    for k in range(KEYS):
        ActionChains(browser).send_keys("etaoinshrdlu"[k % 12]).perform()
        key_at = browser.execute_script("return window.__typing.keys.at(-1)")
        for kind, times in shown.items():
            times.append(_answered(browser, key_at, kind))
        # the figures are of the text now: not dimmed, and Cotton's chance (a comment changes nothing)
        assert "stale" not in browser.find_element(By.ID, "figures-box").get_attribute("class")
        assert "1979/4032" in browser.find_element(By.ID, "figure-win").text
    for kind, target in (("diagnostics", TARGET_DIAGNOSTICS), ("figures", TARGET_FIGURES)):
        times = shown[kind]
        print(f"\na key -> its {kind} shown: median {statistics.median(times):.3f} s, max {max(times):.3f} s "
              f"over {len(times)} keys (target {target} s)")
        assert max(times) < BOUND, times
    # a line break then a letter at the start of the new line: no `key: value`, an error of YAML
    ActionChains(browser).send_keys(Keys.ENTER).perform()
    _answered(browser, browser.execute_script("return window.__typing.keys.at(-1)"), "diagnostics")
    ActionChains(browser).send_keys("z").perform()
    key_at = browser.execute_script("return window.__typing.keys.at(-1)")
    took = _answered(browser, key_at, "diagnostics")
    errors = browser.find_elements(By.CSS_SELECTOR, "#diagnostics li.severity-error")
    lines = (text + "\n# typed").count("\n") + 2  # the comment's line, then the new one (from 1)
    # (the reader's two words for it: a key it does not know, and no colon after it)
    assert errors and {e.get_attribute("data-line") for e in errors} == {str(lines)}, [e.text for e in errors]
    print(f"a key that makes an error -> its diagnostic shown: {took:.3f} s")
    assert took < BOUND
    # and the figures of the last valid version stay, dimmed
    wait(browser, lambda d: "stale" in d.find_element(By.ID, "figures-box").get_attribute("class"),
         message="the figures dimmed")


IN_TEXT_WAIT = 300  # ms: the page's IN_TEXT_WAIT_MS (serve/static/workbench.js)

# each request of the page: its route, when asked and when answered (null: not yet, or given up)
# (from the start again each time it is run; the page's fetch wrapped once)
REQUESTS = """
window.__requests = [];
if (!window.__fetching) {
  window.__fetching = window.fetch;
  window.fetch = async (url, init) => {
    const made = [String(url).split('?')[0], performance.now(), null];
    window.__requests.push(made);
    const answer = await window.__fetching(url, init);
    made[2] = performance.now();
    return answer;
  };
}
"""


def settled(page) -> None:
    """Wait until the page has asked nothing for IN_TEXT_WAIT and a moment more, and every request
    it made is answered; then forget them: what is watched next is the next key's alone (under
    load, the loaded text's figures were asked after the watch began, and read as the key's)."""
    def quiet(d) -> bool:
        requests, now = d.execute_script("return [window.__requests, performance.now()]")
        return all(r[2] is not None and now - r[1] > IN_TEXT_WAIT + 500 for r in requests)

    time.sleep((IN_TEXT_WAIT + 500) / 1000)
    wait(page, quiet, timeout=60, message="the page at rest")
    page.execute_script("window.__requests = []")


def test_a_keys_figures_inside_the_text_are_asked_once_its_analysis_is_answered(browser, server):  # noqa: F811
    """One thing at a time, what the author waits for first: the check, then the analysis, and
    only then the figures inside the text (and the drawing), each solving the game in a process
    of its own; asked beside the analysis, they took a core from it (issue 39, bench_workbench
    --trace). They wait at most IN_TEXT_WAIT (a large game's analysis takes seconds, and the
    expressions' colours come with them). A text with errors has no analysis: its figures are
    asked once it is checked."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    address, folder = server
    cotton_at_the_end(browser, address, folder, "order.yaml")

    def answered(route: str) -> list:
        """The requests made since the watch began, once one to `route` is answered."""
        wait(browser, lambda d: any(r[0] == route and r[2] is not None
                                    for r in d.execute_script("return window.__requests")), timeout=60,
             message=f"{route} answered")
        return browser.execute_script("return window.__requests")

    browser.execute_script(REQUESTS)
    settled(browser)
    ActionChains(browser).send_keys("e").perform()  # a valid text: analysed, drawn
    answered("/api/figures")
    made = {r[0]: r for r in answered("/api/graph")}
    check, analysis, figures, drawing = (made[f"/api/{r}"] for r in ("check", "analyse", "figures", "graph"))
    assert check[2] <= analysis[1], made  # the analysis asked once the check is answered
    assert analysis[2] <= drawing[1], made  # the drawing once it is answered
    # the figures too, or IN_TEXT_WAIT after the check if the analysis is not answered by then
    assert figures[1] >= min(analysis[2], check[2] + IN_TEXT_WAIT), made

    # a game whose analysis takes seconds (a count to 5,000 by the totals thrown): the figures
    # inside the text are asked IN_TEXT_WAIT after its check, not when the analysis is answered
    (folder / "counting.yaml").write_text(
        f"# {time.time_ns()}\nname: counting\nvariables:\n  n: 0..5012\nphases:\n  roll:\n"
        "    - when: n >= 5000 and total == 7\n      do: win\n    - when: n >= 5000\n      do: lose\n"
        "    - otherwise: set n = n + total; throw again\n", encoding="utf-8")
    browser.get(f"{address}/workbench?file=counting.yaml")
    wait(browser, lambda d: d.find_element(By.ID, "diagnostics").text == "No problems.", timeout=60,
         message="the counting game checked")
    editor_clicked(browser)
    ActionChains(browser).key_down(Keys.CONTROL).send_keys(Keys.HOME).key_up(Keys.CONTROL).send_keys(
        Keys.DOWN, Keys.END).perform()
    browser.execute_script(REQUESTS)
    settled(browser)  # the loaded text's own figures (asked IN_TEXT_WAIT after its check) not taken for the key's
    # at the end of the name (`countingx`): another ruleset, analysed afresh (a comment's edit is
    # answered by the analysis the workbench keeps, at once)
    ActionChains(browser).send_keys("x").perform()
    made = {r[0]: r for r in answered("/api/figures")}
    check, analysis, figures = (made[f"/api/{r}"] for r in ("check", "analyse", "figures"))
    assert check[2] + IN_TEXT_WAIT <= figures[1] < check[2] + IN_TEXT_WAIT + 2000, made
    assert analysis[2] is None or figures[1] < analysis[2], made
    cotton_at_the_end(browser, address, folder, "order.yaml", written=False)

    ActionChains(browser).send_keys(Keys.ENTER).perform()
    time.sleep(1.0)  # (the line break's own requests answered)
    browser.execute_script(REQUESTS)
    ActionChains(browser).send_keys("z").perform()  # `z` alone on a line: an error
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#diagnostics li.severity-error"), timeout=60,
         message="the error shown")
    made = answered("/api/figures")
    assert [r[0] for r in made if r[0] in ("/api/check", "/api/analyse", "/api/figures")] == \
        ["/api/check", "/api/figures"], made
    assert made[0][2] <= made[[r[0] for r in made].index("/api/figures")][1], made


# the page's requests to /api/figures held back (their answers, by 2 s), and when each request
# was asked and given up
HOLD_FIGURES = """
window.__figures = []; window.__checks = [];
const fetched = window.fetch;
window.fetch = async (url, init) => {
  const route = String(url).split('?')[0];
  if (route === '/api/check') window.__checks.push(performance.now());
  if (route !== '/api/figures') return fetched(url, init);
  const made = {asked: performance.now(), givenUp: null};
  window.__figures.push(made);
  init.signal.addEventListener('abort', () => { made.givenUp = performance.now(); });
  const answer = await fetched(url, init);
  await new Promise(done => setTimeout(done, 2000));
  return answer;
};
"""


def test_an_edit_gives_up_the_figures_inside_the_older_text_at_once(browser, server):  # noqa: F811
    """The figures inside a text are asked of the process that checks the text; a key typed
    while they are still asked gives them up at once, not only once the newer text is checked,
    so that they never keep that check waiting behind them (issue 39)."""
    from selenium.webdriver.common.action_chains import ActionChains

    address, folder = server
    cotton_at_the_end(browser, address, folder, "given.yaml", HOLD_FIGURES)
    ActionChains(browser).send_keys("e").perform()
    wait(browser, lambda d: d.execute_script("return window.__figures.length") == 1, timeout=60,
         message="the figures inside the text asked")
    ActionChains(browser).send_keys("t").perform()  # while they are held back: still asked
    wait(browser, lambda d: d.execute_script("return window.__checks.length") == 2, timeout=60,
         message="the newer text's check asked")
    first = browser.execute_script("return window.__figures[0]")
    second_check = browser.execute_script("return window.__checks[1]")
    assert first["givenUp"] is not None and first["givenUp"] < second_check, (first, second_check)
