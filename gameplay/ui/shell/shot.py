"""Render one view of the window to PNG without a display (``main.py shot``, :mod:`gameplay.cli.shot`).

The App is opened on SDL's dummy video driver at the size asked, the view is opened the way a user opens it (the
Tree Lab with a tree, a match whose AI decides at a position and its search-tree overlay, the menu...), a few
frames are drawn, and the window's surface is saved. :func:`tree_report` reads what the tree view drew (the items,
their rectangles, the narration and the nodes it names) from the overlay's own picture, so the JSON says exactly
what the PNG shows.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gameplay.rules.base import GameError, quoted, quoted_path

SETTLE_FRAMES = 3
"""Frames drawn after the view is set up and before the picture is saved."""
AI_TIMEOUT_S = 600.0
"""Longest wait for the overlay view's agent to decide."""


@dataclass(frozen=True)
class ShotRequest:
    """What :func:`render` draws (the ``shot`` command's arguments, checked)."""

    view: str
    size: tuple[int, int]
    out: str
    game: str | None = None
    position: str | None = None
    agent: str | None = None
    tree: str | None = None
    preset: str | None = None
    presenter: bool = False
    step: int | None = None
    """1-based step of the step-through; ``None``: the finished search."""
    zoom: float | None = None
    contrast: bool = False


def render(req: ShotRequest) -> dict[str, Any]:
    """Open the App headless at ``req.size``, show the view, save the PNG and report what was drawn.

    Returns:
        The ``shot --json`` object (:mod:`gameplay.cli.shot`).

    Raises:
        GameError: a bad game, position, agent, tree, preset, zoom or step (nothing is written then), or the
            PNG cannot be written.
    """
    os.environ["SDL_VIDEODRIVER"] = "dummy"  # never a window on the screen, with or without a display
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    import warnings

    import pygame
    warnings.filterwarnings("ignore", module="pygame_gui")  # its font notices are for developers, not a slide

    from gameplay.ui.shell.app import App
    from gameplay.ui.widgets import projector
    app = App(size=req.size, fps=1000, demo_frames=True, settings_file=_scratch_settings(), autosave=False)
    try:
        if req.contrast and not app.display.high_contrast:
            app.toggle_high_contrast()
        if req.zoom is not None:
            _set_zoom(app, req.zoom)
        scene = _open(app, req)
        ov = _tree_view(scene)
        if ov is None and req.view == "overlay":
            ov = scene.overlay  # a decision without a tree (a book move, a proof): the header the view shows
        if ov is not None:
            if req.presenter:
                ov.set_presenter(True)
            _go_to_step(ov, req.step)
        elif req.presenter or req.step is not None:
            raise GameError(f"--presenter and --step are for the treelab and overlay views, not {req.view}")
        app.run(max_frames=SETTLE_FRAMES)
        path = Path(req.out)
        window = pygame.display.get_surface()
        if window is None:
            raise GameError("no window to take a picture of (the display was closed)")
        try:
            from gameplay.rules.outfile import replacing
            with replacing(path) as tmp:  # whole or not at all (an error or Ctrl+C leaves no half-written PNG)
                pygame.image.save(window, str(tmp))
        except (OSError, pygame.error) as e:
            raise GameError(f"cannot write {quoted_path(str(path))}: {getattr(e, 'strerror', None) or e}") from None
        obj: dict[str, Any] = {"view": req.view, "size": list(req.size), "file": str(path),
                               "zoom": app.display.zoom, "scale": projector.scale(),
                               "theme": app.display.theme}
        obj.update(tree_report(ov) if ov is not None else empty_report())
        return obj
    finally:
        app.close()
        projector.set_current(projector.Display())


def _scratch_settings() -> Path:
    """A settings file of its own (defaults), so a shot never reads or changes the user's settings."""
    import tempfile
    return Path(tempfile.mkdtemp(prefix="arcade-shot-")) / "settings.toml"


def _set_zoom(app: Any, zoom: float) -> None:
    from gameplay.ui.widgets import projector
    steps = [z for z in projector.ZOOM_STEPS if z <= app.display.max_zoom + 1e-6]
    match = next((z for z in steps if abs(z - zoom) < 1e-6), None)
    if match is None:
        raise GameError(f"--zoom {zoom:g} is not offered at {app.size[0]}x{app.size[1]}; the interface sizes "
                        f"there are {', '.join(f'{z:g}' for z in steps)}")
    app.set_display(projector.fitted_display(projector.Display(zoom=match, theme=app.display.theme), app.size))


