"""The search kernel's typed seams (issue 24): the recorder protocol, the search's options record, the endgame
probe and piece count behind the game's traits, and the named records of the recorder's log and the memo.

Each test pins what the seam promises: the do-nothing recorder and the tree recorders are what the search calls;
the options keep the agents' switches; a game other than checkers can be probed through its own piece count
(the generic negamax reads no checkers bitboards); the logs and the memo hold named records."""

from __future__ import annotations

import functools
import math
import pickle

import pytest

from ai.agents.agents import make_agent
from ai.checkers.endgame_db import load_default
from ai.kernel.core import EndgameProbe, IterationRecorder, Recorder, SearchError
from ai.kernel.expectimax import Expectimax, MemoEntry
from ai.kernel.recording import NULL_RECORDER
from ai.kernel.search import Searcher, SearchLimits, SearchOptions, iterative_deepening
from ai.kernel.tt import TranspositionTable
from ai.pig.pig_agents import WEIGHT_PRESETS, PigEvaluation
from ai.teaching.tree_recorder import Cut, DecisionRecorder, Entered, Left, TreeRecorder
from gameplay.rules.base import GameTraits, PieceCount
from gameplay.rules.checkers.checkers import Checkers
from gameplay.rules.pig import Pig
from gameplay.rules.tictactoe import TicTacToe

T = TicTacToe()


def zero(state: object, player: int) -> float:
    return 0.0


# ----- the recorder protocol -----------------------------------------------------------------------------------
def test_the_recorders_are_what_the_search_calls() -> None:
    assert isinstance(NULL_RECORDER, Recorder) and not isinstance(NULL_RECORDER, IterationRecorder)
    for rec in (TreeRecorder(T, 0), DecisionRecorder(T, 0)):
        assert isinstance(rec, IterationRecorder)


def test_the_log_holds_named_records() -> None:
    rec = TreeRecorder(T, 0)
    s = Searcher(T, zero, recorder=rec)
    s.search_root(T.parse_position("X...O...."), 3)
    kinds = {type(e) for e in rec.log}
    assert kinds == {Entered, Left, Cut}
    entered = [e for e in rec.log if isinstance(e, Entered)]
    assert len(entered) == sum(isinstance(e, Left) for e in rec.log) == s.stats.nodes  # no quiescence here
    assert entered[0].ply == 0 and entered[0].move is None and entered[0].node_count == 1
    assert rec.snapshot().visited == s.stats.nodes


def test_a_pickled_recorder_keeps_its_records_and_tree() -> None:
    # the decision worker process sends the recorder back pickled
    rec = DecisionRecorder(T, 1)
    make_agent("tictactoe", "alphabeta:depth=4").choose(T.parse_position("X...O...X"), recorder=rec)
    back = pickle.loads(pickle.dumps(rec))
    assert [type(e) for e in back.log] == [type(e) for e in rec.log] and back.log == rec.log
    # the shared log stays shared: the last iteration's tree and the recorder's log are one object, pickled once
    # (a copy would double the bytes the worker sends back), before and after the trip
    assert len(pickle.dumps(rec)) < 1.5 * len(pickle.dumps(rec.log))
    assert len(pickle.dumps(back)) == len(pickle.dumps(rec))
    assert back.snapshot().text() == rec.snapshot().text()


# ----- the options record --------------------------------------------------------------------------------------
def test_options_defaults_and_refusals() -> None:
    o = SearchOptions()
    assert (o.pruning, o.prune, o.ordering, o.tt, o.quiescence, o.pvs, o.lmr, o.aspiration, o.etc) == \
        (True, "ge", True, False, False, True, False, None, False)
    with pytest.raises(SearchError, match="prune must be 'ge' or 'gt'"):
        SearchOptions(prune="gte")
    with pytest.raises(SearchError, match="aspiration"):
        SearchOptions(aspiration=-1.0)
    with pytest.raises(SearchError, match="table switched off"):
        Searcher(T, zero, SearchOptions(tt=False), table=TranspositionTable())


