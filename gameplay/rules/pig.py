"""Pig, the dice game (RULES.md, "Pig"): two players, one die, first to the target wins.

On your turn you repeatedly choose ``roll`` or ``hold``. A rolled 1 loses the turn total and passes the turn;
any other face is added to the turn total. ``hold`` banks the turn total and passes the turn. At the start of a
turn (turn total 0) only ``roll`` is legal. The game ends as soon as a player's banked score plus turn total
reaches the target; that player wins. The target (100) and the number of die faces (6) are game options.

States are :class:`PigState` named tuples (immutable, hashable). After ``roll`` the state is a **chance node**
(``pending`` is true) whose outcomes are the faces ``1..faces``, each with probability ``1/faces``; the referee
(``gameplay.rules.referee.sample_chance``) samples them with a seeded generator, never an agent.

Notation:
    * Position ``S1,S2,T,P``: player 1's and player 2's banked scores, the turn total, the player to move
      (``1`` or ``2``); the start is ``0,0,0,1``. A **chance node** carries a trailing ``,r`` ("the die is
      rolling"): ``0,0,7,1,r`` is player 1 having rolled with a turn total of 7, the die not yet read.
    * A finished game is written with the winning total banked and turn total 0, the winner as ``P``, e.g.
      ``103,40,0,1``. Every position read is one a game can reach, written back as given: a banked score plus
      turn total that reaches the target (``95,40,5,1``, ``0,0,500,1``) is refused, since the game ends the
      moment it does (the message names the finished position, ``100,40,0,1``), and a winning score is at most
      ``target - 1 + faces`` (105).
    * Moves ``roll`` and ``hold`` (input also accepts ``r`` and ``h``, any case); chance outcomes ``die=3``
      (input also accepts a bare ``3``).

Source: the rules of Neller and Presser, "Optimal Play of the Dice Game Pig", *UMAP Journal* 25(1), 2004,
as fixed in RULES.md; the chance-node shape follows OpenSpiel's ``games/pig``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from gameplay.rules.base import (
    GameError,
    GameTraits,
    IllegalMoveError,
    MoveError,
    Outcome,
    PositionError,
    Termination,
    quoted,
)
from gameplay.rules.limits import PIG_POINTS

ROLL = "roll"
"""The move that rolls the die (leads to a chance node)."""
HOLD = "hold"
"""The move that banks the turn total and passes the turn."""

PigMove = str | int
"""A decision (``"roll"``/``"hold"``) or, at a chance node, a face ``1..faces`` (an ``int``)."""


class PigState(NamedTuple):
    """One Pig position (immutable and hashable)."""

    s1: int
    """Player 1's banked score (points)."""
    s2: int
    """Player 2's banked score (points)."""
    turn: int
    """Turn total of the player to move (points at risk, not yet banked)."""
    player: int
    """Player to move: 0 (player 1) or 1 (player 2); at a chance node, the player who rolled."""
    pending: bool = False
    """True at a chance node: the die has been rolled and its face is not read yet."""


