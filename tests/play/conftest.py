"""Helpers of the play tests' harness."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import pytest


@pytest.fixture
def short_tmp():
    """A folder of the test's own whose path is short and the same on every run. pytest's
    `tmp_path` grows with the user's name and, under pytest-xdist, with the worker's folder
    (/tmp/pytest-of-USER/pytest-N/popen-gw0/test_NAME0); `play` prints its log's path whole,
    never split, so that it can be copied, and a test that holds the screen to 80 columns
    would then fail on the runner's path, not on the program's wrapping."""
    folder = Path(tempfile.mkdtemp(prefix="hz-"))
    yield folder
    shutil.rmtree(folder, ignore_errors=True)
