"""The match's AI decisions as a saved game keeps them, and the decision a resumed game brings back (issue 47).

A saved game holds its last AI decision (:mod:`ai.teaching.decision_file`: the move, the search's result and the
recorded tree, never a search run again), so that after a resume the tree view (T) and the "Last AI decision" box
show what they showed before the save.

* :class:`DecisionStore` keeps each decision's record for the saves. The decision's words (move and result) are
  written at once; its tree, up to a second of work for a 15,000-node checkers tree in pure Python, on a
  background thread, so the window never stops after the AI's move. Until the tree is written a save holds the
  words alone; the autosave writes again once it is (:attr:`DecisionStore.finished`).
* :func:`restore` reads a saved game's record back, checks that it belongs to the game's moves (the position and
  the move at its ply) and says what the tree view shows for the AI moves whose trees were not saved: an older
  save's, the earlier moves of any save, a tree over the cap, a damaged record (the game is resumed all the same).
"""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any

from ai.kernel.search import SearchResult
from ai.teaching.decision_file import DecisionFileError, decode_decision, encode_decision
from ai.teaching.decision_model import TreeInfo, start_minimax_count
from ai.teaching.mcts_record import MCTSTrace
from gameplay.ui.overlay.mcts_overlay import MCTSInfo

Message = tuple[str, tuple[str, ...]]
"""The tree view's header without a tree: its title and notes."""
NEXT = "The tree of the AI's next move will appear here."
NOT_SAVED: Message = ("The tree of the AI's last move was not saved with this game",
                      ("This saved game holds the moves but not this AI move's search tree: an earlier version "
                       "saved it, or the move came before the last decision, the one a save keeps. " + NEXT,))
"""The tree view after a resume at an AI move whose tree the save does not hold (an older version's save, or a
move before the save's last decision)."""
SAVE_WAIT_S = 30.0
"""Seconds a named save waits for the last decision's tree to be written (it is done in about a second)."""


def too_large(why: str) -> Message:
    """The tree view when the saved tree was over the cap (``why``: ``decision_file``'s ``tree_left_out``)."""
    return ("The tree of the AI's last move was not saved with this game",
            (f"It was too large to keep in the saved game ({why}). {NEXT}",))


def unreadable(why: str) -> Message:
    """The tree view when the saved decision's tree could not be read (``why``: the reason)."""
    return ("The tree of the AI's last move could not be read",
            (f"The saved game's record of it is damaged: {why}. The game itself was restored. {NEXT}",))


class DecisionStore:
    """The saved-game records of a match's AI decisions, by the ply their move led to.

    Args:
        game: the game (notation).
    """

    def __init__(self, game: Any) -> None:
        self.game = game
        self._records: dict[int, dict[str, Any]] = {}
        """Finished records (a restored decision's as it was read)."""
        self._words: dict[int, dict[str, Any]] = {}
        """The words of a decision whose tree is still being written."""
        self._jobs: dict[int, threading.Thread] = {}
        self._lock = threading.Lock()
        self._finished = 0

    @property
    def finished(self) -> int:
        """How many records have been finished so far (a save made before one was finished is written again)."""
        return self._finished

    def encode(self, ply: int, state: Any, player: int, move_text: str, result: SearchResult,
               shown: tuple[Any, Any] | None) -> None:
        """Write the record of the decision whose move led to ``ply``: its words now, its tree ``shown`` (the
        overlay's ``(tree, info)``, or ``None``: no tree, e.g. a book move) on a background thread."""
        words = encode_decision(self.game, state, ply, player, move_text, result)
        if shown is None:
            with self._lock:
                self._finish(ply, words)
            return
        tree, info = shown
        if isinstance(info, TreeInfo):  # the minimax count writes into the summary meanwhile: a copy
            info = dataclasses.replace(info, summary=dict(info.summary))
        title = info.title if isinstance(info, MCTSInfo) else ""
        stem = info.stem if isinstance(info, MCTSInfo) else ""
        with self._lock:
            self._words[ply] = words
            self._records.pop(ply, None)

        def work() -> None:
            try:
                record = encode_decision(self.game, state, ply, player, move_text, result, tree,
                                         None if isinstance(tree, MCTSTrace) else info, title=title, stem=stem)
            except Exception as e:  # noqa: BLE001 - a tree that cannot be written leaves the words saved
                record = dict(words, tree_left_out=f"it could not be written: {type(e).__name__}: {e}")
            with self._lock:
                if self._words.get(ply) is words:
                    self._finish(ply, record)

        job = threading.Thread(target=work, name=f"save-decision-{ply}", daemon=True)
        self._jobs[ply] = job
        job.start()

    def _finish(self, ply: int, record: dict[str, Any]) -> None:
        self._records[ply] = record
        self._words.pop(ply, None)
        self._finished += 1

    def keep(self, ply: int, record: dict[str, Any]) -> None:
        """Keep a restored decision's record as it was read (saved again as it is)."""
        with self._lock:
            self._words.pop(ply, None)
            self._finish(ply, record)

    def record(self, ply: int, wait_s: float = 0.0) -> dict[str, Any] | None:
        """The record of the decision at ``ply``: finished, else its words alone (its tree still being written,
        waited for up to ``wait_s`` seconds first), else ``None``."""
        job = self._jobs.get(ply)
        if wait_s > 0 and job is not None:
            job.join(wait_s)
        with self._lock:
            return self._records.get(ply, self._words.get(ply))

    def pending(self, ply: int) -> bool:
        """True while the tree of the decision at ``ply`` is being written."""
        with self._lock:
            return ply in self._words

    def forget(self, keep: Collection[int] = ()) -> None:
        """Drop the records of every ply but ``keep`` (undone decisions a new move dropped, a new game)."""
        with self._lock:
            for d in (self._records, self._words, self._jobs):
                for k in [k for k in d if k not in keep]:
                    del d[k]