class Pig:
    """The Pig game object (stateless apart from its options).

    Args:
        target: points needed to win (default 100).
        faces: number of die faces (default 6); faces are ``1..faces`` with equal probability.

    Raises:
        GameError: ``target < 1`` or ``faces < 2``.
    """

    name = "pig"
    traits = GameTraits(stochastic=True)
    player_names = ("1", "2")
    to_move_names = ("1", "2")

    def __init__(self, target: int = 100, faces: int = 6) -> None:
        if isinstance(target, bool) or not isinstance(target, int) or target < 1:
            raise GameError(f"pig target must be a whole number of points >= 1, got {target!r}")
        if isinstance(faces, bool) or not isinstance(faces, int) or faces < 2:
            raise GameError(f"pig die must have at least 2 faces, got {faces!r}")
        self.target = target
        self.faces = faces
        p = 1.0 / faces
        self._outcomes: tuple[tuple[int, float], ...] = tuple((f, p) for f in range(1, faces + 1))

    def __repr__(self) -> str:
        return f"Pig(target={self.target}, faces={self.faces})"

    # ----- the Game protocol ---------------------------------------------------------------------------------
    def order_key(self, state: Any, move: Any) -> float:
        """No static move ordering (``traits.move_order`` is False)."""
        return 0.0

    def draw_context(self, state: Any) -> None:
        """Positions never repeat in a way a rule reads (``traits.repetition`` is False)."""
        return None

    def initial_state(self) -> PigState:
        """The start ``0,0,0,1``."""
        return PigState(0, 0, 0, 0, False)

    def to_move(self, state: PigState) -> int:
        """The player (0 or 1) to decide; at a chance node the player who rolled."""
        return state.player

    def is_chance(self, state: PigState) -> bool:
        """True after ``roll``, until the die's face is applied."""
        return state.pending

    def is_terminal(self, state: PigState) -> bool:
        """True when a banked score has reached the target."""
        return state.s1 >= self.target or state.s2 >= self.target

    def actions(self, state: PigState) -> tuple[str, ...]:
        """``("roll", "hold")``, or ``("roll",)`` at turn total 0; empty at a chance node or when the game is over.

        At a chance node nobody decides: :meth:`chance_outcomes` lists the faces.
        """
        if state.pending or state.s1 >= self.target or state.s2 >= self.target:
            return ()
        return (ROLL, HOLD) if state.turn > 0 else (ROLL,)

    def chance_outcomes(self, state: PigState) -> Sequence[tuple[int, float]]:
        """``[(face, 1/faces) for face in 1..faces]`` at a chance node.

        Raises:
            GameError: ``state`` is not a chance node.
        """
        if not state.pending:
            raise GameError(f"pig position {self.format_position(state)} is not a chance node")
        return self._outcomes

    def successor(self, state: PigState, move: PigMove) -> PigState:
        """Like :meth:`result` without the legality checks (the search's fast path)."""
        s1, s2, t, p, pending = state
        if pending:
            if move == 1:
                return PigState(s1, s2, 0, 1 - p, False)
            t += move  # type: ignore[operator]
            if p == 0:
                if s1 + t >= self.target:
                    return PigState(s1 + t, s2, 0, 0, False)
            elif s2 + t >= self.target:
                return PigState(s1, s2 + t, 0, 1, False)
            return PigState(s1, s2, t, p, False)
        if move == ROLL:
            return PigState(s1, s2, t, p, True)
        if p == 0:
            return PigState(s1 + t, s2, 0, 1, False)
        return PigState(s1, s2 + t, 0, 0, False)

    def result(self, state: PigState, move: PigMove) -> PigState:
        """The state after a decision (``"roll"``/``"hold"``) or, at a chance node, a face ``1..faces``.

        A face of 1 loses the turn total and passes the turn; a face that lifts banked score plus turn total to
        the target ends the game at once (the total is banked). ``hold`` banks and passes the turn.

        Raises:
            IllegalMoveError: the game is over, a decision at a chance node or a face at a decision node, a
                face outside ``1..faces``, ``hold`` at turn total 0, or an unknown move.
        """
        if self.is_terminal(state):
            raise IllegalMoveError(f"the game is over ({self.format_position(state)}): no move is legal")
        if state.pending:
            if isinstance(move, bool) or not isinstance(move, int) or not 1 <= move <= self.faces:
                raise IllegalMoveError(f"at a chance node the outcome must be a die face 1..{self.faces}, "
                                       f"got {quoted(move)}")
            return self.successor(state, move)
        if move == HOLD and state.turn == 0:
            raise IllegalMoveError("hold is not legal at turn total 0 (the first move of a turn must be roll)")
        if move not in (ROLL, HOLD):
            raise IllegalMoveError(f"pig move must be 'roll' or 'hold', got {quoted(move)}")
        return self.successor(state, move)

    def outcome(self, state: PigState) -> Outcome | None:
        """The winner (the player whose banked score reached the target), or ``None`` while the game goes on."""
        if state.s1 >= self.target:
            return Outcome(0, Termination.REACHED, str(self.target))
        if state.s2 >= self.target:
            return Outcome(1, Termination.REACHED, str(self.target))
        return None

    def utility(self, state: PigState, player: int) -> float:
        """+1 if ``player`` won, -1 if they lost.

        Raises:
            GameError: the game is not over.
        """
        if state.s1 >= self.target:
            return 1.0 if player == 0 else -1.0
        if state.s2 >= self.target:
            return 1.0 if player == 1 else -1.0
        raise GameError("utility() of a pig position that is not over")

    # ----- helpers ---------------------------------------------------------------------------------------------
    def scores(self, state: PigState, player: int) -> tuple[int, int, int]:
        """``(own banked, opponent banked, own turn total)`` from ``player``'s side; turn total 0 if not to move."""
        own, opp = (state.s1, state.s2) if player == 0 else (state.s2, state.s1)
        return own, opp, state.turn if state.player == player else 0

    def make_state(self, s1: int, s2: int, turn: int = 0, player: int = 0, pending: bool = False) -> PigState:
        """Build a checked state (player 0 or 1); see :meth:`parse_position` for the rules.

        Every position it accepts is one a game can reach, and :meth:`format_position` writes it back as given:
        while the game goes on, each banked score plus the mover's turn total stays below the target (the game
        ends the moment a total reaches it, the total banked: ``95,40,5,1`` is written ``100,40,0,1``); a
        finished game's winning score is at most ``target - 1 + faces`` (105: 99 and a roll of 6).

        Raises:
            PositionError: negative numbers, a player other than 0/1, or a position no game reaches (the message
                gives the range, or the finished position meant).
        """
        if min(s1, s2, turn) < 0:
            raise PositionError(f"pig scores and turn total must be >= 0, got {s1},{s2},{turn}")
        if player not in (0, 1):
            raise PositionError(f"pig player to move must be 1 or 2, got {player + 1}")
        tg, top = self.target, self.target - 1 + self.faces
        given = f"{s1},{s2},{turn},{player + 1}" + (",r" if pending else "")
        if s1 >= tg and s2 >= tg:
            raise PositionError(f"impossible pig position {given}: both players have reached the target {tg}")
        if s1 >= tg or s2 >= tg:
            if turn or pending:
                raise PositionError(f"impossible pig position {given}: the game is over (a score reached {tg}) "
                                    "but a turn total or a rolling die is given")
            if max(s1, s2) > top:
                raise PositionError(f"impossible pig position {given}: a game ends as soon as a total reaches "
                                    f"{tg}, so a winning score is at most {top} ({tg - 1} and a roll of "
                                    f"{self.faces})")
            return PigState(s1, s2, 0, player, False)
        own = s1 if player == 0 else s2
        if own + turn >= tg:
            if pending or own + turn > top:
                why = f"the turn total is at most {tg - 1 - own} here"
            else:
                done = f"{s1 + turn},{s2}" if player == 0 else f"{s1},{s2 + turn}"
                why = f"the finished game is written {done},0,{player + 1}"
            raise PositionError(f"impossible pig position {given}: player {player + 1}'s banked {own} plus turn "
                                f"total {turn} reaches the target {tg}, and the game ends the moment it does "
                                f"({why})")
        return PigState(s1, s2, turn, player, pending)

    # ----- notation --------------------------------------------------------------------------------------------
    def parse_position(self, text: str) -> PigState:
        """Read ``S1,S2,T,P`` (decision node) or ``S1,S2,T,P,r`` (chance node: P has rolled).

        Raises:
            PositionError: not 4 or 5 comma-separated fields, a non-integer or negative number, ``P`` not 1/2,
                a fifth field other than ``r``, both scores at the target, or a finished game with a turn total.
        """
        parts = [p.strip() for p in text.strip().split(",")]
        if len(parts) not in (4, 5):
            raise PositionError(f"pig position must be S1,S2,T,P (e.g. 0,0,0,1) or S1,S2,T,P,r at a chance "
                                f"node; got {quoted(text)}")
        pending = False
        if len(parts) == 5:
            if parts[4].lower() not in ("r", "roll"):
                raise PositionError(f"the fifth field of a pig position can only be 'r' (a chance node), "
                                    f"got {quoted(parts[4])} in {quoted(text)}")
            pending = True
        nums: list[int] = []
        for name, p in zip(("S1", "S2", "T"), parts[:3]):
            # ASCII digits only ("²".isdigit() is true too, and int() refuses it), in range before int() is called
            if not (p.isascii() and p.isdigit()) or p not in PIG_POINTS:
                raise PositionError(f"pig position field {name} must be {PIG_POINTS.describe()}, got {quoted(p)} "
                                    f"in {quoted(text)}")
            nums.append(int(p))
        if parts[3] not in ("1", "2"):
            raise PositionError(f"pig position field P (player to move) must be 1 or 2, got {parts[3]!r} in "
                                f"{quoted(text)}")
        return self.make_state(nums[0], nums[1], nums[2], int(parts[3]) - 1, pending)

    def format_position(self, state: PigState) -> str:
        """``S1,S2,T,P``, with a trailing ``,r`` at a chance node."""
        base = f"{state.s1},{state.s2},{state.turn},{state.player + 1}"
        return base + ",r" if state.pending else base

    def parse_move(self, state: PigState, text: str) -> PigMove:
        """Read ``roll``/``hold`` (``r``/``h``) at a decision node, or ``die=N`` (or ``N``) at a chance node.

        Raises:
            MoveError: malformed, or not legal here (hold at turn total 0, a face outside 1..faces, a decision
                at a chance node, the game over).
        """
        t = text.strip().lower()
        if self.is_terminal(state):
            raise MoveError(f"the game is over ({self.format_position(state)}): no move is legal")
        if state.pending:
            face = t.removeprefix("die=")
            if not face.isdigit() or len(face) > 9 or not 1 <= int(face) <= self.faces:
                raise MoveError(f"at a pig chance node the move is a die outcome die=1..die={self.faces}, "
                                f"got {quoted(text)}")
            return int(face)
        move = {"roll": ROLL, "r": ROLL, "hold": HOLD, "h": HOLD}.get(t)
        if move is None:
            raise MoveError(f"pig move must be roll or hold, got {quoted(text)}")
        if move == HOLD and state.turn == 0:
            raise MoveError("hold is not legal at turn total 0: the first move of a turn must be roll")
        return move

    def format_move(self, state: PigState, move: PigMove) -> str:
        """``roll``, ``hold`` or, for a chance outcome, ``die=N``."""
        if isinstance(move, int) and not isinstance(move, bool):
            return f"die={move}"
        return str(move)

    # ----- words for players (the move list, the resume question) -----------------------------------------------
    def turn_lines(self, start: PigState, moves: Sequence[PigMove]) -> list[tuple[int, str]]:
        """The game told by turns, oldest first: ``(player, text)`` with ``text`` such as
        ``"rolled 6, 5, held: +11"``, ``"rolled 3, 1: busted, +0"``, ``"rolled 6, 4: reached 100, wins"``; the turn
        in progress reads ``"rolled 4, 2 (turn total 6)"`` or ``"rolling…"``.

        Args:
            start: the start position.
            moves: the moves and die faces played from ``start`` (legal: see :meth:`result`).
        """
        out: list[tuple[int, str]] = []
        state = start
        faces: list[str] = []

        def rolled() -> str:
            return "rolled " + ", ".join(faces) if faces else ""

        for move in moves:
            after = self.successor(state, move)
            if state.pending:
                faces.append(str(move))
                if move == 1:
                    out.append((state.player, f"{rolled()}: busted, +0"))
                    faces = []
                elif self.is_terminal(after):
                    total = after.s1 if state.player == 0 else after.s2
                    out.append((state.player, f"{rolled()}: reached {total}, wins"))
                    faces = []
            elif move == HOLD:
                out.append((state.player, (rolled() + ", " if faces else "") + f"held: +{state.turn}"))
                faces = []
            state = after
        if not self.is_terminal(state) and (faces or state.pending):
            text = rolled() + (f" (turn total {state.turn})" if faces else "")
            if state.pending:
                text = (text + ", rolling…") if faces else "rolling…"
            out.append((state.player, text))
        return out

    def progress_text(self, start: PigState, moves: Sequence[PigMove]) -> str:
        """Where a game stands, in turns: ``"turn 3, Player 1 to play"`` (turns counted from 1 at ``start``; a
        hold or a rolled 1 ends a turn), or ``"Player 2 won"``."""
        state, turn = start, 1
        for move in moves:
            after = self.successor(state, move)
            if not self.is_terminal(after) and after.player != state.player:
                turn += 1
            state = after
        name = f"Player {self.player_names[state.player]}"
        if self.is_terminal(state):
            out = self.outcome(state)
            return f"Player {self.player_names[out.winner]} won" if out and out.winner is not None else "game over"
        return f"turn {turn}, {name} to play"
