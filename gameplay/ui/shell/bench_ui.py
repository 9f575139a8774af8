"""``bench ui``: frame times of the window while a real search runs on the worker thread, and its node rate.

Method (CLI.md, ``bench ui``): the same search is measured twice for ``seconds`` each,

1. alone: on the :class:`~ai.agents.runner.AgentRunner` worker thread while the main thread sleeps;
2. with the window: the App (SDL ``dummy`` video driver) shows the match scene with a tic-tac-toe board at a
   60 FPS cap, and the scene's own runner runs the search, polled once per frame, with the status line showing
   its progress, exactly as in a game.

The search is checkers alpha-beta with a 1 s time limit when checkers is installed, else a full tic-tac-toe
minimax from the empty board (no depth limit, 1.29 M nodes), repeated until the time is up; nodes are counted
from the :class:`~ai.kernel.search.SearchResult` of every search (the interrupted last one included). Frame times are
the intervals between consecutive frames. Targets: ``frame_ms_p95 <= 20`` and
``search_nodes_per_s_with_ui >= 0.75 * search_nodes_per_s_alone``.
"""

from __future__ import annotations

import os
import statistics
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

from ai.agents.agent_base import Agent
from ai.agents.agents import make_agent
from ai.agents.runner import DEFAULT_SWITCH_INTERVAL_S, AgentRunner
from ai.kernel.search import SearchInfo, SearchResult
from gameplay.rules.registry import GameLoadError

WARMUP_FRAMES = 5
"""Frames left out of the statistics (the first layout renders every widget)."""


class LoopAgent(Agent):
    """Repeats another agent's search on a fixed position until stopped, counting nodes.

    The ``state`` handed to :meth:`choose` is ignored: the bench searches ``bench_state`` (a checkers position
    may be searched while the window shows a tic-tac-toe board).

    Args:
        inner: the agent whose search is measured.
        bench_state: the position it searches.
    """

    def __init__(self, inner: Agent, bench_state: Any) -> None:
        super().__init__(inner.profile, inner.settings)
        self.inner = inner
        self.bench_state = bench_state
        self.nodes = 0
        """Nodes of all searches so far (from their results)."""
        self.searches = 0
        self.started = 0.0
        self.ended = 0.0
        self.finished = threading.Event()

    def choose(self, state: Any, stop_event: threading.Event | None = None,
               on_info: Callable[[SearchInfo], None] | None = None, recorder: Any = None) -> SearchResult:
        """Search ``bench_state`` again and again until ``stop_event`` is set; returns the last result."""
        stop = stop_event if stop_event is not None else threading.Event()
        last: SearchResult | None = None
        self.started = time.perf_counter()
        try:
            while not stop.is_set():
                last = self.inner.choose(self.bench_state, stop, on_info)
                self.nodes += last.nodes
                self.searches += 1
        finally:
            self.ended = time.perf_counter()
            self.finished.set()
        assert last is not None
        return last

    @property
    def nodes_per_s(self) -> float:
        """Nodes per second over the whole run."""
        span = self.ended - self.started
        return self.nodes / span if span > 0 else 0.0


def _bench_search(game: str | None = None) -> tuple[str, Agent, Any]:
    """(description, agent, position) of the measured search.

    Checkers alpha-beta (1 s per search) when its search runs (a 50 ms probe), else the full tic-tac-toe
    minimax (the reason is added to the description). ``game`` forces one of the two. A checkers module that
    cannot be imported is a broken install and is raised, not measured around.
    """
    if game in (None, "checkers"):
        try:
            agent = make_agent("checkers", "alphabeta:time=1")
            start = agent.game.initial_state()
            make_agent("checkers", "alphabeta:time=0.05").choose(start)
            return "checkers alphabeta time=1 s from the start, repeated", agent, start
        except GameLoadError:
            raise
        except Exception as e:
            if game is not None:  # checkers was asked for: its failure is the answer
                raise
            note = f" (checkers search failed: {type(e).__name__}: {e})"
    else:
        note = ""
    agent = make_agent("tictactoe", "minimax")
    return ("tictactoe minimax to the end from the empty board, repeated" + note, agent,
            agent.game.initial_state())


DEPTH_PRESET = "expert"
"""The checkers preset whose 1 s decision from the start is measured in the window and on the command line."""


