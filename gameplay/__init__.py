"""The arcade, in rooms: the rules (``gameplay.rules``), the user's files (``gameplay.files``), the pictures
(``gameplay.pictures``), the tournament (``gameplay.tournament``), the command line (``gameplay.cli``) and the window
(``gameplay.ui``); the search is ``ai``. Imports point one way (``tests/test_imports.py``)."""

from gameplay.rules.compiled import use_source_if_needed as _use_source_if_needed

_use_source_if_needed()  # ARCADE_PURE=1, or a stale build: run the hot modules' source (gameplay.rules.compiled)
