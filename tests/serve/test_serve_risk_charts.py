"""The library's risk charts (issue 38): POST /api/charts gives the points of a session's net,
a hand's tail and the best stake by purse, and the library page draws them as SVG, on a phone's
width too. Each figure checked here is worked out in the test by a second method: the binomial
law for flat even-money sessions, a hand of craps walked throw by throw, and the issue's
1979/4032 for Cotton's caster from 10 to 20 (one stake of 10: the chance of one game)."""

from __future__ import annotations

import math
from fractions import Fraction
from math import comb

import pytest

pytest.importorskip("httpx")

from starlette.testclient import TestClient  # noqa: E402

from hazard_dsl.serve.app import create_app  # noqa: E402

HEADER = {"X-Hazard-DSL": "1"}
COTTON_WIN, COTTON_LOSE = Fraction(1979, 4032), Fraction(2053, 4032)  # Cotton's caster (the issue; Arbuthnot)


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    with TestClient(create_app(tmp_path_factory.mktemp("charts")), base_url="http://127.0.0.1") as c:
        yield c


def charts(client, ruleset, **settings):
    got = client.post("/api/charts", json={"ruleset": ruleset, "settings": settings}, headers=HEADER)
    assert got.status_code == 200, got.text
    return got.json()


def test_a_sessions_net_is_the_binomial_law(client):
    # fifty games at even money, one stake each: the net is 2k − 50 for k games won, C(50, k) p^k q^(50−k)
    got = charts(client, "cotton", games=10)
    law = {2 * k - 10: comb(10, k) * COTTON_WIN ** k * COTTON_LOSE ** (10 - k) for k in range(11)}
    assert [v for v, _ in got["session"]["points"]] == sorted(law)
    for v, p in got["session"]["points"]:
        assert p == pytest.approx(float(law[v]), rel=1e-12)
    assert got["session"]["ahead"] == pytest.approx(float(sum(p for v, p in law.items() if v > 0)), rel=1e-12)


def test_a_stop_loss_and_a_stop_win_end_the_session_there(client):
    got = charts(client, "cotton", games=50, stop_loss="3", stop_win="2")["session"]
    nets = [v for v, _ in got["points"]]
    assert min(nets) == -3 and max(nets) == 2
    assert sum(p for _, p in got["points"]) == pytest.approx(1, abs=1e-12)
    # stopped at +2 is the walk's first reaching +2 before −3 within 50 games (a walk of ±1 steps, counted here)
    walk = {0: Fraction(1)}
    up = Fraction(0)
    for _ in range(50):
        nxt: dict = {}
        for v, p in walk.items():
            for step, q in ((1, COTTON_WIN), (-1, COTTON_LOSE)):
                w = v + step
                if w == 2:
                    up += p * q
                elif w != -3:
                    nxt[w] = nxt.get(w, 0) + p * q
        walk = nxt
    assert dict(got["points"])[2.0] == pytest.approx(float(up), rel=1e-12)


def _craps_hand_lasts(n: int) -> Fraction:
    """P(a hand of craps lasts n throws or more), walked throw by throw: the hand ends only on a
    seven out (a seven after a point is set)."""
    ways = {t: 6 - abs(t - 7) for t in range(2, 13)}
    state = {"come": Fraction(1)}
    for _ in range(n - 1):
        nxt: dict = {}
        for s, p in state.items():
            for t, w in ways.items():
                q = p * Fraction(w, 36)
                if s == "come":
                    to = t if t in (4, 5, 6, 8, 9, 10) else "come"
                elif t == 7:
                    continue  # seven out: the hand is over
                else:
                    to = "come" if t == s else s
                nxt[to] = nxt.get(to, 0) + q
        state = nxt
    return sum(state.values())


def test_the_tail_of_a_hand_of_craps(client):
    got = charts(client, "craps", tail=30)["tail"]
    assert got["what"] == "hand" and len(got["logs"]) == 30
    for n in (1, 2, 3, 10, 30):
        assert got["logs"][n - 1] == pytest.approx(math.log10(_craps_hand_lasts(n)), abs=1e-12)


def test_the_best_stake_of_cottons_caster_from_ten_to_twenty(client):
    got = charts(client, "cotton", bankroll="10", goal="20")["best"]
    assert got["exact"] == "1979/4032"  # one stake of the whole purse: one game's chance (the issue)
    assert dict(got["stakes"])[10] == 10
    assert len(got["stakes"]) == 19 and got["flat"][9][1] == pytest.approx(0.40924, abs=5e-6)  # the 0.40924


def test_a_game_without_a_casters_stake_says_so_and_draws_the_rest(client):
    got = charts(client, "sic_bo")
    assert "no stake" in got["session"]["error"] and "no stake" in got["best"]["error"]
    assert got["tail"]["what"] in ("hand", "game")


@pytest.mark.parametrize("settings,words", [
    ({"games": "lots"}, "games must be a whole number"),
    ({"goal": "abc"}, "goal"),
    ({"bankroll": "30", "goal": "20"}, "bankroll must be less than the goal"),
    ({"colour": "red"}, "'colour' is not one of"),
    ({"goal": "100000"}, "goal must be at most"),
])
def test_a_wrong_setting_is_a_400_naming_its_field(client, settings, words):
    got = client.post("/api/charts", json={"ruleset": "cotton", "settings": settings}, headers=HEADER)
    assert got.status_code == 400 and words in got.json()["error"], got.text


@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_the_charts_answer_any_body_without_a_500(tmp_path_factory):
    # as test_serve_sweep does for the other routes: bodies of every shape, and settings of every shape
    pytest.importorskip("hypothesis")
    from hypothesis import HealthCheck, given, settings, strategies as st

    from tests.serve.test_serve_sweep import MEANINGFUL, VALUES, bodies

    folder = tmp_path_factory.mktemp("sweep")
    (folder / "mine.yaml").write_text("name: [unclosed\n", encoding="utf-8")
    keys = ("games", "stop_loss", "stop_win", "bankroll", "goal", "tail")
    shaped = st.dictionaries(st.sampled_from(keys) | st.text(max_size=5), VALUES | MEANINGFUL | st.integers(-5, 60),
                             max_size=4)
    app = create_app(folder, inline=True, time_limit=5)
    with TestClient(app, base_url="http://127.0.0.1", raise_server_exceptions=False) as c:
        @settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
        @given(bodies(("ruleset", "text", "name", "options", "settings")), shaped)
        def check(body, asked):
            if isinstance(body.get("settings"), dict) or "settings" not in body:
                body["settings"] = asked
            body.setdefault("ruleset", "cotton")
            r = c.post("/api/charts", json=body, headers=HEADER)
            assert r.status_code < 500 or r.status_code == 503, (body, r.status_code, r.text)
            if r.status_code >= 400:
                assert r.json()["error"], r.text

        check()
