"""config.toml and the one precedence resolver (flag > environment > config >
default): every setting from each of the four, and the file's faults, each
leaving the file byte for byte as it was."""

from __future__ import annotations

import os
import stat
import tomllib
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from spit_tui.cli import main
from spit_tui.settings import SETTINGS, SettingError, Settings, load, resolve, save
from spit_tui.settings.configfile import NOTHING, default_path
from spit_tui.settings.fields import BY_KEY
from spit_tui.settings.resolve import flag_dest

# A value each setting can take that is not its default, as flag, variable and file give it.
OTHER: dict[str, Any] = {
    "theme": "nord",
    "palette": "high-contrast",
    "suits": "four",
    "cards": "large",
    "marks": True,
    "bell": frozenset({"spit", "slap"}),
    "reduced_motion": True,
    "variant": "points",
    "target": 40,
    "level": "hard",
}
ENV_TEXT = {"bell": "spit,slap", "reduced_motion": "none", "target": "40", "marks": "1"}
FILE_VALUE = {"bell": ["spit", "slap"]}


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def config_with(**values: Any) -> Any:
    path = default_path()
    lines = []
    for k, v in values.items():
        lines.append(f"{k} = {_toml(v)}")
    write(path, "\n".join(lines) + "\n")
    return load()


def _toml(v: Any) -> str:
    import tomli_w

    return tomli_w.dumps({"x": v}).split("=", 1)[1].strip()


def test_every_setting_has_a_default_and_a_field() -> None:
    defaults = Settings()
    for s in SETTINGS:
        assert getattr(defaults, s.key) == s.default
        assert s.check(FILE_VALUE.get(s.key, OTHER[s.key])) == OTHER[s.key]


@pytest.mark.parametrize("setting", SETTINGS, ids=lambda s: s.key)
def test_precedence_flag_then_environment_then_config_then_default(setting: Any) -> None:
    key = setting.key
    other = OTHER[key]
    assert getattr(resolve({}, {}, NOTHING), key) == setting.default
    assert resolve({}, {}, NOTHING).source(key) == "default"
    loaded = config_with(**{key: FILE_VALUE.get(key, other)})
    assert loaded.problem is None
    from_file = resolve({}, {}, loaded)
    assert getattr(from_file, key) == other and from_file.source(key) == "config.toml"
    if setting.env is not None:
        # the variable wins over the file: give the file the default, the variable the other
        loaded = config_with(**{key: _file(setting)})
        env = {setting.env: ENV_TEXT.get(key, str(other))}
        from_env = resolve({}, env, loaded)
        assert getattr(from_env, key) == other and from_env.source(key) == setting.env
        assert resolve({}, {setting.env: ""}, loaded).source(key) == "config.toml"  # empty: unset
    if setting.flag is not None:
        loaded = config_with(**{key: _file(setting)})
        env = {} if setting.env is None else {setting.env: _env_default(setting)}
        from_flag = resolve({flag_dest(setting) or "": other}, env, loaded)
        assert getattr(from_flag, key) == other and from_flag.source(key) == setting.flag
        # a flag not given (None) lets the others through
        assert resolve({flag_dest(setting) or "": None}, {}, loaded).source(key) == "config.toml"


def _file(setting: Any) -> Any:
    from spit_tui.settings.fields import toml_value

    return toml_value(setting.default)


def _env_default(setting: Any) -> str:
    return {"bell": "none", "reduced_motion": "full"}.get(setting.key, str(setting.default))


def test_a_bad_variable_is_one_line() -> None:
    with pytest.raises(SettingError, match=r"^SPIT_BELL: 'ding' is not one of"):
        resolve({}, {"SPIT_BELL": "ding"}, NOTHING)
    with pytest.raises(SettingError, match="TEXTUAL_ANIMATIONS"):
        resolve({}, {"TEXTUAL_ANIMATIONS": "lots"}, NOTHING)


