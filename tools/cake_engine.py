"""A driver for Cake 1.20's console program (Martin Fierz's checkers engine, GPL), for ``tools/spar.py``.

Cake is an outside engine: it is never committed or shipped; the user builds it outside the repository (README,
"Strength against an outside engine") and points ``tools/spar.py --engine`` (or ``$ARCADE_SPAR_ENGINE``) at the
program. This module drives only that program, through the console dialogue of its ``ansicake.c``:

* ``load board or play new game l/p ?``: ``l`` reads a saved position from ``$HOME/cakegame`` (each game gets its
  own temporary ``HOME``): a board as Cake prints it, whose header line says whose view it is, that side being the
  one to move and played by the "user" (here: our agent); the last line is Cake's time per move in whole seconds.
* ``enter your move ?``: the user's move as ``FROM-TO`` or ``FROMxTO`` (a multi-jump: its first and last squares;
  Cake finds the matching legal move). Cake answers with the board after the user's move, thinks (``clock()``:
  CPU time; it stops starting depths at half its time and aborts at four times it), prints ``EV: N`` (its score,
  a man = 100) and the board after its own move.
* A score of 4999 or more ends the dialogue's game with ``program wins !`` (the board after its move is printed);
  -4999 or less ends it with ``you win !`` *before* printing its move: the driver reports a resignation. After
  either, the next move reloads the position from the file (Cake's hash tables survive; its list of repeated
  positions starts again).

Cake's squares are bits ``4 * row + 3 - (s - 1) % 4`` with ``row = (s - 1) // 4`` for the standard square ``s``
(Black's back rank is squares 1-4, shown at the bottom of Black's view). The move Cake played is recovered by
comparing its printed board with the boards after each of our legal moves (:meth:`CakeEngine.move`), so the
driver needs no notation of Cake's beyond the user's move.

Errors: :class:`EngineFailure` (the program is missing, died, was silent past the timeout, or printed a board no
legal move gives); :class:`EngineResigned` when Cake resigns.
"""

from __future__ import annotations

import os
import queue
import shutil
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

PROMPT_GAME = "load board or play new game l/p ?"
PROMPT_MOVE = "enter your move ?"
HEADER_BLACK = "   ~~~~~~~~~~~~~~~ "
"""Cake's header of a board seen by Black with Black to move (``ansiprintboard``)."""
HEADER_WHITE = "*  ~~~~~~~~~~~~~~~ "
"""... seen by White with White to move."""
ENV_VAR = "ARCADE_SPAR_ENGINE"
"""Environment variable naming the outside engine's program when ``--engine`` is not given."""


class EngineFailure(Exception):
    """The outside engine failed: missing program, crash, silence past the timeout, or an unreadable answer."""


class EngineResigned(Exception):
    """Cake saw a forced loss (score <= -4999) and ended the game (``you win !``)."""


def cake_bit(square: int) -> int:
    """Cake's bit index of the standard square ``square`` (1-32).

    Raises:
        ValueError: not a square 1-32.
    """
    if not 1 <= square <= 32:
        raise ValueError(f"a square is 1-32, got {square}")
    row, pos = divmod(square - 1, 4)
    return 4 * row + 3 - pos


def _cell(bit: int) -> tuple[int, int]:
    """Cake's ``b[i][j]`` coordinates (column, row; row 0 is Black's back rank) of bit ``bit``."""
    row = bit // 4
    return (row % 2) + 2 * (bit % 4), row


def board_text(pieces: dict[int, str], black_view: bool) -> str:
    """The board as Cake prints and reads it: the header line and 8 rows (``ansiprintboard``).

    Args:
        pieces: standard square -> ``b``, ``B`` (Black man, king), ``w`` or ``W``.
        black_view: Black's view with Black to move (else White's, White to move).
    """
    grid = [["  "] * 8 for _ in range(8)]  # grid[i][j]: column i, row j
    for i in range(8):
        for j in range(8):
            if (i + j) % 2 == 0:
                grid[i][j] = "- "
    for sq, p in pieces.items():
        i, j = _cell(cake_bit(sq))
        grid[i][j] = p + " "
    lines = ["", HEADER_BLACK if black_view else HEADER_WHITE]
    rows = range(7, -1, -1) if black_view else range(8)
    cols = range(8) if black_view else range(7, -1, -1)
    for j in rows:
        lines.append("   " + "".join(grid[i][j] for i in cols))
    return "\n".join(lines) + "\n\n"


