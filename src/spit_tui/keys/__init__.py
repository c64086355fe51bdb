"""Everything between the terminal's bytes and an Intent: layout presets
(generated data), the key config file, the kitty keyboard protocol's extra
fields, and the guard that keeps split escape sequences and endless pastes
from becoming game keys, and the key map (`keys.keymap`) that turns a key into
an Intent (`keys.intent`).

Kept light on purpose: importing a submodule never pulls in Textual unless
that submodule (the terminal parser) needs it.
"""
