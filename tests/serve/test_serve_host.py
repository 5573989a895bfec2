"""`hazard-dsl serve` for phones at a table: off loopback the server is for the tables alone (a
save of a rule file is refused, 403, saying which flag allows it), HTTPS with the certificate and
key given (a self-signed one made here with openssl), and each seat's link as a QR code that
reads back as the link (decoded as a phone decodes it, by zxing-cpp), drawn only for the link's
own token.

Nothing here listens on or sends to an address off this machine: "off loopback" is the app made
for a documentation address (192.0.2.10, RFC 5737) and called in-process; the real servers listen
on 127.0.0.1 and 127.0.0.2 (loopback, with --tables-only).
"""

from __future__ import annotations

import re
import shutil
import signal
import subprocess
import sys

import pytest

from hazard_dsl.cli import main

pytest.importorskip("starlette")
segno = pytest.importorskip("segno", reason="segno is not installed (pip install '.[web]')")

from starlette.testclient import TestClient  # noqa: E402

from hazard_dsl.serve.app import create_app  # noqa: E402

NETWORK = "192.0.2.10"  # TEST-NET-1: never reached; the app is only told it is served there
HEADER = {"X-Hazard-DSL": "1"}
PLAYERS = ["Ann", "Ben", "Robert fitz John"]


@pytest.fixture
def folder(tmp_path):
    root = tmp_path / "rules"
    root.mkdir()
    (root / "mine.yaml").write_text("name: mine\n", encoding="utf-8")
    return root


def client(folder, host=NETWORK, **settings):
    app = create_app(folder, host, inline=True, **settings)  # the tables in a temporary file of its own
    return TestClient(app, base_url=f"http://{host}:8000")


def new_table(c) -> dict:
    made = c.post("/api/tables", json={"ruleset": "cotton", "players": PLAYERS}, headers=HEADER)
    assert made.status_code == 201, made.text
    return made.json()


def qr_of(c, table_id: str, token: str):
    return c.get(f"/api/tables/{table_id}/qr.svg", headers={"Authorization": f"Bearer {token}"})


# -- reading a QR code back

def matrix_of_svg(svg: str) -> list[list[int]]:
    """The modules of segno's SVG: its path's runs (M x y, m dx dy, h n), one module a unit, the
    line drawn through the middle of its row (y + 0.5)."""
    size = int(re.search(r'd="M0 0h(\d+)v', svg).group(1))
    runs = re.search(r'stroke="#000" d="([^"]+)"', svg).group(1)
    grid = [[0] * size for _ in range(size)]
    x = y = 0.0
    for op, a, b in re.findall(r"([Mmh])(-?[\d.]+)(?: (-?[\d.]+))?", runs):
        if op == "M":
            x, y = float(a), float(b)
        elif op == "m":
            x, y = x + float(a), y + float(b)
        else:
            for i in range(int(a)):
                grid[int(y)][int(x) + i] = 1
            x += float(a)
    return grid


def decoded(grid: list[list[int]]) -> list[str]:
    """What a QR reader reads in `grid` (1: dark), drawn 4 pixels a module, dark on white."""
    zxing = pytest.importorskip("zxingcpp", reason="zxing-cpp is not installed (pip install '.[test]')")
    import numpy as np

    image = np.where(np.kron(np.array(grid, dtype=np.uint8), np.ones((4, 4), dtype=np.uint8)) == 1, 0, 255)
    return [found.text for found in zxing.read_barcodes(image.astype(np.uint8))]


# -- the tables alone, off loopback

def test_off_loopback_a_save_is_refused_saying_which_flag_allows_it(folder):
    c = client(folder)
    read = c.get("/api/files/mine.yaml")
    assert read.status_code == 200
    put = c.put("/api/files/mine.yaml", json={"text": "name: changed\n", "base": read.json()["hash"]}, headers=HEADER)
    assert put.status_code == 403
    assert "open to the network (192.0.2.10)" in put.json()["error"] and "--allow-saves" in put.json()["error"]
    new = c.put("/api/files/new.yaml", json={"text": "name: new\n", "base": None}, headers=HEADER)
    assert new.status_code == 403
    assert (folder / "mine.yaml").read_text(encoding="utf-8") == "name: mine\n" and not (folder / "new.yaml").exists()
    # the pages are told before anyone edits (the workbench then offers no Save)
    assert c.get("/api/server").json() == {"saves": False, "why_no_saves": put.json()["error"]}
    # the library, compare's list and the tables play on
    assert c.get("/").status_code == 200 and c.get("/api/rulesets").status_code == 200
    assert new_table(c)["seats"].keys() == set(PLAYERS)


