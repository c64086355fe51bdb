"""`spit-tui settings`: the settings screen on its own (F6 on the board opens
the same screen); `spit-tui settings --show`: each setting in force and where
it comes from (a flag, a variable, config.toml or the default), with the
file's place.

    spit-tui settings [--theme NAME] [--layout NAME] [--keys FILE]
    spit-tui settings --show [--theme NAME]
"""

from __future__ import annotations

from spit_tui.command import PROG, Parser, command, write_out
from spit_tui.startup import Board, add_board_options

NAME = f"{PROG} settings"


def build_parser() -> Parser:
    p = Parser(
        prog=NAME,
        description=(
            "The settings screen: theme, player colours, suits, card size, bell, reduced "
            "motion, and the defaults of a game (variant, target, computer level); saved to "
            "config.toml in the user config directory. A flag wins over an environment "
            "variable, which wins over config.toml, which wins over the default."
        ),
    )
    p.add_argument(
        "--show",
        action="store_true",
        help="print each setting in force and where it comes from, and the file's place",
    )
    add_board_options(p, log=False)
    return p


@command(NAME)
def main(argv: list[str]) -> int:
    args = build_parser().parse_args(argv)
    board = Board.from_args(args, argv, NAME)
    if args.show:
        return _show(board)
    refused = board.prepare()
    if refused is not None:
        return refused
    from spit_tui.app import SpitApp
    from spit_tui.app.settingsscreen import SettingsMode
    from spit_tui.names import load

    remembered = load()  # the names box starts from them (a bad file: none, as in a game)
    return board.run_sync(SpitApp(mode=SettingsMode(), names=remembered.names))


def _show(board: Board) -> int:
    from spit_tui.settings import describe
    from spit_tui.settings.configfile import default_path

    refused = board.choose_settings()
    if refused is not None or board.settings is None:
        return refused or 1
    lines = [*describe(board.settings), f"file: {default_path()}"]
    if board.settings_note:
        lines.append(board.settings_note)
    write_out("\n".join(lines) + "\n")
    return 0