def test_the_command_line_takes_the_variant_and_level_from_the_file(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """--target alone is refused under the default variant, taken under the file's."""
    assert main(["--target", "40"]) == 2
    assert "--target only applies to --variant points" in capsys.readouterr().err
    config_with(variant="points")
    args = ["--target", "40", "--position", "not a position"]
    assert main(args) == 2  # past the target check: the position is refused
    assert "--position" in capsys.readouterr().err
    assert main(["--variant", "standard", "--target", "40"]) == 2


def test_settings_show_says_where_each_comes_from(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    config_with(level="hard", bell=["slap"])
    monkeypatch.setenv("TEXTUAL_THEME", "nord")
    assert main(["settings", "--show"]) == 0
    out = capsys.readouterr().out
    assert "level" in out and "hard" in out and "(config.toml)" in out
    assert "nord" in out and "(TEXTUAL_THEME)" in out
    assert "(default)" in out
    assert main(["settings", "--show", "--theme", "dracula"]) == 0
    assert "dracula" in capsys.readouterr().out


# -- saving ---------------------------------------------------------------------------


def test_save_writes_whole_private_and_keeps_unknown_keys() -> None:
    path = write(
        default_path(),
        'theme = "nord"\nfuture_setting = 3\n\n[plugins.deep]\nlist = [{a = 1}, {b = "x"}]\n',
    )
    os.chmod(path.parent, 0o755)
    assert save({"bell": frozenset({"slap"}), "theme": "dracula"}) is None
    table = tomllib.loads(path.read_text("utf-8"))
    assert table["theme"] == "dracula" and table["bell"] == ["slap"]
    assert table["future_setting"] == 3
    assert table["plugins"] == {"deep": {"list": [{"a": 1}, {"b": "x"}]}}
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    assert [p.name for p in path.parent.iterdir()] == ["config.toml"]  # no temporary left
    assert load().values["theme"] == "dracula"


def test_save_makes_the_folder_0700() -> None:
    assert save({"reduced_motion": True}) is None
    path = default_path()
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    assert load().values == {"reduced_motion": True}


def test_a_link_to_a_settings_file_is_written_through() -> None:
    """A dotfiles manager's link stays a link; the file it points to changes."""
    real = write(default_path().parent.parent / "dotfiles" / "spit.toml", 'theme = "nord"\n')
    default_path().parent.mkdir(parents=True, exist_ok=True)
    default_path().symlink_to(real)
    assert save({"theme": "dracula"}) is None
    assert default_path().is_symlink()
    assert tomllib.loads(real.read_text("utf-8"))["theme"] == "dracula"


def _zero_link(path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.symlink_to("/dev/zero")


FAULTS: dict[str, Any] = {
    "bad TOML": lambda p: write(p, 'theme = "nord\nbell = [\n'),
    "wrong types": lambda p: write(p, 'theme = 7\nbell = "spit"\nreduced_motion = "yes"\n'),
    "not UTF-8": lambda p: (
        p.parent.mkdir(parents=True, exist_ok=True), p.write_bytes(b"\xff\xfe")
    ),
    "a directory": lambda p: p.mkdir(parents=True),
    "a link to /dev/zero": _zero_link,
    "too big": lambda p: write(p, "# " + "x" * 70_000 + "\n"),
    "deep nesting": lambda p: write(p, "x = " + "[" * 5000 + "]" * 5000 + "\n"),
}


def _snapshot(path: Path) -> tuple[Any, ...]:
    st_ = os.lstat(path)
    content = b""
    if stat.S_ISREG(st_.st_mode):
        content = path.read_bytes()
    return (st_.st_mode, st_.st_mtime_ns, st_.st_size, content, os.listdir(path.parent))


@pytest.mark.parametrize("fault", FAULTS, ids=list(FAULTS))
def test_a_bad_file_is_one_line_the_defaults_and_left_unchanged(fault: str) -> None:
    path = default_path()
    FAULTS[fault](path)
    before = _snapshot(path)
    loaded = load()
    assert loaded.problem is not None and "\n" not in loaded.problem
    assert loaded.problem.startswith("config.toml: ")
    assert "left as it is" in loaded.problem
    assert len(loaded.problem) < 240
    s = resolve({}, {}, loaded)
    assert s == Settings()  # the defaults for everything the file could not give
    refused = save({"theme": "nord"})
    assert refused is not None and refused.startswith("not saved")
    assert _snapshot(path) == before


def test_an_unreadable_file_is_one_line_and_left_unchanged(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """(Tests run as root, who reads a mode-000 file: the refusal is made by the system call.)"""
    path = write(default_path(), 'theme = "nord"\n')
    before = _snapshot(path)
    import spit_tui.settings.configfile as configfile

    def refuse(p: Any, limit: int) -> bytes:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(configfile, "read_small", refuse)
    loaded = load()
    assert loaded.problem == (
        "config.toml: cannot read it: Permission denied; using the defaults (the file is left "
        "as it is)"
    )
    assert save({"theme": "dracula"}) is not None
    assert _snapshot(path) == before


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads a mode-000 file")
def test_a_mode_000_file_is_left_unchanged() -> None:
    path = write(default_path(), 'theme = "nord"\n')
    path.chmod(0)
    assert load().problem is not None
    assert save({"theme": "dracula"}) is not None
    assert stat.S_IMODE(path.stat().st_mode) == 0


def test_one_bad_value_keeps_the_others() -> None:
    write(default_path(), 'theme = "no-such"\nlevel = "hard"\n')
    loaded = load()
    assert loaded.values == {"level": "hard"}
    assert loaded.problem is not None and loaded.problem.startswith("config.toml: theme: ")
    assert resolve({}, {}, loaded).theme == "textual-dark"


def test_a_failed_write_leaves_the_old_file(monkeypatch: pytest.MonkeyPatch) -> None:
    path = write(default_path(), 'theme = "nord"\n')
    before = path.read_bytes()
    def full(*args: Any, **kwargs: Any) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    line = save({"theme": "dracula"})
    assert line == "not saved: config.toml: No space left on device"
    assert path.read_bytes() == before
    assert [p.name for p in path.parent.iterdir()] == ["config.toml"]


_VALUES = st.recursive(
    st.booleans()
    | st.integers(-(2**63), 2**63 - 1)
    | st.text(max_size=8)
    | st.floats(allow_nan=False),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=8,
)


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(st.dictionaries(st.text(max_size=6).filter(lambda k: k not in BY_KEY), _VALUES, max_size=4))
def test_any_unknown_keys_survive_a_save(unknown: dict[str, Any]) -> None:
    path = default_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    import tomli_w

    path.write_text(tomli_w.dumps(unknown), encoding="utf-8")
    assert save({"suits": "four"}) is None
    table = tomllib.loads(path.read_text("utf-8"))
    assert table.pop("suits") == "four"
    assert table == unknown
    path.unlink()


def test_the_readme_documents_every_setting_and_the_order() -> None:
    """README's table names each setting's key, flag and variable, as the resolver has them."""
    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text("utf-8")
    section = readme[readme.index("### Settings") :]
    assert "a **flag** on the command line\nwins over an **environment variable**" in section
    rows = {}
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip("|").split("|")]
        if line.startswith("| `") and len(cells) == 4:
            rows[cells[0].strip("`")] = cells
    assert set(rows) == {s.key for s in SETTINGS}
    for s in SETTINGS:
        _, _, flag, env = rows[s.key]
        assert (s.flag or "") in flag and (s.flag is None) == (flag == ""), s.key
        assert (s.env or "") in env and (s.env is None) == (env == ""), s.key


def test_the_daily_deal_stays_standard_whatever_the_settings(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The same game for everyone: a player's default variant does not reach it."""
    from spit_tui import cli, dailycmd

    config_with(variant="points", target=40)
    seen: list[Any] = []
    monkeypatch.setattr(cli, "_play", lambda args, argv: seen.append(args) or 0)
    assert dailycmd.main(["--no-history"]) == 0
    assert seen[0].variant == "standard"


def test_the_computers_level_comes_from_the_file_unless_a_flag_gives_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`--vs-computer` plays the file's level; `--level` wins; `--demo` never gets auto."""
    from spit_tui import cli
    from spit_tui.engine import Player

    config_with(level="hard")
    made: list[Any] = []
    monkeypatch.setattr(cli, "_run", lambda app, board, args: made.append(app) or 0)
    monkeypatch.setattr(cli.Board, "check_terminal", lambda self: None)
    for argv, level in (
        (["--vs-computer", "--no-history"], "hard"),
        (["--vs-computer", "--no-history", "--level", "easy"], "easy"),
    ):
        assert main(argv) == 0
        assert made[-1].computer_levels() == {Player.RIGHT: level}
    config_with(level="auto")
    assert main(["--demo"]) == 0
    assert set(made[-1].computer_levels().values()) == {"normal"}
