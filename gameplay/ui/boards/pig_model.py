"""What the Pig table shows, computed without drawing: win probabilities and the AI's values of roll and hold,
the game log by turns, the last bust, and the exact win probability under optimal play from the value-iteration
table (:mod:`ai.pig.pig_optimal`, Neller and Presser 2004), loaded on a background thread. Used by
:mod:`gameplay.ui.boards.pig_view`.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ai.kernel.search import SearchResult
from ai.pig.pig_optimal import PigTable, load_table
from gameplay.rules.pig import HOLD, ROLL, Pig, PigState

MAX_TABLE_TARGET = 200
"""Largest target whose exact table is loaded for reference (the table holds about target**3 / 2 floats)."""


def percent(p: float) -> str:
    """A probability as a percentage with one decimal, e.g. ``"53.1%"`` (:func:`ai.kernel.numbers.probability_text`:
    never ``0.0%`` for a chance that is not nil nor ``100.0%`` for one short of certain)."""
    from ai.kernel.numbers import probability_text
    return probability_text(p)


def win_probability(value: float) -> float:
    """Win probability ``(value + 1) / 2`` of a value in ``[-1, 1]`` (ARCHITECTURE.md), clamped to ``[0, 1]``."""
    return min(1.0, max(0.0, (value + 1.0) / 2.0))


def move_values(res: SearchResult) -> dict[str, float]:
    """``{"roll": v, "hold": v}`` (values in ``[-1, 1]`` for the mover) from ``res.extra["values"]``; may be empty."""
    values = res.extra.get("values") if isinstance(res.extra, Mapping) else None
    if not isinstance(values, Mapping):
        return {}
    return {m: float(values[m]) for m in (ROLL, HOLD) if m in values}


def ai_note(res: SearchResult | None) -> str:
    """A short summary of an AI decision for the log, e.g. ``"AI: roll 53.1% · hold 51.0%"``; empty if none."""
    if res is None:
        return ""
    values = move_values(res)
    if not values:
        return ""
    return "AI: " + " · ".join(f"{m} {percent(win_probability(v))}" for m, v in values.items())


# ----- the game log -------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class LogEntry:
    """One line of the game log."""

    player: int
    """Who acted (0 or 1)."""
    text: str
    """What happened, e.g. ``"rolled 4: turn total 9"``."""
    kind: str = "roll"
    """``"roll"``, ``"bust"`` (a rolled 1), ``"hold"``, ``"win"`` or ``"rolling"`` (the die is in the air)."""
    note: str = ""
    """The AI's reasoning behind the decision of this line (see :func:`ai_note`), or empty."""


def game_log(game: Pig, history: Sequence[tuple[Any, Any]], current: PigState,
             decisions: Mapping[int, SearchResult] | None = None) -> list[LogEntry]:
    """The game so far as log lines, oldest first: one per die outcome and one per hold.

    Args:
        game: the Pig game (its target decides wins).
        history: ``(state before, move or die face)`` pairs, oldest first (``ViewState.history``).
        current: the state after the last pair.
        decisions: AI decisions by the index in ``history`` of the decision they made (roll or hold).

    Returns:
        The log lines; a last ``"rolling"`` line while the die is in the air.
    """
    decisions = decisions or {}
    out: list[LogEntry] = []
    for i, (s, move) in enumerate(history):
        after = history[i + 1][0] if i + 1 < len(history) else current
        if s.pending:
            note = ai_note(decisions.get(i - 1))
            if move == 1:
                text = f"rolled 1: loses {s.turn}, turn passes" if s.turn else "rolled 1: turn passes"
                out.append(LogEntry(s.player, text, "bust", note))
            elif game.is_terminal(after):
                total = after.s1 if s.player == 0 else after.s2
                out.append(LogEntry(s.player, f"rolled {move}: reaches {total} and wins", "win", note))
            else:
                out.append(LogEntry(s.player, f"rolled {move}: turn total {after.turn}", "roll", note))
        elif move == HOLD:
            own = s.s1 if s.player == 0 else s.s2
            kind = "win" if game.is_terminal(after) else "hold"
            out.append(LogEntry(s.player, f"held: banks {s.turn}, score {own} » {own + s.turn}", kind,
                                ai_note(decisions.get(i))))
    if current.pending:
        out.append(LogEntry(current.player, "rolls the die…", "rolling"))
    return out


def last_bust(history: Sequence[tuple[Any, Any]], current: PigState) -> PigState | None:
    """The chance node (who rolled, what they lost) of a 1 that is still news, else ``None``.

    A rolled 1 stays news until the next player's first die lands: while their turn total is 0.
    """
    if current.turn:
        return None
    for s, move in reversed(history):
        if s.pending:
            return s if move == 1 else None
    return None


# ----- the exact table, loaded off the UI thread ------------------------------------------------------------------
class OptimalTableLoader:
    """Loads :func:`ai.pig.pig_optimal.load_table` for ``(target, faces)`` on a daemon thread, once.

    Args:
        target: the game's target (tables above :data:`MAX_TABLE_TARGET` are not loaded).
        faces: die faces.
    """

    def __init__(self, target: int, faces: int) -> None:
        self.target = target
        self.faces = faces
        self.error: str | None = None
        """Why the table is not available (too large, or the computation failed), or ``None``."""
        self._table: PigTable | None = None
        self._thread: threading.Thread | None = None
        if target > MAX_TABLE_TARGET:
            self.error = f"no exact table above target {MAX_TABLE_TARGET}"

    def get(self) -> PigTable | None:
        """The table if ready; the first call starts loading it (never blocks)."""
        if self._table is None and self._thread is None and self.error is None:
            self._thread = threading.Thread(target=self._load, name="pig-optimal-table", daemon=True)
            self._thread.start()
        return self._table

    def wait(self, timeout_s: float) -> PigTable | None:
        """Start loading if needed and wait up to ``timeout_s`` seconds (tests and scripts; not the UI)."""
        self.get()
        if self._thread is not None:
            self._thread.join(timeout_s)
        return self._table

    def _load(self) -> None:
        try:
            # The disk cache is for the big tables only; small ones (quick test games) take milliseconds.
            self._table = load_table(self.target, self.faces, use_disk=self.target >= 60)
        except Exception as e:  # noqa: BLE001 - shown in the reasoning card; the game goes on without it
            self.error = f"exact table failed: {e}"


def exact_win(table: PigTable, state: PigState) -> float | None:
    """Exact win probability of the player to move (at a chance node: of the player who rolled), or ``None``."""
    if table.target <= max(state.s1, state.s2):
        return None
    own, opp = (state.s1, state.s2) if state.player == 0 else (state.s2, state.s1)
    if state.pending:
        return table.roll_value(own, opp, state.turn)
    return table.win(own, opp, state.turn)


# ----- input --------------------------------------------------------------------------------------------------------
