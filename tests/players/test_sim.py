"""`spit-tui sim`: the command line, its JSON and its determinism."""

from __future__ import annotations

import json

import pytest

from spit_tui.sim import main, wilson


def test_sim_json_is_deterministic_for_a_seed(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["--games", "4", "--left", "expert", "--right", "easy", "--seed", "7", "--json"]
    assert main(args) == 0
    first = capsys.readouterr().out
    assert main(args) == 0
    assert capsys.readouterr().out == first
    out = json.loads(first)
    assert out["games"] == 4 and out["left"]["level"] == "expert"
    assert out["left"]["wins"] + out["right"]["wins"] + out["capped"] == 4
    for key in ("mean_rounds", "mean_seconds", "cards_per_minute"):
        assert out[key] > 0


def test_sim_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--games", "2", "--variant", "points", "--left", "hard", "--right", "random"]) == 0
    text = capsys.readouterr().out
    assert "win rate" in text and "random" in text and "cards played per minute" in text


def test_sim_rejects_bad_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--left", "godlike"]) == 2
    assert "godlike" in capsys.readouterr().err
    assert main(["--games", "0"]) == 2


def test_wilson_interval() -> None:
    lo, hi = wilson(160, 200)
    assert 0.73 < lo < 0.8 < hi < 0.86
    assert wilson(0, 0) == (0.0, 1.0)


def test_sim_takes_rungs_and_auto(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["--games", "3", "--left", "12", "--right", "auto", "--seed", "2", "--json"]
    assert main(args) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["left"]["level"] == "12" and out["right"]["level"] == "auto"
    assert out["left"]["wins"] + out["right"]["wins"] + out["capped"] == 3


def test_sim_left_like_a_stored_player(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import spit_tui.sim as sim

    times = {"ann": [1.0, 1.2, 0.9]}
    monkeypatch.setattr(sim, "stored_reaction_times", lambda n, db=None: times.get(n, []))
    assert main(["--games", "2", "--left-like", "ann", "--right", "easy", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["left"]["level"] == "like ann" and out["games"] == 2
    assert main(["--left-like", "bob", "--right", "easy"]) == 2
    assert "no stored card times for 'bob'" in capsys.readouterr().err
