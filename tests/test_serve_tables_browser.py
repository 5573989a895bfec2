"""A shared table in two real browsers (Debian's Chromium through Selenium and the system's
chromedriver, as in tests/test_serve_browser.py): Ann and Ben, each on their own link, play Cotton
from a scripted tape to its settlement with a side bet made and accepted; the server is killed
(SIGKILL) mid-game and started again on the same database and port, both pages reconnect by
themselves, and the game ends with the same purses as an uninterrupted run with the same dice. A
seat's link cannot act for another seat, an onlooker's link acts for nobody, and the table does
not scroll sideways at 375 px. One server process (restarted once) and two browsers for the module.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from tests.test_serve_browser import _chromium, text_of, wait

pytestmark = pytest.mark.browser

TAPE = "3-4 5-6 2-2 6-1 4-4 6-6 5-5 3-3 1-2 2-5 6-1 3-4 4-3"


def _driver():
    webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed (pip install '.[test]')")
    from selenium.webdriver.chrome.service import Service

    binary, driver = _chromium(), shutil_which("chromedriver")
    if binary is None or driver is None:
        pytest.skip("no Chromium and chromedriver here (apt-get install chromium chromium-driver; .ci/run does)")
    options = webdriver.ChromeOptions()
    options.binary_location = binary
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=900,1000", "--disable-extensions"):
        options.add_argument(argument)
    try:
        chrome = webdriver.Chrome(service=Service(driver), options=options)
    except Exception as exc:  # a Chromium that cannot start here
        pytest.skip(f"Chromium could not be started: {str(exc).splitlines()[0]}")
    chrome.set_page_load_timeout(30)
    return chrome


def shutil_which(name):
    import shutil

    return shutil.which(name) or (f"/usr/bin/{name}" if os.path.exists(f"/usr/bin/{name}") else None)


@pytest.fixture(scope="module")
def browsers():
    first = _driver()
    try:
        second = _driver()
    except BaseException:
        first.quit()
        raise
    yield first, second
    first.quit()
    second.quit()


class Server:
    """`hazard-dsl serve --db FILE` in a process of its own, killed and started again at will."""

    def __init__(self, db, port=0):
        self.db, self.port, self.process = str(db), port, None

    def start(self):
        # what the server says on standard error goes to a file: a pipe nobody reads would stop it once full
        self.errors = open(self.db + ".stderr", "a+", encoding="utf-8")
        self.process = subprocess.Popen([sys.executable, "-m", "hazard_dsl", "serve", "--port", str(self.port),
                                         "--db", self.db], stdout=subprocess.PIPE, stderr=self.errors, text=True)
        line = self.process.stdout.readline()
        if " at http://" not in line:
            self.process.kill()
            self.errors.seek(0)
            pytest.fail(f"serve did not start: {line}{self.errors.read()}")
        self.address = line.split(" at ")[1].split()[0].rstrip("/")
        self.port = int(self.address.rsplit(":", 1)[1])

    def kill(self):
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=20)
        self.errors.close()

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=20)
        self.errors.close()

    def call(self, path, body=None, token=None):
        headers = {"Content-Type": "application/json", "X-Hazard-DSL": "1"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        request = urllib.request.Request(self.address + path, data=None if body is None else json.dumps(body).encode(),
                                         headers=headers, method="GET" if body is None else "POST")
        with urllib.request.urlopen(request, timeout=30) as answer:
            return json.loads(answer.read())


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    pytest.importorskip("uvicorn")
    server = Server(tmp_path_factory.mktemp("tables") / "tables.db")
    server.start()
    yield server
    server.stop()
    said = (Path(server.db + ".stderr")).read_text(encoding="utf-8")
    assert "Traceback" not in said, said  # no error on the server's side, not even one nobody saw


def new_table(server):
    made = server.call("/api/tables", {"ruleset": "cotton", "players": ["Ann", "Ben"], "dice": TAPE})
    return made["id"], {name: seat["token"] for name, seat in made["seats"].items()}, made["watch"]["token"]


def page_state(browser):
    return browser.execute_script("const d = document.body.dataset; return [d.last || '', d.waiting || '', "
                                  "d.ask || '', d.connected || '', d.finished || '']")


def uninterrupted_purses() -> dict:
    """The same session through the API in-process, never interrupted: Ben backs Ann's game for 2
    at the first bets, Ann takes it, then always the first action listed."""
    from starlette.testclient import TestClient

    from hazard_dsl.serve.app import create_app

    app = create_app(".")
    try:
        with TestClient(app, base_url="http://127.0.0.1") as c:
            made = c.post("/api/tables", json={"ruleset": "cotton", "players": ["Ann", "Ben"], "dice": TAPE},
                          headers={"X-Hazard-DSL": "1"}).json()
            tokens = {n: s["token"] for n, s in made["seats"].items()}
            url = f"/api/tables/{made['id']}"

            def get(who):
                return c.get(url, headers={"Authorization": f"Bearer {tokens[who]}"}).json()

            def post(who, action):
                r = c.post(f"{url}/actions", json=action,
                           headers={"X-Hazard-DSL": "1", "Authorization": f"Bearer {tokens[who]}"})
                assert r.status_code == 200, r.text

            bet = [a for a in get("Ben")["waiting"]["actions"] if a["action"] == "bet"][0]
            post("Ben", dict(bet, amount="2"))
            while True:
                state = get("Ann")
                if state["finished"]:
                    return state["purses"]
                who = state["waiting"]["who"]
                post(who, get(who)["waiting"]["actions"][0])
    finally:
        app.state.tables.store.close()


def in_step(browser, server, table_id, token):
    """Wait until the page shows what the table stands at (its last event, who is asked and for what)."""
    state = server.call(f"/api/tables/{table_id}", token=token)
    want = (str(state["events"][-1]["n"]), state["waiting"]["who"] if state["waiting"] else "",
            state["waiting"]["ask"] if state["waiting"] else "")
    wait(browser, lambda d: tuple(page_state(d)[:3]) == want, message=f"the page at {want}: {page_state(browser)}")
    return state


def click_first(browser):
    from selenium.webdriver.common.by import By

    wait(browser, lambda d: [b for b in d.find_elements(By.CSS_SELECTOR, "#actions button") if b.is_enabled()],
         message="the actions")
    browser.find_element(By.CSS_SELECTOR, "#actions button").click()


def test_two_players_play_cotton_to_its_settlement_through_a_kill_and_a_restart(browsers, server):
    from selenium.webdriver.common.by import By

    ann_page, ben_page = browsers
    table_id, tokens, watch = new_table(server)
    pages = {"Ann": ann_page, "Ben": ben_page}
    for name, page in pages.items():
        page.get(f"{server.address}/tables/{table_id}#token={tokens[name]}")
        wait(page, lambda d: page_state(d)[3] == "yes", message=f"{name}'s page connected")
    assert "Your seat: Ann" in text_of(ann_page, "#seat")
    # Ben backs Ann's game (the side bet) for 2; Ann takes it
    in_step(ben_page, server, table_id, watch)
    amount = ben_page.find_element(By.CSS_SELECTOR, "#actions input[data-amount-for='bet']")
    assert amount.get_attribute("min") == "0" and amount.get_attribute("max") == "20"
    amount.clear()
    amount.send_keys("2")
    ben_page.find_element(By.CSS_SELECTOR, "#actions button[data-action='bet']").click()
    in_step(ann_page, server, table_id, watch)
    accept = ann_page.find_element(By.CSS_SELECTOR, "#actions button")
    assert accept.get_attribute("data-action") == "cover" and accept.text == "Take Ben's side"  # put to the caster
    accept.click()
    wait(ben_page, lambda d: "Ben backs side for 2 shillings against Ann" in text_of(d, "#story"), message="the bet told")
    killed = False
    while True:
        state = server.call(f"/api/tables/{table_id}", token=watch)
        if state["finished"]:
            break
        if not killed and state["events"][-1]["n"] >= 12:
            # mid-game: the server dies without a word, and comes back on the same database and port
            server.kill()
            killed = True
            for page in pages.values():
                wait(page, lambda d: page_state(d)[3] == "no", message="the page sees the connection lost")
            for page in pages.values():  # the page says so (the last answer it had may come after the close)
                wait(page, lambda d: "reconnect" in text_of(d, "#status"), message="the page says it reconnects")
            server.start()
            for page in pages.values():
                wait(page, lambda d: page_state(d)[3] == "yes", timeout=30, message="the page reconnects by itself")
            continue
        who = state["waiting"]["who"]
        in_step(pages[who], server, table_id, watch)
        click_first(pages[who])
        wait(pages[who], lambda d: server.call(f"/api/tables/{table_id}", token=watch) != state, message="the action taken")
    assert killed
    expected = uninterrupted_purses()
    assert state["purses"] == expected
    for name, page in pages.items():
        wait(page, lambda d: page_state(d)[4] == "yes", message=f"{name}'s page shows the end")
        shown = {dt.text.replace(" (you)", ""): dd.text for dt, dd in
                 zip(page.find_elements(By.CSS_SELECTOR, "#purses dt"), page.find_elements(By.CSS_SELECTOR, "#purses dd"))}
        assert shown == expected
        assert "The session ends after" in text_of(page, "#story")
        # every throw drawn as dice, each event once, in order
        numbers = [int(li.get_attribute("data-n")) for li in page.find_elements(By.CSS_SELECTOR, "#story li")]
        assert numbers == sorted(set(numbers))
        throws = page.find_elements(By.CSS_SELECTOR, "#story li[data-event='throw'] .pair .die")
        assert len(throws) == 2 * 13
    assert "From here Ann wins 244 times in 495 (49.29%)." in text_of(ann_page, "#story")
    # the finished session told again in the page, from its start
    told = len(ben_page.find_elements(By.CSS_SELECTOR, "#story li"))
    ben_page.find_element(By.ID, "replay").click()
    wait(ben_page, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#story li")) < told, message="the replay starts")
    wait(ben_page, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#story li")) == told, message="the replay ends")


def test_a_seats_link_acts_for_itself_alone_and_an_onlookers_for_nobody(browsers, server):
    from selenium.webdriver.common.by import By

    ann_page, ben_page = browsers
    table_id, tokens, watch = new_table(server)
    ben_page.get(f"{server.address}/tables/{table_id}#token={tokens['Ben']}")
    in_step(ben_page, server, table_id, watch)
    # Ann is asked (the caster's throw): Ben's page offers him only his own bet
    assert [b.get_attribute("data-action") for b in ben_page.find_elements(By.CSS_SELECTOR, "#actions button")] == ["bet"]
    forge = ("const [path, token, action] = arguments; return fetch(path, {method: 'POST', headers: {'Authorization': "
             "'Bearer ' + token, 'X-Hazard-DSL': '1', 'Content-Type': 'application/json'}, body: JSON.stringify(action)})"
             ".then(r => r.json().then(b => [r.status, b.error]))")
    path = f"/api/tables/{table_id}/actions"
    status, error = ben_page.execute_script(forge, path, tokens["Ben"], {"action": "done", "player": "Ann"})
    assert status == 403 and "Ben's seat" in error
    status, error = ben_page.execute_script(forge, path, tokens["Ben"], {"action": "done"})
    assert status == 403 and "the caster (Ann)" in error
    ann_page.get(f"{server.address}/tables/{table_id}#token={watch}")
    in_step(ann_page, server, table_id, watch)
    assert "acts for nobody" in text_of(ann_page, "#seat")
    assert ann_page.find_elements(By.CSS_SELECTOR, "#actions button") == []
    status, error = ann_page.execute_script(forge, path, watch, {"action": "done"})
    assert status == 403 and "acts for nobody" in error
    assert server.call(f"/api/tables/{table_id}", token=watch)["events"][-1]["n"] == 3  # nothing happened


def test_the_table_at_375_px_does_not_scroll_sideways(browsers, server):
    page = browsers[0]
    table_id, tokens, watch = new_table(server)
    page.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                         {"width": 375, "height": 800, "deviceScaleFactor": 1, "mobile": True})
    try:
        page.get(f"{server.address}/tables/{table_id}#token={tokens['Ben']}")
        in_step(page, server, table_id, watch)
        time.sleep(0.2)
        width = page.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")
        assert width[1] == 375 and width[0] <= 375, width
    finally:
        page.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def test_a_table_is_opened_from_the_library_page(browsers, server):
    from selenium.webdriver.common.by import By

    page = browsers[1]
    page.get(f"{server.address}/?ruleset=cotton")
    wait(page, lambda d: d.find_element(By.ID, "table-players").is_displayed(), message="the form")
    names = page.find_element(By.ID, "table-players")
    names.clear()
    names.send_keys("Cat, Dan")
    page.find_element(By.ID, "table-dice").send_keys("6-1 5-6")
    page.find_element(By.CSS_SELECTOR, "#new-table button").click()
    wait(page, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#table-links a")) == 3, message="the links")
    links = [a.get_attribute("href") for a in page.find_elements(By.CSS_SELECTOR, "#table-links a")]
    assert "Cat's seat" in text_of(page, "#table-links") and "Onlookers" in text_of(page, "#table-links")
    page.get(links[1])
    wait(page, lambda d: "Your seat: Dan" in text_of(d, "#seat"), message="Dan's seat")
    wait(page, lambda d: page_state(d)[1] == "Cat", message="Cat is asked")
