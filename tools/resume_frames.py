"""Measure the window's longest frame when a game whose save holds a large checkers tree is resumed (issue 47).

A checkers decision of ``alphabeta:depth=9,book=off`` from the start (12,256 recorded nodes) is saved as an
autosave, as the window writes it; a headless App at 60 fps resumes it, T is pressed at once, and frames run until
the tree view shows the tree, then ``--after`` frames more. Reported: the longest time between two frames drawn
(the resume call counts in the gap it falls in, as a click on Resume does in the real window), split into the
resume's frame, the frames while the tree was read and the frame that installed it in the tree view (its layout:
the narration of every step, the default view's plan, the picture), the time from the resume to the tree shown,
and the frames drawn meanwhile. Before the tree was read in the background, the resume call itself read the whole
tree on the window's thread (then the three are one frame).

Usage::

    SDL_VIDEODRIVER=dummy python tools/resume_frames.py                 # this checkout's code, 3 runs
    SDL_VIDEODRIVER=dummy python tools/resume_frames.py --code DIR      # another checkout's code (e.g. before)

Config and data folders point at a temporary folder, so no user file is read or written. Pure Python unless the
measured checkout holds compiled modules (``ai/teaching`` is never compiled).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def make_save(data_dir: Path, spec: str) -> int:
    """Write an autosave of checkers whose first move the AI (``spec``) chose, with its recorded tree; returns the
    tree's node count."""
    from ai.agents.agents import make_agent
    from ai.teaching.decision_file import encode_decision
    from ai.teaching.decision_model import decision_info
    from ai.teaching.decision_tree import record_decision_model
    from gameplay.files import autosave, savegame
    game, state, res, rec = record_decision_model("checkers", None, spec)
    tree = rec.snapshot(tuple(res.pv))
    move = game.format_move(state, res.move)
    player = game.to_move(state)
    info = decision_info(game, state, make_agent("checkers", spec), res, rec, tree,
                         player_name=game.player_names[player], move_text=move)
    record = json.loads(json.dumps(encode_decision(game, state, 1, player, move, res, tree, info)))
    agents = (spec, "human") if player == 0 else ("human", spec)
    autosave.write_autosave(savegame.SavedGame("checkers", game.format_position(state), (move,), agents,
                                               "2026-01-01T12:00:00", decision=record), data_dir)
    return len(tree.nodes)


def measure(after: int) -> dict[str, Any]:
    """Resume the autosave in a new App, press T, run frames until the tree is shown (then ``after`` more)."""
    import pygame

    from gameplay.ui.scenes.menu import MenuScene
    from gameplay.ui.shell.app import App
    app = App(size=(1280, 800), fps=60)
    app.push(MenuScene())
    app.run(max_frames=5)
    prompt = app.offer_autosave()
    assert prompt is not None, "no autosave on offer"
    last = time.perf_counter()
    scene = app.resume_autosave(prompt.saved)
    assert scene is not None
    resumed_at = last
    for kind in (pygame.KEYDOWN, pygame.KEYUP):
        pygame.event.post(pygame.event.Event(kind, key=pygame.K_t, mod=0, unicode="t", scancode=0))
    gaps: list[float] = []
    shown_at: float | None = None
    shown_frame = -1
    extra = after
    while extra > 0:
        app.run(max_frames=1)
        now = time.perf_counter()
        gaps.append(now - last)
        last = now
        ov = scene.overlay
        if shown_at is None:
            if ov.visible and ov.tree is not None:
                shown_at, shown_frame = now, len(gaps) - 1
        else:
            extra -= 1
        if now - resumed_at > 120:
            raise SystemExit("the tree was not shown within 120 s")
    app.close()
    assert shown_at is not None
    while_read = gaps[1:shown_frame]
    return {"longest_frame_ms": max(gaps) * 1000, "resume_frame_ms": gaps[0] * 1000,
            "longest_while_read_ms": max(while_read, default=0.0) * 1000, "install_frame_ms": gaps[shown_frame] * 1000,
            "tree_shown_after_ms": (shown_at - resumed_at) * 1000, "frames_until_shown": shown_frame + 1}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--code", type=Path, default=ROOT, help="the checkout whose code is measured")
    parser.add_argument("--spec", default="alphabeta:depth=9,book=off", help="the AI whose decision is saved")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--after", type=int, default=30, help="frames measured after the tree is shown")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(args.code.resolve()))
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["ARCADE_DATA_DIR"] = str(Path(tmp) / "data")
        os.environ["ARCADE_CONFIG_DIR"] = str(Path(tmp) / "config")
        import gameplay
        print(f"code: {Path(gameplay.__file__).parent.parent}")
        nodes = make_save(Path(tmp) / "data", args.spec)
        print(f"saved tree: {nodes} nodes ({args.spec})")
        for i in range(args.runs):
            r = measure(args.after)
            print(f"run {i + 1}: longest frame {r['longest_frame_ms']:.0f} ms; the resume's frame "
                  f"{r['resume_frame_ms']:.0f} ms, the longest while the tree was read "
                  f"{r['longest_while_read_ms']:.0f} ms, the frame that installed it {r['install_frame_ms']:.0f} ms; "
                  f"tree shown {r['tree_shown_after_ms']:.0f} ms after the resume, {r['frames_until_shown']} frames "
                  "drawn until then", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
