"""`--plot NAME` without an extension (audit 42): the refusal quoted its own words as if they
were the extension given, "not 'a file without one'"."""

from __future__ import annotations

import pytest

from hazard_dsl.render.plot import PlotError, check_target


def test_a_plot_name_without_an_extension_is_said_to_have_none():
    with pytest.raises(PlotError) as refused:
        check_target("edges")
    assert str(refused.value) == ("--plot edges: a chart is written as PNG or SVG, by the file's extension "
                                  "(.png or .svg), and this name has none")


def test_a_plot_name_with_another_extension_is_quoted():
    with pytest.raises(PlotError) as refused:
        check_target("edges.pgn")
    assert str(refused.value).startswith("--plot edges.pgn: a chart is written as PNG or SVG, by the file's "
                                         "extension (.png or .svg), not '.pgn'")