def _depth_cli(record: bool) -> SearchResult:
    """The ``expert`` checkers decision from the start as the command line runs it (no window, main thread), with
    the window's recorder attached when ``record``."""
    from ai.teaching.decision_tree import make_recorder
    agent = make_agent("checkers", DEPTH_PRESET)
    start = agent.game.initial_state()
    rec = make_recorder(agent.game, agent, start) if record else None
    return agent.choose(start, recorder=rec)


WINDOW_DECISIONS = 4
"""Decisions of an ``expert`` against ``expert`` game measured in the window (the first includes the scene's
start-up; the others are the steady state)."""


def _depth_window(max_seconds: float = 60.0) -> list[tuple[Any, SearchResult]]:
    """The first :data:`WINDOW_DECISIONS` decisions of a checkers ``expert`` against ``expert`` game as the window
    runs them: the match scene submits each to its runner with its recorder (``make_recorder``) while frames are
    drawn. Returns ``(state decided, result)`` per decision in the game's order (fewer if the time ran out)."""
    from gameplay.ui.play.match import MatchScene
    from gameplay.ui.shell.app import DEFAULT_SIZE, App
    app = App(size=DEFAULT_SIZE)  # a fixed window: neither the remembered size nor a fitted one
    try:
        scene = MatchScene("checkers", (make_agent("checkers", DEPTH_PRESET), make_agent("checkers", DEPTH_PRESET)),
                           ai_delay_s=0.0)
        app.push(scene)
        t0 = time.perf_counter()
        while len(scene.decisions) < WINDOW_DECISIONS and time.perf_counter() - t0 < max_seconds:
            app.run(max_frames=1)
        scene.runner.cancel()
        return [(scene.record.states[ply - 1], d[2]) for ply, d in sorted(scene.decisions.items())]
    finally:
        app.close()


def _rate(res: SearchResult | None) -> float:
    return res.nodes / res.elapsed if res is not None and res.elapsed > 0 else 0.0


def _percentile(values: list[float], q: float) -> float:
    s = sorted(values)
    if not s:
        return 0.0
    k = min(len(s) - 1, max(0, round(q * (len(s) - 1))))
    return s[k]


