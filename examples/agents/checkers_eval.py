"""Checkers evaluation: material and advancement (a template to copy and change).

Play it:   python main.py match checkers --p1 file:examples/agents/checkers_eval.py --p2 easy --games 2
Try it:    python main.py analyze checkers --agent file:examples/agents/checkers_eval.py

An *evaluation file* defines ``evaluate(state, player)``. The arcade's own alpha-beta search (move ordering,
transposition table, capture search) plays the game and calls your function at its depth limit: you only say how
good a position looks.

``player`` is 0 (Black, moves first, from squares 1-12 towards 29-32) or 1 (White). Return a number: the higher,
the better the position is for ``player``; the opponent's view is minus yours. A man is worth about 100 in the
project's own weights; any scale works (values are clamped far below a proven win).

The position (``state``) is a ``CheckersState``: ``state.black``, ``state.white`` and ``state.kings`` are 32-bit
numbers with bit ``s - 1`` set when PDN square ``s`` (1..32) holds such a piece; ``state.turn`` is the side to move;
``state.piece_at(s)`` gives ``"b"``, ``"B"`` (king), ``"w"``, ``"W"`` or None. You rarely need them: the project's
named features are one call away.

Two names are set for you before this file runs (don't use them for anything else):
* ``features(state, player)``: a dict of the project's features for ``player`` (each Black's count minus White's,
  turned round for White): ``men``, ``kings``, ``back_rank``, ``centre``, ``advancement`` (men in the far half),
  ``mobility``, ``runaway``, ``tempo``, ``endgame`` and more. ``features(state, player, ["men", "kings"])``
  computes only those (faster).
* ``game``: the rules: ``game.actions(state)`` (legal moves), ``game.result(state, move)``, ``game.to_move(state)``,
  ``game.is_terminal(state)``, ``game.format_move(state, move)`` (``"11-15"``, ``"22x15"``).

Time: the search gets ``SETTINGS["time"]`` seconds per move (or the match's limit if smaller) and stops in time
by itself; a move later than the limit plus a 0.25 s grace loses. A slow ``evaluate`` only makes it search less
deep.
"""

# The search (all optional): "depth" in plies, "time" in seconds per move, "quiescence" (the capture search at the
# depth limit, on by default for checkers), "ordering" and "tt" (on by default).
SETTINGS = {"depth": 6, "time": 1.0}

MAN, KING, ADVANCED = 100.0, 150.0, 4.0


def evaluate(state, player):
    """Material (a king is worth one and a half men) plus a small bonus for men in the opponent's half."""
    f = features(state, player, ("men", "kings", "advancement"))
    return MAN * f["men"] + KING * f["kings"] + ADVANCED * f["advancement"]
