"""Regenerate the README's screenshots (``docs/screenshots/*.png``, 1920x1080) with the real window code.

Runs headless (SDL's dummy video driver) in temporary config and data folders, so it never touches the user's
settings or saved games: ``python tools/screenshots.py [OUT_DIR] [mcts]`` (``mcts``: only the MCTS shots).
"""

from __future__ import annotations

import os
import random
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ["ARCADE_DATA_DIR"] = tempfile.mkdtemp()
os.environ["ARCADE_CONFIG_DIR"] = tempfile.mkdtemp()
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ai.agents.agents import make_agent  # noqa: E402
from gameplay.files import autosave, savegame  # noqa: E402
from gameplay.ui.scenes.menu import MenuScene  # noqa: E402
from gameplay.ui.shell.app import App  # noqa: E402

SIZE = (1920, 1080)


def wait_for_ai(app: App, scene: object, seconds: float = 60.0) -> None:
    """Run frames until a human is to move again (the AI has answered), for at most ``seconds``."""
    import time
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        app.run(max_frames=1)
        if scene.human_to_move():  # type: ignore[attr-defined]
            return
    raise RuntimeError("the AI did not answer in time")


def main(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    app = App(size=SIZE, fps=1000)
    app.push(MenuScene())
    app.run(max_frames=3, screenshot=str(out / "title.png"))
    app.open_settings("checkers")
    app.run(max_frames=3, screenshot=str(out / "settings.png"))
    app.close()

    plays = {"tictactoe": ["4", "0"], "checkers": ["11-15", "9-14"], "pig": []}
    for game, moves in plays.items():
        app = App(size=SIZE, fps=1000)
        scene = app.start_match(game, make_agent(game, "human"), make_agent(game, "hard"))
        scene.ai_delay_s = 0.0
        app.run(max_frames=3)
        for text in moves:
            wait_for_ai(app, scene)
            state = scene.record.state
            try:
                scene.play(scene.game.parse_move(state, text), "human")
            except Exception:  # noqa: BLE001 - a screenshot script: any legal move will do
                scene.play(scene.game.actions(state)[0], "human")
        if game == "pig":  # let the AI play some turns against itself, then stop at a human decision
            app.close()
            app = App(size=SIZE, fps=60)
            scene = app.start_match(game, make_agent(game, "hard"), make_agent(game, "hard"))
            scene.ai_delay_s = 0.0
            app.run(max_seconds=12.0)
        if game != "pig":
            wait_for_ai(app, scene)
        app.run(max_frames=30, screenshot=str(out / f"{game}.png"))
        scene.toggle_overlay()
        app.run(max_frames=20, screenshot=str(out / f"overlay_{game}.png"))
        if game == "checkers":
            scene.toggle_overlay()
            scene.aids.toggle_help()
            app.run(max_frames=5, screenshot=str(out / "help_checkers.png"))
        app.close()

    app = App(size=SIZE, fps=1000)
    lab = app.open_tree_lab()
    app.run(max_frames=10, screenshot=str(out / "treelab.png"))
    del lab
    app.close()

    # the resume prompt after a game was left in progress
    from ai.agents.profiles import game_for
    g = game_for("checkers")
    s = g.initial_state()
    played = []
    rng = random.Random(3)
    for _ in range(12):
        m = rng.choice(g.actions(s))
        played.append(m)
        s = g.result(s, m)
    autosave.write_autosave(savegame.from_record("checkers", g, g.initial_state(), played, ["human", "medium"]))
    app = App(size=SIZE, fps=1000)
    app.push(MenuScene())
    app.offer_autosave()
    app.run(max_frames=3, screenshot=str(out / "resume_prompt.png"))
    app.close()
    presenter_shots(out)
    print(f"screenshots written to {out}")


def cut_step(ov: object) -> int:
    """The index of the step-through's first step where the search leaves a node that cut off moves."""
    tree = ov.tree  # type: ignore[attr-defined]
    cutters = {n.id for n in tree.nodes if n.skipped}
    events = ov.events  # type: ignore[attr-defined]
    return next((i for i, e in enumerate(events) if e.leaving and e.node in cutters), len(events) // 2)


def presenter_shots(out: Path) -> None:
    """The presenter view (key P) at 1920x1080: a checkers alpha-beta decision stopped at its first cut-off,
    a Pig expectimax decision with all six die faces, the Tree Lab's worked example with its narration."""
    app = App(size=SIZE, fps=1000)
    scene = app.start_match("checkers", make_agent("checkers", "human"),
                            make_agent("checkers", "alphabeta:depth=3"))
    scene.ai_delay_s = 0.0
    app.run(max_frames=3)
    wait_for_ai(app, scene)
    scene.play(scene.game.parse_move(scene.record.state, "11-15"), "human")
    wait_for_ai(app, scene)
    ov = scene.overlay
    scene.toggle_overlay()
    ov.set_presenter(True)
    app.run(max_frames=3)
    ov.step = cut_step(ov)
    ov.fit()
    app.run(max_frames=5, screenshot=str(out / "presenter_checkers.png"))
    app.close()

    app = App(size=SIZE, fps=1000)
    scene = app.start_match("pig", make_agent("pig", "expectimax:depth=2"), make_agent("pig", "expectimax:depth=2"))
    scene.ai_delay_s = 0.0
    for _ in range(20000):  # the first decision, then pause the two AIs
        app.run(max_frames=1)
        if scene.overlay.tree is not None:
            break
    scene.paused = True
    ov = scene.overlay
    scene.toggle_overlay()
    ov.set_presenter(True)
    app.run(max_frames=5, screenshot=str(out / "presenter_pig.png"))
    app.close()

    app = App(size=SIZE, fps=1000)
    lab = app.open_tree_lab()
    lab.load_preset("Two-level prune (value 3)")
    app.run(max_frames=3)
    lab.overlay.set_presenter(True)
    app.run(max_frames=3)
    lab.overlay.step = cut_step(lab.overlay)
    app.run(max_frames=5, screenshot=str(out / "presenter_treelab.png"))
    app.close()


def mcts_shots(out: Path) -> None:
    """The MCTS overlay at simulation 37 of a tic-tac-toe decision, and the Tree Lab's MCTS on AIMA figure 5.2."""
    out.mkdir(parents=True, exist_ok=True)
    app = App(size=SIZE, fps=1000)
    scene = app.start_match("tictactoe", make_agent("tictactoe", "mcts:simulations=300,seed=1"),
                            make_agent("tictactoe", "human"))
    scene.ai_delay_s = 0.0
    wait_for_ai(app, scene)
    scene.toggle_overlay()
    scene.overlay.step = 36  # simulation 37
    app.run(max_frames=5, screenshot=str(out / "overlay_mcts_tictactoe.png"))
    app.close()
    app = App(size=SIZE, fps=1000)
    lab = app.open_tree_lab()
    app.run(max_frames=3)
    lab.set_algorithm("mcts:1000")
    lab.overlay.step = 19  # simulation 20
    app.run(max_frames=5, screenshot=str(out / "treelab_mcts.png"))
    app.close()


if __name__ == "__main__":
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs" / "screenshots"
    if sys.argv[2:] == ["mcts"]:
        mcts_shots(target)
    else:
        main(target)
        mcts_shots(target)
