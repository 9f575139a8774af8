"""The arcade's games (``gameplay.rules``), headless command line (``gameplay.cli``) and window (``gameplay.ui``)."""
