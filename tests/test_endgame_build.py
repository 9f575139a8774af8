"""The retrograde builder of the checkers endgame tables (``ai/checkers/endgame_build.py``) and its tool
(``tools/build_endgame_db.py``).

Checks: packing round-trips at any offset; the builder's index of a position turned round is the index of its mirror
image; groups of 4-piece signatures solved again from the shipped tables equal them, and (slow) the whole 4-piece
build is the shipped table byte for byte; the 5-piece kings group (4 kings against 1, built here from the shipped
tables: every successor has at most 4 pieces) agrees with the game's own move generator and with what a search
proves; the tool writes a table, verifies it, and a build stopped by Ctrl+C writes nothing and goes on from its
finished groups.
"""

from __future__ import annotations

import hashlib
import importlib.util
import random
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from ai.checkers import endgame_build as eb
from ai.checkers import endgame_db as edb
from gameplay.rules.checkers.checkers import Checkers
from gameplay.rules.checkers.checkers_board import CheckersState, to35
from gameplay.rules.checkers.checkers_notation import format_fen, parse_fen

ROOT = Path(__file__).resolve().parent.parent
G = Checkers()


@pytest.fixture(scope="module")
def shipped() -> edb.EndgameDB:
    return edb.load(edb.shipped_file())


def _solved_from(db: edb.EndgameDB) -> list[bytes]:
    """The solved tables the builder reads (by signature code), taken from loaded tables."""
    tables = [b""] * 625
    for m in db.offsets:
        tables[eb.sig_code(*m)] = edb.pack_codes(db.codes(m))
    return tables


def _tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("build_endgame_db", ROOT / "tools" / "build_endgame_db.py")
    assert spec is not None and spec.loader is not None
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    return tool


# ----- packing ----------------------------------------------------------------------------------------------------
def _naive_pack(codes: bytes) -> bytes:
    out = bytearray((len(codes) + 3) // 4)
    for i, c in enumerate(codes):
        out[i >> 2] |= c << (2 * (i & 3))
    return bytes(out)


def test_packing_round_trips_at_any_length_and_offset() -> None:
    rng = random.Random(1)
    for n in list(range(14)) + [1001, 4096]:
        codes = bytes(rng.randrange(4) for _ in range(n))
        packed = edb.pack_codes(codes)
        assert packed == _naive_pack(codes)
        assert edb.unpack_codes(packed, n) == codes
    with pytest.raises(ValueError, match="0..3"):
        edb.pack_codes(b"\x00\x04")
    with pytest.raises(ValueError, match="at most 4 entries"):
        edb.unpack_codes(b"\x00", 5)
    # laid end to end (every table size is a multiple of 4), then read back by signature
    assert all(edb.table_size(m) % 4 == 0 for m in edb.signatures(5))
    sigs = edb.signatures(3)
    codes_of = {m: bytes(rng.randrange(4) for _ in range(edb.table_size(m))) for m in sigs}
    packed, offsets = edb.pack_tables(3, {m: edb.pack_codes(c) for m, c in codes_of.items()})
    assert packed == _naive_pack(b"".join(codes_of[m] for m in sigs)) and offsets == edb.offsets_of(3)
    db = edb.EndgameDB(3, packed, offsets)
    assert all(db.codes(m) == codes_of[m] for m in sigs)
    assert [db.code_at(m, 7) for m in sigs] == [codes_of[m][7] for m in sigs]
    with pytest.raises(ValueError, match="missing"):
        edb.pack_tables(3, {m: edb.pack_codes(c) for m, c in codes_of.items() if m != sigs[-1]})


# ----- the builder's index ---------------------------------------------------------------------------------------
def test_turned_index_is_the_index_of_the_mirror_image() -> None:
    """``turned_index`` reads a White-to-move position as the Black-to-move position of its mirror image (the way
    every capture's and crowning's successor is looked up), in every signature up to 5 pieces."""
    rng = random.Random(2)
    for m in edb.signatures(5):
        for _ in range(40):
            pos = edb.position_of(m, rng.randrange(edb.table_size(m)))
            if pos is None:
                continue
            b, w, k = pos  # read as White to move: its mirror image has Black's pieces where White's stand
            want_m, want_i = edb.index_of(edb.mirror(w), edb.mirror(b), edb.mirror(k))
            assert eb.turned_index(to35(b), to35(w), to35(k)) == (eb.sig_code(*want_m), want_i), m
            assert eb.mirror35(to35(b)) == to35(edb.mirror(b))


# ----- tables solved again ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("group", [[(0, 2, 0, 2)], [(2, 0, 2, 0)], [(0, 1, 0, 3), (0, 3, 0, 1)]],
                         ids=["men 2v2", "kings 2v2", "men 1v3"])
