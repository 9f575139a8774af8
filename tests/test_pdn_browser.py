"""The game browser, headless (SDL dummy driver, synthetic events): a file mixing good and bad games opens from Load
PDN and lists both kinds; search, sort, replay; Analyse and Play from here open a match at the shown position."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pygame
from ui_driver import click, frames, key, pump

from gameplay.rules.checkers.checkers_board import BLACK, WHITE
from gameplay.rules.checkers.pdn import write_fen
from gameplay.ui.boards.checkers_tools import CheckersTools
from gameplay.ui.play.archive_match import ArchiveMatchScene
from gameplay.ui.play.match import MatchScene
from gameplay.ui.scenes.pdn_browser import PDNBrowserScene
from gameplay.ui.shell.app import App
from gameplay.ui.shell.frame_clock import SteppedClock

ARCHIVE = """[Event "Club night"]
[Date "2024.03.01"]
[Black "Ann Archer"]
[White "Bob Baker"]
[Result "1/2-1/2"]
1. 11-15 23-19 2. 8-11 22-17 3. 9-13 17-14 4. 10x17 21x14 5. 6-10 1/2-1/2

[Event "Club night"]
[Date "2024.03.08"]
[Black "Cara Cole"]
[White "Ann Archer"]
[Result "0-1"]
1. 11-15 24-20 2. 15-18 20-16 0-1

