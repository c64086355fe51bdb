"""The suite's one test kit, importable from every test folder as `testkit`
(pyproject's pytest `pythonpath`; no test edits sys.path itself).

- `testkit.sizes`: the terminal sizes the tests draw at, by name;
- `testkit.table`: a table at a position (notation or Position) with its
  virtual clock;
- `testkit.screen`: the one headless screen reader (what a Pilot's screen shows);
- `testkit.tmux`: a private tmux server and its panes, for real terminals;
- `testkit.host`: a running host on 127.0.0.1 for a test's duration (the
  `running_host` fixture in tests/conftest.py uses it);
- `testkit.terminals`: named terminals running `spit-tui` commands (the
  `terms` fixture), a host on a thread, the host-side truth a scripted seat
  reads to choose its key;
- `testkit.procs`: a process a test started (host, ssh-serve) stopped as a
  person stops it: Ctrl+C, a bounded wait, killed and the test failed past it;
- `testkit.ptygame`: the game as a process on a pseudo-terminal, with a
  private environment (`game_env`), for command-line tests without tmux;
- `testkit.app`: the app under Pilot (make it, press keys, advance its clock);
- `testkit.board`: the board read back from a Pilot's screen and checked
  against the position;
- `testkit.engine`, `testkit.positions`: games and positions for the rule
  tests (hypothesis strategies included);
- `testkit.bots`, `testkit.lobby`, `testkit.join`, `testkit.cheat`,
  `testkit.store`, `testkit.ssh`, `testkit.browser`, `testkit.kittypty`: the
  computer players, the host's rooms without sockets, a joined app, a lying
  client, stored games, the SSH door's clients, headless Chromium, a
  pseudo-terminal that speaks the kitty keyboard protocol.
"""
