"""The gauntlet's reference side: the agent of a pinned commit in a subprocess, behind a line-based JSON protocol.

``tools/gauntlet.py`` starts one :class:`RefEngine` per worker process: this venv's Python running
:data:`DRIVER` with cwd = the reference commit's worktree, so its ``ai``/``gameplay`` are the reference ones
(``PYTHONPATH`` is dropped; the driver checks where ``ai.agents.agents``, or before the rooms of issue 46
``ai.agents``, came from). The subprocess first answers
``{"ready": true, "agent": settings}`` (or ``{"error": text}``), then speaks one JSON object per line:
``{"game": id, "position": FEN of the game's start, "moves": [the moves played since]}`` -> ``{"move": text}``
(or ``{"error": text}``); the moves carry the game history, so the reference search sees repetitions and the
80-ply counter (a dice game sends its position alone: chance outcomes are not in the moves). A fresh agent is
built for each new game id, as in ``match``. A stray print of the reference tree goes to its stderr, never into
the protocol.

:class:`RefAgent` stands in for the reference agent in ``play_game``: it asks the subprocess and parses the
answer with the current tree's rules. A subprocess that crashes, hangs past the move time-out, answers
malformed text or an illegal move raises :class:`RefFailure` (the gauntlet scores that game as lost).
"""

from __future__ import annotations

import collections
import json
import os
import queue
import subprocess
import sys
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gameplay.rules.base import GameError

HANDSHAKE_TIMEOUT = 120.0
"""Seconds the reference subprocess may take to import its tree and build its agent."""

DRIVER = r'''
import json, os, sys
out = sys.stdout
sys.stdout = sys.stderr  # a stray print of the reference tree must not break the protocol


def send(obj):
    out.write(json.dumps(obj) + "\n")
    out.flush()


def main():
    game_name, spec = sys.argv[1], sys.argv[2]
    try:
        try:
            import ai.agents.agents as agents  # the rooms of issue 46
        except ImportError:
            import ai.agents as agents  # a reference commit from before the rooms (ai/agents.py)
        make_agent = agents.make_agent
        here = os.path.realpath(os.getcwd())
        if not os.path.realpath(agents.__file__).startswith(here + os.sep):
            raise RuntimeError(f"{agents.__name__} was imported from {agents.__file__}, not from {here}")
        agent = make_agent(game_name, spec)
        if getattr(agent, "is_human", False):
            raise ValueError("a gauntlet needs an AI agent, not human")
        game = agent.game
        for mod, fn in (("gameplay.rules.registry", "game_for"), ("gameplay.rules.registry", "make_game"),
                        ("ai.agents.profiles", "game_for"), ("ai.profiles", "game_for")):
            try:
                game = getattr(__import__(mod, fromlist=[fn]), fn)(game_name)
                break
            except (ImportError, AttributeError):
                continue
        settings = agent.settings.to_json() if hasattr(agent.settings, "to_json") else str(agent.settings)
    except Exception as e:
        send({"error": str(e) if isinstance(e, ValueError) else f"{type(e).__name__}: {e}"})
        return
    send({"ready": True, "agent": settings})
    current = None
    for line in sys.stdin:
        try:
            req = json.loads(line)
            if req.get("game") != current:  # a fresh agent per game, as in match
                agent, current = make_agent(game_name, spec), req.get("game")
            pos = req.get("position")
            s = game.initial_state() if pos is None else game.parse_position(pos)
            for text in req.get("moves", []):
                s = game.result(s, game.parse_move(s, text))
            res = agent.choose(s)
            send({"move": game.format_move(s, res.move)})
        except Exception as e:
            send({"error": f"{type(e).__name__}: {e}"})


try:
    main()
except (KeyboardInterrupt, BrokenPipeError):
    pass
'''


class RefFailure(Exception):
    """The reference side failed a game: ``kind`` is ``crash``, ``time``, ``malformed answer`` or ``illegal move``."""

    def __init__(self, kind: str, detail: str) -> None:
        super().__init__(f"{kind}: {detail}")
        self.kind = kind