def bench_ui(seconds: float = 5.0, switch_interval_s: float | None = None,
             game: str | None = None) -> dict[str, Any]:
    """Measure the window's frame times with a search beside it, and the search's speed alone and with the UI.

    Args:
        seconds: length of each of the two phases (at least 5 s for the README figures).
        switch_interval_s: ``sys.setswitchinterval`` during the run (default
            ``ai.agents.runner.DEFAULT_SWITCH_INTERVAL_S``); the previous value is restored afterwards.
        game: ``"checkers"`` or ``"tictactoe"`` to force the searched game (default: checkers when it works).

    Returns:
        ``{"fps", "frame_ms_p50", "frame_ms_p95", "frame_ms_max", "frame_work_ms_p50", "frame_work_ms_p95"
        (time spent drawing, without the wait), "search_nodes_per_s_alone",
        "search_nodes_per_s_with_ui", "switch_interval_s", "seconds", "frames", "search", "searches_alone",
        "searches_with_ui", "search_ratio", "window_depth_1s", "cli_depth_1s", "window_nodes_per_s",
        "nodes_per_s_recording", "nodes_per_s_not_recording"}`` (milliseconds, nodes per second, seconds).
        ``window_depths`` are the depths the checkers ``expert`` (1 s a move) completes in the window in the first
        moves of an expert-against-expert game (its recorder attached, on the runner thread while frames are
        drawn); ``window_depth_1s`` is the least of them after the first move (whose second also pays for the
        scene's start-up: ``window_first_move_depth_1s``), ``cli_depth_1s`` the least the command line reaches
        on the same positions (no recorder, no window; ``cli_depths_same_positions``), ``cli_first_move_depth_1s``
        from the start; ``nodes_per_s_recording`` and ``nodes_per_s_not_recording`` are the start decision's
        speed without a window, with and without the recorder; ``window_nodes_per_s`` and
        ``cli_nodes_per_s_same_positions`` the speeds of the compared decisions. ``None`` / 0 when the
        tic-tac-toe fallback is measured.
    """
    interval = DEFAULT_SWITCH_INTERVAL_S if switch_interval_s is None else switch_interval_s
    old_interval = sys.getswitchinterval()
    old_env = {k: os.environ.get(k) for k in ("SDL_VIDEODRIVER", "SDL_AUDIODRIVER")}
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    os.environ["SDL_AUDIODRIVER"] = "dummy"
    sys.setswitchinterval(interval)
    try:
        what, inner, position = _bench_search(game)
        # 1. the search alone on the worker thread
        alone = LoopAgent(inner, position)
        runner = AgentRunner()
        runner.submit(alone, position, tag="bench-alone")
        time.sleep(seconds)
        runner.cancel()
        alone.finished.wait(30)

        # 2. the same search behind the window
        from gameplay.ui.play.match import MatchScene
        from gameplay.ui.shell.app import DEFAULT_SIZE, App
        app = App(size=DEFAULT_SIZE)  # a fixed window: neither the remembered size nor a fitted one
        try:
            with_ui = LoopAgent(inner, position)
            human = make_agent("tictactoe", "human")
            scene = MatchScene("tictactoe", (with_ui, human), ai_delay_s=0.0)
            app.push(scene)
            app.run(max_seconds=seconds)
            scene.runner.cancel()
            with_ui.finished.wait(30)
            frame_ms = app.frame_ms[WARMUP_FRAMES:]
            work_ms = app.work_ms[WARMUP_FRAMES:]
            frames = len(app.frame_ms)
        finally:
            app.close()
        # 3. the depth the checkers expert reaches in its 1 s: in the window (recorded, on the runner thread, frames
        # drawn) and on the command line (not recorded, no window), and the recorder's own cost without a window
        cli = recorded = None
        window_decisions: list[tuple[Any, SearchResult]] = []
        steady: list[tuple[Any, SearchResult]] = []
        cli_same: list[SearchResult] = []
        if "checkers" in what:
            cli = _depth_cli(record=False)
            recorded = _depth_cli(record=True)
            window_decisions = _depth_window()
            # the command line on the very positions the window decided, after the first (start-up) decision
            steady = window_decisions[1:]
            cli_same = [make_agent("checkers", DEPTH_PRESET).choose(st) for st, _ in steady]
    finally:
        sys.setswitchinterval(old_interval)
        for k, v in old_env.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    total_s = sum(frame_ms) / 1000.0
    return {
        "fps": len(frame_ms) / total_s if total_s > 0 else 0.0,
        "frame_ms_p50": statistics.median(frame_ms) if frame_ms else 0.0,
        "frame_ms_p95": _percentile(frame_ms, 0.95),
        "frame_ms_max": max(frame_ms) if frame_ms else 0.0,
        "frame_work_ms_p50": statistics.median(work_ms) if work_ms else 0.0,
        "frame_work_ms_p95": _percentile(work_ms, 0.95),
        "search_nodes_per_s_alone": alone.nodes_per_s,
        "search_nodes_per_s_with_ui": with_ui.nodes_per_s,
        "search_ratio": with_ui.nodes_per_s / alone.nodes_per_s if alone.nodes_per_s else 0.0,
        "switch_interval_s": interval,
        "seconds": seconds,
        "frames": frames,
        "search": what,
        "searches_alone": alone.searches,
        "searches_with_ui": with_ui.searches,
        "window_depth_1s": min((r.depth for _, r in steady), default=None),
        "cli_depth_1s": min((r.depth for r in cli_same), default=None),
        "window_depths": [r.depth for _, r in window_decisions],
        "cli_depths_same_positions": [r.depth for r in cli_same],
        "window_first_move_depth_1s": window_decisions[0][1].depth if window_decisions else None,
        "cli_first_move_depth_1s": cli.depth if cli is not None else None,
        "window_nodes_per_s": (sum(r.nodes for _, r in steady) / sum(r.elapsed for _, r in steady)
                               if steady else 0.0),
        "cli_nodes_per_s_same_positions": (sum(r.nodes for r in cli_same) / sum(r.elapsed for r in cli_same)
                                           if cli_same else 0.0),
        "nodes_per_s_recording": _rate(recorded),
        "nodes_per_s_not_recording": _rate(cli),
    }


if __name__ == "__main__":  # pragma: no cover - manual comparison of switch intervals
    import json
    for iv in (0.005, 0.001, 0.0005):
        print(json.dumps(bench_ui(switch_interval_s=iv)))
