"""The pictures both the window and the files draw: headless models and display lists (no pygame, no gameplay.ui)."""
