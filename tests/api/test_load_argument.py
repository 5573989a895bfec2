"""`hazard_dsl.load` of something that is no name (None, 3) is a TypeError naming what it takes,
as `load_text(None)` is; of a folder, a ValueError saying it is a folder (audit 10 findings 13,
15: "no ruleset file or built-in ruleset named 'None'")."""

from __future__ import annotations

import pytest

import hazard_dsl


@pytest.mark.parametrize("given, kind", [(None, "NoneType"), (3, "int"), (["cotton"], "list")])
def test_load_of_no_name_is_a_type_error_naming_what_it_takes(given, kind):
    with pytest.raises(TypeError) as refused:
        hazard_dsl.load(given)
    assert str(refused.value) == ("load takes a built-in ruleset's name or a rule file's path, as a str or a "
                                  f"Path, not {kind}")


def test_load_of_a_folder_says_it_is_a_folder(tmp_path):
    with pytest.raises(ValueError) as refused:
        hazard_dsl.load(tmp_path)
    assert str(refused.value) == f"{str(tmp_path)!r} is a folder, not a rule file"


def test_load_of_a_path_still_loads(tmp_path):
    from hazard_dsl.parse.files import builtin_dir

    assert hazard_dsl.load(builtin_dir() / "cotton.yaml").name == hazard_dsl.load("cotton").name
