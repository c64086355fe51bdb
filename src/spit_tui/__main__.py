"""`python -m spit_tui`: the same as the `spit-tui` command."""

import sys

from spit_tui.cli import main

sys.exit(main())
