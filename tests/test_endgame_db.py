"""Checkers WLD endgame tables (``ai/checkers/endgame_db.py``, ``ai/checkers/endgame_build.py``,
``tools/build_endgame_db.py``).

Checks: the index round-trips; the two-kings-against-one sweep agrees with the README's measured facts; table
values equal the values that a deep alpha-beta search proves; every sampled position satisfies the Bellman
property (value = max over moves of -value(successor), no move = loss); a damaged file is refused clearly. The
shipped 4-piece file is required (``python tools/build_endgame_db.py`` writes it); the 3-piece tables are also
rebuilt here and must equal the shipped ones.
"""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path

import pytest

from ai.checkers import endgame_db as edb
from ai.checkers.endgame_build import build
from gameplay.rules.checkers.checkers import Checkers
from gameplay.rules.checkers.checkers_board import CheckersState
from gameplay.rules.checkers.checkers_notation import format_fen, parse_fen

ROOT = Path(__file__).resolve().parent.parent
G = Checkers()


@pytest.fixture(scope="module")
def db() -> edb.EndgameDB:
    d = edb.load_default()
    assert d is not None, f"no endgame tables: run `python tools/build_endgame_db.py` (looked in {edb.default_paths()})"
    assert d.max_pieces == 4
    return d


@pytest.fixture(scope="module")
def db3() -> edb.EndgameDB:
    return build(3)


def _random_position(rng: random.Random, m: edb.Material) -> tuple[int, int, int]:
    while True:
        pos = edb.position_of(m, rng.randrange(edb.table_size(m)))
        if pos is not None:
            return pos


def _sample(rng: random.Random, n: int, max_pieces: int = 4) -> list[CheckersState]:
    sigs = edb.signatures(max_pieces)
    out = []
    for _ in range(n):
        b, w, k = _random_position(rng, rng.choice(sigs))
        out.append(CheckersState(b, w, k, rng.randrange(2)))
    return out


def _value(d: edb.EndgameDB, s: CheckersState) -> int:
    v = d.probe(s.black, s.white, s.kings, s.turn)
    assert v is not None, format_fen(s)
    return v


# ----- index ---------------------------------------------------------------------------------------------------
def test_index_round_trips() -> None:
    rng = random.Random(1)
    for m in edb.signatures(4):
        for _ in range(200):
            i = rng.randrange(edb.table_size(m))
            pos = edb.position_of(m, i)
            if pos is None:
                continue
            assert edb.index_of(*pos) == (m, i)
            b, w, k = pos
            assert edb.material_of(b, w, k) == m
            assert not (b & w) and k & ~(b | w) == 0
            assert (b & ~k) >> 28 == 0 and (w & ~k) & 0xF == 0  # no man on its crown row
    m = (1, 1, 1, 1)
    assert [edb.position_of(m, i) for i in range(2000)] == [
        None if p[0] == 0 else p for p in edb.placements(m)[:2000]]
    with pytest.raises(IndexError):
        edb.position_of(m, edb.table_size(m))


def test_mirror_is_the_half_turn() -> None:
    for s in range(1, 33):
        assert edb.mirror(1 << (s - 1)) == 1 << (32 - s)
    rng = random.Random(2)
    for _ in range(100):
        x = rng.getrandbits(32)
        assert edb.mirror(edb.mirror(x)) == x


def test_signatures_and_sizes(db: edb.EndgameDB) -> None:
    sigs = edb.signatures(4)
    assert len(sigs) == 41 and len(set(sigs)) == 41
    assert sum(edb.table_size(m) for m in sigs) == 7_455_300
    assert set(db.offsets) == set(sigs)
    with pytest.raises(ValueError):
        edb.signatures(5)


def test_probe_covers_only_up_to_four_pieces(db: edb.EndgameDB) -> None:
    assert db.probe(*_bits("B:W21,22,23:B1,2"), 0) is None  # five pieces
    assert db.probe(0, 1 << 20, 0, 0) is None  # Black has no piece
    assert db.probe(1 << 29, 1 << 20, 0, 0) is None  # a Black man on 30
    assert db.probe(*_bits("B:WK22:BK1"), 0) == 0
    assert db.probe(*_bits("B:W18:B14"), 0) == 1  # 14x23 takes the last piece
    assert db.probe(*_bits("W:W18:B14"), 1) == 1  # 18x9


