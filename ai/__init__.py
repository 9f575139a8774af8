"""Search and agents: imports ``gameplay.rules`` only, never pygame or ``gameplay.ui``."""
