"""Search and agents: imports ``gameplay.rules`` only, never pygame, matplotlib or another room of ``gameplay``.

In rooms, lowest first (each one's ``__init__`` says what it may import; docs/architecture.md draws them): ``kernel``
(the search), ``agents`` (agents and their processes), each game's knowledge in a room named after it
(``checkers``, ``pig`` ...), ``teaching`` (the recorded searches told and quizzed), ``grader`` (``main.py check``)
and ``bench``.
"""

from gameplay.rules.compiled import use_source_if_needed as _use_source_if_needed

_use_source_if_needed()  # ARCADE_PURE=1, or a stale build: run the hot modules' source (gameplay.rules.compiled)
