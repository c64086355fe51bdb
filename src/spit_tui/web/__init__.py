"""The game in a browser: `spit-tui serve` (servecmd.py, serve.py) runs each browser page's
game as its own process under textual-serve, with a page of ours
(templates/app_index.html) that loads nothing from outside this server."""
