"""`python -m tablebuild [PATH] [--if-stale]`: write the engine's tables file (see `tablebuild.builder`)."""

import sys

from tablebuild.builder import main

sys.exit(main())
