"""The mypyc build (``setup.py``, ``gameplay.rules.compiled``): compiled and pure-Python runs search the same nodes.

``ARCADE_PURE=1`` makes a process import the hot modules' source even where their compiled extension modules
exist, so one machine checks both. On an install without a compiler both sides are pure and the comparison
still holds.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from ai.checkers.checkers_bench import BENCH_POSITIONS, bench_signature
from gameplay.rules import compiled

ROOT = Path(__file__).resolve().parent.parent

PROBE = """
import json
from gameplay.rules.compiled import compiled_modules, status_line
from ai.checkers.checkers_bench import bench_signature, BENCH_POSITIONS
from ai.agents.agents import make_agent
a = make_agent("checkers", "expert:book=off,depth=8,time=100")
counts = []
for fen in BENCH_POSITIONS:
    r = a.choose(a.game.parse_position(fen))
    counts.append([r.nodes, r.value, str(r.move)])
from ai.connect4.connect4_solver import Solver
from gameplay.rules.connect4 import Connect4
from gameplay.rules.connect4_bits import from_state_bits
solved = []
for moves in ("12112332122331", "22224531332776554", "3172637512111417"):
    s = Connect4().parse_position(moves)
    solver = Solver()
    sol = solver.solve(*from_state_bits(s.first, s.mask, s.plies))
    solved.append([sol.score, sol.column, sol.nodes, sol.tests, solver.etc_cuts])
print(json.dumps({"signature": bench_signature(), "expert": counts, "modules": compiled_modules(),
                  "status": status_line(), "connect4": solved}))
"""


def _run(pure: bool) -> dict[str, object]:
    env = dict(os.environ)
    env.pop("ARCADE_PURE", None)
    if pure:
        env["ARCADE_PURE"] = "1"
    out = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, env=env, capture_output=True, text=True,
                         timeout=600, check=True)
    return json.loads(out.stdout)  # type: ignore[no-any-return]


def test_compiled_and_pure_search_the_same_nodes() -> None:
    pure, built = _run(True), _run(False)
    assert not any(pure["modules"].values())  # type: ignore[union-attr]
    assert "ARCADE_PURE" in str(pure["status"])
    assert pure["signature"] == built["signature"]
    assert pure["expert"] == built["expert"]  # node counts, values and moves of the expert (with its reductions)
    assert pure["connect4"] == built["connect4"]  # the exact solver's scores, moves, nodes, tests and cutoffs


def test_status_line_matches_the_modules() -> None:
    status = compiled.compiled_modules()
    assert set(status) == {"gameplay.rules.checkers.checkers", "gameplay.rules.connect4",
                           "gameplay.rules.checkers.checkers_board",
                           "gameplay.rules.checkers.checkers_perft", "gameplay.rules.checkers.checkers_notation",
                           "ai.checkers.checkers_eval",
                           "ai.checkers.checkers_features", "ai.checkers.endgame_build", "ai.connect4.connect4_eval",
                           "ai.kernel.search",
                           "gameplay.rules.connect4_bits", "ai.connect4.connect4_solver", "ai.connect4.connect4_book",
                           "ai.connect4.connect4_exact",
                           "ai.kernel.search_setup",
                           "ai.kernel.search_stats", "ai.kernel.move_order", "ai.kernel.tt", "gameplay.rules.bits",
                           "ai.kernel.mcts_tree", "ai.tictactoe.tictactoe_mcts", "ai.connect4.connect4_mcts",
                           "ai.pig.pig_mcts"}
    line = compiled.status_line()
    assert "\n" not in line
    if all(status.values()):
        assert line.startswith("search: compiled with mypyc")
    else:
        assert "pure Python" in line


def test_this_process_signature_is_the_benchs() -> None:
    assert bench_signature() == _run(not compiled.all_compiled())["signature"]
    assert len(BENCH_POSITIONS) == 8


def test_setup_compiles_the_listed_modules() -> None:
    text = (ROOT / "setup.py").read_text(encoding="utf-8")
    assert "from gameplay.rules.compiled import COMPILED_MODULES" in text
    for path in compiled.COMPILED_MODULES:
        assert (ROOT / path).is_file()
    req = (ROOT / "requirements.txt").read_text(encoding="utf-8").splitlines()
    assert "-e ." in req  # the README's install command builds the project (and so the compiled modules)
