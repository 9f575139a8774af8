"""A tournament's agents that cannot start, and what its agents print.

**Disqualification.** An agent that cannot start, because its file cannot be read before the tournament (a
syntax error, a missing function: ``unloadable``) or failed to load in a game (``load_failed`` in the game's
journal record: an import error, an exception or an endless loop at its top level past the load timeout, a
``MemoryError`` while loading), is disqualified once, with the reason: each of its remaining games is journaled at
once as a forfeit for that same reason (``disqualified: true`` in the record, no moves, no process started).
Against another disqualified agent the game is a draw with a forfeit each, as when two agents fail before the
first move. The journal holds every ``load_failed``, so a resumed tournament knows its disqualified agents.

**Output.** :mod:`ai.agents.agent_watch` caps what an agent prints per game (its first lines, the rest counted); the
journal keeps that per game. :class:`OutputShown` puts it on the terminal with a cap per agent over the whole
tournament, and says at the end how much was not shown.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any, Callable, Iterable, Mapping

from ai.agents.agent_watch import OUTPUT_BYTES, OUTPUT_LINES

_TRAILER = re.compile(r"^\.\.\. (?:([\d,]+) more lines?|the rest of a line) not shown")


class Disqualified:
    """The disqualified agents of a tournament: name -> ``{"reason", "detail", "game"}``.

    Args:
        records: the journal's game records so far (their ``load_failed`` names count).
        unloadable: agents whose file cannot be read, found before the first game: name -> ``(reason,
            detail)`` (``reason`` one of ``ai.agents.agent_process.FAULTS``).
    """

    def __init__(self, records: Iterable[Mapping[str, Any]] = (),
                 unloadable: Mapping[str, tuple[str, str]] | None = None) -> None:
        self.agents: dict[str, dict[str, Any]] = {}
        for name, (reason, detail) in (unloadable or {}).items():
            self.agents[name] = {"reason": reason, "detail": detail, "game": None}
        for r in sorted(records, key=lambda r: r.get("number", 0)):
            self.note(r)

    def note(self, record: Mapping[str, Any]) -> list[str]:
        """Take a finished game's record; returns the agents it disqualifies (those not disqualified before)."""
        new = []
        for name in record.get("load_failed") or ():
            if name not in self.agents:
                self.agents[name] = {"reason": record.get("reason") or "crash", "detail": record.get("detail", ""),
                                     "game": record.get("number")}
                new.append(name)
        return new

    def why(self, name: str) -> str:
        """``"it could not start in game 3 (crash: loading failed: ...)"``."""
        d = self.agents[name]
        where = "before the first game" if d["game"] is None else f"in game {d['game']}"
        return f"it could not start {where} ({d['reason']}: {d['detail']})"

    def line(self, name: str) -> str:
        """The announcement: ``"bot.py is disqualified: it could not start in game 3 (...); its remaining games
        are forfeits, played without starting it"``."""
        return f"{name} is disqualified: {self.why(name)}; its remaining games are forfeits, played without starting it"

    def out(self, first: str, second: str) -> list[int]:
        """The players (0 first, 1 second) of a game who are disqualified."""
        return [i for i, n in enumerate((first, second)) if n in self.agents]

    def result(self, key: str, first: str, second: str) -> Any:
        """The ``ai.agents.arena.ArenaResult`` of a game not played because of a disqualification (see the module
        docstring)."""
        from ai.agents.arena import ArenaResult
        names = (first, second)
        out = self.out(first, second)
        if len(out) == 2:
            reason = self.agents[first]["reason"]
            detail = f"both agents are disqualified: {first}: {self.why(first)}; {second}: {self.why(second)}"
            return ArenaResult(key, None, reason, None, detail, 0, (), None, 0.0)
        (i,) = out
        d = self.agents[names[i]]
        return ArenaResult(key, 1 - i, d["reason"], i, f"disqualified: {self.why(names[i])}", 0, (), None, 0.0)

    def to_json(self) -> list[dict[str, Any]]:
        """``[{"agent", "reason", "detail", "game"}]`` (``game``: ``null`` before the first game)."""
        return [{"agent": n, **d} for n, d in self.agents.items()]


class OutputShown:
    """Agents' output on the terminal: of each agent at most ``lines`` lines and ``size`` characters over the whole
    tournament (or match), however many games it plays; a line longer than what is left is cut.

    Args:
        write: writes one block of text (a line or several) to the terminal.
        lines: each agent's budget of lines (:data:`ai.agents.agent_watch.OUTPUT_LINES`).
        size: each agent's budget of characters (:data:`ai.agents.agent_watch.OUTPUT_BYTES`).
        kept_in: what keeps each game's first lines (``"the journal"``), or ``None`` when nothing does.
    """

    def __init__(self, write: Callable[[str], None], lines: int = OUTPUT_LINES, size: int = OUTPUT_BYTES,
                 kept_in: str | None = "the journal") -> None:
        self.write = write
        self.budget = lines
        self.size = size
        self.shown_chars: Counter[str] = Counter()
        self.kept = "" if kept_in is None else f" ({kept_in} keeps each game's first {OUTPUT_LINES} lines)"
        self.shown: Counter[str] = Counter()
        self.hidden: Counter[str] = Counter()
        """Lines of each agent not shown (those past the budget and those already dropped in its games)."""

    def game(self, number: int, output: Mapping[str, str]) -> None:
        """Show what the agents printed in game ``number`` (``output``: name -> the game's capped text)."""
        for name, text in output.items():
            if not text:
                continue
            lines = text.splitlines()
            m = _TRAILER.match(lines[-1]) if lines else None
            dropped = int(m.group(1).replace(",", "")) if m and m.group(1) else 0
            if m:
                lines = lines[:-1]
            room = max(0, self.budget - self.shown[name])
            chars = self.size - self.shown_chars[name]
            show: list[str] = []
            for line in lines[:room]:
                if chars <= 0:
                    break
                if len(line) > chars:  # the rest of this line is not shown (nor counted as a line of its own)
                    line = line[:chars] + " [...]"
                show.append(line)
                chars -= len(line) + 1
            self.shown_chars[name] = self.size - chars
            hidden = len(lines) - len(show) + dropped
            if show:
                block = [f"[{name}, game {number}]", *show]
                if hidden or m or show[-1].endswith(" [...]"):  # lines, or the rest of a line, not shown
                    block.append(f"[{name}: its further output is not shown here{self.kept}]")
                self.write("\n".join(block))
            self.shown[name] += len(show)
            self.hidden[name] += hidden

    def summary(self) -> None:
        """Say, per agent, how many of its lines were not shown (nothing when all were)."""
        for name, n in self.hidden.items():
            if n:
                self.write(f"{name}: {n:,} more line{'' if n == 1 else 's'} of output not shown{self.kept}")
