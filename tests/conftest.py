"""Test set-up shared by every test module: headless SDL, the project root on sys.path, seeded Hypothesis, and
fixtures.

Fixtures any test may ask for by name:

- ``app``: the window (:class:`gameplay.ui.shell.app.App`) at 1280x800 with no scene yet, closed after the test;
- ``make_app``: a factory, ``make_app((1024, 768), settings_file=path)``, for another size or App options (every
  App it made is closed after the test);
- ``data_dir`` / ``config_dir``: the test's own data folder (autosaves, ``ARCADE_DATA_DIR``) and settings folder
  (``ARCADE_CONFIG_DIR``), ``tmp_path / "data"`` and ``tmp_path / "config"``, not yet created;
- ``export_dir``: where figures and tree pictures go (``ARCADE_EXPORT_DIR``), ``tmp_path / "exports"``.

Every test already starts with fresh, empty settings and data folders (the two autouse fixtures at the end), so
nothing a test saves reaches another test or the user's own files. Tests that take long (a full sweep, the zoom
walk, a packaging build) are marked ``@pytest.mark.slow``: ``python -m pytest -m "not slow"`` skips them for a
quick run; the plain ``python -m pytest`` (what ``.ci/run`` runs) runs everything.
"""

import os
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

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


def pytest_collection_finish(session: pytest.Session) -> None:
    """Once the tests are collected, everything made so far (the modules, the tests, their parameters) is moved out
    of the garbage collector's sight (``gc.freeze``): it lives to the end of the run anyway, and each collection
    (the window runs one at every change of scale) then looks only at what the tests made since."""
    import gc

    from memory_probe import keep_freed_memory_for_reuse
    gc.collect()
    gc.freeze()
    keep_freed_memory_for_reuse()  # the windows' changes of scale reuse memory instead of faulting it in again


@pytest.fixture(autouse=True, scope="module")
def _memory_back_after_each_module() -> Iterator[None]:
    """After each test module, what it left in reference cycles is collected and the C allocator hands the freed
    memory back to the system (glibc's ``malloc_trim``): a test process runs hundreds of windows, and glibc otherwise
    keeps the peak of each one's freed surfaces for the rest of the run (a worker held 2.4 GB for 240 MB of live
    memory, 2026-12-07)."""
    yield
    import gc

    from memory_probe import hand_back_freed_memory
    gc.collect()
    hand_back_freed_memory()


@pytest.fixture(autouse=True)
def _settings_folder_per_test(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test starts from default settings in its own folder: a saved choice never leaks into another test."""
    monkeypatch.setenv("ARCADE_CONFIG_DIR", str(tmp_path_factory.mktemp("config")))


@pytest.fixture(autouse=True)
def _data_folder_per_test(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test starts with no autosaved game: a game left in progress by one test never makes the title screen
    of another ask "Resume it?" (gameplay.files.savegame keeps one autosave per game in progress)."""
    monkeypatch.setenv("ARCADE_DATA_DIR", str(tmp_path_factory.mktemp("data")))


@pytest.fixture
def only_builtin_games() -> Iterator[None]:
    """The test ends with the built-in games only: every game it registered (a game file) is unregistered
    (``gameplay.rules.registry``). A module of game-file tests uses it for each test:
    ``pytestmark = pytest.mark.usefixtures("only_builtin_games")``."""
    yield
    from gameplay.rules.registry import GAME_NAMES, game_names, unregister
    for name in game_names():
        if name not in GAME_NAMES:
            unregister(name)


@pytest.fixture
def make_app() -> Iterator[Callable[..., Any]]:
    """A factory of windows: ``make_app(size=(1280, 800), **options)`` -> a new :class:`gameplay.ui.shell.app.App`
    (``fps=1000`` and ``shared_pygame=True`` unless given: the windows of a test run share one pygame display
    instead of starting SDL for each; ``options`` as App takes them, e.g. ``settings_file``). Each App made and not
    closed by the test is closed after it."""
    made: list[Any] = []

    def make(size: tuple[int, int] = (1280, 800), **options: Any) -> Any:
        from gameplay.ui.shell.app import App
        options.setdefault("fps", 1000)
        options.setdefault("shared_pygame", True)
        a = App(size=size, **options)
        made.append(a)
        return a

    yield make
    for a in reversed(made):
        a.close()  # (nothing when the test closed it itself)


@pytest.fixture
def app(make_app: Callable[..., Any], request: pytest.FixtureRequest) -> Any:
    """The window at 1280x800, no scene pushed yet; closed after the test. A test or module marked
    ``title_screen`` (``pytestmark = pytest.mark.title_screen``) gets it with the title screen pushed and drawn, and
    its own data folder (:func:`data_dir`) set first."""
    if request.node.get_closest_marker("title_screen") is None:
        return make_app()
    request.getfixturevalue("data_dir")
    from gameplay.ui.scenes.menu import MenuScene
    a = make_app()
    a.push(MenuScene())
    a.run(max_frames=2)
    return a


@pytest.fixture
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The test's data folder (autosaves): ``tmp_path / "data"``, set as ``ARCADE_DATA_DIR``, not yet created."""
    monkeypatch.setenv("ARCADE_DATA_DIR", str(tmp_path / "data"))
    return tmp_path / "data"


@pytest.fixture
def config_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The test's settings folder: ``tmp_path / "config"``, set as ``ARCADE_CONFIG_DIR``, not yet created."""
    monkeypatch.setenv("ARCADE_CONFIG_DIR", str(tmp_path / "config"))
    return tmp_path / "config"


@pytest.fixture
def export_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The test's export folder (figures, tree pictures): ``tmp_path / "exports"``, set as ``ARCADE_EXPORT_DIR``."""
    monkeypatch.setenv("ARCADE_EXPORT_DIR", str(tmp_path / "exports"))
    return tmp_path / "exports"


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto`` (pytest.ini): one worker more than the machine has cores. A test that waits for a process it
    started (the command line's, an agent file's, a pool's) leaves its core to another worker meanwhile: the quick set
    on 2 cores took 2 min 11 s with 2 workers and 1 min 55 s with 3 (the same 1,790 tests and CPU time, 2026-12-07)."""
    return (os.cpu_count() or 1) + 1
