"""Charts: `compare --plot`, `analyse --plot` and the simulated-over-exact chart write a valid PNG
or SVG of a size fit for print, with the figures on them; without matplotlib, the command says
how to get it."""

from __future__ import annotations

import builtins
import xml.etree.ElementTree as ElementTree
from fractions import Fraction

import pytest

from hazard_dsl.cli import main

pytest.importorskip("matplotlib", reason="matplotlib is not installed (pip install 'hazard-dsl[plot]'; the test "
                                         "extra has it)")

from hazard_dsl.render.plot import compare_chart, simulation_chart  # noqa: E402

PNG = b"\x89PNG\r\n\x1a\n"


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == PNG and data[12:16] == b"IHDR"
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


def svg_text(path) -> str:
    root = ElementTree.parse(path).getroot()
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    width = float(root.get("width").removesuffix("pt"))
    height = float(root.get("height").removesuffix("pt"))
    assert 400 < width < 1500 and 200 < height < 1500  # points: a page's width, not a stamp or a wall
    return " ".join(t for t in root.itertext())


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_compare_chart_png(capsys, tmp_path):
    target = tmp_path / "edges.png"
    code, out, err = run(capsys, "compare", "cotton", "hoyle", "chicken", "french", "petty", "craps", "--plot",
                         str(target))
    assert code == 0 and "Side by side" in out and f"wrote {target}" in err
    width, height = png_size(target.read_bytes())
    assert 1500 <= width <= 2500 and 800 <= height <= 2500
    assert target.stat().st_size > 30_000


@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_compare_chart_svg_carries_the_figures(capsys, tmp_path):
    target = tmp_path / "edges.svg"
    code, _, _ = run(capsys, "compare", "cotton", "petty", "french", "--plot", str(target))
    assert code == 0
    text = svg_text(target)
    for words in ("Hazard (Cotton, 1674)", "Petty Hazard (Barker, 2003)", "49.08%", "50.77%", "+1.835%",
                  "-1.533%", "+6.928%", "caster wins, % of games", "Sources: Cotton 1674", "Barker 2003",
                  "stake", "hazard-dsl"):
        assert words in text, words


@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_an_svg_is_the_same_file_every_time(tmp_path):
    import hazard_dsl

    entries = [(n, hazard_dsl.load(n).analyse()) for n in ("cotton", "petty")]
    first, second = tmp_path / "a.svg", tmp_path / "b.svg"
    compare_chart(entries, str(first))
    compare_chart(entries, str(second))
    assert first.read_bytes() == second.read_bytes()


@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_analyse_chart_with_and_without_by(capsys, tmp_path):
    target = tmp_path / "cotton.svg"
    code, _, _ = run(capsys, "analyse", "cotton", "--by", "main", "--plot", str(target))
    assert code == 0
    text = svg_text(target)
    for words in ("throws in a game", "% of games", "mean 5.24", "median 4", "By main", "49.29", "+1.414%"):
        assert words in text, words
    target = tmp_path / "craps.png"
    code, _, _ = run(capsys, "analyse", "craps", "--no-options", "--plot", str(target))
    assert code == 0 and png_size(target.read_bytes())[0] >= 1500


def test_simulation_chart(tmp_path):
    import hazard_dsl

    exact = hazard_dsl.load("cotton").analyse().throws
    counts = [round(float(p) * 10_000) for p in exact]
    target = tmp_path / "sim.svg"
    simulation_chart(counts, exact, str(target), title="Cotton: simulated against exact")
    text = svg_text(target)
    assert "simulated" in text and "exact" in text and "throws in a game" in text
    simulation_chart({2: 5, 3: 4, 4: 1}, [Fraction(0), Fraction(0), Fraction(1, 2), Fraction(1, 2)],
                     str(tmp_path / "small.png"))
    assert (tmp_path / "small.png").read_bytes()[:8] == PNG


def test_a_file_type_that_is_no_chart(capsys, tmp_path):
    code, out, err = run(capsys, "compare", "cotton", "petty", "--plot", str(tmp_path / "edges.jpg"))
    assert code == 2 and out == "" and "PNG or SVG" in err and "did you mean '.png'" in err
    assert not (tmp_path / "edges.jpg").exists()


def test_without_matplotlib_the_command_says_how_to_get_it(capsys, monkeypatch, tmp_path):
    real = builtins.__import__

    def no_matplotlib(name, *args, **kwargs):
        if name == "matplotlib" or name.startswith("matplotlib."):
            raise ImportError("No module named 'matplotlib'")
        return real(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_matplotlib)
    code, out, err = run(capsys, "analyse", "cotton", "--plot", str(tmp_path / "x.png"))
    assert code == 2 and out == ""
    assert "pip install 'hazard-dsl[plot]'" in err and "Traceback" not in err


def test_simulate_chart_draws_the_simulated_over_the_exact(capsys, tmp_path):
    target = tmp_path / "simulated.svg"
    code, out, err = run(capsys, "simulate", "cotton", "--games", "20000", "--seed", "1", "--workers", "1",
                         "--plot", str(target))
    assert code == 0, err
    text = svg_text(target)
    assert "20,000 games simulated" in text and "exact" in text and "throws in a game" in text
    code, out, err = run(capsys, "simulate", "chicken", "--players", "Ann,Ben", "--plot", str(tmp_path / "x.png"))
    assert code == 2 and "not sessions" in err
