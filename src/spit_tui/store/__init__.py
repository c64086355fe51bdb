"""What spit-tui remembers: game records (files) and the history database."""
