"""One owner for each piece of state in the window (issue 46): no module assigns another object's fields.

The rule, read from the syntax tree of ``gameplay/ui``: an assignment (``=``, ``+=``..., annotated ones too) whose
target is an attribute ``x.field`` where ``x`` is neither ``self`` nor ``cls`` (``scene.paused = False``,
``self.app.blanked = True``) changes state another object owns; the owner offers a method instead
(``scene.hand_side_to_human(p)``, ``app.replace_top(scene)``, ``app.blank(True)``). Left alone, because they are
values being built rather than another object's state:

* the position and size of a ``pygame.Rect`` (:data:`RECT_FIELDS`: ``box.center = ...``), a value object;
* the options pygame_gui's widgets take only after they are made (:data:`WIDGET_OPTIONS`).

The rule goes by names (the tree knows no types): a project field named like a ``Rect``'s (``width``) would pass
unseen. Every other such assignment is listed in :data:`ALLOWED` with its reason; an entry nothing matches any more
must go (the list only shrinks). The protocols the window's rooms see each other through show the owners' state
read-only, so that ``mypy --strict`` refuses an assignment through them as well
(:func:`test_the_protocols_show_the_owners_state_read_only`).
"""

from __future__ import annotations

import ast
import inspect
from pathlib import Path
from typing import Any

import pygame
import pytest

from ai.agents.agents import make_agent
from ai.agents.runner import AgentRunner
from gameplay.ui.boards.match_host import MatchHost
from gameplay.ui.play.match import MatchScene
from gameplay.ui.scenes.pdn_list import COLUMNS, GameList
from gameplay.ui.widgets.scene import Scene, Window
from gameplay.ui.widgets.window_controls import WindowControls

ROOT = Path(__file__).resolve().parent.parent
WINDOW = "gameplay/ui"
RECT_FIELDS = frozenset({
    "x", "y", "w", "h", "width", "height", "size", "top", "left", "bottom", "right", "topleft", "topright",
    "bottomleft", "bottomright", "midtop", "midleft", "midbottom", "midright", "center", "centerx", "centery"})
"""A ``pygame.Rect``'s position and size: a rectangle being placed is a value, not another object's state."""
WIDGET_OPTIONS = frozenset({"expand_direction", "list_item_height"})
"""pygame_gui widget options that its constructors do not take (a drop-down's direction, a list's row height):
set on the widget the scene has just made."""
SETTINGS_RECORD = ("a settings record (gameplay.files.settings): plain data the screens edit and the App writes to the "
                   "file (Window.settings: 'change a field, then call save_settings')")
ALLOWED: dict[tuple[str, str], str] = {
    ("gameplay/ui/scenes/settings_scene.py", "side"): "the settings panel's own draft (a copy; Save hands it over): "
                                                      + SETTINGS_RECORD,
    ("gameplay/ui/scenes/settings_scene.py", "self.side(p)"): "the settings panel's own draft: " + SETTINGS_RECORD,
    ("gameplay/ui/scenes/settings_scene.py", "self.draft"): "the settings panel's own draft: " + SETTINGS_RECORD,
    ("gameplay/ui/shell/app.py", "self.settings"): "the App's own settings (the window's size when it closes): "
                                                   + SETTINGS_RECORD,
    ("gameplay/ui/scenes/menu.py", "app.settings.side(self.game, p)"): "the title screen's side choices: "
                                                                       + SETTINGS_RECORD,
    ("gameplay/ui/scenes/menu.py", "self.side(game, player)"): "the title screen's side choices: " + SETTINGS_RECORD,
    ("gameplay/ui/scenes/menu.py", "app"): "the title screen clears the App's one-line messages once shown "
                                           "(settings_message, build_notice); menu.py is being changed on another "
                                           "branch of issue 46: to become an App method after it",
    ("gameplay/ui/scenes/menu.py", "scene.aids"): "a new match takes over the saved game it replaces "
                                                  "(autosave_slot); to become StartedMatch.autosave_to after menu.py's "
                                                  "other change (another branch of issue 46)",
}
"""(file, the object whose field is assigned, as written) -> why it may be."""


