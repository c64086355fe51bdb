"""`python -m spit_tui` and the `spit-tui` command (`main`): the command line
(spit_tui.cli), with Python's cycle collector held until the first frame
(spit_tui.collector says why). Nothing is imported before the hold."""

import sys

from spit_tui import collector


def main() -> int:
    collector.hold()
    try:
        from spit_tui.cli import main as command_line

        return command_line()
    finally:
        collector.release()


if __name__ == "__main__":
    sys.exit(main())
