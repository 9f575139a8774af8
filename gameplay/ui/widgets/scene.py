"""The scene interface: one screen of the window (the start menu, a match, the Tree Lab...), its named widgets, and
what it may ask of the window it is shown in (:class:`Window`).

The :class:`~gameplay.ui.shell.app.App` keeps a stack of scenes and drives the top one once per frame:
``handle_event`` for each event, then ``update(dt)``, then ``draw(surface)`` (the App draws the pygame_gui
widgets on top afterwards). A scene creates its pygame_gui widgets in ``layout`` (called by ``on_enter``, and again
when the window is resized, zoomed or goes fullscreen) and kills them in ``on_exit``.

The base class owns the widget bookkeeping: each widget a scene builds is stored under a name in its
:class:`WidgetTable` (``self._ui["undo"] = UIButton(...)``; storing a new widget under a taken name kills the old
one), found by name from outside through :meth:`Scene.widget` / :meth:`Scene.find_widget`, matched back to its
name with :meth:`Scene.widget_name` (the button -> action dispatch), and killed all at once by
:meth:`Scene.kill_widgets` (before a new layout, on exit). A look-up that uses what only one kind of widget has
names the kind, and gets the widget typed or a clear error: ``self._ui.typed("undo", UIButton)``,
``scene.widget("status", UILabel)``.

A scene sees the App through :class:`Window`, a protocol the App satisfies: the scene stack, the widget manager,
the window's size, the settings and the title screen's messages, and the ways to the other screens. No scene
imports :mod:`gameplay.ui.shell.app` (the App imports the scenes; ``tests/test_imports.py`` counts type-checking imports
in its cycle check).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, MutableMapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, TypeVar, overload

import pygame
from pygame_gui.core import UIElement

if TYPE_CHECKING:
    import pygame_gui

    from ai.agents.agent_base import Agent
    from gameplay.files.settings import Settings
    from gameplay.ui.widgets.projector import Display


class AutosaveSlot(Protocol):
    """Where a match autosaves (``MatchScene.aids``, :class:`gameplay.ui.play.play_aids.PlayAids`)."""

    autosave_slot: Path | None
    """The autosave file this match writes (``None``: the game's own slot in the data folder). Set it through
    :meth:`StartedMatch.autosave_to`; the title screen still assigns it (to go with its next change)."""


class StartedMatch(Protocol):
    """What the one who starts a match (the title screen, a saved game opened) may do with it
    (:class:`gameplay.ui.play.match.MatchScene` satisfies it)."""

    @property
    def game_name(self) -> str:
        """The match's game (its registry name)."""
        ...

    @property
    def aids(self) -> AutosaveSlot:
        """The match's play aids (its autosave slot)."""
        ...

    def load_game(self, start: Any, moves: Sequence[Any] = ()) -> None:
        """Replace the game by ``start`` (a state of the match's game) and replay ``moves`` from it."""
        ...

    def restore_decision(self, saved: Any) -> str:
        """After :meth:`load_game`: put back a saved game's last AI decision (its ``decision``, ``None`` for none)
        with its recorded tree; returns a sentence for the panel when its tree was not saved whole or could not
        be read, else ``""``."""
        ...

    def notify(self, text: str, error: bool = False) -> None:
        """Show ``text`` in the match's panel (``error``: as a problem)."""
        ...

    def autosave_to(self, path: Path | None) -> None:
        """Autosave this match to ``path``: the saved game it goes on, or the one it replaces with the player's
        consent (``None``: a free slot of its game, claimed at the first write)."""
        ...


class Window(Protocol):
    """What a scene may ask of the window it is shown in; :class:`gameplay.ui.shell.app.App` satisfies it.

    Sizes are window pixels. The scene stack belongs to the window: it is read here (:attr:`scenes`, :attr:`scene`)
    and changed only through :meth:`push`, :meth:`pop` and :meth:`replace_top` (and the ``open_*`` /
    :meth:`start_match` ways to the other screens).
    """

    manager: pygame_gui.UIManager
    """The pygame_gui manager every widget of the window belongs to (replaced when the interface scale changes:
    read it when a widget is made)."""
    settings: Settings
    """The user's settings; change a field, then call :meth:`save_settings`."""
    settings_message: str | None
    """One line for the title screen when the settings file was bad (and replaced), else ``None``; the title screen
    shows it once and clears it."""
    build_notice: str | None
    """The one-line pure-Python notice for the title screen, else ``None``; shown once and cleared."""

    @property
    def resume_prompt(self) -> Any:
        """The open start-up question about the games in progress (``gameplay.ui.play.resume.ResumePrompt``), or
        ``None``; nothing is autosaved while it is open. Closed by :meth:`close_resume_prompt`."""
        ...

    @property
    def size(self) -> tuple[int, int]:
        """The window's size in pixels (width, height)."""
        ...

    @property
    def scenes(self) -> Sequence[Scene]:
        """The scene stack, bottom first (the top one is shown); read only: :meth:`push`, :meth:`pop` and
        :meth:`replace_top` change it."""
        ...

    @property
    def scene(self) -> Scene | None:
        """The scene on top of the stack (the one shown), or ``None``."""
        ...

    @property
    def demo_frames(self) -> bool:
        """True while a ``--frames`` run is being recorded (demos keep moving: short AI pauses)."""
        ...

    def push(self, scene: Scene) -> None:
        """Show ``scene`` above the current one."""
        ...

    def pop(self) -> Scene | None:
        """Remove the top scene and show the one below; returns the removed scene (``None``: the stack was empty)."""
        ...

    def replace_top(self, scene: Scene) -> Scene | None:
        """Show ``scene`` in place of the top scene: the top one exits (and lets go of its agents' processes), the one
        below is not shown in between (it is not entered again). Returns the removed scene (``None``: the stack was
        empty, and ``scene`` is simply shown)."""
        ...

    def close_resume_prompt(self) -> None:
        """Close the start-up question (Later, its close box, Esc; a match finding that its window went with an old
        widget manager); the games on offer stay saved. Nothing happens when none is open."""
        ...

    def open_menu(self) -> None:
        """Go back to the title screen."""
        ...

    def open_settings(self, game: str | None = None) -> Scene:
        """Show the settings panel on the page of ``game`` (default: the first game); returns it."""
        ...

    def open_tree_lab(self) -> Scene:
        """Show the Tree Lab above the title screen; returns it."""
        ...

    def open_pdn_browser(self, text: str, name: str, records: list[Any] | None = None) -> Scene:
        """Show the PDN game browser for the PDN ``text`` of the file ``name`` (``records``: already read); returns
        it."""
        ...

    def start_match(self, game: str, p1: str | Agent, p2: str | Agent, *, demo: bool = False) -> StartedMatch:
        """Show a match of ``game`` between two agents (specs or agents) above the title screen; returns it.

        Raises:
            GameError: unknown game or bad agent spec (nothing changes then).
        """
        ...

    def resume_autosave(self, saved: Any = None) -> StartedMatch | None:
        """Open the saved game ``saved`` (``gameplay.files.savegame.SavedGame``; default: the newest autosave) in a
        match; ``None`` when there is none or it could not be restored (reported)."""
        ...

    def save_settings(self) -> str | None:
        """Write :attr:`settings` to the file; ``None`` when written, else a one-line error."""
        ...

    def set_display(self, display: Display, *, remember: bool = True) -> None:
        """Adopt a new interface scale or theme (``remember``: the user's choice, saved in the settings)."""
        ...


W = TypeVar("W", bound=UIElement)
"""A kind of widget (``UIButton``, ``UILabel``, ``UITextEntryLine``...)."""


def as_kind(widget: UIElement, kind: type[W], name: str = "the widget") -> W:
    """``widget`` typed as ``kind`` (a pygame_gui element class).

    Raises:
        TypeError: ``widget`` is not a ``kind`` (the message names both classes and ``name``).
    """
    if not isinstance(widget, kind):
        raise TypeError(f"{name} is a {type(widget).__name__}, not a {kind.__name__}")
    return widget


class WidgetTable(MutableMapping[str, UIElement]):
    """The named pygame_gui widgets of one scene, in the order they were made.

    A mapping name -> widget. Setting a name that holds another widget kills that widget first (so a rebuilt
    message box never leaves the old one drawn); :meth:`pop` removes without killing; :meth:`kill_all` kills every
    widget and empties the table (the same object, so whoever holds it sees the widgets laid out next). One widget
    may be stored under two names (an alias); it is killed once.

    Args:
        owner: the scene's class name, for error messages.
    """

    def __init__(self, owner: str = "scene") -> None:
        self._owner = owner
        self._widgets: dict[str, UIElement] = {}

    def __getitem__(self, name: str) -> UIElement:
        try:
            return self._widgets[name]
        except KeyError:
            known = ", ".join(sorted(self._widgets)) or "none"
            raise KeyError(f"{self._owner} has no widget {name!r} (it has: {known})") from None

    def __setitem__(self, name: str, widget: UIElement) -> None:
        old = self._widgets.get(name)
        if old is not None and old is not widget and not any(w is old for k, w in self._widgets.items()
                                                                 if k != name):
            old.kill()
        self._widgets[name] = widget

    def __delitem__(self, name: str) -> None:
        del self._widgets[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._widgets)

    def __len__(self) -> int:
        return len(self._widgets)

    def __repr__(self) -> str:
        return f"WidgetTable({self._owner}: {', '.join(self._widgets)})"

    def typed(self, name: str, kind: type[W]) -> W:
        """The widget stored under ``name``, typed as ``kind`` (``table.typed("undo", UIButton)``).

        Raises:
            KeyError: no widget of that name (the message lists the names there are).
            TypeError: the widget of that name is not a ``kind``.
        """
        return as_kind(self[name], kind, f"{self._owner}'s widget {name!r}")

    def find(self, name: str, kind: type[W]) -> W | None:
        """The widget stored under ``name`` typed as ``kind``, or ``None`` when there is none of that name.

        Raises:
            TypeError: the widget of that name is not a ``kind``.
        """
        widget = self._widgets.get(name)
        return None if widget is None else as_kind(widget, kind, f"{self._owner}'s widget {name!r}")

    def name_of(self, element: object) -> str | None:
        """The name ``element`` is stored under (the first, for an alias), or ``None`` when it is not in the table."""
        for name, widget in self._widgets.items():
            if widget is element:
                return name
        return None

    def kill_all(self) -> None:
        """Kill every widget (each once) and empty the table."""
        killed: set[int] = set()
        for widget in self._widgets.values():
            if id(widget) not in killed:
                killed.add(id(widget))
                widget.kill()
        self._widgets.clear()


class Scene:
    """Base class with do-nothing defaults; subclasses override what they need.

    Widgets: a subclass stores the widgets it builds in ``self._ui`` (a :class:`WidgetTable`) under names; tests,
    the App and other scenes find them with :meth:`widget` (``scene.widget("undo")``).
    """

    def __init__(self) -> None:
        self.app: Window | None = None
        """The window this scene is shown in (set by ``on_enter``)."""
        self._ui = WidgetTable(type(self).__name__)
        """The scene's named widgets (built by ``layout``, killed by :meth:`kill_widgets`)."""

    # -- widgets -----------------------------------------------------------------------------------------------------
    @overload
    def widget(self, name: str) -> UIElement: ...

    @overload
    def widget(self, name: str, kind: type[W]) -> W: ...

    def widget(self, name: str, kind: type[UIElement] | None = None) -> UIElement:
        """The widget stored under ``name`` (e.g. ``"undo"``, ``"play.checkers"``), typed as ``kind`` when given
        (``scene.widget("undo", UIButton)``).

        Raises:
            KeyError: no widget of that name in the current layout (the message lists the names there are).
            TypeError: the widget of that name is not a ``kind``.
        """
        return self._ui[name] if kind is None else self._ui.typed(name, kind)

    @overload
    def find_widget(self, name: str) -> UIElement | None: ...

    @overload
    def find_widget(self, name: str, kind: type[W]) -> W | None: ...

    def find_widget(self, name: str, kind: type[UIElement] | None = None) -> UIElement | None:
        """The widget stored under ``name`` (typed as ``kind`` when given), or ``None`` when the current layout has
        none of that name.

        Raises:
            TypeError: the widget of that name is not a ``kind``.
        """
        return self._ui.get(name) if kind is None else self._ui.find(name, kind)

    @property
    def widgets(self) -> Mapping[str, UIElement]:
        """The current layout's widgets by name (``"undo" in scene.widgets``, ``scene.widgets.values()``); read it,
        do not store into it from outside (a new layout refills it)."""
        return self._ui

    def widget_names(self) -> list[str]:
        """The names of the current layout's widgets, in the order they were made."""
        return list(self._ui)

    def widget_name(self, element: object) -> str | None:
        """The name a widget is stored under (a pressed button's), or ``None`` for a widget of someone else."""
        return self._ui.name_of(element)

    def run_button(self, element: object, commands: Mapping[str, Callable[[], object]]) -> bool:
        """Run the command of a pressed button: ``commands`` maps widget names to what their buttons do (a scene's
        button table). Returns False (nothing run) for a widget not named there."""
        command = commands.get(self.widget_name(element) or "")
        if command is None:
            return False
        command()
        return True

    def kill_widgets(self) -> None:
        """Kill every named widget (before a new layout, and on exit)."""
        self._ui.kill_all()

    # -- the scene's life ----------------------------------------------------------------------------------------------
    def on_enter(self, app: Window) -> None:
        """Called when the scene becomes the top of the stack: build widgets for ``app.size``."""
        self.app = app
        self.layout(app.size)

    def on_exit(self) -> None:
        """Called when the scene leaves the top of the stack: kill widgets, cancel background work."""
        self.kill_widgets()

    def layout(self, size: tuple[int, int]) -> None:
        """(Re)build the widgets for a window of ``size`` pixels (called on enter, resize, fullscreen)."""

    def handle_event(self, event: pygame.event.Event) -> bool:
        """React to one event (pygame_gui has already seen it). Returns True when the event was used."""
        return False

    def update(self, dt: float) -> None:
        """Advance by ``dt`` seconds (poll the AI, run timers)."""

    def draw(self, surface: pygame.Surface) -> None:
        """Draw the scene (not the widgets) onto ``surface``."""

    def close_top(self) -> bool:
        """Esc: close the topmost view this scene has open over itself (not a pygame_gui window: the App closes the
        topmost of those first, :meth:`gameplay.ui.shell.app_events.EventRouter.escape`). Returns True when one was
        closed; False (the default: nothing is ever open over the scene) lets the App do the scene's own Esc."""
        return False

    def busy(self) -> bool:
        """True while the scene changes by itself (an animation, the AI thinking, a timer): the App draws it at full
        frame rate. False when only input can change it: the App then waits for input between frames
        (:mod:`gameplay.ui.shell.idle`). The default, True, is always safe."""
        return True