def _bits(fen: str) -> tuple[int, int, int]:
    s = parse_fen(fen)
    return s.black, s.white, s.kings


# ----- known facts ----------------------------------------------------------------------------------------------
def test_two_kings_against_one(db: edb.EndgameDB) -> None:
    """Every placement of two Black kings against one White king, either side to move. README (tools/kings_sweep
    with the expert): of the 7,051 placements up to symmetry where the lone king cannot capture at once, 7,020
    are won; in the other 31 the lone king holds the two kings (each Black try loses a king) and one king against
    one is a draw. The table must say exactly that.
    (The lone king can also win: it captures at once and the king ending is then lost for Black.)"""
    spec = importlib.util.spec_from_file_location("kings_sweep", ROOT / "tools" / "kings_sweep.py")
    assert spec is not None and spec.loader is not None
    ks = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(ks)
    fens = ks.placements()
    assert len(fens) == 7051
    black_view = []
    for f in fens:
        s = parse_fen(f)
        v = _value(db, s)
        black_view.append(v if s.turn == 0 else -v)
    assert black_view.count(1) == 7020
    assert black_view.count(0) == 31
    # every placement (no symmetry reduction), both sides to move: a win for the two kings unless the lone king
    # captures at once (then it is one king against one, which it may even win) or holds them as above
    wins = held = at_once = 0
    for a in range(1, 33):
        for b in range(a + 1, 33):
            for c in range(1, 33):
                if c in (a, b):
                    continue
                black = 1 << (a - 1) | 1 << (b - 1)
                white = 1 << (c - 1)
                for turn in (0, 1):
                    s = CheckersState(black, white, black | white, turn)
                    v = _value(db, s)
                    v = v if turn == 0 else -v
                    moves = G.legal_moves(s)
                    if turn == 1 and moves and moves[0].captures:
                        at_once += 1  # the lone king takes one: valued through the king ending (Bellman test)
                        continue
                    assert v in (0, 1), format_fen(s)
                    wins += v == 1
                    held += v == 0
    assert wins + held + at_once == 2 * 496 * 30
    assert 0 < held < 0.01 * wins


@pytest.mark.slow
def test_one_king_against_one_agrees_with_search(db: edb.EndgameDB) -> None:
    """King against king, Black to move, every placement: each table win or loss (338 of 992; a king can be
    driven into a corner or onto the edge and won, e.g. ``B:WK7:BK1`` wins in 9 plies) is proven with the same
    value and within 20 plies by the alpha-beta search; a sample of the draws is not proven won or lost by a
    depth-14 search."""
    from ai.agents.agents import make_agent
    deep = make_agent("checkers", "alphabeta:depth=20,quiescence=off")
    shallow = make_agent("checkers", "alphabeta:depth=14,quiescence=off")
    counts = {-1: 0, 0: 0, 1: 0}
    draws = []
    for a in range(1, 33):
        for c in range(1, 33):
            if a == c:
                continue
            s = CheckersState(1 << (a - 1), 1 << (c - 1), 1 << (a - 1) | 1 << (c - 1), 0)
            v = _value(db, s)
            counts[v] += 1
            if v == 0:
                draws.append(s)
                continue
            r = deep.choose(s)
            assert r.outcome == ("win" if v == 1 else "loss"), (format_fen(s), v, r.outcome)
    assert counts == {1: 230, 0: 654, -1: 108}
    for s in random.Random(5).sample(draws, 15):
        assert shallow.choose(s).outcome in (None, "draw"), format_fen(s)


# ----- consistency ----------------------------------------------------------------------------------------------
def test_bellman_property_on_samples(db: edb.EndgameDB) -> None:
    rng = random.Random(3)
    for s in _sample(rng, 3000):
        moves = G.legal_moves(s)
        best = -1
        for mv in moves:
            c = G.successor(s, mv)
            if not (c.black if c.turn == 0 else c.white):
                best = 1  # took the last piece
                break
            best = max(best, -_value(db, c))
        assert _value(db, s) == best, format_fen(s)


