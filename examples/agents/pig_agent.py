"""Pig agent: "hold at 20" (a template to copy and change).

Play it:   python main.py match pig --p1 file:examples/agents/pig_agent.py --p2 easy --games 20

An *agent file* defines ``choose_move(state, time_left_s)`` and returns ``"roll"`` or ``"hold"`` (the legal ones
are ``game.actions(state)``: ``("roll",)`` at the start of a turn, ``("roll", "hold")`` after a good roll). The
dice are rolled by the arcade, never by you.

The position (``state``) has ``state.s1`` and ``state.s2`` (player 1's and player 2's banked points),
``state.turn`` (your turn total, lost if you roll a 1) and ``state.player`` (0 or 1: you, since you are asked).
You win as soon as your banked points plus your turn total reach ``game.target`` (100): the game then ends by
itself, so you never need to hold to win.

``time_left_s`` is the time you have for this move, in seconds. Answer within it: a move later than the limit
plus a 0.25 s grace loses the game, as does a move that is not legal, a value that is not a move, an exception,
or going over the memory limit (1 GiB).

Two names are set for you before this file runs (don't use them for anything else): ``game`` (the rules) and
``features(state, player)`` (the project's evaluation features, see pig_eval.py).
"""

HOLD_AT = 20  # Neller and Presser: "hold at 20" maximises the expected points of one turn


def choose_move(state, time_left_s):
    if "hold" not in game.actions(state):  # a turn always starts with a roll
        return "roll"
    mine = state.s1 if state.player == 0 else state.s2
    needed = game.target - mine  # points still needed to win
    if state.turn >= min(HOLD_AT, needed):
        return "hold"
    return "roll"
