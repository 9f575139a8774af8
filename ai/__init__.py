"""Search and agents: imports ``gameplay.rules`` only, never pygame, matplotlib or another room of ``gameplay``."""

from gameplay.rules.compiled import use_source_if_needed as _use_source_if_needed

_use_source_if_needed()  # ARCADE_PURE=1, or a stale build: run the hot modules' source (gameplay.rules.compiled)