def _open(app: Any, req: ShotRequest) -> Any:
    """Open the view ``req.view`` the way a user does; returns the scene."""
    from ai.agents.agents import make_agent
    view = req.view
    from gameplay.rules.registry import game_names, normalize_name
    game = (req.game or game_names()[0]).strip().lower()
    if view in ("match", "overlay", "race", "settings") and req.game is not None:
        game = normalize_name(req.game)
    if view == "menu":
        app.open_menu()
        return app.scene
    if view == "settings":
        return app.open_settings(game)
    if view == "treelab":
        return _open_treelab(app, req)
    state = _state(game, req.position)
    if view == "race":
        from gameplay.ui.play.race_scene import RaceScene
        scene = app.start_match(game, make_agent(game, "human"), make_agent(game, "human"))
        scene.load_game(state)
        race = RaceScene(game, state)
        app.push(race)
        _pump(app, lambda: not race.running, AI_TIMEOUT_S)
        return race
    if view == "match":
        scene = app.start_match(game, make_agent(game, "human"), make_agent(game, "human"))
        scene.load_game(state)
        return scene
    # overlay: the agent plays the side to move at the position, as the window's AI does, and its tree is shown
    g = make_agent(game, "human").game
    if g.is_terminal(state):
        raise GameError("the position is over: there is no decision to show")
    if g.is_chance(state):
        raise GameError("the position is a chance node (the die is about to be rolled): give a position where a "
                        "player decides")
    spec = req.agent or "medium"
    agent = make_agent(game, spec)
    if agent.is_human:
        raise GameError("--agent must be an AI for the overlay view, not human")
    mover = g.to_move(state)
    sides = [make_agent(game, "human"), make_agent(game, "human")]
    sides[mover] = agent
    # the AI's move at once: each of _pump's runs is one frame, and the first frame of a run passes no time
    scene = app.start_match(game, sides[0], sides[1], ai_delay_s=0.0)
    scene.load_game(state)  # a person on the other side: the match is not paused
    _pump(app, lambda: scene.last_decision is not None or scene.error is not None, AI_TIMEOUT_S)
    if scene.error is not None:
        raise GameError(f"the agent could not decide: {scene.error}")
    if scene.overlay.tree is None:
        # a decision without a tree (a book move, a proof of the exact solver): the tree view as the window shows
        # it then, its header saying why (and a proof's null-window tests); else nothing to show
        from gameplay.ui.play.match_panel import no_search_message
        if no_search_message(g, scene.last_decision) is None:
            raise GameError(f"agent {quoted(spec)} searched no tree to show (a fixed policy or an agent file): use "
                            "minimax, alphabeta, expectimax, mcts or a preset that searches")
    if not scene.overlay.visible:
        scene.toggle_overlay()
    return scene


def _open_treelab(app: Any, req: ShotRequest) -> Any:
    from gameplay.rules.trees import TEXTBOOK_TREES
    scene = app.open_tree_lab()
    if req.preset is not None:
        name = next((n for n in TEXTBOOK_TREES if n.lower() == req.preset.strip().lower()), None)
        if name is None:
            raise GameError(f"unknown preset {quoted(req.preset)}; expected one of "
                            + ", ".join(f"'{n}'" for n in TEXTBOOK_TREES))
        if not scene.load_preset(name):
            raise GameError(scene.message)
    elif req.tree is not None:
        from gameplay.rules.trees import tree_text
        if not scene.set_tree(tree_text(req.tree), "Tree"):
            raise GameError(scene.message or "the tree was refused")
    if req.agent is not None:
        algorithm, prune = _lab_algorithm(req.agent)
        if (algorithm == "expectimax") != scene.has_chance and not algorithm.startswith("mcts:"):
            raise GameError("expectimax needs a tree with chance nodes" if algorithm == "expectimax" else
                            f"{algorithm} cannot search chance nodes: use expectimax (or mcts) on this tree")
        if prune != scene.prune:
            scene.set_prune(prune)
        if algorithm != scene.algorithm and not scene.set_algorithm(algorithm):
            raise GameError(scene.message or f"the Tree Lab cannot search this tree with {quoted(req.agent)}")
    return scene


