"""Tactical soundness of the checkers search (issue 27, lever 2): the shot set (``tools/shots.py``,
``tests/data/checkers_shots.tsv``), the bitboard tactical hooks (``ai.kernel.tactics``), and the three switches
``lmrsafe``, ``extend`` and ``shots`` (off by default; on, they still find what a plain search finds)."""

from __future__ import annotations

import random
import sys
from functools import partial
from pathlib import Path

import pytest

from ai.agents.agents import make_agent
from ai.checkers.checkers_bench import BENCH_POSITIONS
from ai.kernel.recording import NullRecorder
from ai.kernel.tactics import TacticalGame, is_tactical
from gameplay.rules.checkers.checkers import Checkers
from gameplay.rules.checkers.checkers_board import CheckersState

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from tools.shots import DEEP_SPEC, read_shots  # noqa: E402

GAME = Checkers()
SHOTS = read_shots()


def _random_states(n: int, seed: int) -> list[CheckersState]:
    rng = random.Random(seed)
    out: list[CheckersState] = []
    while len(out) < n:
        s = GAME.initial_state()
        for _ in range(rng.randint(4, 60)):
            moves = GAME.actions(s)
            if not moves:
                break
            s = GAME.successor(s, rng.choice(moves))
        out.append(s)
    return out


def test_the_shot_file_is_well_formed_and_its_moves_legal() -> None:
    assert 40 <= len(SHOTS) <= 100
    fens = set()
    for s in SHOTS:
        state = GAME.parse_position(s.fen)
        fens.add(GAME.format_position(state))
        assert s.side == GAME.player_names[GAME.to_move(state)]
        legal = {GAME.format_move(state, m) for m in GAME.actions(state)}
        assert set(s.best) <= legal and s.shallow in legal, s.fen
        assert s.shallow not in s.best and len(s.best) < len(legal)
        assert s.swing >= 80 and 1 <= s.depth <= 40
        assert GAME.pieces(state) >= 12
    assert len(fens) == len(SHOTS)  # no position twice


def test_a_depth_limited_search_finds_the_recorded_best_moves() -> None:
    cheap = sorted(SHOTS, key=lambda s: s.depth)[:3]
    for s in cheap:
        a = make_agent("checkers", f"{DEEP_SPEC},depth={s.depth},time=120")
        state = GAME.parse_position(s.fen)
        r = a.choose(state)
        assert GAME.format_move(state, r.move) in s.best, s.fen


def test_the_hooks_agree_with_the_move_generator() -> None:
    assert isinstance(GAME, TacticalGame)
    for s in _random_states(150, seed=27):
        for player in (0, 1):
            turned = CheckersState(s.black, s.white, s.kings, player)
            moves = GAME.legal_moves(turned)
            assert GAME.threatens(s, player) == bool(moves and moves[0].captures)
        for m in GAME.actions(s):
            child = GAME.successor(s, m)
            crowned = bool(child.kings & (1 << (m.path[-1] - 1))) and not s.kings & (1 << (m.path[0] - 1))
            assert GAME.is_promotion(s, m) == crowned
            if not m.captures:
                assert GAME.gives_capture(s, m) == bool(GAME.noisy_actions(child))


def test_a_move_into_or_out_of_a_threat_is_tactical() -> None:
    sharp = calm = 0
    for s in _random_states(60, seed=3):
        mover = GAME.to_move(s)
        for m in GAME.actions(s):
            child = GAME.successor(s, m)
            t = is_tactical(GAME, s, m, child, mover)
            want = (GAME.is_promotion(s, m) or bool(GAME.noisy_actions(child))
                    or GAME.threatens(s, 1 - mover))
            assert t == want
            sharp += t
            calm += not t
    assert sharp and calm


def test_the_switches_are_off_by_default_and_parsed() -> None:
    for name in ("alphabeta", "minimax", "expert"):
        s = make_agent("checkers", name).settings.search
        assert not (s.lmrsafe or s.extend or s.shots or s.threats), name
    b = make_agent("checkers", "alphabeta:lmr=on,lmrsafe=on,extend=on,shots=on,threats=on")
    opts = b.search_options()  # type: ignore[attr-defined]
    assert opts.lmr_safe and opts.extend and opts.shots
    assert opts.threats == 130.0  # 1.3 men (Cake's QLEVEL) with a man worth 100
    assert make_agent("checkers", "alphabeta").search_options().threats is None  # type: ignore[attr-defined]
    assert "lmrsafe=on" in b.settings.spec() and "shots=on" in b.settings.spec() and "threats=on" in b.settings.spec()


def test_lmrsafe_reduces_fewer_moves_at_the_same_depth() -> None:
    fen = BENCH_POSITIONS[0]
    r = {}
    for extra in ("", ",lmrsafe=on"):
        a = make_agent("checkers", f"alphabeta:depth=8,quiescence=on,lmr=on{extra}")
        r[extra] = a.choose(a.game.parse_position(fen))
    assert r[""].depth == r[",lmrsafe=on"].depth == 8
    assert 0 < r[",lmrsafe=on"].extra["reductions"] < r[""].extra["reductions"]