@dataclass(frozen=True)
class Restored:
    """What a resumed game brings back (:func:`restore`)."""

    ply: int | None
    """The ply of the saved decision, ``None`` without one."""
    decision: tuple[int, str, SearchResult] | None
    """``(player, move text, result)`` for the side panel, or ``None``."""
    shown: tuple[Any, Any] | None
    """The overlay's ``(tree, info)``, or ``None``."""
    record: dict[str, Any] | None
    """The record as read, saved again as it is (``None`` when it could not be read at all)."""
    missing: dict[int, Message]
    """What the tree view says at each AI move's ply whose tree is not shown."""
    note: str
    """A sentence for the panel when the saved tree was left out or could not be read, else ``""``."""


def ai_plies(game: Any, states: Sequence[Any], agents: Sequence[Any]) -> list[int]:
    """The plies (1-based) of the moves a side played by an AI (``agents[p].is_human`` false) chose: the move
    from ``states[i]`` is ply ``i + 1``; chance outcomes are not. ``states`` holds the position before each move
    (and may end with the one after the last)."""
    out = []
    for i, s in enumerate(states):
        if game.is_terminal(s) or game.is_chance(s):
            continue
        if not agents[game.to_move(s)].is_human:
            out.append(i + 1)
    return out


def restore(game: Any, view: Any, states: Sequence[Any], moves: Sequence[Any], agents: Sequence[Any],
            record: Any) -> Restored:
    """Read a resumed game's saved decision (``SavedGame.decision``) back for the match.

    Args:
        game: the game.
        view: the match's board view (mini-boards).
        states: the replayed game's positions (``GameRecord.states``: before each move, then the current one).
        moves: its moves.
        agents: its sides.
        record: the saved decision's JSON object, or ``None`` (an older save, or no AI decision saved).

    Returns:
        The decision, its tree (with its minimax count started) and the tree view's words for the AI moves
        without a tree. Never raises for a bad record: it is reported in ``missing`` and ``note``.
    """
    plies = [p for p in ai_plies(game, states[:len(moves)], agents) if p <= len(moves)]
    missing: dict[int, Message] = dict.fromkeys(plies, NOT_SAVED)
    if record is None:
        return Restored(None, None, None, None, missing, "")
    guess = record.get("ply") if isinstance(record, dict) else None
    at = guess if isinstance(guess, int) and 1 <= guess <= len(moves) else (plies[-1] if plies else len(moves))
    try:
        ply = guess if isinstance(guess, int) and not isinstance(guess, bool) else 0
        if not 1 <= ply <= len(moves):
            raise DecisionFileError(f"its ply {guess!r} is not one of the game's {len(moves)} moves")
        saved = decode_decision(record, game, view, states[ply - 1])
        played = game.format_move(states[ply - 1], moves[ply - 1])
        if saved.move_text != played:
            raise DecisionFileError(f"its move {saved.move_text} is not the game's move {played} at ply {ply}")
    except DecisionFileError as e:
        if at >= 1:
            missing[at] = unreadable(str(e))
        return Restored(None, None, None, None, missing, f"The tree of the AI's last move could not be read: {e}.")
    missing.pop(ply, None)
    decision = (saved.player, saved.move_text, saved.result)
    note = ""
    shown: tuple[Any, Any] | None = None
    if saved.tree_error:
        missing[ply] = unreadable(saved.tree_error)
        note = f"The tree of the AI's last move could not be read: {saved.tree_error}."
    elif saved.left_out:
        missing[ply] = too_large(saved.left_out)
        note = "The tree of the AI's last move was too large to save."
    elif isinstance(saved.tree, MCTSTrace):
        shown = (saved.tree, MCTSInfo(saved.title, saved.stem))
    elif saved.tree is not None and saved.info is not None:
        start_minimax_count(saved.info, saved.tree)
        shown = (saved.tree, saved.info)
    elif saved.result.stop_reason != "book":  # no tree and no book: the words alone were saved
        missing[ply] = NOT_SAVED
    return Restored(ply, decision, shown, record, missing, note)