def test_saves_allowed_off_loopback_when_asked_and_on_loopback_as_before(folder):
    allowed = client(folder, saves=True)
    put = allowed.put("/api/files/new.yaml", json={"text": "name: new\n", "base": None}, headers=HEADER)
    assert put.status_code == 200 and (folder / "new.yaml").read_text(encoding="utf-8") == "name: new\n"
    assert allowed.get("/api/server").json() == {"saves": True, "why_no_saves": None}
    loopback = client(folder, host="127.0.0.1")
    assert loopback.put("/api/files/other.yaml", json={"text": "name: other\n", "base": None},
                        headers=HEADER).status_code == 200
    refused = client(folder, host="127.0.0.1", saves=False, why_no_saves="the server was started with --tables-only")
    put = refused.put("/api/files/third.yaml", json={"text": "x: 1\n", "base": None}, headers=HEADER)
    assert put.status_code == 403 and put.json()["error"].endswith("started with --tables-only")


# -- the QR codes

def test_each_seats_qr_code_reads_as_its_link_at_the_address_asked(folder):
    c = client(folder)
    made = new_table(c)
    for name, seat in [*made["seats"].items(), ("onlookers", made["watch"])]:
        answer = qr_of(c, made["id"], seat["token"])
        assert answer.status_code == 200 and answer.headers["content-type"] == "image/svg+xml"
        assert "sandbox" in answer.headers["content-security-policy"]
        assert "<script" not in answer.text and "<style" not in answer.text
        expected = f"http://{NETWORK}:8000{seat['url']}"  # the address the request came to, not 127.0.0.1
        grid = matrix_of_svg(answer.text)
        # segno's own code of the expected link, module for module, and a QR reader reads it
        assert grid == [list(row) for row in segno.make(expected, error="m").matrix_iter(border=4)], name
        assert decoded(grid) == [expected], name


def test_a_qr_code_is_drawn_only_for_the_links_own_token(folder):
    c = client(folder)
    made, other = new_table(c), new_table(c)
    ann = made["seats"]["Ann"]["token"]
    wrong = qr_of(c, made["id"], ann[:-3] + ("abc" if not ann.endswith("abc") else "xyz"))
    assert wrong.status_code == 403 and "token is not one of this table's" in wrong.json()["error"]
    assert qr_of(c, made["id"], other["seats"]["Ann"]["token"]).status_code == 403  # another table's seat
    assert c.get(f"/api/tables/{made['id']}/qr.svg").status_code == 403  # no token
    in_address = c.get(f"/api/tables/{made['id']}/qr.svg?token={ann}")
    assert in_address.status_code == 403 and "Authorization: Bearer" in in_address.json()["error"]
    assert qr_of(c, "nosuchtable", ann).status_code == 404


def test_a_new_tables_links_and_codes_are_told_to_the_servers_terminal(folder):
    from hazard_dsl.serve.qr import announcement

    told = []
    c = client(folder, announce=lambda base, made: told.append((base, made)))
    made = new_table(c)
    c.post("/api/tables", json={"ruleset": "cotton", "players": ["Ann", "ann"]}, headers=HEADER)  # refused: not told
    assert told == [(f"http://{NETWORK}:8000", made)]
    text = announcement(*told[0], codes=True)
    lines = text.splitlines()
    for name in PLAYERS:
        url = f"http://{NETWORK}:8000{made['seats'][name]['url']}"
        at = lines.index(url)
        assert lines[at - 1] == f"{name}'s seat:"
        code = lines[at + 1:at + 1 + 23]  # a version-5 code in half blocks: (37 + 8) / 2 lines, rounded up
        assert {len(row) for row in code} == {45} and set("".join(code)) <= set(" \u2580\u2584\u2588")
    assert lines[-2:] == ["Onlookers:", f"http://{NETWORK}:8000{made['watch']['url']}"]
    # a name is printed without its control characters: a terminal is written to
    assert "Ann\x1b[2J" not in announcement("http://h", {"id": "t", "seats": {"Ann\x1b[2J": {"url": "/x"}}}, codes=False)