def test_four_piece_groups_solved_again_equal_the_shipped(shipped: edb.EndgameDB, group: list[edb.Material]) -> None:
    """Men that crown (successors in other groups), captures, kings' unmoves: each group solved from the shipped
    smaller tables is the shipped table, entry for entry."""
    out = eb.solve_group(group, _solved_from(shipped))
    for m in group:
        assert out[m] == shipped.codes(m), edb.label(m)


def test_a_missing_successor_table_is_refused() -> None:
    with pytest.raises(edb.EndgameDBError, match="missing"):
        eb.solve_group([(0, 1, 0, 1)], [b""] * 625)  # a crowning leads to 1K0M v 0K1M, not solved


@pytest.mark.slow
def test_four_piece_tables_rebuild_identically(shipped: edb.EndgameDB) -> None:
    """The whole 4-piece build (20 s pure Python, 3 s compiled) is the shipped table: the same SHA-256 as the file's
    header records (the shipped file was built by the earlier builder, with the game's move generator)."""
    built = eb.build(4)
    header, _start = edb.read_header(edb.shipped_file())
    assert hashlib.sha256(built.packed).hexdigest() == header["sha256"]
    assert built.packed == shipped.packed


@pytest.mark.slow
def test_five_piece_kings_group_agrees_with_the_game_and_search(shipped: edb.EndgameDB) -> None:
    """Four kings against one (Black to move) and one against four, the 5-piece group whose successors all have at
    most 4 pieces, solved from the shipped tables (38 s pure Python, 2 s compiled). Its counts are those of the
    whole 5-piece build (``tools/build_endgame_db.py --max-pieces 5``); every sampled position satisfies the Bellman
    property with the game's own move generator; and where a depth-limited search proves a win or a loss, the table
    says the same."""
    group = [(4, 0, 1, 0), (1, 0, 4, 0)]
    codes = eb.solve_group(group, _solved_from(shipped))
    assert [(c.count(edb.WIN), c.count(edb.DRAW), c.count(edb.LOSS)) for c in (codes[m] for m in group)] == [
        (1_006_880, 0, 0), (688, 3_102, 1_003_090)]

    def value(s: CheckersState) -> int:
        if (s.black | s.white).bit_count() <= 4:
            v = shipped.probe_state(s)
            assert v is not None
            return v
        b, w, k = (s.black, s.white, s.kings) if s.turn == 0 else (
            edb.mirror(s.white), edb.mirror(s.black), edb.mirror(s.kings))
        m, i = edb.index_of(b, w, k)
        return codes[m][i] - 2

    rng = random.Random(5)
    samples = []
    for _ in range(1500):
        m = rng.choice(group)
        pos = edb.position_of(m, rng.randrange(edb.table_size(m)))
        if pos is not None:
            samples.append(CheckersState(*pos, rng.randrange(2)))
    for s in samples:
        best = -1
        for mv in G.legal_moves(s):
            c = G.successor(s, mv)
            if not (c.black if c.turn == 0 else c.white):
                best = 1
                break
            best = max(best, -value(c))
        assert value(s) == best, format_fen(s)
    from ai.agents.agents import make_agent
    from ai.kernel.search import iterative_deepening
    agent: Any = make_agent("checkers", "alphabeta:depth=12,quiescence=off")
    limits = agent.settings.search_limits(agent.value_unit(), nodes=4_000)
    proven = 0
    for s in samples[:40]:
        r = iterative_deepening(agent.game, s, agent.make_searcher(), limits)
        if r.outcome in ("win", "loss"):
            proven += 1
            assert value(s) == (1 if r.outcome == "win" else -1), (format_fen(s), r.outcome)
    assert proven >= 10


