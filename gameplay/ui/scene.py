"""The scene interface: one screen of the window (the start menu, a match, the Tree Lab...), and its named widgets.

The :class:`~gameplay.ui.app.App` keeps a stack of scenes and drives the top one once per frame:
``handle_event`` for each event, then ``update(dt)``, then ``draw(surface)`` (the App draws the pygame_gui
widgets on top afterwards). A scene creates its pygame_gui widgets in ``layout`` (called by ``on_enter``, and again
when the window is resized, zoomed or goes fullscreen) and kills them in ``on_exit``.

The base class owns the widget bookkeeping: each widget a scene builds is stored under a name in its
:class:`WidgetTable` (``self._ui["undo"] = UIButton(...)``; storing a new widget under a taken name kills the old
one), found by name from outside through :meth:`Scene.widget` / :meth:`Scene.find_widget`, matched back to its
name with :meth:`Scene.widget_name` (the button -> action dispatch), and killed all at once by
:meth:`Scene.kill_widgets` (before a new layout, on exit).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, MutableMapping
from typing import TYPE_CHECKING, Any

import pygame

if TYPE_CHECKING:
    from gameplay.ui.app import App


class WidgetTable(MutableMapping[str, Any]):
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
        self._widgets: dict[str, Any] = {}

    def __getitem__(self, name: str) -> Any:
        try:
            return self._widgets[name]
        except KeyError:
            known = ", ".join(sorted(self._widgets)) or "none"
            raise KeyError(f"{self._owner} has no widget {name!r} (it has: {known})") from None

    def __setitem__(self, name: str, widget: Any) -> None:
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

    def name_of(self, element: Any) -> str | None:
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
        self.app: App | None = None
        """The App this scene is shown in (set by ``on_enter``)."""
        self._ui = WidgetTable(type(self).__name__)
        """The scene's named widgets (built by ``layout``, killed by :meth:`kill_widgets`)."""

    # -- widgets -----------------------------------------------------------------------------------------------------
    def widget(self, name: str) -> Any:
        """The widget stored under ``name`` (e.g. ``"undo"``, ``"play.checkers"``).

        Raises:
            KeyError: no widget of that name in the current layout (the message lists the names there are).
        """
        return self._ui[name]

    def find_widget(self, name: str) -> Any | None:
        """The widget stored under ``name``, or ``None`` when the current layout has none of that name."""
        return self._ui.get(name)

    @property
    def widgets(self) -> Mapping[str, Any]:
        """The current layout's widgets by name (``"undo" in scene.widgets``, ``scene.widgets.values()``); read it,
        do not store into it from outside (a new layout refills it)."""
        return self._ui

    def widget_names(self) -> list[str]:
        """The names of the current layout's widgets, in the order they were made."""
        return list(self._ui)

    def widget_name(self, element: Any) -> str | None:
        """The name a widget is stored under (a pressed button's), or ``None`` for a widget of someone else."""
        return self._ui.name_of(element)

    def run_button(self, element: Any, commands: Mapping[str, Callable[[], object]]) -> bool:
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
    def on_enter(self, app: App) -> None:
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

    def busy(self) -> bool:
        """True while the scene changes by itself (an animation, the AI thinking, a timer): the App draws it at full
        frame rate. False when only input can change it: the App then waits for input between frames
        (:mod:`gameplay.ui.idle`). The default, True, is always safe."""
        return True
