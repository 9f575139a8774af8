"""Pure-Python game rules (standard library only): never imports pygame, ``gameplay.ui`` or ``ai``."""