def parse_board(lines: list[str]) -> dict[int, str]:
    """The pieces of the last whole board in Cake's output ``lines``: standard square -> ``b``/``B``/``w``/``W``.

    Raises:
        EngineFailure: no whole board in the lines.
    """
    for k in range(len(lines) - 9, -1, -1):
        head = lines[k].rstrip()
        if head[:1] not in (" ", ".", "-", "*") or head[1:] != "  ~~~~~~~~~~~~~~~":
            continue
        black_view = head[:1] in (" ", ".")
        rows = lines[k + 1:k + 9]
        by_bit: dict[int, str] = {}
        for r, text in enumerate(rows):
            j = 7 - r if black_view else r
            for c in range(8):
                ch = text[3 + 2 * c:4 + 2 * c]
                i = c if black_view else 7 - c
                if ch in ("b", "B", "w", "W"):
                    if (i + j) % 2:
                        raise EngineFailure(f"a piece on a light square in Cake's board: {text!r}")
                    by_bit[4 * j + (i - j % 2) // 2] = ch
        out: dict[int, str] = {}
        for sq in range(1, 33):
            p = by_bit.get(cake_bit(sq))
            if p is not None:
                out[sq] = p
        return out
    raise EngineFailure("no board in Cake's answer: " + " | ".join(x.strip() for x in lines[-6:])[:200])


def state_pieces(state: Any) -> dict[int, str]:
    """The pieces of a :class:`gameplay.rules.checkers.checkers_board.CheckersState` as standard square -> letter."""
    out: dict[int, str] = {}
    for sq in range(1, 33):
        bit = 1 << (sq - 1)
        if state.black & bit:
            out[sq] = "B" if state.kings & bit else "b"
        elif state.white & bit:
            out[sq] = "W" if state.kings & bit else "w"
    return out


@dataclass
class EngineMove:
    """Cake's answer: its move (one of our legal moves), its score (a man = 100, its side's view; ``None`` when it
    played from its book) and the wall-clock seconds from our move to its board."""

    move: Any
    value: int | None
    seconds: float


class CakeEngine:
    """One game against Cake: a fresh process with its own ``HOME`` (module doc).

    Args:
        program: path of Cake's console program.
        seconds: Cake's time per move (whole seconds, >= 1; Cake counts CPU time).
        timeout: wall-clock seconds an answer may take before :class:`EngineFailure`.

    Raises:
        EngineFailure: the program cannot be started or does not greet with its prompt.
    """

    def __init__(self, program: str | Path, seconds: int = 1, timeout: float = 60.0) -> None:
        if seconds < 1:
            raise EngineFailure(f"Cake thinks in whole seconds >= 1, got {seconds}")
        self.seconds = seconds
        self.timeout = timeout
        self.home = tempfile.mkdtemp(prefix="arcade-spar-")
        env = dict(os.environ, HOME=self.home, LOGNAME="arcade")
        try:
            self.proc = subprocess.Popen([str(program)], cwd=self.home, env=env, stdin=subprocess.PIPE,
                                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, bufsize=1)
        except OSError as e:
            shutil.rmtree(self.home, ignore_errors=True)
            raise EngineFailure(f"cannot start {program}: {e.strerror or e}") from None
        self.chunks: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._pump, daemon=True).start()
        self.buffer = ""
        self.loaded = False
        self.read_until((PROMPT_GAME,))

    def _pump(self) -> None:
        assert self.proc.stdout is not None
        while True:
            ch = self.proc.stdout.read(1)
            if not ch:
                break
            self.chunks.put(ch)
        self.chunks.put(None)

    def read_until(self, prompts: tuple[str, ...]) -> tuple[str, str]:
        """Read the program's output up to one of ``prompts``; returns (text before it, the prompt).

        Raises:
            EngineFailure: the program ended or was silent for ``timeout`` seconds.
        """
        deadline = time.monotonic() + self.timeout
        while True:
            for p in prompts:
                k = self.buffer.find(p)
                if k >= 0:
                    text, self.buffer = self.buffer[:k], self.buffer[k + len(p):]
                    return text, p
            left = deadline - time.monotonic()
            if left <= 0:
                raise EngineFailure(f"Cake said nothing for {self.timeout:g} s: {self.buffer[-120:]!r}")
            try:
                ch = self.chunks.get(timeout=left)
            except queue.Empty:
                continue
            if ch is None:
                rc = self.proc.poll()
                raise EngineFailure(f"Cake ended (exit code {rc}): {self.buffer[-160:]!r}")
            self.buffer += ch

    def _send(self, line: str) -> None:
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()
        except OSError as e:
            raise EngineFailure(f"Cake closed its input: {e}") from None

    def load(self, state: Any) -> None:
        """Set up ``state`` (our side to move) from ``$HOME/cakegame``: Cake's ``l`` command at its game prompt, or
        ``load`` in the middle of a game (so one process can be given one position after another; its hash
        tables survive)."""
        text = board_text(state_pieces(state), black_view=state.turn == 0) + f"{self.seconds}\n"
        Path(self.home, "cakegame").write_text(text, encoding="ascii")
        self._send("load" if self.loaded else "l")
        self.read_until((PROMPT_MOVE,))
        self.loaded = True

    def move(self, game: Any, state: Any, ours: Any, after: Any) -> EngineMove:
        """Play our move ``ours`` (from ``state``, giving ``after``) and return Cake's reply from ``after``.

        Raises:
            EngineResigned: Cake resigned.
            EngineFailure: as the class says, or Cake's board matches none of our legal moves.
        """
        if not self.loaded:
            self.load(state)
        squares = game.format_move(state, ours)
        sep = "x" if "x" in squares else "-"
        parts = squares.replace("x", "-").split("-")
        t0 = time.perf_counter()
        self._send(f"{parts[0]}{sep}{parts[-1]}")
        text, prompt = self.read_until((PROMPT_MOVE, PROMPT_GAME))
        seconds = time.perf_counter() - t0
        if "illegal move" in text or "malformed move" in text:
            raise EngineFailure(f"Cake refused our move {squares}")
        if "you win !" in text:
            self.loaded = False
            raise EngineResigned(f"Cake resigned (it saw a forced loss) after {squares}")
        if prompt == PROMPT_GAME:
            self.loaded = False  # its game ended with "program wins !": the next move reloads
        value: int | None = None
        for line in text.splitlines():
            if line.startswith("EV:"):
                value = int(line.split(":", 1)[1])
        board = parse_board(text.splitlines())
        for m in game.actions(after):
            if state_pieces(game.result(after, m)) == board:
                return EngineMove(m, None if "book move" in text else value, seconds)
        if "book move" in text:  # seen: ballot 6 after 18x9 5x14 25-22, a man vanishes from square 2
            raise EngineFailure("Cake's book move is not a legal move here (its book entry for this position is "
                                "corrupt)")
        raise EngineFailure("Cake's board matches none of the legal moves (a driver or rules mismatch)")

    def close(self) -> None:
        """End the program and remove its temporary ``HOME``."""
        try:
            if self.proc.poll() is None:
                try:
                    self._send("quit")
                except EngineFailure:
                    pass
                try:
                    self.proc.wait(timeout=2)
                except subprocess.TimeoutExpired:
                    self.proc.kill()
                    self.proc.wait(timeout=5)
        finally:
            shutil.rmtree(self.home, ignore_errors=True)
