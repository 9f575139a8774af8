"""The retrograde-analysis solver of the checkers WLD endgame databases (:mod:`ai.checkers.endgame_db`).

Source: K. Thompson, "Retrograde analysis of certain endgames", ICCA Journal 9(3), 1986; the counting variant
for games with draws as in the Chinook endgame databases (J. Schaeffer, J. Culberson, N. Treloar, B. Knight,
P. Lu, D. Szafron, "A world championship caliber checkers program", Artificial Intelligence 53, 1992; and
J. Schaeffer et al., "Checkers is solved", Science 317, 2007).

Method. Signatures are solved in the order of :func:`ai.checkers.endgame_db.signatures` (fewer pieces first, then fewer
men), a signature together with its colour swap (only Black-to-move positions are stored; a Black move leads to
a White-to-move position, whose mirror image is a Black-to-move position of the swapped signature). For each
position of the group, one forward pass with the game's own move generator (``Checkers.legal_moves`` and
``Checkers.successor``, so captures are compulsory, multi-jumps complete, crowning ends the move):

* no legal move: a **loss** (RULES.md);
* a move leaving the group (a capture, a crowning) is valued from the already solved tables; capturing the last
  piece wins;
* a quiet move inside the group is an edge of the group's graph; the position keeps a counter of such moves.

Then the classic backward propagation: when a position is a loss, every predecessor is a win; when it is a win,
each predecessor's counter drops, and a predecessor whose in-group moves all lead to wins of the opponent gets
the best of its out-of-group values (a loss, or a draw when one of its captures/crownings draws). Positions left
unresolved can avoid losing forever without being able to force a win: **draws** (the draw rules of the game,
threefold repetition and the 80-ply rule, are ignored: the values are theoretical).

Cost: one call of the move generator per position and one successor per legal move; every edge is then touched
once more. Pure typed Python (ints, ``bytearray``, ``array``), no numpy, so it can be compiled with mypyc.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable

from ai.checkers.endgame_db import (
    DRAW,
    LOSS,
    NONE,
    WIN,
    EndgameDB,
    Material,
    index_of,
    mirror,
    pack,
    placements,
    signatures,
    swap,
    table_size,
)
from gameplay.rules.checkers.checkers import Checkers
from gameplay.rules.checkers.checkers_board import CheckersState

Progress = Callable[[int, int], None]
"""``progress(done, total)``: table entries of the forward pass done so far, and in all (see :func:`total_entries`)."""


def total_entries(max_pieces: int) -> int:
    """Entries of all tables up to ``max_pieces`` pieces (the ``total`` given to the progress callback)."""
    return sum(table_size(m) for m in signatures(max_pieces))


def solve_group(group: list[Material], solved: dict[Material, bytearray], done: int, total: int,
                progress: Progress | None = None) -> dict[Material, bytearray]:
    """Solve the signatures of ``group`` (a signature and its colour swap) by retrograde analysis.

    Args:
        group: one or two signatures closed under quiet non-crowning moves (see the module docstring).
        solved: the tables of every signature a capture or crowning can lead to (code per entry, Black to move).
        done, total: progress so far and in all (passed to ``progress`` every few thousand entries).

    Returns:
        signature -> ``bytearray`` of codes (0 none, 1 loss, 2 draw, 3 win for Black to move), in index order.

    Raises:
        KeyError: a successor signature is neither in ``group`` nor in ``solved`` (a wrong solving order).
    """
    game = Checkers()
    legal_moves = game.legal_moves
    successor = game.successor
    base: dict[Material, int] = {}
    n = 0
    for m in group:
        base[m] = n
        n += table_size(m)
    val = bytearray(n)
    best_out = bytearray(n)  # best value reached by leaving the group (0 = no such move yet)
    count = array("i", bytes(4 * n))  # in-group moves not yet known to be wins of the opponent
    src = array("i")
    dst = array("i")
    queue: list[int] = []
    g = 0
    for m in group:
        for black, white, kings in placements(m):
            if black == 0:
                g += 1
                continue
            state = CheckersState(black, white, kings, 0, key=0)  # key=0: no Zobrist key needed here
            moves = legal_moves(state)
            best = 0
            c = 0
            for mv in moves:
                child = successor(state, mv)
                nb = mirror(child.white)
                if nb == 0:
                    best = WIN  # captured the last piece: the opponent has no move
                    break
                cm, ci = index_of(nb, mirror(child.black), mirror(child.kings))
                off = base.get(cm)
                if off is not None:
                    src.append(g)
                    dst.append(off + ci)
                    c += 1
                else:
                    v = 4 - solved[cm][ci]  # the child's value is for the opponent: win <-> loss
                    if v > best:
                        best = v
                        if best == WIN:
                            break
            if not moves:
                val[g] = LOSS
                queue.append(g)
            elif best == WIN:
                val[g] = WIN
                queue.append(g)
            elif c == 0:
                val[g] = best
                if best == LOSS:
                    queue.append(g)
            else:
                count[g] = c
                best_out[g] = best
            g += 1
            if progress is not None and (g & 4095) == 0:
                progress(done + g, total)
    if progress is not None:
        progress(done + n, total)
    # predecessor lists (compressed rows): preds of j are pred[start[j]:start[j + 1]]
    start = array("i", bytes(4 * (n + 1)))
    for j in dst:
        start[j + 1] += 1
    for j in range(n):
        start[j + 1] += start[j]
    fill = array("i", start)
    pred = array("i", bytes(4 * len(src)))
    for k in range(len(src)):
        j = dst[k]
        pred[fill[j]] = src[k]
        fill[j] += 1
    # backward propagation of wins and losses
    while queue:
        j = queue.pop()
        vj = val[j]
        for k in range(start[j], start[j + 1]):
            i = pred[k]
            if val[i]:
                continue
            if vj == LOSS:
                val[i] = WIN
                queue.append(i)
            else:
                count[i] -= 1
                if count[i] == 0:
                    if best_out[i] == DRAW:
                        val[i] = DRAW
                    else:
                        val[i] = LOSS
                        queue.append(i)
    out: dict[Material, bytearray] = {}
    g = 0
    for m in group:
        size = table_size(m)
        t = val[g:g + size]
        # unresolved real positions are draws; clashing placements stay NONE
        for i, (black, _w, _k) in enumerate(placements(m)):
            if black and t[i] == NONE:
                t[i] = DRAW
        out[m] = t
        g += size
    return out


def solve_all(max_pieces: int, progress: Progress | None = None,
              on_group: Callable[[list[Material], float], None] | None = None) -> dict[Material, bytearray]:
    """Solve every signature with up to ``max_pieces`` pieces (2..4), smallest first.

    Args:
        progress: called with ``(entries done, total entries)`` during the forward passes.
        on_group: called after each group with its signatures and the seconds it took.

    Returns:
        signature -> ``bytearray`` of codes (Black to move), see :func:`solve_group`.
    """
    import time
    solved: dict[Material, bytearray] = {}
    total = total_entries(max_pieces)
    done = 0
    for m in signatures(max_pieces):
        if m in solved:
            continue
        group = [m] if swap(m) == m else [m, swap(m)]
        t0 = time.perf_counter()
        solved.update(solve_group(group, solved, done, total, progress))
        done += sum(table_size(x) for x in group)
        if on_group is not None:
            on_group(group, time.perf_counter() - t0)
    return solved


def build(max_pieces: int, progress: Progress | None = None,
          on_group: Callable[[list[Material], float], None] | None = None) -> EndgameDB:
    """Solve (see :func:`solve_all`) and pack the tables into an in-memory
    :class:`~ai.checkers.endgame_db.EndgameDB`."""
    tables = solve_all(max_pieces, progress, on_group)
    packed, offsets = pack(max_pieces, tables)
    return EndgameDB(max_pieces, packed, offsets, None)
