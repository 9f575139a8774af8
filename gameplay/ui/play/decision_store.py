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
  It reads the decision's words only (move and result, at once); the tree, about 1.3 s of work for a 12,000-node
  checkers tree in pure Python, is read on a background thread by a :class:`TreeReader` (the tree view says
  :data:`READING` meanwhile), and the window's thread installs it (:func:`tree_shown`) when it is ready.
"""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Callable, Collection, Sequence
from concurrent.futures import CancelledError, Executor, Future
from dataclasses import dataclass
from typing import Any, ParamSpec, TypeVar

from ai.kernel.search import SearchResult
from ai.teaching.decision_file import (
    DecisionFileError,
    SavedDecision,
    decode_decision,
    decode_tree,
    encode_decision,
    has_tree,
)
from ai.teaching.decision_model import TreeInfo, start_minimax_count
from ai.teaching.mcts_record import MCTSTrace
from gameplay.ui.overlay.mcts_overlay import MCTSInfo
from gameplay.ui.overlay.overlay_shown import NoTreeText

Message = NoTreeText
"""The tree view's header without a tree: its title and notes."""
NEXT = "The tree of the AI's next move will appear here."
NOT_SAVED: Message = Message("The tree of the AI's last move was not saved with this game",
                      ("This saved game holds the moves but not this AI move's search tree: an earlier version "
                       "saved it, or the move came before the last decision, the one a save keeps. " + NEXT,))
"""The tree view after a resume at an AI move whose tree the save does not hold (an older version's save, or a
move before the save's last decision)."""
READING: Message = Message("Reading the tree of the AI's last move...",
                    ("It is being read from the saved game and appears here when it is ready; the game can go on "
                     "meanwhile.",))
"""The tree view after a resume while the saved tree is still being read (:class:`TreeReader`)."""
SAVE_WAIT_S = 30.0
"""Seconds a named save waits for the last decision's tree to be written (it is done in about a second)."""


def too_large(why: str) -> Message:
    """The tree view when the saved tree was over the cap (``why``: ``decision_file``'s ``tree_left_out``)."""
    return Message("The tree of the AI's last move was not saved with this game",
                   (f"It was too large to keep in the saved game ({why}). {NEXT}",))


