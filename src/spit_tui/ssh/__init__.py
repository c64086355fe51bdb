"""The SSH door: `spit-tui ssh-serve`, so a friend plays with nothing but `ssh`.

One asyncssh server (server.py) gives each guest a pseudo-terminal running
our own `spit-tui join` (guestpty.py): the same app, the same key path, the
same host protocol (and the same lobby) as a `join` on a terminal of one's
own. The host key (hostkey.py) and who may come in and how many
(admission.py) are the door's own; the game is not.
"""