[Event "County final"]
[Date "2023.11.20"]
[Black "Bob Baker"]
[White "Cara Cole"]
[Result "1-0"]
1. 9-13 22-18 2. 6-9 1-0
"""
"""Three games: the second is bad (20-16 at ply 4 while White must take)."""



def open_archive(app: App, tmp_path: Path) -> PDNBrowserScene:
    match = app.start_match("checkers", "human", "medium")
    frames(app, 2)
    path = tmp_path / "club.pdn"
    path.write_text(ARCHIVE, encoding="utf-8")
    assert isinstance(match.tools, CheckersTools) and match.tools.load_pdn(path)
    browser = app.scene
    assert isinstance(browser, PDNBrowserScene)
    frames(app, 2)
    return browser


def test_a_mixed_file_opens_and_lists_both_kinds(app: App, tmp_path: Path) -> None:
    browser = open_archive(app, tmp_path)
    rows = browser.list.rows
    assert [r.cells[2] for r in rows] == ["Ann Archer", "Cara Cole", "Bob Baker"]
    assert [r.ok for r in rows] == [True, False, True]
    assert rows[0].cells[6] == "#126 11-15 23-19 8-11" and rows[2].cells[7] == "3"
    assert "ply 4: illegal move '20-16'" in rows[1].search_text
    assert browser.summary() == "3 games: 1 bad, 0 with warnings"
    assert browser.current is rows[0] and browser.ply == 0  # the first game opens at its start
    browser.open(rows[1])  # a bad game opens where it went wrong
    assert browser.ply == 3 and browser.last_ply == 3
    frames(app, 1)
    pygame.image.save(pygame.display.get_surface(), str(tmp_path / "browser.png"))  # drawn without error


def test_search_by_player_and_result(app: App, tmp_path: Path) -> None:
    browser = open_archive(app, tmp_path)
    entry = browser.widget("search")
    click(app, entry.get_abs_rect().center)  # type into the search box like a user
    for ch in "cara":
        pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text=ch))
    frames(app, 3)
    pump(app, lambda: len(browser.list.rows) == 2)
    assert {r.cells[1] for r in browser.list.rows} == {"Club night", "County final"}
    browser.set_query("cara white wins")  # every word must match: Cara's game that White won (the bad one)
    assert [r.cells[2] for r in browser.list.rows] == ["Cara Cole"]
    browser.set_query("bad")
    assert [r.ok for r in browser.list.rows] == [False]
    browser.set_query("county")
    assert browser.current is browser.list.rows[0]  # the shown game follows the search
    browser.set_query("")
    assert len(browser.list.rows) == 3


def test_sorting_by_clicking_headers(app: App, tmp_path: Path) -> None:
    browser = open_archive(app, tmp_path)
    xs = browser.list.column_x()
    header_y = browser.list.header_rect.centery
    plies = 7  # COLUMNS index of "Plies"
    click(app, ((xs[plies] + xs[plies + 1]) // 2, header_y))
    assert browser.list.sort_column == plies and not browser.list.descending
    assert [r.record.plies for r in browser.list.rows] == [3, 3, 9]
    click(app, ((xs[plies] + xs[plies + 1]) // 2, header_y))  # again: the other way
    assert [r.record.plies for r in browser.list.rows] == [9, 3, 3]
    browser.sort_by("Date")
    assert [r.cells[4] for r in browser.list.rows] == ["2023.11.20", "2024.03.01", "2024.03.08"]
    row = browser.list.rows[1]
    y = browser.list.body_rect.y + browser.list.row_h * 1 + browser.list.row_h // 2
    click(app, (browser.list.body_rect.x + 40, y))  # a click on a row opens its game
    assert browser.current is row


def test_replay_buttons_keys_and_jump(app: App, tmp_path: Path) -> None:
    browser = open_archive(app, tmp_path)
    ui = browser.widgets

    def press(name: str) -> None:
        click(app, ui[name].get_abs_rect().center)

    press("next")
    assert browser.ply == 1 and browser.state is not None and browser.state.turn == WHITE
    press("last")
    assert browser.ply == 9
    press("prev")
    assert browser.ply == 8
    press("first")
    assert browser.ply == 0 and browser.state.turn == BLACK
    key(app, pygame.K_RIGHT)
    key(app, pygame.K_RIGHT)
    assert browser.ply == 2
    key(app, pygame.K_END)
    assert browser.ply == 9
    key(app, pygame.K_HOME)
    assert browser.ply == 0
    entry = ui["ply"]
    click(app, entry.get_abs_rect().center)
    for ch in "5":
        pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text=ch))
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0, unicode="\r", scancode=0))
    frames(app, 3)
    assert browser.ply == 5
    frames(app, 1)
    r, ply = next((r, p) for r, p in browser.move_hits if p == 7)  # a click on a move jumps to it
    click(app, r.center)
    assert browser.ply == 7
    key(app, pygame.K_DOWN)  # the next game in the list
    assert browser.current is browser.list.rows[1]
    key(app, pygame.K_UP)
    assert browser.current is browser.list.rows[0]


def test_autoplay_plays_the_moves(make_app: Callable[..., App], tmp_path: Path) -> None:
    app = make_app((1280, 800), fps=60, clock=SteppedClock())  # every frame lasts 1/60 s, however long it takes
    browser = open_archive(app, tmp_path)
    browser.speed = 0.05
    click(app, browser.widget("play").get_abs_rect().center)
    assert browser.autoplay and browser.widget("play").text == "Pause"
    app.run(max_seconds=1.5)  # 90 frames of the App's clock: one ply every 0.05 s, and it stops at the end
    assert browser.ply == 9 and not browser.autoplay
    key(app, pygame.K_SPACE)  # from the end, Play starts again from the start
    assert browser.autoplay and browser.ply == 0


def test_analyse_opens_a_match_with_the_tree(app: App, tmp_path: Path) -> None:
    browser = open_archive(app, tmp_path)
    browser.agent_spec = "alphabeta:depth=2"
    browser.goto(5)
    before = browser.state
    assert before is not None and before.turn == WHITE
    match = browser.analyse()
    assert isinstance(match, ArchiveMatchScene) and app.scene is match
    match.ai_delay_s = 0.0
    assert match.record.ply == 5 and match.record.state == before
    assert match.record.notation() == ["11-15", "23-19", "8-11", "22-17", "9-13"]  # the game so far
    assert not match.is_human(WHITE) and match.is_human(BLACK)  # the agent decides the position's move
    pump(app, lambda: match.record.ply == 6 and match.overlay.tree is not None)
    frames(app, 2)
    assert match.overlay.visible  # the search-tree overlay of that decision is shown
    key(app, pygame.K_ESCAPE)  # Esc closes the overlay first ...
    if app.scene is match:
        key(app, pygame.K_ESCAPE)  # ... then goes back to the games
    assert app.scene is browser and browser.ply == 5


def test_play_from_here_against_an_agent(app: App, tmp_path: Path) -> None:
    browser = open_archive(app, tmp_path)
    browser.agent_spec = "beginner"
    browser.goto(4)
    state = browser.state
    assert state is not None and state.turn == BLACK
    click(app, browser.widget("playon").get_abs_rect().center)
    match = app.scene
    assert isinstance(match, MatchScene) and match.record.state == state
    assert write_fen(match.record.state) == write_fen(state)
    assert match.is_human(BLACK) and not match.is_human(WHITE) and match.human_to_move()
    key(app, pygame.K_ESCAPE)
    assert app.scene is browser


def test_over_position_cannot_be_analysed(app: App, tmp_path: Path) -> None:
    browser = open_archive(app, tmp_path)
    browser.set_query("county")
    browser.last()
    assert browser.analyse() is not None  # not over by the rules: the game was stopped, not finished
    key(app, pygame.K_ESCAPE)
    browser.message = None
    over = "[FEN \"W:W32:B1\"]\n[Event \"x\"]\n*\n"
    from gameplay.rules.checkers.pdn_read import read_archive
    from gameplay.ui.scenes.pdn_browser import open_browser
    b2 = open_browser(app, over + over, "two.pdn", read_archive(over + over))
    frames(app, 1)
    assert b2.current is not None and b2.play_from_here() is not None
    key(app, pygame.K_ESCAPE)
    blocked = "[FEN \"W:W:B1\"]\n*\n"
    b3 = open_browser(app, blocked * 2, "over.pdn", read_archive(blocked * 2))
    frames(app, 1)
    assert b3.analyse() is None and b3.message is not None and "over" in b3.message[0]
