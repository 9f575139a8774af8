"""Board views and their input controllers: the base classes and the generic view (board), which view a game's record
names (views), and one table per built-in game (checkers' with its panel's PDN / FEN tools; Pig's in five modules: view,
cards, model, palette, text), and the match scene as those tables' tools see it (match_host).

May import the headless rooms (``gameplay.rules``, ``ai``, ``gameplay.files``, ``gameplay.pictures``) and
``gameplay.ui.widgets`` (one exception, listed in tests/test_imports.py: checkers' panel tools name the sides of a PDN
with the match panel's ``describe_agent``, ``gameplay.ui.play``, inside a function).
"""
