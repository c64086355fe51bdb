"""The suite's one test kit, importable from every test folder as `testkit`
(pyproject's pytest `pythonpath`; no test edits sys.path itself).

- `testkit.sizes`: the terminal sizes the tests draw at, by name;
- `testkit.table`: a table at a position (notation or Position) with its
  virtual clock;
- `testkit.screen`: the one headless screen reader (what a Pilot's screen shows);
- `testkit.tmux`: a private tmux server and its panes, for real terminals;
- `testkit.host`: a running host on 127.0.0.1 for a test's duration (the
  `running_host` fixture in tests/conftest.py uses it).

The older per-folder kits (appkit, tmuxkit, netkit, ...) import from here
what they share, so each idea has one home.
"""
