"""The user's files: settings (TOML) and saved games. May import ``gameplay.rules`` and ``ai``; never
``gameplay.pictures``, ``gameplay.tournament``, ``gameplay.cli``, ``gameplay.ui``, pygame or pygame_gui."""