def test_three_piece_tables_rebuild_identically(db: edb.EndgameDB, db3: edb.EndgameDB) -> None:
    for m in edb.signatures(3):
        o4 = db.offsets[m][0]
        o3 = db3.offsets[m][0]
        for i in range(edb.table_size(m)):
            a = o4 + i
            b = o3 + i
            assert (db.packed[a >> 2] >> ((a & 3) << 1)) & 3 == (db3.packed[b >> 2] >> ((b & 3) << 1)) & 3, m


@pytest.mark.slow
def test_table_agrees_with_proven_search_values(db: edb.EndgameDB) -> None:
    """Where a depth-20 alpha-beta search proves a win or loss, the table has the same value (a win under the
    draw rules is a win without them; a search draw is not compared). The search is capped at 20,000 nodes a
    position to keep the file fast (a node budget, not a time: the same positions are proven on any machine, 22 of
    the 60); every proven one must agree."""
    from ai.agents.agents import make_agent
    from ai.kernel.search import iterative_deepening
    agent = make_agent("checkers", "alphabeta:depth=20,quiescence=off")
    limits = agent.settings.search_limits(agent.value_unit(), nodes=20_000)
    rng = random.Random(4)
    proven = 0
    for s in _sample(rng, 60):
        r = iterative_deepening(agent.game, s, agent.make_searcher(), limits)  # agent.choose, with a node budget
        if r.outcome in ("win", "loss"):
            proven += 1
            assert _value(db, s) == (1 if r.outcome == "win" else -1), (format_fen(s), r.outcome, r.plies_to_end)
    assert proven >= 8


# ----- file format ------------------------------------------------------------------------------------------------
def test_save_load_round_trip_and_damaged_files(db3: edb.EndgameDB, tmp_path: Path) -> None:
    p = tmp_path / "t.bin"
    edb.save(db3, p)
    back = edb.load(p)
    assert back.packed == db3.packed and back.max_pieces == 3 and back.offsets == db3.offsets
    data = p.read_bytes()
    cases = {
        "truncated": data[: len(data) - 100],
        "magic": b"X" + data[1:],
        "header": data.replace(b'"max_pieces": 3', b'"max_pieces": 9'),
        "no header": edb.MAGIC,
    }
    flipped = bytearray(data)
    flipped[-50] ^= 0xFF
    cases["flipped"] = bytes(flipped)
    for name, blob in cases.items():
        q = tmp_path / f"{name}.bin"
        q.write_bytes(blob)
        with pytest.raises(edb.EndgameDBError) as e:
            edb.load(q)
        msg = str(e.value)
        assert str(q) in msg and ("expected" in msg or "does not match" in msg), (name, msg)


def test_load_default_none_when_absent_and_refuses_damage(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(edb, "ASSET_DIR", tmp_path / "assets")
    monkeypatch.setenv("ARCADE_DATA_DIR", str(tmp_path / "data"))
    assert edb.load_default() is None
    bad = tmp_path / "data" / "endgame" / edb.DEFAULT_NAME
    bad.parent.mkdir(parents=True)
    bad.write_bytes(b"not a table")
    with pytest.raises(edb.EndgameDBError, match="magic"):
        edb.load_default()


def test_build_tool_writes_a_small_table(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spec = importlib.util.spec_from_file_location("build_endgame_db", ROOT / "tools" / "build_endgame_db.py")
    assert spec is not None and spec.loader is not None
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    out = tmp_path / "wld2.bin"
    assert tool.main(["--max-pieces", "2", "--out", str(out)]) == 0
    d = edb.load(out)
    assert d.max_pieces == 2
    text = capsys.readouterr().out
    assert "1K0M v 1K0M" in text and "built in" in text
    assert d.probe(*_bits("B:WK22:BK1"), 0) == 0
    assert d.probe(*_bits("B:WK22,K23:BK1"), 0) is None
