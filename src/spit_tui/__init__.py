"""spit-tui: the card game Spit for two players sharing one keyboard."""

__version__ = "0.1.0"