def unreadable(why: str) -> Message:
    """The tree view when the saved decision's tree could not be read (``why``: the reason)."""
    return Message("The tree of the AI's last move could not be read",
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
    """The overlay's ``(tree, info)``, or ``None`` (none, or not read yet: :attr:`unread`)."""
    record: dict[str, Any] | None
    """The record as read, saved again as it is (``None`` when it could not be read at all)."""
    missing: dict[int, Message]
    """What the tree view says at each AI move's ply whose tree is not shown."""
    note: str
    """A sentence for the panel when the saved tree was left out or could not be read, else ``""``."""
    unread: SavedDecision | None = None
    """The decision's words when its tree is still to be read (:class:`TreeReader`: ``missing`` says
    :data:`READING` at ``ply`` meanwhile), else ``None``."""


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
        The decision and the tree view's words for the AI moves without a tree; the tree itself is not read here
        (:attr:`Restored.unread`: :class:`TreeReader` reads it on a thread, :func:`tree_shown` installs it), except
        that a record without one says so at once. Never raises for a bad record: it is reported in ``missing``
        and ``note``.
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
        saved = decode_decision(record, game, view, states[ply - 1], tree=False)
        played = game.format_move(states[ply - 1], moves[ply - 1])
        if saved.move_text != played:
            raise DecisionFileError(f"its move {saved.move_text} is not the game's move {played} at ply {ply}")
    except DecisionFileError as e:
        if at >= 1:
            missing[at] = unreadable(str(e))
        return Restored(None, None, None, None, missing, f"The tree of the AI's last move could not be read: {e}.")
    missing.pop(ply, None)
    decision = (saved.player, saved.move_text, saved.result)
    if has_tree(record):
        missing[ply] = READING
        return Restored(ply, decision, None, record, missing, "", unread=saved)
    shown, message, note = tree_shown(saved)
    if message is not None:
        missing[ply] = message
    return Restored(ply, decision, shown, record, missing, note)


def tree_shown(saved: SavedDecision) -> tuple[tuple[Any, Any] | None, Message | None, str]:
    """What the window shows of a read decision's tree, on the window's thread (a minimax tree's count starts).

    Returns:
        ``(shown, message, note)``: the overlay's ``(tree, info)`` or ``None``; without a tree, what the tree view
        says at its ply (``None``: the overlay's own words, e.g. for a book move); a sentence for the panel when
        the tree was too large to save or could not be read, else ``""``.
    """
    if saved.tree_error:
        return (None, unreadable(saved.tree_error),
                f"The tree of the AI's last move could not be read: {saved.tree_error}.")
    if saved.left_out:
        return None, too_large(saved.left_out), "The tree of the AI's last move was too large to save."
    if isinstance(saved.tree, MCTSTrace):
        return (saved.tree, MCTSInfo(saved.title, saved.stem)), None, ""
    if saved.tree is not None and saved.info is not None:
        start_minimax_count(saved.info, saved.tree)
        return (saved.tree, saved.info), None, ""
    if not saved.result.without_tree:  # a search that recorded a tree: the words alone were saved
        return None, NOT_SAVED, ""
    return None, None, ""  # a book move or a proof never had a tree: the overlay's own words say why


_P = ParamSpec("_P")
_T = TypeVar("_T")


class DaemonThreads(Executor):
    """Runs each task on a daemon thread of its own, as :class:`DecisionStore` does (a read still going when the
    window closes never holds up the program's exit, unlike ``ThreadPoolExecutor``'s threads)."""

    def __init__(self, name: str) -> None:
        self.name = name

    def submit(self, fn: Callable[_P, _T], /, *args: _P.args, **kwargs: _P.kwargs) -> Future[_T]:
        """Start ``fn(*args, **kwargs)`` on a new daemon thread; its future is done when it returns or raises."""
        future: Future[_T] = Future()

        def run() -> None:
            if not future.set_running_or_notify_cancel():
                return
            try:
                out = fn(*args, **kwargs)
            except BaseException as e:  # noqa: BLE001 - handed to the future's reader
                future.set_exception(e)
            else:
                future.set_result(out)

        threading.Thread(target=run, name=self.name, daemon=True).start()
        return future


@dataclass(frozen=True)
class TreeRead:
    """A finished read of a resumed decision's tree (:meth:`TreeReader.take`)."""

    ply: int
    """The ply of the decision it belongs to."""
    decision: tuple[int, str, SearchResult]
    """The decision it belongs to (the very object :meth:`TreeReader.start` was given)."""
    saved: SavedDecision
    """The decision with its tree, or with :attr:`~ai.teaching.decision_file.SavedDecision.tree_error` saying why
    it could not be read (an unexpected error of the reader included)."""


class TreeReader:
    """Reads a resumed game's saved tree on a background thread (one read at a time), so that the window keeps
    drawing and answering meanwhile. The window's thread starts it, asks :meth:`take` once a frame and alone
    installs what it hands over; a read the game no longer wants (:meth:`drop`) is never handed over.

    Args:
        game: the game.
        view: the board view the restored tree's mini-boards are drawn with.
        executor: what runs the read (``submit(fn, *args)`` returning a ``concurrent.futures.Future``); default a
            daemon thread per read (:class:`DaemonThreads`). Tests pass one that finishes when they say.
    """

    def __init__(self, game: Any, view: Any, executor: Executor | None = None) -> None:
        self.game = game
        self.view = view
        self._executor: Executor = executor if executor is not None else DaemonThreads("read-decision")
        self._job: tuple[int, tuple[int, str, SearchResult], SavedDecision, Future[SavedDecision]] | None = None

    @property
    def reading(self) -> int | None:
        """The ply of the decision whose tree is being read, or ``None``."""
        return None if self._job is None else self._job[0]

    def start(self, ply: int, decision: tuple[int, str, SearchResult], record: dict[str, Any],
              words: SavedDecision) -> None:
        """Read the tree of ``record`` (whose ``words`` :func:`restore` read: :attr:`Restored.unread`), the
        decision at ``ply``; a read still going is dropped first."""
        self.drop()
        future = self._executor.submit(decode_tree, record, words, self.game, self.view)
        self._job = (ply, decision, words, future)

    def belongs_to(self, decisions: dict[int, tuple[int, str, SearchResult]]) -> bool:
        """True when the read's decision is still the one ``decisions`` holds at its ply (``True`` without a
        read)."""
        return self._job is None or decisions.get(self._job[0]) is self._job[1]

    def drop(self) -> None:
        """Forget the read in progress (its decision was dropped, the match left): its result is never handed
        over (the read is cancelled if it has not begun)."""
        if self._job is not None:
            self._job[3].cancel()
            self._job = None

    def take(self) -> TreeRead | None:
        """The finished read, once (``None`` while it is going or without one)."""
        if self._job is None or not self._job[3].done():
            return None
        ply, decision, words, future = self._job
        self._job = None
        try:
            saved = future.result()
        except CancelledError:
            return None
        except Exception as e:  # noqa: BLE001 - a reader's failure is said in the tree view, the game goes on
            saved = dataclasses.replace(words, tree_error=f"it could not be read ({type(e).__name__}: {e})")
        return TreeRead(ply, decision, saved)