def test_into_a_pipe_the_terminal_is_told_of_a_table_without_its_private_links(capsys):
    import io

    from hazard_dsl.cli.serve import announcer

    out = io.StringIO()
    announcer(out)("http://h:1", {"id": "T1", "seats": {"Ann": {"token": "SECRET", "url": "/tables/T1#token=SECRET"}},
                                  "watch": {"token": "W", "url": "/tables/T1#token=W"}})
    assert "T1" in out.getvalue() and "SECRET" not in out.getvalue()


# -- the command line: certificates

def make_certificate(folder, name="cert.pem", key="key.pem", address="127.0.0.1"):
    if shutil.which("openssl") is None:
        pytest.skip("openssl is not installed here (a self-signed certificate is made with it)")
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(folder / key),
                    "-out", str(folder / name), "-days", "2", "-subj", "/CN=hazard",
                    "-addext", f"subjectAltName=IP:{address}"], check=True, capture_output=True)
    return folder / name, folder / key


def test_a_broken_certificate_or_key_is_one_clear_line(tmp_path, capsys):
    cert, key = make_certificate(tmp_path)
    _, other_key = make_certificate(tmp_path, "other.pem", "other-key.pem")
    (tmp_path / "junk.pem").write_text("not a certificate\n", encoding="utf-8")
    cases = [
        (["--certfile", str(tmp_path / "missing.pem"), "--keyfile", str(key)],
         f"--certfile: cannot read {tmp_path / 'missing.pem'}: No such file or directory"),
        (["--certfile", str(tmp_path / "junk.pem"), "--keyfile", str(key)], "holds no PEM certificate"),
        (["--certfile", str(cert), "--keyfile", str(tmp_path / "junk.pem")], "holds no PEM private key"),
        (["--certfile", str(cert), "--keyfile", str(other_key)],
         f"--keyfile: {other_key} is not the private key of the certificate {cert}"),
        (["--certfile", str(cert)], "holds no private key of its own: give it with --keyfile"),
        (["--keyfile", str(key)], "--keyfile needs --certfile"),
        (["--allow-saves", "--tables-only"], "--allow-saves and --tables-only say opposite things"),
    ]
    for flags, message in cases:
        assert main(["serve", "--port", "0", "--folder", str(tmp_path), *flags]) == 2, flags
        err = capsys.readouterr().err
        assert err.startswith("hazard-dsl: error: ") and message in err and err.count("\n") == 1, err
        assert "Traceback" not in err


