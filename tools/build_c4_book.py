"""Build the Connect Four opening book (``assets/book/connect4_book.txt``) with the project's own exact solver.

Usage::

    python tools/build_c4_book.py --out FILE [--plies 8] [--sides first,second] [--empty] [--start MOVES]
                                  [--max-seconds M] [--resume]

The book holds the positions ``expert`` meets in its first plies, as the first player and as the second: its own
moves fixed by the book, every reply of the opponent. Level by level, from few stones to ``--plies`` stones, each
position where ``expert`` is to move is solved by :class:`ai.connect4.connect4_solver.Solver` (compiled when the
install compiled it: run this after the README's install; one solver, its table kept from one position to the next)
and stored with its exact score (Pons's: :mod:`ai.connect4.connect4_solver`) and a best move, the solver's; that
move, then each of the opponent's replies, gives the positions of the next level. As the first player the tree
starts from the centre, the solved game's first move (J. D. Allen, V. Allis, 1988), or, with ``--empty``, from the
empty board solved by the solver itself (minutes: the build prints how long). A position and its mirror image are one
entry; a position reached by two move orders is solved once. ``--start`` roots the trees at another position
(``expert`` as ``first`` is then the side to move there; the tests build small books this way). A position the
solver cannot finish within ``--max-seconds`` CPU seconds is left out, and so is the tree below it (counted in the
summary).

The solver of ``expert`` reads the book at the root (a book move, said as such) and inside its search (a stored
score ends the search below that position, as in P. Pons's solver).

The file is plain text, one entry a line: the position (the columns played, 1-7; ``-`` the empty board), the score,
the best column (1-7); ``#`` lines are comments (the build's command). It is written whole at the end of each level
and every minute, so an interrupted build keeps what it solved; ``--resume`` keeps an existing file's entries and
does not solve their positions again (their stored move still leads the tree).

``--out`` is required (there is no default, so a small test build cannot replace the shipped book); its folder must
exist and it must not be a folder, checked before anything is solved. Bad input is refused before any solving with
one line ``error: ...`` on standard error and exit status 2: ``--out`` in a missing folder or a folder itself, and with
``--resume`` a file that cannot be read (not UTF-8, unreadable), a line that is not ``POSITION SCORE COLUMN``, a
position the rules refuse (a digit outside 1-7, a full column), a position where the game is over or a stored column
that is full there (the message names the file and the line or entry).

Prints a line per level (positions, CPU seconds) and the entries stored, the positions left out and the CPU time.
The shipped book (its header says so): ``python tools/build_c4_book.py --plies 10 --empty --out
assets/book/connect4_book.txt`` (built to 8 stones first, then ``--resume --plies 10``).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ai.connect4.connect4_book import BOOK_PATH, EMPTY_POSITION, read_book_lines  # noqa: E402
from ai.connect4.connect4_solver import Solver, SolverStopped  # noqa: E402
from gameplay.rules.base import GameError  # noqa: E402
from gameplay.rules.compiled import status_line  # noqa: E402
from gameplay.rules.connect4 import Connect4, Connect4State  # noqa: E402
from gameplay.rules.connect4_bits import from_state_bits, key, mirror  # noqa: E402
from gameplay.rules.outfile import OutputError, check_target, write_text  # noqa: E402

SIDES = ("first", "second")
SAVE_EVERY_S = 60.0
"""Wall seconds between two writes of the file within a level."""


def canonical_key(state: Connect4State) -> int:
    """The key a position and its mirror image share (the smaller of the two keys)."""
    p, m = from_state_bits(state.first, state.mask, state.plies)
    return min(key(p, m), mirror(key(p, m)))


def _sides(text: str) -> tuple[str, ...]:
    sides = tuple(s.strip() for s in text.split(",") if s.strip())
    if not sides or any(s not in SIDES for s in sides):
        raise argparse.ArgumentTypeError(f"--sides is first, second or first,second; got {text!r}")
    return sides


def _refuse(message: str) -> int:
    """Say why the build does not start (one line ``error: ...`` on standard error); the exit status, 2."""
    print(f"error: {message}", file=sys.stderr)
    return 2


def resumed_entries(path: Path) -> dict[int, tuple[str, int, int]]:
    """The entries of an existing book file to keep (``--resume``): ``(position, score, column 1-7)`` by canonical
    key.

    Raises:
        OSError: the file cannot be read.
        GameError: its text is not UTF-8, a line is not ``POSITION SCORE COLUMN`` or its position is refused by the
            rules (:func:`ai.connect4.connect4_book.read_book_lines`: the message names the line), the game is over
            at a position, or its column is full there (the message names the file and the position).
    """
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as e:
        raise GameError(f"{path}: not a UTF-8 text file (byte {e.start}): expected a Connect Four book") from None
    game = Connect4()
    out: dict[int, tuple[str, int, int]] = {}
    for moves, score, column in read_book_lines(text, str(path)):
        state = game.parse_position(moves)
        if game.is_terminal(state):
            raise GameError(f"{path}: position {_position_text(moves)}: the game is over there; a book entry needs a "
                            f"move to play")
        if column not in game.actions(state):
            raise GameError(f"{path}: position {_position_text(moves)}: column {column} is full there; expected a "
                            f"playable column")
        out[canonical_key(state)] = (moves, score, column)
    return out


def _position_text(moves: str) -> str:
    return moves or EMPTY_POSITION


class BookBuild:
    """The build's state: the entries by canonical key, the file and its header (:func:`main`)."""

    def __init__(self, out: Path, head: str) -> None:
        self.out = out
        self.head = head
        self.entries: dict[int, tuple[str, int, int]] = {}
        """``(position, score, column 1-7)`` by canonical key."""
        self.saved_at = time.monotonic()

    def save(self) -> None:
        """Write the file whole: the header, then the entries by stones, then position."""
        rows = sorted(self.entries.values(), key=lambda e: (len(e[0]), e[0]))
        write_text(self.out, self.head + "".join(f"{_position_text(m)} {s} {c}\n" for m, s, c in rows))
        self.saved_at = time.monotonic()

    def save_now_and_then(self) -> None:
        if time.monotonic() - self.saved_at >= SAVE_EVERY_S:
            self.save()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--plies", type=int, default=8, help="the most stones of a stored position (default 8)")
    ap.add_argument("--sides", type=_sides, default=SIDES, help="whose moves: first, second or first,second "
                    "(default both)")
    ap.add_argument("--empty", action="store_true", help="solve the empty board too (else the first player's "
                    "tree starts from the centre, the solved game's first move)")
    ap.add_argument("--start", default="", help="the position the trees start from (columns 1-7; default the "
                    "empty board)")
    ap.add_argument("--max-seconds", type=float, default=3600.0, help="give up a position after this long (CPU s)")
    ap.add_argument("--out", type=Path, required=True, help=f"the book file to write (required; the shipped book is "
                    f"{BOOK_PATH})")
    ap.add_argument("--resume", action="store_true", help="keep the existing file's entries; solve the rest")
    a = ap.parse_args(argv)
    if not 0 <= a.plies <= 20 or a.max_seconds <= 0:
        ap.error("--plies must be 0-20 and --max-seconds above 0")
    game = Connect4()
    try:
        start = game.parse_position(a.start)
    except GameError as e:
        ap.error(f"--start: {e}")
    if game.is_terminal(start) or start.plies > a.plies:
        ap.error(f"--start {a.start}: the game is over there, or it has more than --plies stones")
    command = " ".join(["python tools/build_c4_book.py", f"--plies {a.plies}", "--sides " + ",".join(a.sides)]
                       + (["--empty"] if a.empty else []) + ([f"--start {a.start}"] if a.start else [])
                       + [f"--max-seconds {a.max_seconds:g}"])
    head = (f"# Connect Four opening book: the positions expert meets in its first {a.plies} plies (its moves the "
            f"book's, the opponent's all), built by\n# {command}\n"
            "# position (columns 1-7, - the empty board) | exact score (Pons: +n the side to move wins with its "
            "(22-n)th stone) | best column\n")
    try:
        check_target(a.out)
    except OutputError as e:
        return _refuse(str(e))
    build = BookBuild(a.out, head)
    if a.resume and a.out.exists():
        try:
            kept = resumed_entries(a.out)
        except (OSError, UnicodeDecodeError, GameError) as e:
            return _refuse(f"--resume: {e}")
        build.entries.update(kept)
    solver = Solver(time.process_time)
    print(status_line(), file=sys.stderr)
    t_all = time.process_time()
    left_out = solved = 0
    # the positions where expert is to move, level by level: stones -> {canonical key: state}
    levels: dict[int, dict[int, Connect4State]] = {}

    def add(state: Connect4State) -> None:
        if not game.is_terminal(state) and state.plies <= a.plies:
            levels.setdefault(state.plies, {}).setdefault(canonical_key(state), state)

    if "first" in a.sides:
        if a.empty or start.plies > 0:
            add(start)
        else:  # the solved game's first move: the centre
            for reply in game.actions(game.result(start, 4)):
                add(game.result(game.result(start, 4), reply))
    if "second" in a.sides:
        for opening in game.actions(start):
            add(game.result(start, opening))
    for plies in range(a.plies + 1):
        level = levels.get(plies, {})
        if not level:
            continue
        t_level = time.process_time()
        done = 0
        for i, (k, state) in enumerate(sorted(level.items(), key=lambda kv: kv[1].moves)):
            found = build.entries.get(k)
            if found is None:
                p, m = from_state_bits(state.first, state.mask, state.plies)
                t0 = time.process_time()
                try:
                    sol = solver.solve(p, m, deadline=t0 + a.max_seconds)
                except SolverStopped:
                    left_out += 1
                    print(f"{plies} stones {i + 1}/{len(level)} {_position_text(state.moves)}: not solved in "
                          f"{a.max_seconds:g} s", file=sys.stderr, flush=True)
                    continue
                solved += 1
                done += 1
                found = (state.moves, sol.score, sol.column)
                build.entries[k] = found
                print(f"{plies} stones {i + 1}/{len(level)} {_position_text(state.moves)}: score {sol.score:+d}, "
                      f"column {sol.column}, {time.process_time() - t0:.2f} s, {sol.nodes:,} nodes",
                      file=sys.stderr, flush=True)
                build.save_now_and_then()
            moves, _, column = found
            stored = game.parse_position(moves)  # this position, or its mirror image: then the move is mirrored too
            col = column if (stored.first, stored.mask) == (state.first, state.mask) else 8 - column
            after = game.result(state, col)
            if not game.is_terminal(after):
                for reply in game.actions(after):
                    add(game.result(after, reply))
        build.save()
        print(f"{plies} stones: {len(level)} positions ({done} solved now) in "
              f"{time.process_time() - t_level:.0f} CPU s", flush=True)
    build.save()
    print(f"{len(build.entries)} entries in {a.out}; {solved} positions solved, {left_out} left out (over "
          f"{a.max_seconds:g} s); {time.process_time() - t_all:.0f} CPU s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
