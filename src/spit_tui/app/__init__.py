"""The Textual front end: a thin view over `spit_tui.table.Table`."""

from spit_tui.app.app import SpitApp

__all__ = ["SpitApp"]
