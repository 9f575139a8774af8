"""Regenerate the README's race screenshots (``docs/screenshots/race-GAME.png``, 1280x800) with the real window.

Each game's race view (:class:`gameplay.ui.play.race_scene.RaceScene`, the default line-up and budget of
:mod:`ai.teaching.race`) runs to the end on a position where the agents' choices change as they search, then the window
is saved. Headless (SDL's dummy video driver) in temporary config and data folders, so it never touches the user's
settings or saved games: ``python tools/race_screens.py [OUT_DIR]``. The figures are measured, so they vary a
little from run to run (time budgets) and with the machine's load.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
ROOT = Path(__file__).resolve().parent.parent
SIZE = (1280, 800)
POSITIONS = {"tictactoe": "....X...O", "checkers": None, "pig": "10,40,22,1"}
"""The position of each screenshot (``None``: the start): ones where the agents change their minds."""


def shoot(game: str, position: str | None, out: Path, timeout_s: float = 120.0) -> Path:
    """Run the race view of ``game`` at ``position`` to the end and save the window as ``out/race-GAME.png``.

    Raises:
        RuntimeError: the race did not end within ``timeout_s`` seconds.
    """
    from ai.agents.profiles import profile_for
    from gameplay.ui.play.race_scene import RaceScene
    from gameplay.ui.shell.app import App
    g = profile_for(game).game
    state = g.parse_position(position) if position is not None else g.initial_state()
    app = App(size=SIZE, fps=60)
    try:
        scene = RaceScene(game, state)
        app.push(scene)
        end = time.monotonic() + timeout_s
        while not scene.race.done:
            if time.monotonic() > end:
                raise RuntimeError(f"the {game} race did not end in {timeout_s:g} s")
            app.run(max_frames=1)
        path = out / f"race-{game}.png"
        app.run(max_frames=3, screenshot=str(path))
        print(f"{path}: {scene.race.progress_text()}")
        return path
    finally:
        app.close()


def main(out: Path) -> None:
    """Write the three screenshots into ``out`` (created if missing)."""
    os.environ["ARCADE_DATA_DIR"] = tempfile.mkdtemp()
    os.environ["ARCADE_CONFIG_DIR"] = tempfile.mkdtemp()
    sys.path.insert(0, str(ROOT))
    out.mkdir(parents=True, exist_ok=True)
    for game, position in POSITIONS.items():
        shoot(game, position, out)


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs" / "screenshots")