def serve(*flags):
    """A real server (`hazard-dsl serve --port 0 …`) and the address its first line gives."""
    process = subprocess.Popen([sys.executable, "-m", "hazard_dsl", "serve", "--port", "0", *flags],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = process.stdout.readline()
    if " at " not in line:
        process.kill()
        pytest.fail(f"serve did not start: {line}{process.stderr.read()}")
    return process, line.split(" at ")[1].split()[0].rstrip("/")


def stop(process) -> tuple[str, str]:
    """Ctrl-C, and what it printed after its first line (standard output, standard error)."""
    process.send_signal(signal.SIGINT)
    try:
        return process.communicate(timeout=20)
    finally:
        if process.poll() is None:
            process.kill()


@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_https_with_a_self_signed_certificate_and_its_links_in_https(tmp_path):
    httpx = pytest.importorskip("httpx")
    import ssl

    cert, key = make_certificate(tmp_path)
    process, address = serve("--folder", str(tmp_path), "--db", str(tmp_path / "t.db"),
                             "--certfile", str(cert), "--keyfile", str(key))
    try:
        assert address.startswith("https://127.0.0.1:")
        trusting = ssl.create_default_context(cafile=str(cert))  # this certificate, and no other
        with httpx.Client(verify=trusting, timeout=30) as web:
            assert web.get(address + "/api/rulesets").status_code == 200
            made = web.post(address + "/api/tables", json={"ruleset": "cotton", "players": PLAYERS}, headers=HEADER)
            assert made.status_code == 201
            made = made.json()
            seat = made["seats"]["Robert fitz John"]
            code = web.get(f"{address}/api/tables/{made['id']}/qr.svg",
                           headers={"Authorization": f"Bearer {seat['token']}"})
            assert decoded(matrix_of_svg(code.text)) == [address + seat["url"]]  # https://…
        with pytest.raises(httpx.ConnectError):  # a client that does not trust it is refused
            httpx.get(address + "/api/rulesets", timeout=10)
    finally:
        _, err = stop(process)
    assert "Traceback" not in err and "in clear" not in err  # loopback, and HTTPS: no warning


@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_tables_only_on_another_loopback_address_says_so_and_refuses_saves(tmp_path):
    httpx = pytest.importorskip("httpx")
    (tmp_path / "mine.yaml").write_text("name: mine\n", encoding="utf-8")
    process, address = serve("--host", "127.0.0.2", "--folder", str(tmp_path), "--db", str(tmp_path / "t.db"),
                             "--tables-only")
    try:
        assert address.startswith("http://127.0.0.2:")
        # its own address is answered (loopback, though not one of the usual names)
        assert httpx.get(address + "/", timeout=30).status_code == 200
        put = httpx.put(address + "/api/files/mine.yaml", json={"text": "name: x\n", "base": None},
                        headers=HEADER, timeout=30)
        assert put.status_code == 403 and "--tables-only" in put.json()["error"]
        made = httpx.post(address + "/api/tables", json={"ruleset": "cotton", "players": PLAYERS},
                          headers=HEADER, timeout=30)
        assert made.status_code == 201
    finally:
        out, err = stop(process)
    assert "for the tables alone (--tables-only)" in err and "Traceback" not in err
    assert (tmp_path / "mine.yaml").read_text(encoding="utf-8") == "name: mine\n"
    # into a pipe (a log), the table is told without its private links
    made = made.json()
    assert f"a table is open ({made['id']})" in out and made["seats"]["Ann"]["token"] not in out + err


# -- the host's page, in a real browser

@pytest.mark.browser
@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_the_hosts_page_shows_each_seats_code_and_a_phone_reads_its_link(tmp_path):
    from tests.serve.test_serve_browser import _chromium

    webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed (pip install '.[test]')")
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    driver = shutil.which("chromedriver") or ("/usr/bin/chromedriver" if shutil.os.path.exists("/usr/bin/chromedriver") else None)
    if _chromium() is None or driver is None:
        pytest.skip("no Chromium and chromedriver here (apt-get install chromium chromium-driver; .ci/run does)")
    options = webdriver.ChromeOptions()
    options.binary_location = _chromium()
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=390,844"):
        options.add_argument(argument)
    process, address = serve("--folder", str(tmp_path), "--db", str(tmp_path / "t.db"))
    chrome = webdriver.Chrome(service=Service(driver), options=options)
    try:
        chrome.set_window_size(390, 844)  # a phone's (the flag alone leaves headless Chromium at 500 wide)
        chrome.get(address + "/?ruleset=cotton")
        # the form is shown once the ruleset is read
        players = WebDriverWait(chrome, 60).until(lambda d: d.find_element(By.ID, "table-players").is_displayed()
                                                  and d.find_element(By.ID, "table-players"))
        players.clear()
        players.send_keys(", ".join(PLAYERS))
        chrome.find_element(By.CSS_SELECTOR, "#new-table button").click()
        WebDriverWait(chrome, 30).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "img.qr")) == len(PLAYERS) + 1
                                        and all(d.execute_script("return arguments[0].naturalWidth", i) > 0
                                                for i in d.find_elements(By.CSS_SELECTOR, "img.qr")))
        for item in chrome.find_elements(By.CSS_SELECTOR, "#table-links li"):
            shown = item.find_element(By.TAG_NAME, "a").text
            chrome.execute_script("arguments[0].scrollIntoView()", item)
            png = item.find_element(By.CSS_SELECTOR, "img.qr").screenshot_as_png
            zxing = pytest.importorskip("zxingcpp", reason="zxing-cpp is not installed (pip install '.[test]')")
            import io

            from PIL import Image

            assert [found.text for found in zxing.read_barcodes(Image.open(io.BytesIO(png)))] == [shown]
            assert shown.startswith(address + "/tables/")
        # the page says that 127.0.0.1 in a code reaches nothing from a phone
        assert "only this machine reaches" in chrome.find_element(By.ID, "table-links-hint").text
        assert chrome.execute_script("return document.documentElement.scrollWidth <= innerWidth && innerWidth <= 390")
        assert not [e for e in chrome.get_log("browser") if e["level"] == "SEVERE" and "/api/graph/" not in e["message"]]
    finally:
        chrome.quit()
        stop(process)