def writes(source: str) -> list[tuple[int, str, str]]:
    """``[(line, object as written, field)]`` of every assignment in ``source`` to a field of an object that is
    neither ``self`` nor ``cls``, but a ``Rect``'s position or size and pygame_gui's :data:`WIDGET_OPTIONS`."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Assign):
            targets = list(node.targets)
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
            targets = [node.target]
        else:
            continue
        while targets:
            t = targets.pop()
            if isinstance(t, (ast.Tuple, ast.List)):
                targets += t.elts
            elif isinstance(t, ast.Starred):
                targets.append(t.value)
            elif isinstance(t, ast.Attribute):
                own = isinstance(t.value, ast.Name) and t.value.id in ("self", "cls")
                if not own and t.attr not in RECT_FIELDS and t.attr not in WIDGET_OPTIONS:
                    found.append((node.lineno, ast.unparse(t.value), t.attr))
    return sorted(found)


def writes_in(root: str) -> list[tuple[str, int, str, str]]:
    """``[(file, line, object, field)]`` of :func:`writes` in every Python file under ``root`` (from the checkout)."""
    out = []
    for f in sorted((ROOT / root).rglob("*.py")):
        rel = f.relative_to(ROOT).as_posix()
        out += [(rel, line, obj, name) for line, obj, name in writes(f.read_text(encoding="utf-8"))]
    return out


def test_the_rule_finds_assignments_to_another_objects_fields() -> None:
    source = (
        "class A:\n"
        "    def f(self, scene, app):\n"
        "        self.mine = 1; cls.kind = 2\n"                 # 3: its own: none
        "        scene.paused = False\n"                        # 4: another's
        "        self.app.blanked = True\n"                     # 5: another's, through its own field
        "        scene.error = scene.error_tag = None\n"        # 6: two
        "        a.b, (self.c, d.e) = 1, (2, 3)\n"              # 7: two, in tuples
        "        app.frames += 1\n"                             # 8: augmented
        "        box.center = (1, 2); box.width = 3\n"          # 9: a Rect being placed: none
        "        dd.expand_direction = 'up'\n"                  # 10: a widget's option: none
        "        x.total: int = 4\n"                            # 11: annotated
    )
    assert writes(source) == [(4, "scene", "paused"), (5, "self.app", "blanked"), (6, "scene", "error"),
                              (6, "scene", "error_tag"), (7, "a", "b"), (7, "d", "e"), (8, "app", "frames"),
                              (11, "x", "total")]


def test_the_window_assigns_no_other_objects_fields_but_the_listed_ones() -> None:
    found = writes_in(WINDOW)
    unlisted = [f"{f}:{line}: {obj}.{name} = ..." for f, line, obj, name in found if (f, obj) not in ALLOWED]
    assert not unlisted, "a module assigns another object's field: give the owner a method (or list it with its " \
                         "reason in ALLOWED):\n" + "\n".join(unlisted)
    used = {(f, obj) for f, _line, obj, _name in found}
    assert not set(ALLOWED) - used, f"nothing assigns there any more (remove from ALLOWED): {set(ALLOWED) - used}"


@pytest.mark.parametrize(("protocol", "name"), [
    (Window, "scenes"), (Window, "scene"), (Window, "resume_prompt"), (WindowControls, "blanked"),
    (MatchHost, "agents"), (MatchHost, "error"), (MatchHost, "error_tag"), (MatchHost, "paused"),
])
def test_the_protocols_show_the_owners_state_read_only(protocol: type, name: str) -> None:
    # a field declared as a read-only property: mypy --strict refuses ``app.scenes = ...`` through the protocol,
    # and a Sequence has no append
    assert isinstance(inspect.getattr_static(protocol, name), property), f"{protocol.__name__}.{name}"


# ----- the owners' methods ------------------------------------------------------------------------------------------
class Probe(Scene):
    """A scene that counts how often it is shown and left, with agents to let go of."""

    def __init__(self, agents: tuple[Any, ...] = ()) -> None:
        super().__init__()
        self.agents = agents
        self.entered = self.exited = 0

    def on_enter(self, app: Any) -> None:
        super().on_enter(app)
        self.entered += 1

    def on_exit(self) -> None:
        super().on_exit()
        self.exited += 1


class FileAgentStandIn:
    """An agent with a worker process to stop (``close``), as an agent file's."""

    closed = 0

    def close(self) -> None:
        self.closed += 1


def test_replace_top_swaps_the_top_scene_without_showing_the_one_below(app: Any) -> None:
    below, agent = Probe(), FileAgentStandIn()
    top, new = Probe((agent,)), Probe()
    assert app.replace_top(below) is None and list(app.scenes) == [below]  # an empty stack: simply shown
    app.push(top)
    assert (below.entered, below.exited) == (1, 1)
    assert app.replace_top(new) is top
    assert list(app.scenes) == [below, new] and app.scene is new
    assert (top.exited, agent.closed, new.entered) == (1, 1, 1)  # the old top exits and lets go of its agents
    assert (below.entered, below.exited) == (1, 1)  # the scene below was not shown in between


def test_the_match_hands_a_side_to_a_person_and_forgets_a_failure_itself(app: Any) -> None:
    ai = (make_agent("tictactoe", "random:seed=1"), make_agent("tictactoe", "random:seed=2"))
    scene = MatchScene("tictactoe", ai, runner=AgentRunner())
    scene.toggle_pause()
    assert scene.paused and not scene.play(9, "ai")  # an illegal move: the match records the failure
    assert scene.error is not None and scene.error_tag == scene.record.tag
    scene.clear_error()
    assert scene.error is None and scene.error_tag is None and scene.paused  # asked again; still paused
    assert not scene.play(9, "ai")
    with pytest.raises(ValueError, match="player must be 0 or 1, not 2"):
        scene.hand_side_to_human(2)
    assert scene.agents == ai and scene.error is not None  # nothing changed
    scene.hand_side_to_human(1)
    assert scene.agents[0] is ai[0] and scene.is_human(1) and not scene.is_human(0)
    assert scene.error is None and scene.error_tag is None and not scene.paused
    assert not scene.play(9, "ai")
    scene.aids.retry()  # "Try the AI again": through the scene's own method
    assert scene.error is None and scene.error_tag is None


def test_the_game_list_is_placed_sorted_and_selected_through_its_methods() -> None:
    games = GameList()
    games.sort_by(len(COLUMNS) - 1, True)
    assert (games.sort_column, games.descending) == (len(COLUMNS) - 1, True)
    for bad in (-1, len(COLUMNS)):
        with pytest.raises(ValueError, match="sort column must be"):
            games.sort_by(bad, False)
    assert (games.sort_column, games.descending) == (len(COLUMNS) - 1, True)
    games.place(pygame.Rect(10, 20, 300, 200))
    assert tuple(games.rect) == (10, 20, 300, 200)
    games.select(None)
    assert games.selected is None
