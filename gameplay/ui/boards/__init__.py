"""Board views and their input controllers: the base classes, the generic view and the types of a game's window parts
(board), which parts and view go with which game (window_parts: found by the convention
``gameplay.ui.boards.<game>_view.WINDOW_PARTS``; views), and one table per built-in game (checkers' with its panel's
PDN / FEN tools; Pig's in five modules: view, cards, model, palette, text), and the match scene as those tables' tools
see it (match_host).

May import the headless rooms (``gameplay.rules``, ``ai``, ``gameplay.files``, ``gameplay.pictures``) and
``gameplay.ui.widgets``; never the rooms above it (a game's help figure is described here and shown by the play room).
"""
