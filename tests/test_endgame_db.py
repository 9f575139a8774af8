"""Checkers WLD endgame tables (``ai/checkers/endgame_db.py``): the index, the shipped tables, the file formats and
which tables are loaded (the builder and its tool: ``tests/test_endgame_build.py``).

Checks: the index round-trips (5-piece signatures included); the two-kings-against-one sweep agrees with the
README's measured facts; table values equal the values that a deep alpha-beta search proves; every sampled position
satisfies the Bellman property (value = max over moves of -value(successor), no move = loss); a damaged or truncated
file is refused clearly, in either format, and the shipped tables are taken instead. The shipped 4-piece file is
required (``python tools/build_endgame_db.py --out assets/endgame/checkers-wld.bin`` writes it); the 3-piece tables
are also rebuilt here and must equal the shipped ones.
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
    assert edb.shipped_file().is_file(), ("no shipped endgame tables: run "
                                         "`python tools/build_endgame_db.py --out assets/endgame/checkers-wld.bin`")
    d = edb.load(edb.shipped_file())
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
    for m in edb.signatures(5):
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
    five = edb.signatures(5)
    assert len(five) == 85 and five[:41] == sigs  # the 4-piece tables lead the 5-piece file
    assert sum(edb.table_size(m) for m in five) == 187_110_300
    assert (0, 4, 0, 1) in five and (4, 0, 1, 0) in five  # one side with 4 pieces
    assert edb.offsets_of(5)[(0, 4, 0, 1)][0] + edb.table_size((0, 4, 0, 1)) <= 187_110_300
    assert {m: o for m, o in edb.offsets_of(5).items() if m in db.offsets} == db.offsets
    for bad in (1, 6):
        with pytest.raises(ValueError, match="2..5"):
            edb.signatures(bad)
    with pytest.raises(KeyError, match="more than 4"):
        edb.index_of(0b11111, 1 << 31, 0b11111)  # five Black kings


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
@pytest.mark.parametrize("file_format", edb.FORMATS)
def test_save_load_round_trip_and_damaged_files(db3: edb.EndgameDB, tmp_path: Path, file_format: int) -> None:
    p = tmp_path / "t.bin"
    size = edb.save(db3, p, file_format)
    assert size == p.stat().st_size
    back = edb.load(p)
    assert back.packed == db3.packed and back.max_pieces == 3 and back.offsets == db3.offsets
    assert isinstance(back.packed, bytes if file_format == edb.FORMAT_LZMA else memoryview)
    data = p.read_bytes()
    cases = {
        "truncated": data[: len(data) - 100],
        "magic": b"X" + data[1:],
        "header": data.replace(b'"max_pieces": 3', b'"max_pieces": 9'),
        "format": data.replace(b'"format": ', b'"format": 7'),
        "no header": edb.MAGIC,
        "too long": data + b"\0",
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
        assert str(q) in msg and "expected" in msg, (name, msg)
        if name == "truncated":
            assert "truncated" in msg, msg
    with pytest.raises(ValueError, match="file format"):
        edb.save(db3, tmp_path / "x.bin", 3)


def test_a_raw_file_is_mapped_not_read(db3: edb.EndgameDB, tmp_path: Path) -> None:
    """Format 2 is memory-mapped: the probe reads the file's pages, so two loads share one copy (no private copy of
    the packed bytes is made)."""
    p = tmp_path / "raw.bin"
    edb.save(db3, p, edb.FORMAT_RAW)
    d = edb.load(p)
    assert isinstance(d.packed, memoryview) and d.packed.readonly
    assert d.probe(*_bits("B:WK22:BK1"), 0) == 0 and d.probe(*_bits("B:W18:B14"), 0) == 1
    assert d.counts((1, 0, 1, 0)) == db3.counts((1, 0, 1, 0))


def _tables_in(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    """Point the shipped folder and the data folder at ``tmp_path``: (shipped file, data-folder file), absent."""
    monkeypatch.setattr(edb, "ASSET_DIR", tmp_path / "assets")
    monkeypatch.setenv("ARCADE_DATA_DIR", str(tmp_path / "data"))
    return edb.shipped_file(), edb.built_file()


def test_load_default_none_when_absent_and_refuses_damage(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _shipped, built = _tables_in(tmp_path, monkeypatch)
    assert edb.load_default() is None
    assert edb.describe_default() == "no endgame tables"
    built.parent.mkdir(parents=True)
    built.write_bytes(b"not a table")
    with pytest.raises(edb.EndgameDBError, match="magic"):
        edb.load_default()  # nothing else to fall back on
    assert edb.describe_default() == "no usable endgame tables"


def test_load_default_takes_the_largest_and_falls_back(db3: edb.EndgameDB, tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    """The data folder's larger tables win over the shipped ones; a damaged or truncated larger file is reported
    on stderr with its path and the shipped tables are used."""
    shipped, built = _tables_in(tmp_path, monkeypatch)
    small = build(2)
    edb.save(small, shipped)
    edb.save(db3, built, edb.FORMAT_RAW)
    assert edb.describe_default() == f"endgame tables up to 3 pieces ({built})"
    d = edb.load_default()
    assert d is not None and d.max_pieces == 3 and d.source == built
    assert edb.load_default() is d  # cached
    assert edb.describe_default() == f"endgame tables up to 3 pieces ({built})"
    for damage in ("truncated", "flipped"):
        target = tmp_path / damage / "data"
        monkeypatch.setenv("ARCADE_DATA_DIR", str(target))
        edb.save(db3, edb.built_file(), edb.FORMAT_RAW)
        data = edb.built_file().read_bytes()
        edb.built_file().write_bytes(data[:-1000] if damage == "truncated"
                                     else data[:-10] + bytes([data[-10] ^ 0xFF]) + data[-9:])
        # the description is of the tables the search uses: a payload byte changed under a sound header too
        assert edb.describe_default() == "endgame tables up to 2 pieces (shipped)"
        err = capsys.readouterr().err
        assert str(edb.built_file()) in err and "expected" in err and f"using {shipped} instead" in err, err
        assert ("truncated" if damage == "truncated" else "the checksum its header records") in err, err
        d = edb.load_default()
        assert d is not None and d.max_pieces == 2 and d.source == shipped and d.packed == small.packed
        assert edb.describe_default(short=True) == "endgame tables up to 2 pieces"
        assert edb.built_file() in edb.load_problems()
        assert edb.load_default() is d and capsys.readouterr().err == ""  # reported once


def test_limited_tables_answer_fewer_pieces(db: edb.EndgameDB) -> None:
    three = db.limited(3)
    assert three.max_pieces == 3 and three.packed is db.packed and set(three.offsets) == set(edb.signatures(3))
    assert three.probe(*_bits("B:WK22:BK1,K2"), 0) == db.probe(*_bits("B:WK22:BK1,K2"), 0) == 1
    assert three.probe(*_bits("B:WK22,K23:BK1,K2"), 0) is None  # four pieces
    assert db.limited(4).offsets == db.offsets
    with pytest.raises(ValueError, match="2..4"):
        db.limited(5)
    assert db.describe() == "up to 4 pieces (shipped)"


def test_the_agent_says_which_tables_it_probes(db3: edb.EndgameDB, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    """``Agent.tables_note`` names the tables' size without loading them; ``analyze`` prints it after the agent's
    description (the window's side label puts it in its tool tip: ``tests/test_match_window.py``)."""
    from ai.agents.agents import make_agent
    from gameplay import cli
    expert = make_agent("checkers", "expert")
    assert expert.tables_note() == "endgame tables up to 4 pieces" and "endgame" not in expert.describe()
    assert make_agent("checkers", "expert:db=off").tables_note() is None
    assert make_agent("checkers", "mcts").tables_note() is None
    assert make_agent("tictactoe", "alphabeta:db=on").tables_note() is None  # no tables for that game
    _shipped, built = _tables_in(tmp_path, monkeypatch)
    edb.save(db3, built, edb.FORMAT_RAW)
    assert make_agent("checkers", "expert").tables_note() == "endgame tables up to 3 pieces"
    assert edb.describe_default() == f"endgame tables up to 3 pieces ({built})"
    assert built not in edb.load_problems()
    assert cli.run(["analyze", "checkers", "--position", "B:WK22:BK1,K2", "--agent", "expert:time=0.05"]) == 0
    assert "expert (alphabeta), 0.05 s/move (endgame tables up to 3 pieces): plays" in capsys.readouterr().out
