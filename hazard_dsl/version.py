"""The package's version: a leaf that every module may import (the package's `__init__` imports
`api` lazily, so a module below `api` that took the version from the package would sit in a circle
with it). The build reads the version from here (pyproject.toml)."""

__version__ = "0.1.0"
