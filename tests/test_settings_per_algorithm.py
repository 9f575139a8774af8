"""Per-algorithm agent settings (issue 46): ``AgentSettings`` keeps the common settings, the alpha-beta family's
switches (``SearchSwitches``) and MCTS's own (``MCTSSettings``); a key that does not apply to the algorithm is refused
unless it has its default (old specs carry every switch for every algorithm), and ``spec()`` writes only the keys that
apply."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import fields
from pathlib import Path

import pytest

from ai.agents.agent_base import (
    ALGORITHMS,
    APPLIES_TO,
    MCTS_KEYS,
    SEARCH_KEYS,
    AgentError,
    AgentSettings,
    MCTSSettings,
    SearchSwitches,
    applies,
)
from ai.agents.agent_file import file_settings
from ai.agents.agents import applying_spec, build_agent, make_agent, parse_settings
from ai.agents.profiles import profile_for
from gameplay.files import savegame
from gameplay.files.settings import SideSettings
from gameplay.files.settings_agents import build_side_agent, side_spec
from gameplay.rules.registry import game_names

ROOT = Path(__file__).resolve().parent.parent

OTHER_VALUE = {"prune": "gt", "simulations": 500, "c": 0.5, "playout": "eval:4"}
"""A value other than the default for each key that is not on/off (an on/off key: the default flipped)."""


def _other(key: str) -> str:
    if key in OTHER_VALUE:
        return str(OTHER_VALUE[key])
    default = AgentSettings(name="", algorithm="").value_of(key)
    assert isinstance(default, bool), key
    return "off" if default else "on"


def _spec_keys(spec: str) -> list[str]:
    """The keys a spec ``NAME:key=value,...`` writes, in order."""
    return [part.partition("=")[0] for part in spec.partition(":")[2].split(",") if part]


def _game_of(algorithm: str) -> str:
    """A game that plays ``algorithm`` (checkers has a weighted evaluation, so ``playout=eval:N`` is a fair value)."""
    return "pig" if algorithm in ("expectimax", "optimal") else "checkers"


# ----- the refusal ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("spec", "game", "message"), [
    ("mcts:quiescence=on", "tictactoe", "quiescence applies to minimax and alphabeta, not mcts"),
    ("minimax:simulations=500", "tictactoe", "simulations applies to mcts, not minimax"),
    ("expectimax:quiescence=on", "pig", "quiescence applies to minimax and alphabeta, not expectimax"),
    ("minimax:lmr=on", "checkers", "lmr applies to alphabeta, not minimax"),
    ("random:tt=off", "connect4", "tt applies to minimax, alphabeta and expectimax, not random"),
    ("optimal:prune=gt", "pig", "prune applies to alphabeta, not optimal"),
    ("mcts:timeman=on,time=1", "checkers", "timeman applies to minimax, alphabeta and expectimax, not mcts"),
])
def test_a_key_that_does_not_apply_is_refused_with_one_line(spec: str, game: str, message: str) -> None:
    with pytest.raises(AgentError) as e:
        parse_settings(spec, profile_for(game))
    assert str(e.value) == message


def test_every_key_that_does_not_apply_is_refused_and_loads_at_its_default() -> None:
    refused = 0
    for algorithm in ALGORITHMS:
        game = _game_of(algorithm)
        profile = profile_for(game)
        if algorithm not in profile.algorithms:
            continue
        for key in SEARCH_KEYS + MCTS_KEYS:
            if applies(key, algorithm):
                continue
            with pytest.raises(AgentError, match=f"^{key} applies to .*, not {algorithm}$"):
                parse_settings(f"{algorithm}:{key}={_other(key)}", profile)
            refused += 1
            default = AgentSettings(name="", algorithm="").value_of(key)
            text = ("on" if default else "off") if isinstance(default, bool) else default
            if text is not None:  # simulations has no default to write
                s = parse_settings(f"{algorithm}:{key}={text}", profile)
                assert s == parse_settings(algorithm, profile), (algorithm, key)
                assert key not in _spec_keys(s.spec()), (algorithm, key)  # spec() writes only the keys that apply
    assert refused > 60  # 7 algorithms, 21 keys: most pairs do not apply


def test_every_key_applies_to_some_algorithm_and_every_other_value_is_taken_where_it_applies() -> None:
    for key in SEARCH_KEYS + MCTS_KEYS:
        assert APPLIES_TO[key], key
        for algorithm in APPLIES_TO[key]:
            game = "pig" if algorithm == "expectimax" else "checkers"
            s = parse_settings(f"{algorithm}:{key}={_other(key)}", profile_for(game))
            assert str(s.value_of(key)) == {"on": "True", "off": "False"}.get(_other(key), _other(key))
            assert key in _spec_keys(s.spec())


def test_the_record_itself_refuses_a_setting_that_does_not_apply() -> None:
    with pytest.raises(AgentError, match="^solver applies to mcts, not alphabeta$"):
        AgentSettings(name="x", algorithm="alphabeta", mcts=MCTSSettings(solver=True))
    with pytest.raises(AgentError, match="^lmr applies to alphabeta, not minimax$"):
        make_agent("checkers", "minimax").settings.with_keys({"lmr": True})
    s = make_agent("tictactoe", "alphabeta:lmr=on").settings
    with pytest.raises(AgentError, match="^lmr applies to alphabeta, not mcts$"):
        s.with_keys({"algorithm": "mcts"})


def test_the_command_line_refuses_it_with_exit_2_and_one_line() -> None:
    r = subprocess.run([sys.executable, "main.py", "analyze", "tictactoe", "--agent", "mcts:quiescence=on",
                        "--json"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.strip().splitlines() == ["error: quiescence applies to minimax and alphabeta, not mcts"]
    r = subprocess.run([sys.executable, "main.py", "analyze", "tictactoe", "--agent",
                        "mcts:quiescence=off,ordering=on,simulations=20,seed=1", "--json"], cwd=ROOT,
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["agent"]["quiescence"] is False


def test_an_evaluation_file_refuses_a_switch_its_search_does_not_take(tmp_path: Path) -> None:
    f = tmp_path / "pig_bot.py"
    f.write_text("SETTINGS = {'depth': 2, 'quiescence': True}\ndef evaluate(state, player):\n    return 0.0\n")
    with pytest.raises(AgentError, match="quiescence applies to minimax and alphabeta, not expectimax"):
        file_settings(profile_for("pig"), str(f))
    f.write_text("SETTINGS = {'depth': 2, 'tt': False}\ndef evaluate(state, player):\n    return 0.0\n")
    s = file_settings(profile_for("pig"), str(f))
    assert s.searched_by == "expectimax" and s.search.tt is False and s.spec().endswith("pig_bot.py:depth=2,tt=off")
    assert s.to_json()["search"] == "expectimax"


# ----- old specs and saved games ----------------------------------------------------------------------------------
OLD_SPECS = {
    # spec() of the code before issue 46 (commit efb3c40): every switch for every algorithm, MCTS's keys for mcts
    ("tictactoe", "human"): "human:ordering=on,tt=on,quiescence=off,lmr=off,aspiration=off,etc=off,db=off,book=off,"
    "lmrsafe=off,extend=off,shots=off,threats=off,truncate=off,timeman=off,partial=off,weights=default,prune=ge",
    ("checkers", "random"): "random:seed=4,ordering=on,tt=on,quiescence=off,lmr=off,aspiration=off,etc=off,db=off,"
    "book=off,lmrsafe=off,extend=off,shots=off,threats=off,truncate=off,timeman=off,partial=off,weights=default,"
    "prune=ge",
    ("checkers", "minimax"): "minimax:depth=4,ordering=on,tt=on,quiescence=off,lmr=off,aspiration=off,etc=off,db=off,"
    "book=off,lmrsafe=off,extend=off,shots=off,threats=off,truncate=off,timeman=off,partial=off,weights=default,"
    "prune=ge",
    ("checkers", "alphabeta"): "alphabeta:depth=6,time=2.0,seed=5,ordering=on,tt=on,quiescence=on,lmr=on,"
    "aspiration=on,etc=on,db=on,book=on,lmrsafe=on,extend=on,shots=on,threats=on,truncate=on,timeman=on,partial=on,"
    "weights=default,prune=gt",
    ("checkers", "expert"): "alphabeta:time=1.0,ordering=on,tt=on,quiescence=on,lmr=on,aspiration=off,etc=off,db=on,"
    "book=on,lmrsafe=off,extend=off,shots=off,threats=off,truncate=off,timeman=off,partial=off,weights=acf,prune=ge",
    ("pig", "expectimax"): "expectimax:depth=3,time=0.5,ordering=on,tt=off,quiescence=off,lmr=off,aspiration=off,"
    "etc=off,db=off,book=off,lmrsafe=off,extend=off,shots=off,threats=off,truncate=off,timeman=on,partial=off,"
    "weights=default,prune=ge",
    ("pig", "beginner"): "minimax:depth=4,time=0.3,ordering=on,tt=on,quiescence=off,lmr=off,aspiration=off,etc=off,"
    "db=off,book=off,lmrsafe=off,extend=off,shots=off,threats=off,truncate=off,timeman=off,partial=off,"
    "weights=default,prune=ge",
    ("pig", "optimal"): "optimal:ordering=on,tt=on,quiescence=off,lmr=off,aspiration=off,etc=off,db=off,book=off,"
    "lmrsafe=off,extend=off,shots=off,threats=off,truncate=off,timeman=off,partial=off,weights=hold20,prune=ge",
    ("checkers", "mcts"): "mcts:time=0.5,seed=3,ordering=on,tt=on,quiescence=off,lmr=off,aspiration=off,etc=off,"
    "db=off,book=off,lmrsafe=off,extend=off,shots=off,threats=off,truncate=off,timeman=off,partial=off,reuse=on,"
    "solver=on,simulations=200,c=0.7,playout=eval:4,clock=cpu,weights=default,prune=ge",
    ("connect4", "mcts"): "mcts:time=1.0,ordering=on,tt=on,quiescence=off,lmr=off,aspiration=off,etc=off,db=off,"
    "book=off,lmrsafe=off,extend=off,shots=off,threats=off,truncate=off,timeman=off,partial=off,reuse=off,"
    "solver=off,c=1.4142135623730951,playout=random,weights=default,prune=ge",
}
"""Old spec strings (saved games, match reports) as the code before this change wrote them."""

NEW_SPECS = {
    ("tictactoe", "human"): "human:weights=default",
    ("checkers", "random"): "random:seed=4,weights=default",
    ("checkers", "minimax"): "minimax:depth=4,ordering=on,tt=on,quiescence=off,db=off,book=off,timeman=off,"
    "partial=off,weights=default",
    ("pig", "expectimax"): "expectimax:depth=3,time=0.5,tt=off,timeman=on,weights=default",
    ("pig", "optimal"): "optimal:weights=hold20",
    ("checkers", "mcts"): "mcts:time=0.5,seed=3,reuse=on,solver=on,simulations=200,c=0.7,playout=eval:4,clock=cpu,"
    "weights=default",
}
"""What ``spec()`` writes for them now (only the keys that apply)."""


@pytest.mark.parametrize(("game", "what"), list(OLD_SPECS))
def test_old_spec_strings_still_load_to_the_same_settings(game: str, what: str) -> None:
    old = parse_settings(OLD_SPECS[game, what], profile_for(game))
    again = parse_settings(old.spec(), profile_for(game))
    assert again == old
    if (game, what) in NEW_SPECS:
        assert old.spec() == NEW_SPECS[game, what]
    build_agent(profile_for(game), old)


def test_the_old_specs_values_survive() -> None:
    m = parse_settings(OLD_SPECS["checkers", "mcts"], profile_for("checkers"))
    assert m.mcts == MCTSSettings(simulations=200, c=0.7, playout="eval:4", reuse=True, solver=True)
    assert (m.time_budget_s, m.seed, m.clock, m.search) == (0.5, 3, "cpu", SearchSwitches())
    a = parse_settings(OLD_SPECS["checkers", "alphabeta"], profile_for("checkers"))
    assert all(getattr(a.search, f.name) is True for f in fields(SearchSwitches) if f.name not in ("prune", "exact"))
    assert a.search.exact is False  # newer than the spec: its default
    assert a.search.prune == "gt" and (a.depth, a.time_budget_s, a.seed) == (6, 2.0, 5)
    e = parse_settings(OLD_SPECS["pig", "expectimax"], profile_for("pig"))
    assert (e.search.tt, e.search.timeman) == (False, True)


OLD_JSON_KEYS = {"algorithm", "aspiration", "book", "c", "clock", "custom_weights", "db", "depth", "etc", "extend",
                 "lmr", "lmrsafe", "name", "ordering", "partial", "playout", "prune", "quiescence", "reuse", "seed",
                 "shots", "simulations", "solver", "threats", "time", "timeman", "truncate", "tt", "weights",
                 "exact"}
"""The keys of ``to_json()`` before this change (CLI.md's ``{settings}``), for every algorithm, and ``exact`` (the exact
solver's switch, issue 49: a new key, off in every old spec)."""


@pytest.mark.parametrize("game", game_names())
def test_every_preset_and_algorithm_round_trips_through_its_spec_and_keeps_its_json_keys(game: str) -> None:
    profile = profile_for(game)
    names = [a for a in profile.algorithms] + list(profile.presets)
    assert set(profile.presets) == {"beginner", "easy", "medium", "hard", "expert"}
    for name in names:
        s = parse_settings(name, profile)  # a preset setting a key its algorithm does not take is refused here
        build_agent(profile, s)
        again = parse_settings(s.spec(), profile)
        assert again.with_keys({"name": s.name}) == s, (game, name, s.spec())
        assert set(s.to_json()) == OLD_JSON_KEYS, (game, name)
        assert all(applies(k, s.algorithm) for k in _spec_keys(s.spec())), name


def test_a_saved_game_of_an_older_version_drops_what_did_not_apply(tmp_path: Path) -> None:
    # the window wrote a side's cutoff test for every searching algorithm: a custom Pig expectimax side with "gt"
    old = OLD_SPECS["pig", "expectimax"].replace("prune=ge", "prune=gt")
    with pytest.raises(AgentError, match="^prune applies to alphabeta, not expectimax$"):
        parse_settings(old, profile_for("pig"))
    assert applying_spec(old, profile_for("pig"))[1] == ("prune=gt",)
    side = dict(parse_settings(OLD_SPECS["pig", "expectimax"], profile_for("pig")).to_json(), prune="gt")
    agent, notes = savegame.restore_agent("pig", old, side)
    assert notes == ["its prune=gt did not apply to expectimax and was dropped"]
    assert agent.settings == parse_settings(OLD_SPECS["pig", "expectimax"], profile_for("pig"))
    agent, notes = savegame.restore_agent("pig", "medium", dict(side, name="medium", depth=1, weights="simple"))
    assert len(notes) == 1 and notes[0].startswith("its prune") and "did not apply to expectimax" in notes[0]
    assert agent.settings.search.prune == "ge" and agent.settings.name == "medium"
    agent, notes = savegame.restore_agent("pig", OLD_SPECS["pig", "expectimax"], side | {"prune": "ge"})
    assert notes == []


def test_the_windows_cutoff_test_goes_only_to_alpha_beta() -> None:
    for agent, algorithm in (("medium", "alphabeta"), ("custom", "minimax"), ("custom", "expectimax")):
        side = SideSettings(agent=agent, algorithm=algorithm, depth=2, prune="gt")
        for game in ("checkers", "pig"):
            if agent == "custom" and algorithm not in profile_for(game).algorithms:
                continue
            built = build_side_agent(game, side)
            takes = applies("prune", built.settings.algorithm)
            assert built.settings.search.prune == ("gt" if takes else "ge"), (game, agent, algorithm)
            assert ("prune=gt" in side_spec(game, side)) == takes, (game, agent, algorithm)


def test_the_tree_lab_refuses_another_algorithms_setting_unless_at_its_default() -> None:
    from ai.teaching.treelab import parse_tree_agent
    with pytest.raises(AgentError, match="^Tree Lab agent setting ordering applies to minimax and alphabeta, "
                                         "not expectimax$"):
        parse_tree_agent("expectimax:ordering=on")
    with pytest.raises(AgentError, match="^Tree Lab agent setting prune applies to alphabeta, not minimax$"):
        parse_tree_agent("minimax:prune=gt")
    assert parse_tree_agent("expectimax:ordering=off,prune=ge") == parse_tree_agent("expectimax")
    assert parse_tree_agent("minimax:ordering=on").ordering is True


def test_an_agent_toml_file_follows_the_same_rule(tmp_path: Path) -> None:
    f = tmp_path / "bot.toml"
    f.write_text('name = "mcts"\nsimulations = 50\nquiescence = true\n')
    with pytest.raises(AgentError, match="^quiescence applies to minimax and alphabeta, not mcts$"):
        parse_settings(str(f), profile_for("tictactoe"))
    f.write_text('name = "mcts"\nsimulations = 50\nquiescence = false\nprune = "ge"\n')
    s = parse_settings(str(f), profile_for("tictactoe"))
    assert s.mcts.simulations == 50 and s.spec() == "mcts:reuse=off,solver=off,simulations=50,c=1.4142135623730951," \
                                                     "playout=random,weights=default"


@pytest.mark.parametrize("quiescence", [True, False])
def test_the_readers_that_ask_for_a_switch_by_name_find_it_in_its_record(quiescence: bool) -> None:
    """The decision's recorder (its cutoff rule), the decision's notes (quiescence) and the worker's warm-up (book,
    databases) look a switch up by name, duck-typed: each finds it in ``settings.search``."""
    from ai.agents.agent_child import warm_up
    from ai.teaching.decision_model import decision_info
    from ai.teaching.decision_tree import make_recorder, record_decision_model
    agent = make_agent("tictactoe", "alphabeta:depth=2,prune=gt")
    rec = make_recorder(agent.game, agent, agent.game.initial_state())
    assert rec is not None and rec.prune == "gt"
    spec = f"alphabeta:depth=2,quiescence={'on' if quiescence else 'off'}"
    agent = make_agent("checkers", spec)
    game, state, res, rec = record_decision_model("checkers", None, spec)
    info = decision_info(game, state, agent, res, rec, rec.snapshot(tuple(res.pv)), player_name="Black",
                         move_text=str(res.move))
    assert ("Leaves include a capture (quiescence) search." in info.notes) == quiescence
    loaded: list[str] = []
    fake = type("P", (), {"endgame_loader": lambda self: loaded.append("db"),
                          "book_loader": lambda self: loaded.append("book")})()
    warm_up(fake, make_agent("checkers", "alphabeta:depth=1,db=on,book=on"))
    warm_up(fake, make_agent("checkers", "alphabeta:depth=1"))
    assert loaded == ["db", "book"]
