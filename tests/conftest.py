"""Shared helpers: load a built-in ruleset and compile it with options."""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from hazard_dsl.compile.compiler import compile_ruleset
from hazard_dsl.check.reading import read_ruleset

# Property tests are derandomised by default, so `python -m pytest` (the README's command, and
# CI) gives the same result every run; a fuzz campaign explores new examples on purpose:
#   HYPOTHESIS_PROFILE=explore python -m pytest tests/check/test_broken.py tests/parse/test_hostile_parse.py
settings.register_profile("fixed", derandomize=True, max_examples=150, deadline=None, database=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("explore", derandomize=False, max_examples=3000, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
# `--hypothesis-seed N` only takes effect where examples are random: this profile is for trying a
# few seeds by hand (HYPOTHESIS_PROFILE=seeded pytest --hypothesis-seed=N), shorter than explore
settings.register_profile("seeded", derandomize=False, max_examples=300, deadline=None, database=None,
                          suppress_health_check=[HealthCheck.too_slow])
# a long campaign with fresh seeds, one test file at a time under `timeout`, keeping nothing in
# a database, so each --hypothesis-seed=N run explores on its own (issue 40's fuzz campaigns)
settings.register_profile("long", derandomize=False, max_examples=2000, deadline=None, database=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "fixed"))

# The tests (and the commands they run) keep what they read and compile in a cache folder of
# their own, empty at the start of each run, never the user's (hazard_dsl.cache).
_CACHE = tempfile.mkdtemp(prefix="hazard-dsl-tests-")
os.environ["XDG_CACHE_HOME"] = _CACHE
atexit.register(shutil.rmtree, _CACHE, True)
# The logs `play` writes by default (play.log.sessions_folder) go to a data folder of the tests'
# own, never the user's; a test that reads them points XDG_DATA_HOME at its tmp_path.
_DATA = tempfile.mkdtemp(prefix="hazard-dsl-tests-data-")
os.environ["XDG_DATA_HOME"] = _DATA
atexit.register(shutil.rmtree, _DATA, True)

# Under pytest-xdist (the README's `-n 2`) each worker starts with the environment its parent
# process has at that moment, not the one the run was started with: pytest imports readline
# early (_pytest/capture.py), and GNU readline writes COLUMNS and LINES into the process's
# environment (its rl_change_environment), so a worker would see COLUMNS=80 and LINES=24 that
# nobody set, and every command a test runs would inherit them. Python's os.environ is read once at start-up, so
# the parent's is still the run's own: each worker is given it back for those two names.
_SIZES = ("COLUMNS", "LINES")


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node):
    """pytest-xdist, in the parent: what each worker's terminal size variables should be."""
    node.workerinput["hazard_dsl_sizes"] = {name: os.environ.get(name) for name in _SIZES}


def pytest_configure(config):
    sizes = getattr(config, "workerinput", {}).get("hazard_dsl_sizes", {})
    # without xdist too: a command a test runs in a process of its own would inherit readline's
    # COLUMNS=80 (in the process's environment, which os.environ never saw) as asked for
    sizes = sizes or {name: os.environ.get(name) for name in _SIZES}
    for name, value in sizes.items():
        if value is None:
            os.environ.pop(name, None)
            os.unsetenv(name)
        else:
            os.environ[name] = value


# The README's `pytest -n auto` on CI's two cores ends when the later of its two workers ends.
# pyproject's addopts hands tests out with `--dist worksteal` (a worker that runs dry takes half
# of what the other has still queued), and the files with slow tests are collected first, each
# file whole: what is left at the end is short, so neither worker waits long for the other
# (the longest first, as a greedy schedule wants). A run without -n runs them in this order.
# (`--dist loadgroup`, which would keep a file's tests on one worker, groups nothing under
# pytest 9: pytest-xdist 3.8 renames a test by its private `_nodeid`, which pytest 9 no longer reads.)


def pytest_collection_modifyitems(config, items):
    files: dict = {}
    for item in items:
        files.setdefault(item.nodeid.split("::")[0], []).append(item)
    slow_first = sorted(files, key=lambda name: not any(i.get_closest_marker("slow") for i in files[name]))
    items[:] = [item for name in slow_first for item in files[name]]


ROOT = Path(__file__).resolve().parent.parent
RULESETS = ROOT / "rulesets"
SHIPPED = sorted(p.stem for p in RULESETS.glob("*.yaml"))


class _Shared:
    """What `machine` lends its compilations: the session's `Explorations`, owned by the
    `shared_explorations` fixture (made at the session's start, dropped at its end). Before the
    caches were owned (issue 36) every test's compilations shared a module-wide cache; without
    one, each `machine(...)` explored its game from scratch. The machines are the same either
    way (tests/compile/test_explorations.py); only the time differs."""

    explorations = None


def machine(name: str, **options):
    return compile_ruleset(read_ruleset(RULESETS / f"{name}.yaml"), options,
                           explorations=_Shared.explorations)


@pytest.fixture(scope="session", autouse=True)
def shared_explorations():
    """The explorations every `machine(...)` of the session lends the next (bounded by its
    fields, as the command line's are); not lent to the package's own `cache.sharing`, whose
    tests check what it lends."""
    from hazard_dsl.compile.explorations import Explorations

    _Shared.explorations = Explorations()
    yield _Shared.explorations
    _Shared.explorations = None


@pytest.fixture
def write_ruleset(tmp_path):
    """Write a rule file into a temporary folder and return its path."""

    def write(text: str, name: str = "ruleset.yaml") -> Path:
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        return path

    return write