class RefEngine:
    """A reference subprocess: the reference tree's agent behind the line-based JSON protocol (module doc)."""

    def __init__(self, worktree: Path, game: str, spec: str, move_timeout: float) -> None:
        env = dict(os.environ)
        env.pop("PYTHONPATH", None)  # the worktree (cwd, first on sys.path with -c) must be the one imported
        self.move_timeout = move_timeout
        self.proc = subprocess.Popen([sys.executable, "-c", DRIVER, game, spec], cwd=worktree, env=env,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     text=True, bufsize=1)
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.stderr: collections.deque[str] = collections.deque(maxlen=20)
        threading.Thread(target=self._pump_out, daemon=True).start()
        self._err_pump = threading.Thread(target=self._pump_err, daemon=True)
        self._err_pump.start()
        self.settings: Any = None

    def _pump_out(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line)
        self.lines.put(None)

    def _pump_err(self) -> None:
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            if line.strip():
                self.stderr.append(line.rstrip())

    def _last_error(self) -> str:
        return self.stderr[-1][:200] if self.stderr else "no message"

    def _read(self, timeout: float) -> dict[str, Any]:
        try:
            line = self.lines.get(timeout=timeout)
        except queue.Empty:
            self.close(grace=0.0)
            raise RefFailure("time", f"no answer within {timeout:g} s") from None
        if line is None:
            try:
                rc = self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                rc = None
            self._err_pump.join(timeout=5)  # the process is gone: its stderr ends, the last line read
            raise RefFailure("crash", f"the reference process exited (code {rc}): {self._last_error()}")
        try:
            obj = json.loads(line)
            if not isinstance(obj, dict):
                raise ValueError("not an object")
        except ValueError:
            raise RefFailure("malformed answer", f"{line.strip()[:80]!r}") from None
        return obj

    def handshake(self) -> Any:
        """Wait for ``{"ready": true, "agent": settings}``; returns the settings.

        Raises:
            RefFailure: the reference tree could not build the agent (``crash``, with its message) or hung.
        """
        obj = self._read(HANDSHAKE_TIMEOUT)
        if "error" in obj:
            self.close()
            raise RefFailure("crash", str(obj["error"])[:200])
        self.settings = obj.get("agent")
        return self.settings

    def ask(self, game_id: int, position: str | None, moves: list[str]) -> str:
        """The reference agent's move (text) in the position reached by ``moves`` from ``position``."""
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.write(json.dumps({"game": game_id, "position": position, "moves": moves}) + "\n")
            self.proc.stdin.flush()
        except OSError:
            raise RefFailure("crash", f"the reference process is gone: {self._last_error()}") from None
        obj = self._read(self.move_timeout)
        if "error" in obj:
            raise RefFailure("crash", str(obj["error"])[:200])
        if not isinstance(obj.get("move"), str):
            raise RefFailure("malformed answer", json.dumps(obj)[:80])
        return str(obj["move"])

    def alive(self) -> bool:
        return self.proc.poll() is None

    def close(self, grace: float = 2.0) -> None:
        """End the subprocess: EOF on its stdin, and a kill if it is still there after ``grace`` seconds."""
        try:
            if self.proc.stdin is not None:
                self.proc.stdin.close()
        except OSError:
            pass
        try:
            self.proc.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


@dataclass
class _RefResult:
    move: Any


class RefAgent:
    """Stands in for the reference agent in ``play_game``: asks the subprocess and checks the answer."""

    is_human = False

    def __init__(self, engine: RefEngine, game: Any, game_id: int, start: str, notes: list[str],
                 with_history: bool) -> None:
        self.engine, self.game, self.game_id = engine, game, game_id
        self.start, self.notes, self.with_history = start, notes, with_history

    def choose(self, state: Any) -> _RefResult:
        if self.with_history:
            text = self.engine.ask(self.game_id, self.start, list(self.notes))
        else:  # dice games: the position says it all (chance outcomes are not in the notes)
            text = self.engine.ask(self.game_id, self.game.format_position(state), [])
        try:
            return _RefResult(self.game.parse_move(state, text))
        except GameError as e:
            raise RefFailure("illegal move", f"{text[:40]!r} in {self.game.format_position(state)}: {e}"[:200]) \
                from None
