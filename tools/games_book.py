"""Build a checkers opening book from the games of a real archive: the moves masters played, scored by results.

Usage::

    python tools/games_book.py --pdn GAMES.pdn [--max-ply P] [--min-games N] [--merge BOOK] [--out FILE]
    python tools/games_book.py --transcripts ACF.txt ...

Source of the idea: the opening books of checkers and chess programs are built from the moves of strong players' games
with their results (Chinook's book, Schaeffer et al., *One Jump Ahead*, 2nd ed. 2009, ch. 8; Stockfish's Polyglot books
weight each move by the games it scored). Here every position of the first ``--max-ply`` plies (default 40) of every
game with a result is counted; a position is kept when at least ``--min-games`` games (default 3; the shipped book's
settings) reached it, and of its moves those played in at least 2 games and in a tenth of the games through it. Each
kept move is stored with ``depth`` 0 (no search: the book file's mark of a move from games) and the value ``100 * (2 *
score - 1)``, where ``score`` is the mover's score over the games that played it with one draw added (``(points + 0.5) /
(games + 1)``; +100: the mover won them all), ``weight`` the games that played it. Entries are stored best first, so
``expert`` (``book=on``) plays the move that scored best (within the book's margin) while the position is in the book,
then searches.

``--merge BOOK`` keeps BOOK's searched positions (by default the shipped book) and puts the games' moves in place of
its entries where both have a position; BOOK's own entries from games (depth 0: an earlier run of this tool) are left
out first, so building again over the shipped book gives the book built over its searches alone. ``--merge none``
writes the games' book alone. ``expert`` plays from the shipped file, ``assets/book/checkers_book.json``: to play
from a book built here, write it there (``--out``; keep a copy of the shipped one, or take it back from git).
``--source`` names the archive in the book's ``meta`` (what it is, where it comes from, its licence; default the
file's name).

Input: a PDN archive (``--pdn``; the games that read with an error or without a result are skipped and counted), or
the one-game-a-line transcripts of EricCJoyce/Datasets ``Checkers/ACF.txt`` (``--transcripts``; MIT; squares 0-31
from the first mover's single corner, as its ``REF.png`` shows, so square ``d`` is PDN square ``4 * (d // 4) + 3 -
d % 4 + 1``; a result after a tab). The archive is never shipped; the book built from it holds only positions, moves
and counts.

``--out`` is written whole or not at all (an existing file is replaced only by a complete book; missing folders are
created). Prints the games read and used, the positions kept and the book's size; exit code 2, one ``error:`` line and
nothing written on bad arguments, an unreadable archive or book, an archive with no usable game (the wrong
``--pdn``/``--transcripts`` for it, say) or no position kept, or an ``--out`` that cannot be written.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ai.checkers.book import DEFAULT_PATH, BookEntry, BookError, OpeningBook, load_book, save_book  # noqa: E402
from gameplay.rules.checkers.checkers import Checkers  # noqa: E402
from gameplay.rules.checkers.checkers_board import CheckersMove, CheckersState  # noqa: E402
from gameplay.rules.checkers.checkers_notation import format_fen, format_move_text  # noqa: E402
from gameplay.rules.checkers.pdn_archive import read_pdn_file  # noqa: E402
from gameplay.rules.checkers.pdn_read import BLACK_SCORE, iter_records  # noqa: E402

GAME = Checkers()

Game = tuple[list[tuple[CheckersState, CheckersMove]], float]
"""A game as ``([(position, move played), ...], Black's score)``."""


def transcript_square(d: int) -> int:
    """The PDN square (1-32) of square ``d`` (0-31) of the EricCJoyce/Datasets transcripts (see the module
    docstring).

    Raises:
        ValueError: ``d`` is not in 0-31.
    """
    if not 0 <= d <= 31:
        raise ValueError(f"transcript square {d} is not in 0-31")
    return 4 * (d // 4) + (3 - d % 4) + 1


def transcript_games(text: str) -> Iterator[Game | None]:
    """The games of a transcripts text (one a line: moves like ``10-13`` or ``9-18-27``, a tab, a result); ``None``
    for a line whose result is missing or whose moves are not legal in turn (the caller counts them)."""
    for line in text.splitlines():
        moves, _, result = line.partition("\t")
        score = BLACK_SCORE.get(result.strip())
        if not moves.strip() or score is None:
            yield None
            continue
        s = GAME.initial_state()
        played: list[tuple[CheckersState, CheckersMove]] = []
        try:
            for word in moves.split():
                path = tuple(transcript_square(int(x)) for x in word.split("-"))
                m = next((m for m in GAME.actions(s) if m.path == path), None)
                if m is None:
                    raise ValueError(word)
                played.append((s, m))
                s = GAME.successor(s, m)
        except ValueError:
            yield None
            continue
        yield played, score


def pdn_games(text: str) -> Iterator[Game | None]:
    """The games of a PDN text with a result; ``None`` for a game that reads with an error or has no result."""
    for rec in iter_records(text):
        score = BLACK_SCORE.get(rec.game.result)
        if not rec.ok or score is None:
            yield None
            continue
        s = rec.game.start
        played: list[tuple[CheckersState, CheckersMove]] = []
        for m in rec.game.moves:
            played.append((s, m))
            s = GAME.successor(s, m)
        yield played, score


def build(games: Iterator[Game | None], max_ply: int = 40, min_games: int = 3
          ) -> tuple[dict[str, list[BookEntry]], dict[str, int]]:
    """The book positions of ``games`` (see the module docstring) and the counts ``{"games", "used", "positions"}``.

    Args:
        games: ``(moves, Black's score)`` per game, ``None`` for a game to skip.
        max_ply: plies of each game counted (from its start).
        min_games: games that must reach a position for it to be kept.
    """
    seen: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(lambda: [0, 0.0]))
    read = used = 0
    for g in games:
        read += 1
        if g is None:
            continue
        used += 1
        moves, black = g
        for s, m in moves[:max_ply]:
            e = seen[format_fen(s)][format_move_text(m)]
            e[0] += 1
            e[1] += black if s.turn == 0 else 1.0 - black
    positions: dict[str, list[BookEntry]] = {}
    for fen, by_move in seen.items():
        n = sum(int(c) for c, _ in by_move.values())
        if n < min_games:
            continue
        entries = []
        for move, (c, points) in by_move.items():
            if c < max(2, math.ceil(0.1 * n)):
                continue
            score = (points + 0.5) / (c + 1)
            entries.append(BookEntry(move, round(200.0 * (score - 0.5), 1), 0, int(c)))
        if entries:
            entries.sort(key=lambda e: (-e.value, -e.weight))
            positions[fen] = entries
    return positions, {"games": read, "used": used, "positions": len(positions)}


def searched_part(base: OpeningBook) -> tuple[dict[str, list[BookEntry]], int]:
    """``base``'s positions with only its searched entries (depth >= 1), and how many entries from games (depth 0)
    were left out; a position left with no entry is left out too."""
    kept: dict[str, list[BookEntry]] = {}
    dropped = 0
    for fen, entries in base.to_json()["positions"].items():
        searched = [BookEntry(e["move"], e["value"], e["depth"], e["weight"]) for e in entries if e["depth"] >= 1]
        dropped += len(entries) - len(searched)
        if searched:
            kept[fen] = searched
    return kept, dropped


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    src = ap.add_mutually_exclusive_group(required=True)
    src.add_argument("--pdn", type=Path, help="a PDN archive of games with results")
    src.add_argument("--transcripts", type=Path, help="EricCJoyce/Datasets transcripts (Checkers/ACF.txt)")
    ap.add_argument("--max-ply", type=int, default=40, help="plies of each game counted; default 40")
    ap.add_argument("--min-games", type=int, default=4, help="games a kept position needs; default 3")
    ap.add_argument("--merge", default=str(DEFAULT_PATH),
                    help="a book whose searched positions are kept (default the shipped one; its entries from games, "
                    "those of an earlier run, are left out and counted); 'none': the games alone")
    ap.add_argument("--source", help="what the archive is, for the book's meta (name, origin, licence); "
                    "default the file's name")
    ap.add_argument("--out", type=Path, required=True,
                    help="the book file to write (replaced when it exists; folders created)")
    a = ap.parse_args(argv)
    if a.max_ply < 1 or a.min_games < 1:
        print("error: expected --max-ply >= 1 and --min-games >= 1", file=sys.stderr)
        return 2
    t0 = time.perf_counter()
    path = a.pdn or a.transcripts
    try:
        text = read_pdn_file(path)
        base = None if a.merge == "none" else load_book(a.merge)
    except BookError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    except (OSError, ValueError) as e:
        print(f"error: cannot read {path}: {getattr(e, 'strerror', None) or e}", file=sys.stderr)
        return 2
    games = pdn_games(text) if a.pdn else transcript_games(text)
    positions, counts = build(games, a.max_ply, a.min_games)
    other = "--transcripts" if a.pdn else "--pdn"
    if not counts["used"]:
        form = ("PDN games with a result" if a.pdn else
                "transcripts: one game a line, moves like 10-13 or 9-18-27, a tab, then 1-0, 0-1 or 1/2-1/2")
        print(f"error: {path}: none of its {counts['games']:,} games read with a result; expected {form} "
              f"(is it {other} rather?); {a.out} not written", file=sys.stderr)
        return 2
    if not positions:
        why = (f"most of its games did not read: is it {other} rather?" if 2 * counts["used"] < counts["games"]
               else "try a smaller --min-games")
        print(f"error: no position of {path} was reached by {a.min_games} games with a move played in 2 of them "
              f"({counts['used']:,} of {counts['games']:,} games used); {why}; {a.out} not written", file=sys.stderr)
        return 2
    if 2 * counts["used"] < counts["games"]:
        print(f"warning: only {counts['used']:,} of {counts['games']:,} games of {path} read with a result "
              f"(is it {other} rather?)", file=sys.stderr)
    merged: dict[str, list[BookEntry]] = {}
    replaced = dropped = 0
    if base is not None:
        searched, dropped = searched_part(base)
        replaced = sum(fen in positions for fen in searched)
        merged = {fen: entries for fen, entries in searched.items() if fen not in positions}
    merged.update(positions)
    meta = dict(base.meta) if base is not None else {}
    meta["games_book"] = {"built_by": "tools/games_book.py", "source": a.source or path.name, "max_ply": a.max_ply,
                          "min_games": a.min_games, **counts, "replaced": replaced}
    book = OpeningBook(merged, meta, str(a.out))
    try:
        save_book(book, a.out)
    except BookError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    left_out = (f"; {dropped:,} entries from games of {a.merge} left out (an earlier run's: only its searched "
                f"positions are merged)" if dropped else "")
    print(f"{counts['games']:,} games read, {counts['used']:,} used; {counts['positions']:,} positions from the "
          f"games ({replaced:,} in place of the merged book's{left_out}), {len(merged):,} in {a.out} "
          f"({a.out.stat().st_size:,} bytes, {time.perf_counter() - t0:.1f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
