"""Pure-Python game rules (standard library only): imports nothing of the project but ``gameplay.rules``; never
pygame, ``ai`` or any other room of ``gameplay``."""
