"""Projector walk (headless): every scene fits every classroom projector, full screen and windowed, at every zoom
step the window offers there (see ``tests/zoom_walk.py`` for the sizes, the scenes and what counts as a problem).

One test per window, so a failure names the projector; each prints how long its walk took (``-s``).
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from zoom_walk import Case, cases, walk


@pytest.fixture(autouse=True)
def _isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ARCADE_CONFIG_DIR", str(tmp_path))
    monkeypatch.setenv("ARCADE_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("ARCADE_EXPORT_DIR", str(tmp_path / "exports"))


@pytest.mark.parametrize("case", cases(), ids=lambda c: c.id)
def test_every_zoom_step_of_every_scene_lays_out_cleanly(case: Case, monkeypatch: pytest.MonkeyPatch) -> None:
    t0 = time.perf_counter()
    problems = walk(case, monkeypatch=monkeypatch)
    print(f"{case.id}: walked in {time.perf_counter() - t0:.1f} s")
    assert not problems, "\n".join(problems[:40]) + f"\n({len(problems)} problems)"
