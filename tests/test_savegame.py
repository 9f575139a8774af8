"""Saved games (gameplay.files.savegame): JSON round trips, atomic autosave, corrupt files kept aside, and the
acceptance test: a match killed with SIGKILL is offered back, position intact, at the next start."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from ai.agents.profiles import game_for
from gameplay.files import autosave, savegame
from gameplay.rules.referee import GameRecord, sample_chance

ROOT = Path(__file__).resolve().parent.parent


def random_game(name: str, plies: int, seed: int = 1) -> GameRecord:
    game = game_for(name)
    rec = GameRecord(game, game.initial_state())
    rng = random.Random(seed)
    while rec.ply < plies and not game.is_terminal(rec.state):
        s = rec.state
        rec.play(sample_chance(game, s, rng) if game.is_chance(s) else rng.choice(list(game.actions(s))))
    return rec


@pytest.mark.parametrize("name,plies", [("tictactoe", 5), ("pig", 40), ("checkers", 20)])
def test_json_round_trip(tmp_path: Path, name: str, plies: int) -> None:
    rec = random_game(name, plies)
    saved = savegame.from_record(name, rec.game, rec.start, rec.moves, ["human", "hard"])
    path = savegame.save_game(saved, tmp_path / "game.json")
    obj = json.loads(path.read_text(encoding="utf-8"))
    assert obj["format"] == savegame.FORMAT and obj["version"] == savegame.VERSION
    assert obj["agents"] == ["human", "hard"] and len(obj["moves"]) == rec.ply
    if name == "pig":  # dice outcomes are part of the record
        assert any(m.startswith("die=") for m in obj["moves"])
    loaded = savegame.load_game(path)
    assert loaded == saved
    start, moves = loaded.replay(rec.game)
    assert start == rec.start and moves == rec.moves
    again = GameRecord(rec.game, start)
    for m in moves:
        again.play(m)
    assert again.state == rec.state


def test_bad_files_are_refused_with_one_clear_message(tmp_path: Path) -> None:
    p = tmp_path / "x.json"
    cases: list[tuple[str, str]] = [
        ("{not json", "not valid JSON"),
        (json.dumps({"format": "other"}), "not a saved game"),
        (json.dumps({"format": savegame.FORMAT, "version": 99}), "format version 99"),
        (json.dumps({"format": savegame.FORMAT, "version": 1, "game": "chess"}), "unknown game"),
        (json.dumps({"format": savegame.FORMAT, "version": 1, "game": "tictactoe", "start": ".........",
                     "moves": ["4", "4"], "agents": ["human", "easy"]}), r"ply 2 of the saved moves \('4'\)"),
    ]
    for text, expected in cases:
        p.write_text(text, encoding="utf-8")
        with pytest.raises(savegame.SaveError, match=expected):
            savegame.load_game(p)
        assert p.read_text(encoding="utf-8") == text  # a user's file is never changed


def test_autosave_is_atomic_and_cleared(tmp_path: Path) -> None:
    rec = random_game("tictactoe", 3)
    saved = savegame.from_record("tictactoe", rec.game, rec.start, rec.moves, ["human", "medium"])
    assert autosave.load_autosave(tmp_path) is None
    autosave.write_autosave(saved, tmp_path)
    autosave.write_autosave(saved, tmp_path)
    assert [p.name for p in tmp_path.iterdir()] == ["autosave-tictactoe.json"]  # no temporary file left behind
    back = autosave.load_autosave(tmp_path)
    # 3 plies: X, O, then X's ply of move 2; O plays next, still in move 2 (the moves list's numbering)
    assert back is not None and back.prompt() == "Resume your tic-tac-toe game (move 2)?"
    assert autosave.clear_autosave(tmp_path) and autosave.load_autosave(tmp_path) is None


def test_corrupt_autosave_is_kept_aside(tmp_path: Path) -> None:
    bad = autosave.autosave_path(tmp_path)
    bad.write_text('{"format": "adversarial-arcade-game", "version": 1, "game": "pig", "start": "0,0,0,1", '
                   '"moves": ["hold"], "agents": ["human", "easy"]}', encoding="utf-8")
    with pytest.raises(autosave.CorruptSaveError) as err:
        autosave.load_autosave(tmp_path)
    kept = err.value.kept_at
    assert kept is not None and kept.exists() and "corrupt" in kept.name and not bad.exists()
    assert "kept aside" in str(err.value)
    assert autosave.load_autosave(tmp_path) is None  # the next start is clean


def test_data_dir_honours_the_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv(autosave.DATA_DIR_ENV, str(tmp_path))
    assert autosave.autosave_path() == tmp_path / autosave.AUTOSAVE_NAME


def _wait_for_autosave(path: Path, plies: int, proc: subprocess.Popen[Any], timeout_s: float) -> dict[str, Any]:
    """The autosave at ``path`` once it holds ``plies`` moves: a file the window's process writes (read every 50 ms;
    ``timeout_s`` is a cap only a window that stopped playing reaches)."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        assert proc.poll() is None, proc.stderr.read() if proc.stderr else "the window exited"
        try:
            obj = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            obj = None  # not written yet (a torn file would fail here: the write is atomic)
        if obj is not None and len(obj["moves"]) >= plies:
            return obj
        time.sleep(0.05)
    raise AssertionError(f"no autosave with {plies} moves after {timeout_s} s")


def test_sigkill_mid_game_then_the_game_is_offered_back(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    data = tmp_path / "data"
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", ARCADE_DATA_DIR=str(data),
               ARCADE_CONFIG_DIR=str(tmp_path / "config"), PYGAME_HIDE_SUPPORT_PROMPT="1")
    proc = subprocess.Popen([sys.executable, "main.py", "play", "checkers", "--p1", "beginner", "--p2", "beginner"],
                            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        _wait_for_autosave(autosave.autosave_path(data, "checkers"), 3, proc, 120.0)  # a cap only a hang reaches
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
    assert proc.returncode == -signal.SIGKILL
    saved = autosave.load_autosave(data)  # complete and legal, whatever moment the kill came
    assert saved is not None and saved.game == "checkers" and saved.ply >= 3
    assert saved.agents == ("beginner", "beginner")
    start, moves = saved.replay(game_for("checkers"))

    # The next start offers it; Resume restores the position and both sides.
    monkeypatch.setenv("ARCADE_DATA_DIR", str(data))
    monkeypatch.setenv("ARCADE_CONFIG_DIR", str(tmp_path / "config"))
    from gameplay.ui.scenes.menu import MenuScene
    from gameplay.ui.shell.app import App
    app = App(size=(1280, 800), fps=1000)
    try:
        app.push(MenuScene())
        prompt = app.offer_autosave()
        from gameplay.rules.move_numbers import move_number  # the moves list's numbering: plies in pairs
        assert prompt is not None and prompt.text == f"Resume your checkers game (move {move_number(saved.ply)})?"
        app.run(max_frames=2)
        scene = app.resume_autosave()
        assert scene is not None and app.resume_prompt is None
        assert scene.record.start == start and scene.record.moves == moves
        assert [a.settings.name for a in scene.agents] == ["beginner", "beginner"]
    finally:
        app.close()
