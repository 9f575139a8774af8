"""Connect Four evaluation: open lines of four, weighted by how full they are (a template to copy and change).

Play it:   python main.py match connect4 --p1 file:examples/agents/connect4_eval.py --p2 easy --games 2
Try it:    python main.py analyze connect4 --position 4453 --agent file:examples/agents/connect4_eval.py

An *evaluation file* defines ``evaluate(state, player)``. The arcade's own alpha-beta search (centre-first move
ordering, transposition table) plays the game and calls your function at its depth limit: you only say how good a
position looks. Wins, losses and draws are scored by the game itself.

``player`` is 0 (Red, moves first) or 1 (Yellow). Return a number: the higher, the better the position is for
``player``; the opponent's view is minus yours.

The position (``state``) has ``state.moves``, the columns played from the empty board (``"4453"``), and two
bitboards: ``state.first`` (Red's stones) and ``state.mask`` (every stone), bit ``7 * column + row`` for column
0..6 from the left and row 0..5 from the bottom. You rarely need them: the project's named features are one call
away.

Two names are set for you before this file runs (don't use them for anything else):
* ``features(state, player)``: a dict of the project's features for ``player`` (each the player's count minus the
  opponent's): ``three``, ``two``, ``one`` (lines of four holding 3, 2 or 1 of the player's stones and none of the
  opponent's: the course's tic-tac-toe A, B, C generalised), ``threats`` (empty cells that would complete a four),
  ``parity`` (those threats on the player's good rows: odd rows for Red, even for Yellow) and ``centre`` (stones
  in column 4). ``features(state, player, ["three", "two"])`` computes only those (faster).
* ``game``: the rules: ``game.actions(state)`` (the legal columns 1..7), ``game.result(state, move)``,
  ``game.to_move(state)``, ``game.is_terminal(state)``.

Time: the search gets ``SETTINGS["time"]`` seconds per move (or the match's limit if smaller) and stops in time
by itself; a move later than the limit plus a 0.25 s grace loses. A slow ``evaluate`` only makes it search less
deep.
"""

# The search (all optional): "depth" in plies, "time" in seconds per move, "ordering" and "tt" (on by default).
SETTINGS = {"depth": 4, "time": 1.0}


def evaluate(state, player):
    """The course's f = 100A + 10B + C - (100D + 10E + F) over the lines of four, plus the threats."""
    f = features(state, player, ("three", "two", "one", "threats"))
    return 100.0 * f["three"] + 10.0 * f["two"] + f["one"] + 50.0 * f["threats"]