@pytest.mark.browser
@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_the_workbench_of_a_server_for_the_tables_alone_is_read_only_and_says_why(tmp_path):
    from selenium.webdriver.common.by import By

    from tests.serve.test_serve_browser import _chromium, wait

    webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed (pip install '.[test]')")
    from selenium.webdriver.chrome.service import Service

    driver = shutil.which("chromedriver")
    if _chromium() is None or driver is None:
        pytest.skip("no Chromium and chromedriver here (apt-get install chromium chromium-driver; .ci/run does)")
    (tmp_path / "mine.yaml").write_text("name: mine\nextends: cotton\n", encoding="utf-8")
    options = webdriver.ChromeOptions()
    options.binary_location = _chromium()
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"):
        options.add_argument(argument)
    process, address = serve("--folder", str(tmp_path), "--db", str(tmp_path / "t.db"), "--tables-only")
    chrome = webdriver.Chrome(service=Service(driver), options=options)
    try:
        chrome.get(address + "/workbench?file=mine.yaml")
        note = wait(chrome, lambda d: d.find_element(By.ID, "read-only").is_displayed()
                    and d.find_element(By.ID, "read-only").text, message="the read-only note")
        assert note.startswith("Read only: rule files are not saved here") and "--tables-only" in note
        wait(chrome, lambda d: "mine.yaml" in d.find_element(By.ID, "file-name").text, message="the file open")
        content = chrome.execute_script(
            "return document.getElementById('editor').shadowRoot.querySelector('.cm-content')")
        content.click()
        content.send_keys("# a change\n")
        wait(chrome, lambda d: "# a change" in d.execute_script(
            "return document.getElementById('editor').shadowRoot.querySelector('.cm-content').textContent"),
            message="the edit made")
        assert not chrome.find_element(By.ID, "save").is_enabled()  # an edit offers no Save
    finally:
        chrome.quit()
        stop(process)
    assert (tmp_path / "mine.yaml").read_text(encoding="utf-8") == "name: mine\nextends: cotton\n"


def test_at_a_terminal_each_seats_link_comes_with_its_code():
    import io

    from hazard_dsl.cli.serve import announcer

    class Terminal(io.StringIO):
        def isatty(self):
            return True

    out = Terminal()
    made = {"id": "T1", "seats": {"Ann": {"token": "t" * 32, "url": "/tables/T1#token=" + "t" * 32}},
            "watch": {"token": "w" * 32, "url": "/tables/T1#token=" + "w" * 32}}
    announcer(out)("https://192.0.2.10:8000", made)
    lines = out.getvalue().splitlines()
    assert lines[1:3] == ["Ann's seat:", "https://192.0.2.10:8000/tables/T1#token=" + "t" * 32]
    # the code in half blocks, two rows of modules a line: read back, it is the link
    rows = []
    for line in lines[3:lines.index("Onlookers:")]:
        rows.append([0 if c in "\u2588\u2580" else 1 for c in line])  # the top half: light where drawn
        rows.append([0 if c in "\u2588\u2584" else 1 for c in line])
    assert decoded(rows[:len(rows[0])]) == [lines[2]]


def test_the_guide_quotes_what_the_server_says():
    """docs/phones.md quotes the refusal of a save and the warning of plain HTTP word for word."""
    from pathlib import Path

    from hazard_dsl.cli.serve import IN_CLEAR
    from hazard_dsl.serve.app import saves_off

    guide = " ".join((Path(__file__).resolve().parents[2] / "docs" / "phones.md").read_text(encoding="utf-8")
                     .replace("\n> ", " ").split())
    assert f"rule files are not saved here: {saves_off('192.168.1.20')}" in guide
    assert IN_CLEAR in guide
