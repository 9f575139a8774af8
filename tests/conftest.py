"""Test set-up: headless SDL, and the project root on sys.path."""

import os
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import settings

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
# Autosaves of the tests' matches go to a throw-away folder, never the user's data folder (gameplay.files.savegame).
os.environ.setdefault("ARCADE_DATA_DIR", tempfile.mkdtemp(prefix="arcade-test-data-"))
# Settings (gameplay.files.settings) likewise: a throw-away folder, and a fresh one per test (fixture below).
os.environ.setdefault("ARCADE_CONFIG_DIR", tempfile.mkdtemp(prefix="arcade-test-config-"))
ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


# Hypothesis, like every other random source of the project, is seeded: ``derandomize`` draws the examples from a
# fixed seed (a hash of each test), so every run of the suite tries the same examples. No example database: it is
# not read in derandomized mode anyway, and no saved failure from an earlier run changes what a run tries.
settings.register_profile("ci", derandomize=True, database=None, print_blob=True)
settings.load_profile("ci")


@pytest.fixture(autouse=True)
def _settings_folder_per_test(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test starts from default settings in its own folder: a saved choice never leaks into another test."""
    monkeypatch.setenv("ARCADE_CONFIG_DIR", str(tmp_path_factory.mktemp("config")))


@pytest.fixture(autouse=True)
def _data_folder_per_test(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test starts with no autosaved game: a game left in progress by one test never makes the title screen
    of another ask "Resume it?" (gameplay.files.savegame keeps one autosave per game in progress)."""
    monkeypatch.setenv("ARCADE_DATA_DIR", str(tmp_path_factory.mktemp("data")))
