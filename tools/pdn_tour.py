"""A new user's tour of a PDN archive in the real window, driven by synthetic events (headless), with screenshots.

``python tools/pdn_tour.py ARCHIVE.pdn PLAYER [OUT_DIR]``: starts a checkers match, presses L (Load PDN) and picks
the file in the file dialog, lets the game browser read it (counting the frames drawn meanwhile), types PLAYER in
the search box, clicks the first game found, clicks ``>`` to the middle of the game, saves the browser as
``pdn_browser.png``, presses Analyse (the ``medium`` agent decides; the tree overlay opens:
``pdn_analyse.png``), comes back with Esc, presses Play from here, plays the first legal move by clicking the
board and waits for the agent's answer (``pdn_play.png``). Each step is printed. Runs in temporary config and data
folders (the user's settings and saved games are not touched); the README's browser screenshot is made with it
(``docs/screenshots/pdn_browser.png``).
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ["ARCADE_DATA_DIR"] = tempfile.mkdtemp()
os.environ["ARCADE_CONFIG_DIR"] = tempfile.mkdtemp()
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import pygame  # noqa: E402
import pygame_gui  # noqa: E402

from ai.agents.runner import configure_switch_interval  # noqa: E402
from gameplay.ui.shell.app import App  # noqa: E402

SIZE = (1920, 1080)
"""The README's screenshot size (as ``tools/screenshots.py``)."""


def click(app: App, pos: tuple[int, int], frames: int = 3) -> None:
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1))
    app.run(max_frames=frames)


def key(app: App, k: int, unicode: str = "") -> None:
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode=unicode, scancode=0))
    pygame.event.post(pygame.event.Event(pygame.KEYUP, key=k, mod=0, unicode=unicode, scancode=0))
    app.run(max_frames=2)


def until(app: App, cond: object, seconds: float, what: str) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if cond():  # type: ignore[operator]
            return
        app.run(max_frames=5)  # several frames a call: the match's AI delay counts real time
    raise RuntimeError(f"timed out: {what}")


def tour(archive: Path, player: str, out: Path) -> None:
    from gameplay.ui.play.match import MatchScene
    from gameplay.ui.scenes.pdn_browser import PDNBrowserScene
    out.mkdir(parents=True, exist_ok=True)
    app = App(size=SIZE, fps=60)
    try:
        match = app.start_match("checkers", "human", "medium")
        app.run(max_frames=3)
        key(app, pygame.K_l, "l")
        tools = match.tools
        assert tools is not None and tools.modal, "Load PDN did not open the file dialog"
        print(f"1. Load PDN (L): the file dialog is open; picking {archive}")
        pygame.event.post(pygame.event.Event(pygame_gui.UI_FILE_DIALOG_PATH_PICKED, text=str(archive),
                                             ui_element=tools.dialog))  # type: ignore[attr-defined]
        t0, f0 = time.perf_counter(), app.frames
        app.run(max_frames=1)
        browser = app.scene
        assert isinstance(browser, PDNBrowserScene), f"the browser did not open ({browser})"
        progress = []
        while browser.loading:
            app.run(max_frames=1)
            if browser.reader is not None:
                progress.append(browser.reader.progress)
        el = time.perf_counter() - t0
        frames = app.frames - f0
        app.run(max_frames=1)  # the list takes the last games
        print(f"2. read {len(browser.rows):,} games in {el:.2f} s while the window drew {frames} frames "
              f"({frames / el:.0f} FPS); progress went {progress[:1]} .. {progress[-1:]} ; {browser.summary()}")
        click(app, browser.widget("search").get_abs_rect().center)
        for ch in player:
            pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text=ch))
        until(app, lambda: browser.query == player and browser.list.rows and
              player.lower() in browser.list.rows[0].search_text, 10, "the search")
        print(f"3. typed {player!r} in the search box: {browser.summary()}")
        lst = browser.list
        click(app, (lst.body_rect.x + 60, lst.body_rect.y + lst.row_h // 2))
        row = browser.current
        assert row is not None
        print(f"4. clicked the first game: #{row.record.index + 1} {row.cells[2]} - {row.cells[3]}, "
              f"{row.cells[1]} {row.cells[4]}, {row.cells[5]}, {row.record.plies} plies, opening {row.cells[6]}")
        middle = row.record.plies // 2
        for _ in range(middle):
            click(app, browser.widget("next").get_abs_rect().center, frames=1)
        app.run(max_frames=3, screenshot=str(out / "pdn_browser.png"))
        print(f"5. clicked > {middle} times: ply {browser.ply}; screenshot {out / 'pdn_browser.png'}")
        click(app, browser.widget("analyse").get_abs_rect().center)
        analysis = app.scene
        assert isinstance(analysis, MatchScene), "Analyse did not open a match"
        until(app, lambda: analysis.overlay.visible and analysis.overlay.tree is not None, 60, "the AI's decision")
        app.run(max_frames=10, screenshot=str(out / "pdn_analyse.png"))
        d = analysis.last_decision
        print(f"6. Analyse: the agent played {d[1] if d else '?'}; the tree overlay is shown; "
              f"screenshot {out / 'pdn_analyse.png'}")
        key(app, pygame.K_ESCAPE)
        if app.scene is analysis:
            key(app, pygame.K_ESCAPE)
        assert app.scene is browser, "Esc did not come back to the browser"
        print(f"7. Esc: back in the browser at ply {browser.ply}")
        click(app, browser.widget("playon").get_abs_rect().center)
        game = app.scene
        assert isinstance(game, MatchScene) and game.human_to_move()
        state = game.record.state
        move = game.game.actions(state)[0]
        view = game.view
        for sq in (move.path[0], move.path[-1]) if len(move.path) == 2 else move.path:
            click(app, view.square_centre(game.board_rect, sq))  # type: ignore[attr-defined]
        until(app, lambda: game.record.ply >= middle + 2 and game.human_to_move(), 60, "the agent's answer")
        app.run(max_frames=5, screenshot=str(out / "pdn_play.png"))
        print(f"8. Play from here: I played {game.record.notation()[middle]}, the agent answered "
              f"{game.record.notation()[middle + 1]}; screenshot {out / 'pdn_play.png'}")
    finally:
        app.close()


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit("usage: python tools/pdn_tour.py ARCHIVE.pdn PLAYER [OUT_DIR]")
    old = configure_switch_interval()
    try:
        tour(Path(sys.argv[1]), sys.argv[2], Path(sys.argv[3]) if len(sys.argv) > 3 else Path("."))
    finally:
        configure_switch_interval(old)
