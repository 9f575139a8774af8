"""Connect Four agent: win, else block, else never give a win away, else the column nearest the centre (a template
to copy and change).

Play it:   python main.py match connect4 --p1 file:examples/agents/connect4_agent.py --p2 beginner --games 2

An *agent file* defines ``choose_move(state, time_left_s)`` and returns the move it plays: a column, an int 1..7
(the text ``"4"`` is accepted too), one of ``game.actions(state)``.

The position (``state``) has ``state.moves``, the columns played so far from the empty board as text (``"4453"``:
Red in 4, Yellow in 4, Red in 5, Yellow in 3); :func:`board` below turns it into a grid. ``game.to_move(state)``
is 0 for Red (moves first) or 1 for Yellow.

``time_left_s`` is the time you have for this move, in seconds. Answer within it: a move later than the limit
plus a 0.25 s grace loses the game, as does a move that is not legal, a value that is not a move, an exception,
or going over the memory limit (1 GiB).

Two names are set for you before this file runs (don't use them for anything else):
* ``game``: the rules: ``game.actions(state)`` lists the legal columns, ``game.result(state, move)`` gives the
  position after a move (``state`` is never changed), ``game.to_move(state)``, ``game.is_terminal(state)`` and
  ``game.utility(state, player)`` (+1 win, 0 draw, -1 loss, once the game is over).
* ``features(state, player, names=None)``: the project's evaluation features for ``player`` (see
  connect4_eval.py).
"""

import random

CENTRE_FIRST = (4, 3, 5, 2, 6, 1, 7)


def board(state):
    """The grid as a list of 7 columns (column 1 first), each the owners of its stones from the bottom (0 Red,
    1 Yellow)."""
    columns = [[] for _ in range(7)]
    for ply, ch in enumerate(state.moves):
        columns[int(ch) - 1].append(ply % 2)
    return columns


def wins_now(state, move, player):
    """True when ``player`` dropping a stone in column ``move`` makes four (whoever is to move)."""
    columns = board(state)
    col = columns[move - 1]
    if len(col) == 6:
        return False
    c, r = move - 1, len(col)
    col.append(player)

    def mine(cc, rr):
        return 0 <= cc < 7 and 0 <= rr < len(columns[cc]) and columns[cc][rr] == player

    for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
        count = 1
        for sign in (1, -1):
            k = 1
            while mine(c + sign * k * dc, r + sign * k * dr):
                count += 1
                k += 1
        if count >= 4:
            return True
    return False


def choose_move(state, time_left_s):
    me = game.to_move(state)
    them = 1 - me
    moves = game.actions(state)
    # 1. a move that wins at once
    for m in moves:
        if wins_now(state, m, me):
            return m
    # 2. the opponent's winning cell: take it first
    for m in moves:
        if wins_now(state, m, them):
            return m
    # 3. never play under the opponent's winning cell (it would let them drop onto it)
    safe = [m for m in moves if not wins_now(game.result(state, m), m, them)] or moves
    # 4. the column nearest the centre; between two equally near ones, a random choice (the match seeds it)
    best = min(abs(m - 4) for m in safe)
    return random.choice([m for m in CENTRE_FIRST if m in safe and abs(m - 4) == best])
