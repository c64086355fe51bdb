"""Play apart: the protocol, the host's rooms and a headless client (issue 14).

protocol (frames, handshake, checks) -> seatview (the public view a seat
gets) -> room (rooms, seats, sessions: no sockets) -> host (asyncio server,
`spit-tui host`) and client (a headless seat that bots can drive).
"""
