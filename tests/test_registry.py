"""The one game registry (``gameplay.rules.registry``) and loud failures of a broken game module (issue 10)."""

from __future__ import annotations

import sys

import pytest

import ai.agents.profiles as profiles
from gameplay.rules.base import Game, GameError
from gameplay.rules.registry import (
    GAME_NAMES,
    GAMES,
    GameLoadError,
    UnknownGameError,
    game_info,
    game_names,
    game_title,
    make_game,
    normalize_name,
)


def test_names_titles_and_games() -> None:
    assert GAME_NAMES[:4] == ("tictactoe", "checkers", "pig", "connect4")  # in menu order (a new game comes after)
    assert [g.title for g in GAMES][:4] == ["Tic-tac-toe", "English checkers", "Pig", "Connect Four"]
    assert GAME_NAMES == tuple(g.name for g in GAMES) == game_names()
    for name in GAME_NAMES:
        game = make_game(name)
        assert isinstance(game, Game) and game.name == name
    assert make_game(" Checkers ").name == "checkers"
    assert game_info("PIG").noun == "Pig"


def test_unknown_game_is_bad_input() -> None:
    with pytest.raises(UnknownGameError) as e:
        make_game("chess")
    assert isinstance(e.value, GameError)
    assert str(e.value) == f"unknown game 'chess'; expected one of {', '.join(GAME_NAMES)} or game:PATH.py"
    assert str(e.value).startswith("unknown game 'chess'; expected one of tictactoe, checkers, pig, connect4")
    with pytest.raises(GameError, match="unknown game"):
        normalize_name("x" * 500)


def test_every_name_list_is_the_registry() -> None:
    from gameplay.files import settings
    assert profiles.available_games() == game_names() == GAME_NAMES
    assert tuple(settings.Settings().games) == GAME_NAMES
    for info in GAMES:
        assert profiles.profile_for(info.name).game.name == info.name
        assert game_title(info.name) == info.title and game_title(info.name, "noun") == info.noun


def test_no_table_outside_the_records_repeats_a_game_name() -> None:
    """The per-game knowledge lives in the records: no module outside a game's own modules compares a game's name
    with a literal (the issue's acceptance: ``grep -rn 'game == ' gameplay ai``)."""
    import pathlib
    import re
    root = pathlib.Path(__file__).resolve().parents[1]
    own = re.compile(r"(tictactoe|checkers|pig)[_a-z]*\.py$|_bench\.py$|bench(_ui)?\.py$")
    offenders = [f"{p.relative_to(root)}:{n}" for folder in ("gameplay", "ai") for p in (root / folder).rglob("*.py")
                 if not own.search(p.name)
                 for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1) if "game == " in line]
    assert offenders == []


def test_a_broken_rules_module_raises_game_load_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "gameplay.rules.pig", None)  # importing it now raises ImportError
    with pytest.raises(GameLoadError) as e:
        make_game("pig")
    assert not isinstance(e.value, (GameError, ImportError))  # never "bad input", never swallowed as optional
    assert e.value.module == "gameplay.rules.pig"
    assert "cannot import gameplay.rules.pig" in str(e.value) and "halted" in str(e.value)
    assert isinstance(e.value.__cause__, ImportError)


@pytest.mark.parametrize("module", ["ai.checkers.checkers_eval", "gameplay.rules.checkers.checkers"])
def test_profile_for_does_not_report_a_broken_module_as_an_unknown_game(monkeypatch: pytest.MonkeyPatch,
                                                                        module: str) -> None:
    monkeypatch.setattr(profiles, "_cache", {})
    monkeypatch.delitem(sys.modules, "ai.checkers.checkers_eval", raising=False)  # re-imported: sees the broken module
    monkeypatch.setitem(sys.modules, module, None)
    with pytest.raises(GameLoadError) as e:
        profiles.profile_for("checkers")
    assert "unknown game" not in str(e.value)
    assert f"{module} halted" in str(e.value)  # the underlying ImportError
    assert "cannot import " in str(e.value)
    assert profiles.profile_for("tictactoe").game.name == "tictactoe"  # the others still load
    with pytest.raises(GameError, match="unknown game 'chess'"):
        profiles.profile_for("chess")
