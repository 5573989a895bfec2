"""`python -m hazard_dsl` is the `hazard-dsl` command."""

import sys

from .cli import main

sys.exit(main())