def _lab_algorithm(spec: str) -> tuple[str, str]:
    """The Tree Lab's algorithm id (``minimax``, ``alphabeta``, ``ordered``, ``expectimax``, ``mcts:N``) and cut-off
    rule for a Tree Lab agent spec (``tree --tree``'s agents)."""
    from ai.teaching.treelab import parse_tree_agent
    from gameplay.ui.scenes.treelab_panel import ALGORITHMS
    s = parse_tree_agent(spec)
    if s.algorithm == "mcts":
        alg = f"mcts:{s.simulations}"
        if alg not in {a for _, a in ALGORITHMS}:
            offered = ", ".join(a.split(":")[1] for _, a in ALGORITHMS if a.startswith("mcts:"))
            raise GameError(f"the Tree Lab offers MCTS with {offered} simulations, not {s.simulations}")
        return alg, s.prune
    if s.algorithm == "alphabeta" and s.ordering:
        return "ordered", s.prune
    return s.algorithm, s.prune


def _state(game: str, position: str | None) -> Any:
    from gameplay.rules.registry import make_game
    g = make_game(game)
    return g.initial_state() if position is None else g.parse_position(position)


def _pump(app: Any, until: Any, timeout_s: float) -> None:
    deadline = time.monotonic() + timeout_s
    while not until():
        if time.monotonic() > deadline:
            raise GameError(f"gave up after {timeout_s:g} s waiting for the agent")
        app.run(max_frames=1)


def _tree_view(scene: Any) -> Any:
    """The scene's tree view (an overlay or the Tree Lab's), or ``None`` for a view without one."""
    ov = getattr(scene, "overlay", None)
    if ov is None or getattr(ov, "tree", None) is None:
        return None
    return ov


def _go_to_step(ov: Any, step: int | None) -> None:
    if getattr(inner_view(ov), "tree", None) is None:
        if step is not None:
            said = inner_view(ov).no_tree_message
            raise GameError(f"--step: this decision has no tree to step through ({said.title if said else 'no tree'})")
        return
    events = list(inner_view(ov).stepper.events)
    if step is None:
        ov.finish()
        return
    if step > len(events):
        raise GameError(f"--step {step} is past the last step: this search has {len(events)} steps")
    ov.stepper.go_to(step - 1)


def inner_view(ov: Any) -> Any:
    """The overlay a switch shows (:class:`gameplay.ui.overlay.overlay_switch.OverlaySwitch`), or ``ov`` itself."""
    return getattr(ov, "active", ov)


def empty_report() -> dict[str, Any]:
    """The tree fields of ``shot --json`` for a view without a tree."""
    return {"canvas": None, "nodes": [], "narration": None, "named": [], "narrated": None, "all_inside": True,
            "about_inside": True}