def test_extend_searches_forced_replies_deeper_and_keeps_a_forced_win() -> None:
    fen = "B:WK7:BK1"  # Black wins in 9 plies (tests/test_search_levers.py)
    for spec in ("alphabeta:depth=12,quiescence=on,extend=on", "alphabeta:depth=12,quiescence=on,lmr=on,"
                 "lmrsafe=on,extend=on,shots=on"):
        a = make_agent("checkers", spec)
        r = a.choose(a.game.parse_position(fen))
        assert (r.outcome, r.plies_to_end) == ("win", 9), spec
    a = make_agent("checkers", "alphabeta:depth=6,quiescence=on,extend=on")
    searcher = a.make_searcher()  # type: ignore[attr-defined]
    paths = PathExtensions()
    searcher.rec = paths  # the search's observer slot (ai.kernel.core.RecordedSearch): it reports every node
    state = GAME.parse_position(SHOTS[0].fen)
    searcher.search_root(state, 6)
    assert searcher.stats.extensions > 0 and paths.most > 0
    assert paths.most <= 3  # never more than half the nominal depth along a path


class PathExtensions(NullRecorder):
    """A recorder (``ai.kernel.core.Recorder``) that counts the forced-reply extensions on the path to each node the
    search enters, from its ``enter``, ``leave`` and ``depth_changed(1, "extension")`` calls."""

    def __init__(self) -> None:
        self.path = [0]
        self.most = 0
        """The most extensions seen on one path."""

    def enter(self, state: object, move: object, alpha: float, beta: float, ply: int, *, kind: str | None = None,
              probability: float | None = None, reduced: int = 0) -> None:
        self.path.append(self.path[-1])

    def leave(self, value: float, flag: int, alpha: float, beta: float, *, note: str = "",
              best_move: object = None) -> None:
        self.path.pop()

    def depth_changed(self, plies: int, reason: str) -> None:
        if reason == "extension":
            self.path[-1] += plies
            self.most = max(self.most, self.path[-1])


def _material_search(state: CheckersState, spec: str) -> tuple[float, str]:
    """A material-only quiescence search of ``state`` with the extra ``spec`` keys: (value, move)."""
    a = make_agent("checkers", f"alphabeta:weights=material,quiescence=on,tt=off,{spec}")
    r = a.choose(state)
    return r.value, GAME.format_move(state, r.move)


@pytest.mark.parametrize("fen", ["B:W18,19,21,23,27,28,29,30,31,32:B1,2,3,4,5,7,8,10,11,12,22",
                                 "B:WK2,19,21,23,26,27,29,30,31,32:B1,3,4,5,7,8,12,17"])
def test_quiescence_with_shots_sees_a_two_for_one_at_the_horizon(fen: str) -> None:
    state = GAME.parse_position(fen)
    run = partial(_material_search, state)
    deep = run("depth=5")
    assert run("depth=1,shots=on") == deep  # the offer and the recaptures, seen from depth 1
    assert run("depth=1")[0] < deep[0]  # without it, depth 1 does not see the shot


def test_spar_positions_are_our_decisions_before_the_lost_game_turned(tmp_path: Path) -> None:
    import json

    from gameplay.rules.checkers.ballots import load_ballots
    from tools.shots import spar_positions
    game = Checkers()
    ballot = load_ballots()[0]
    state = game.parse_position(ballot.fen)
    moves: list[str] = []
    for _ in range(12):  # White (us, our_side 1) moves first from the ballot; replies alternate
        m = sorted(game.actions(state), key=lambda x: game.format_move(state, x))[0]
        moves.append(game.format_move(state, m))
        state = game.result(state, m)
    # the engine's score first reaches 80 at its 4th move (index 3): ply 7; our decisions before it: plies 0-6
    values = [0, 10, 40, 95, 120, 130]
    lost = {"index": 4, "opening": ballot.label(), "our_side": 1, "winner": "engine", "moves": moves,
            "start": ballot.fen, "engine_values": values}
    drawn = dict(lost, index=5, winner=None)
    path = tmp_path / "j.jsonl"
    path.write_text(json.dumps(lost) + "\n" + json.dumps(drawn) + "\n")
    got = spar_positions(path, 2)
    assert [g[1] for g in got] == [moves[4], moves[6]]
    assert all("spar game 5" in g[2] for g in got)
    s = game.parse_position(ballot.fen)
    for text in moves[:6]:
        s = game.result(s, game.parse_move(s, text))
    assert got[1][0] == game.format_position(s)
    path.write_text("{broken\n")
    with pytest.raises(Exception, match="j.jsonl:1"):
        spar_positions(path, 2)


@pytest.mark.parametrize("fen", ["W:W24,28,29,30,31,32:B1,3,4,5,15,19,22", "B:W11,24,28,29,30,31,32:B1,2,3,4,5,12",
                                 "B:W10,20,28,29,32:B1,2,3,4,8,11,12,22"])
def test_threats_resolve_a_capture_threat_at_the_horizon(fen: str) -> None:
    """With ``threats`` a side left under a capture threat at depth 1's horizon does not stand pat: the value and
    move are a depth-5 search's (found by a seeded scan of random positions), which a plain depth 1 misses."""
    state = GAME.parse_position(fen)
    run = partial(_material_search, state)
    deep = run("depth=5")
    assert run("depth=1,threats=on") == deep
    assert run("depth=1")[0] != deep[0]  # a man off: the horizon hid the threat
    a = make_agent("checkers", "alphabeta:weights=material,quiescence=on,tt=off,depth=1,threats=on")
    searcher = a.make_searcher()  # type: ignore[attr-defined]
    searcher.search_root(state, 1)
    assert searcher.stats.threat_nodes > 0