# ----- the tool ----------------------------------------------------------------------------------------------------
def test_build_tool_writes_a_small_table(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    tool = _tool()
    out = tmp_path / "wld2.bin"
    assert tool.main(["--max-pieces", "2", "--out", str(out)]) == 0
    d = edb.load(out)
    assert d.max_pieces == 2 and isinstance(d.packed, bytes)  # lzma up to 4 pieces
    text = capsys.readouterr().out
    assert "1K0M v 1K0M" in text and "built in" in text and "memory peak" in text
    assert "checked 20000 random 2-piece positions against the game's move generator: 0 disagree" in text
    assert d.probe(*_bits("B:WK22:BK1"), 0) == 0
    assert d.probe(*_bits("B:WK22,K23:BK1"), 0) is None
    raw = tmp_path / "wld2raw.bin"
    assert tool.main(["--max-pieces", "2", "--out", str(raw), "--format", "raw", "--verify", "0"]) == 0
    assert edb.load(raw).packed == d.packed and "checked" not in capsys.readouterr().out
    assert not any(p.name.endswith(".parts") for p in tmp_path.iterdir())  # the finished groups are removed
    assert tool.main(["--max-pieces", "2", "--out", str(tmp_path / "no" / "such" / "x.bin")]) == 0  # made
    (tmp_path / "afile").write_text("x")
    assert tool.main(["--max-pieces", "2", "--out", str(tmp_path / "afile" / "x.bin")]) == 2


def test_build_tool_writes_every_size_into_the_data_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    """Without ``--out`` every size goes to the data folder (``ARCADE_DATA_DIR``), never to the shipped file (here
    pointed into ``tmp_path`` too, so a wrong default could not touch the install): a 2-piece build does not replace
    the shipped 4-piece tables, and ``load_default`` keeps the larger shipped ones."""
    monkeypatch.setenv("ARCADE_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setattr(edb, "ASSET_DIR", tmp_path / "assets")
    shipped_file = edb.shipped_file()
    shipped_file.parent.mkdir(parents=True)
    edb.save(eb.build(3), shipped_file)
    before = shipped_file.read_bytes()
    tool = _tool()
    assert tool.main(["--max-pieces", "2", "--verify", "0"]) == 0
    built = tmp_path / "data" / "endgame" / "checkers-wld.bin"
    assert f"writing {built}" in capsys.readouterr().out
    assert shipped_file.read_bytes() == before
    d = edb.load(built)
    assert d.max_pieces == 2 and isinstance(d.packed, bytes)  # lzma up to 4 pieces
    found = edb.find_tables()
    assert [(f.path, f.max_pieces) for f in found] == [(shipped_file, 3), (built, 2)]


def _bits(fen: str) -> tuple[int, int, int]:
    s = parse_fen(fen)
    return s.black, s.white, s.kings


def test_build_tool_stopped_writes_nothing_and_goes_on(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    """Ctrl+C during the build: no table file, the finished groups kept; the same command then reads them back,
    solves the rest and writes the same table as a build from scratch; a damaged kept group is solved again."""
    tool = _tool()
    out = tmp_path / "wld3.bin"
    parts = tmp_path / "wld3.bin.parts"
    real_build = tool.build
    finished: list[list[edb.Material]] = []

    def stopped_build(max_pieces: int, progress: Any, on_group: Any, parts_dir: Path) -> edb.EndgameDB:
        def counting(group: list[edb.Material], seconds: float) -> None:
            finished.append(group)
            on_group(group, seconds)
            if len(finished) == 5:
                raise KeyboardInterrupt
        return real_build(max_pieces, progress, counting, parts_dir)

    monkeypatch.setattr(tool, "build", stopped_build)
    assert tool.main(["--max-pieces", "3", "--out", str(out)]) == 130
    assert not out.exists() and "stopped: no table file written; 5 finished groups kept" in capsys.readouterr().err
    kept = sorted(parts.glob("*.part"))
    assert len(kept) == 5
    assert eb.load_part(parts, finished[0]) is not None
    damaged = eb.part_path(parts, finished[4])
    damaged.write_bytes(damaged.read_bytes()[:-1])
    assert eb.load_part(parts, finished[4]) is None  # solved again
    monkeypatch.setattr(tool, "build", real_build)
    assert tool.main(["--max-pieces", "3", "--out", str(out), "--verify", "100"]) == 0
    assert "5 groups kept in" in capsys.readouterr().out
    assert edb.load(out).packed == eb.build(3).packed and not parts.exists()


def test_endgame_measure_tool(shipped: edb.EndgameDB, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``tools/endgame_measure.py`` on the shipped tables (4-piece positions, the 3-piece tables as the smaller set):
    every measured move is judged by the tables; ``--proofs`` compares proven search results with them; without
    tables of the asked size it says how to build them."""
    spec = importlib.util.spec_from_file_location("endgame_measure", ROOT / "tools" / "endgame_measure.py")
    assert spec is not None and spec.loader is not None
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    out = tmp_path / "m.json"
    assert tool.main(["--positions", "3", "--pieces", "4", "--agent", "alphabeta:depth=2,db=on",
                      "--json", str(out)]) == 0
    text = capsys.readouterr().out
    assert "3 positions of 4 pieces where some move changes the table's value" in text
    assert "(a) tables up to 3 pieces: kept the value" in text
    assert "(a+) tables up to 4 pieces: kept the value 3/3" in text
    import json
    data = json.loads(out.read_text())
    rows = data["decisions"]
    assert len(rows) == 6 and {r["tables"] for r in rows} == {3, 4}
    for r in rows:
        s = parse_fen(r["fen"])
        v = shipped.probe_state(s)
        assert v == r["value"] and v in (0, 1)  # a lost position is never sampled
        mv = next(m for m in G.legal_moves(s) if str(m) == r["move"])
        assert r["after"] == tool.after(shipped, s, mv) and r["kept"] == (r["after"] == v)
    assert tool.main(["--proofs", "6", "--pieces", "3", "--proof-nodes", "3000"]) == 0
    assert "6 random 3-piece positions (seed 1) searched without tables to 3,000 nodes: " in capsys.readouterr().out
    proven, wrong = tool.proofs(shipped, 6, 3, 1, 3000)
    assert proven >= 1 and wrong == []
    assert tool.main(["--positions", "1"]) == 2
    assert "--max-pieces 5" in capsys.readouterr().err
