"""A year written `yes`, `no`, `on` or `off` (YAML 1.1 reads them as booleans) is the text as
written, in the ruleset and in its sources, not Python's True or False: `show` printed a source as
"Charles Cotton, True," (fuzz42 Y3). The expected values are the words of the text itself."""

from __future__ import annotations

import pytest

from hazard_dsl.check.reading import read_ruleset
from hazard_dsl.parse.files import builtin_dir

COTTON = (builtin_dir() / "cotton.yaml").read_text(encoding="utf-8")


@pytest.mark.parametrize("word", ["yes", "no", "On", "OFF"])
def test_a_year_that_yaml_reads_as_a_boolean_is_its_text(word):
    assert "\nyear: 1674\n" in COTTON and "\n    year: 1674\n" in COTTON
    text = COTTON.replace("\nyear: 1674\n", f"\nyear: {word}\n").replace("\n    year: 1674\n", f"\n    year: {word}\n", 1)
    ruleset = read_ruleset("t.yaml", text=text, named="t.yaml")
    assert (ruleset.year, ruleset.sources[0].year) == (word, word)


def test_a_year_as_a_number_or_words_is_kept_as_before():
    ruleset = read_ruleset("t.yaml", text=COTTON, named="t.yaml")
    assert ruleset.year == 1674 and ruleset.sources[0].year == 1674
    assert [s.year for s in ruleset.sources if s.author == "Trevor Barker"] == ["2003, 2005"]