@pytest.mark.parametrize(("spec", "want"), [
    ("minimax:depth=3,quiescence=off", SearchOptions(pruning=False, ordering=False, tt=False)),
    ("alphabeta:depth=3,tt=off,ordering=off,quiescence=off", SearchOptions(ordering=False, tt=False)),
    ("alphabeta:depth=3,quiescence=on,lmr=on,etc=on", SearchOptions(tt=True, quiescence=True, lmr=True, etc=True)),
])
def test_agent_settings_become_options(spec: str, want: SearchOptions) -> None:
    agent = make_agent("checkers", spec)
    assert agent.make_searcher().options == want  # type: ignore[attr-defined]


def test_a_given_table_is_kept_and_filled() -> None:
    table: TranspositionTable[int] = TranspositionTable()
    s = Searcher(T, zero, SearchOptions(tt=True), table=table)
    s.search_root(T.initial_state(), 4)
    assert s.tt is table and len(table) > 0


# ----- the endgame probe and the piece count behind the game's traits ------------------------------------------
class CountedTicTacToe(TicTacToe):
    """Tic-tac-toe declaring a piece count: its empty cells (they only decrease, like checkers pieces)."""

    traits = GameTraits(move_order=False, piece_count=True)

    def pieces(self, state: str) -> int:
        return state.count(".")


class SolvedEndings:
    """A tic-tac-toe "database": the exact result of every position with at most ``max_pieces`` empty cells,
    solved by plain minimax, probed with the game's own states (strings: no bitboards to read)."""

    def __init__(self, game: TicTacToe, max_pieces: int) -> None:
        self.game = game
        self.max_pieces = max_pieces
        self.probed: list[str] = []

    @functools.cache  # noqa: B019 - one instance per test
    def solve(self, state: str) -> int:
        g = self.game
        if g.is_terminal(state):
            return int(g.utility(state, g.to_move(state)))
        return max(-self.solve(g.result(state, m)) for m in g.actions(state))

    def probe_state(self, state: str) -> int | None:
        self.probed.append(state)
        return self.solve(state) if state.count(".") <= self.max_pieces else None


def test_a_game_other_than_checkers_is_probed_through_its_own_count() -> None:
    game = CountedTicTacToe()
    tables = SolvedEndings(game, 4)
    assert isinstance(game, PieceCount) and isinstance(tables, EndgameProbe)
    s = Searcher(game, zero, endgame=tables)
    res = iterative_deepening(game, game.initial_state(), s, SearchLimits(depth=6))
    assert s.stats.db_hits > 0 and tables.probed and all(isinstance(p, str) for p in tables.probed)
    assert all(p.count(".") <= 4 for p in tables.probed)  # the search asks only inside the tables' reach
    assert res.value == 0.0  # tic-tac-toe is a draw; the tables answer the leaves the depth would guess


def test_a_database_needs_a_piece_count() -> None:
    with pytest.raises(SearchError, match="counts its pieces"):
        Searcher(T, zero, endgame=SolvedEndings(T, 4))


def test_checkers_counts_its_pieces_for_the_tables() -> None:
    g = Checkers()
    assert g.traits.piece_count and g.pieces(g.initial_state()) == 24
    s = g.parse_position("B:WK27,K32:BK14")
    assert g.pieces(s) == 3
    db = load_default()
    if db is None:
        pytest.skip("no endgame tables in assets/endgame")
    assert isinstance(db, EndgameProbe)
    assert db.probe_state(s) == db.probe(s.black, s.white, s.kings, s.turn) == -1  # one king against two loses


# ----- the expectimax memo -------------------------------------------------------------------------------------
def test_the_memo_holds_named_entries() -> None:
    pig = Pig(target=20)
    ex = Expectimax(pig, PigEvaluation(WEIGHT_PRESETS["default"]))
    state = pig.parse_position("10,12,3,1")
    ex.search_root(state, 3)
    assert ex.memo
    for (_state, depth), entry in ex.memo.items():
        assert isinstance(entry, MemoEntry) and isinstance(depth, int) and math.isfinite(entry.value)
    again = Expectimax(pig, PigEvaluation(WEIGHT_PRESETS["default"]))
    assert again.search_root(state, 3)[1] == ex.search_root(state, 3)[1]
    assert ex.stats.memo_hits > 0
