"""The suite is seeded: hypothesis is derandomized (tests/conftest.py) and no test draws from an unseeded generator."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

from hypothesis import settings
from hypothesis.internal.detection import is_hypothesis_test

TESTS = Path(__file__).resolve().parent


def test_hypothesis_profile_is_derandomized_without_a_database() -> None:
    assert settings.default.derandomize and settings.default.database is None


def test_no_hypothesis_test_overrides_the_seeded_profile() -> None:
    checked = []
    for path in sorted(TESTS.glob("test_*.py")):
        if "hypothesis" not in path.read_text(encoding="utf-8") or path.stem == "test_determinism":
            continue
        module = importlib.import_module(path.stem)
        for name, fn in vars(module).items():
            if name.startswith("test_") and is_hypothesis_test(fn):
                own = fn._hypothesis_internal_use_settings  # the test's @settings: hypothesis has no public reader
                assert own.derandomize, f"{path.name}::{name} is not derandomized"
                seed = fn._hypothesis_internal_use_seed  # what @seed set: hypothesis has no public reader either
                assert seed is None, f"{path.name}::{name} has its own @seed"
                checked.append(name)
    assert len(checked) >= 5, checked  # the property tests of rules, search, PDN, Pig and Tree Lab were all seen


# Module-level functions of ``random`` draw from the unseeded global generator; tests use ``random.Random(seed)``.
_GLOBAL_RANDOM = re.compile(r"\brandom\.(random|choice|choices|randint|randrange|shuffle|sample|uniform|"
                            r"getrandbits|seed)\(")


def test_no_test_draws_from_the_global_random_generator() -> None:
    files = sorted(TESTS.glob("*.py"))
    assert len(files) > 10
    bad = [f"{p.name}:{i}" for p in files for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
           if _GLOBAL_RANDOM.search(line) and p.name != "test_determinism.py"]
    assert not bad, bad
