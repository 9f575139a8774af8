"""A move from the opening book has no search tree: the overlay and the side panel say so, and never leave an
older decision's tree up (two screens that disagree)."""

from __future__ import annotations

import html

from ai.agents.agents import make_agent
from gameplay.ui.overlay import overlay_draw
from gameplay.ui.play.match import MatchScene
from gameplay.ui.play.match_panel import decision_html
from gameplay.ui.shell.app import App


def _until(app: App, cond: object, timeout_s: float = 60.0) -> None:
    """Run frames until ``cond()`` holds, for at most ``timeout_s`` seconds of wall-clock time (a frame count ran
    out before a pure-Python search on a busy machine answered)."""
    from ui_driver import pump
    pump(app, cond, timeout_s)  # type: ignore[arg-type]


def test_book_move_shows_no_tree_and_says_why(app: App) -> None:
    # White (a searching AI, book off) moves first from a ballot position; then Black plays from the book
    searcher = make_agent("checkers", "alphabeta:depth=3,book=off")
    booked = make_agent("checkers", "expert:book=on")
    scene = MatchScene("checkers", (booked, searcher), ai_delay_s=0.0)
    app.push(scene)
    _until(app, lambda: scene.last_decision is not None)
    player, text, res = scene.last_decision  # type: ignore[misc]
    assert player == 0 and res.stop_reason == "book" and res.nodes == 0
    assert scene.overlay.tree is None
    title, notes = overlay_draw.header_texts(scene.overlay)
    assert title == f"Black played {text} from the opening book"
    assert "no tree" in notes[0]
    assert "from the opening book (no search)" in decision_html(scene)
    # both panels say where the book's move comes from, in the same words (the start: a move from real games)
    origin = res.extra["book_origin"]
    assert "book games, mover's score" in origin
    assert origin in notes[0] and html.escape(origin) in decision_html(scene)
    # White searches: its tree is shown
    _until(app, lambda: scene.last_decision is not None and scene.last_decision[0] == 1)
    assert scene.overlay.tree is not None
    # Black's next move comes from the book again: White's tree must not stay up as if it were Black's
    _until(app, lambda: scene.last_decision is not None and scene.last_decision[0] == 0)
    assert scene.last_decision[2].stop_reason == "book"
    assert scene.overlay.tree is None
    assert overlay_draw.header_texts(scene.overlay)[0].endswith("from the opening book")
    # undo back to White's decision: its tree comes back with the panel (AI against AI: one ply, then a pause)
    assert scene.undo() == 1 and scene.paused
    assert scene.last_decision is not None and scene.last_decision[0] == 1
    assert scene.overlay.tree is not None