def tree_report(ov: Any) -> dict[str, Any]:
    """What the tree view drew: its canvas, every item with its rectangle (window pixels) and whether it lies
    wholly inside the canvas, the current sentence, the node it is about and the nodes it names
    (:mod:`gameplay.cli.shot` describes the fields)."""
    inner = inner_view(ov)
    if getattr(inner, "tree", None) is None and getattr(inner, "no_tree_message", None) is not None:
        said = inner.no_tree_message  # a decision without a tree: the header is what the view shows, whole or not
        from gameplay.ui.overlay.overlay_draw import header_layout
        whole = header_layout(inner, inner.header_rect.width)[1] <= inner.header_rect.height
        return {**empty_report(), "canvas": list(inner.rect), "all_inside": whole, "about_inside": whole,
                "header": [t.replace("\u00a0", " ") for t in (said.title, *said.lines)]}
    if not hasattr(inner, "sentence_about"):  # the MCTS overlay: its own picture of visit counts, no item list
        obj = empty_report()
        obj["canvas"] = list(inner.rect)
        obj["narration"] = inner.sentence()
        return obj
    from gameplay.pictures.tree_layout import COLLAPSED, NODE, PRUNED, UNRECORDED
    from gameplay.pictures.tree_picture import value_text
    from gameplay.ui.overlay import overlay_view as view
    inner.ensure_framed()
    model = inner.step_view()  # the frame the canvas shows (gameplay.pictures.step_view.StepView)
    c = inner.canvas_rect
    drawn = inner.narration_rect.height > 0 and inner.drawn_narration[0]
    if model is None:  # a tree with nothing to draw
        from gameplay.ui.overlay.overlay_draw import narration_text
        return {**empty_report(), "canvas": [c.x, c.y, c.width, c.height], "narration_drawn": bool(drawn),
                "narration": " ".join(inner.drawn_narration[0]) if drawn else narration_text(inner)}
    lay = model.layout
    labels = item_labels(inner, lay)
    drawn_items = model.drawn_items()
    nodes = []
    for idx, box, inside in drawn_items:
        it = lay.nodes[idx]
        kind = {NODE: "node", PRUNED: "pruned", COLLAPSED: "hidden", UNRECORDED: "not recorded"}.get(it.kind, it.kind)
        entry: dict[str, Any] = {"label": labels.get(idx, "?"), "kind": kind,
                                 "rect": [round(box[0] + c.x), round(box[1] + c.y), round(box[2]), round(box[3])],
                                 "inside": inside}
        if it.kind == NODE and it.node is not None:
            entry["value"] = value_text(it.node)  # as drawn in the node at this step ("?", ">= 0", "0")
            entry["parent"] = labels.get(it.parent) if it.parent is not None else None
        nodes.append(entry)
    about, missing = view.about_items(inner, lay)
    inside_of = {idx: ins for idx, _, ins in drawn_items}
    shown_ids = lay.by_node_id()
    st = inner.narrated_step()
    named = [labels.get(shown_ids[i].index, "?") for i in (st.named if st is not None else ()) if i in shown_ids]
    named += [labels[i] for i in about if lay.nodes[i].kind == PRUNED and i in labels]
    narrated = None
    if st is not None and st.node in shown_ids:
        narrated = labels.get(shown_ids[st.node].index)
    return {"canvas": [c.x, c.y, c.width, c.height], "nodes": nodes,
            "narration": " ".join(inner.drawn_narration[0]) if drawn else model.narration,
            "narration_drawn": bool(drawn),
            "named": list(dict.fromkeys(named)), "narrated": narrated,
            "all_inside": all(n["inside"] for n in nodes),
            "about_inside": missing == 0 and all(inside_of.get(i, False) for i in about)}


def item_labels(ov: Any, lay: Any = None) -> dict[int, str]:
    """A label for every item of ``lay`` (default: the overlay's current picture's layout): the Tree Lab's letters
    (``A``, ``leaf 5``) or the move path (``root``, ``22-18 > 11-15``); a pruned placeholder ``G (pruned)`` or
    ``22-18: pruned 9-14``; a collapsed part ``+N nodes under E``."""
    from ai.teaching.tree_names import node_names
    from gameplay.pictures.tree_layout import COLLAPSED, NODE, PRUNED, UNRECORDED
    from gameplay.ui.overlay import overlay_draw as draw
    lay = lay if lay is not None else ov.pic_lay
    if lay is None or ov.tree is None:
        return {}
    names = node_names(ov.tree, getattr(ov.info, "root", None))
    pruned_names = draw.picture_names(ov)[1]
    out: dict[int, str] = {}
    for it in lay.nodes:
        par = lay.nodes[it.parent].node if it.parent is not None else None
        pn = names.get(par.id, "root") if par is not None else "root"
        if it.kind == NODE and it.node is not None:
            out[it.index] = names.get(it.node.id, "?")
        elif it.kind == PRUNED:
            known = [pruned_names.get((par.id, m), "") for m in it.moves] if par is not None else []
            if known and all(known):
                out[it.index] = ", ".join(known) + " (pruned)"
            else:
                out[it.index] = f"{pn}: pruned {', '.join(it.moves)}"
        elif it.kind == COLLAPSED:
            out[it.index] = f"+{it.hidden} nodes under {pn}"
        elif it.kind == UNRECORDED:
            out[it.index] = f"{it.hidden} nodes not recorded under {pn}"
    return out
