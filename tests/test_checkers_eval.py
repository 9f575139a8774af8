"""The checkers evaluation features: known values on hand-built positions, colour symmetry, the fast path equals the
weighted feature values, the threat count agrees with the move generator, and the ``tuned`` preset loads."""

from __future__ import annotations

import random

import pytest

from ai.agents.agents import make_agent
from ai.checkers import checkers_features
from ai.checkers.checkers_eval import FEATURES, WEIGHT_PRESETS, CheckersEvaluation, feature_values, make_profile
from gameplay.rules.checkers.checkers import Checkers
from gameplay.rules.checkers.checkers_board import CheckersState

G = Checkers()


def fv(fen: str) -> dict[str, float]:
    return feature_values(G.parse_position(fen))


@pytest.mark.parametrize("fen, name, expected", [
    ("B:WK31,32:B1,2,K3", "men", 1),
    ("B:WK31,32:B1,2,K3", "kings", 0),
    ("B:W25:B1,2", "back_rank", 2),
    ("B:WK25:B1,2", "back_rank", 0),                   # no White man left to stop
    ("B:W:B14,15,K18", "centre", 3),
    ("B:W25:B17,9", "advancement", 1),
    ("B:W:B1", "mobility", 2),
    ("B:W25:B17", "tempo", 3),                         # Black's man on row 4, White's one row up from its start
    ("B:W32:B17", "runaway", 5),
    ("B:WK5:BK14,K15", "endgame", 16),                 # (14 - 2) + (14 - 4) - 6 for the king in the double corner
    ("W:W18:B9,14", "threats", 1),                     # 14x23 is on; 18x9 is not (9 is held)
    ("B:W18:B14", "threats", 0),                       # both ways
    ("B:WK10:B14,15", "threats", -2),                  # a White king jumps backward too
    ("B:W:B1,5,14", "exposed", 1),                     # 1 and 5 have no diagonal pair
    ("B:W32:B10,11,18", "holes", 1),                   # 15 is walled by 10, 11 and 18
    ("B:WK4:B8,11", "trapped_kings", -1),              # the king on 4 can neither step nor jump
    ("B:WK4:B8", "trapped_kings", 0),                  # it can jump 4x11
    ("B:WK22:BK14,K1,5", "king_centre", 0),
    ("B:WK29:BK14", "king_centre", 1),
    ("B:W29,32:B1,5,9", "imbalance", 3),
    ("B:W21:B1,3", "bridge", 1),
    ("B:WK21:B1,3", "bridge", 0),
    ("B:W30,32:B1,3", "bridge", 0),
    ("B:W21:B2,3,7", "oreo", 1),
    ("B:W26,30,31:B12", "oreo", -1),
    ("B:W32:B28", "dog_hole", 1),
    ("B:W5:B1", "dog_hole", -1),
    ("B:WK32:BK1", "opposition", 1),                   # one piece in Black's system, Black to move: odd
    ("W:WK32:BK1", "opposition", -1),
    ("B:WK32:BK1,K2", "opposition", 0),                # unequal material
    ("B:W32:B1,2", "trade", 21),
    # the start with Black's 9 on 13 (24 pieces, the opening): Black's men advanced 4 * 1 (5..8) + 3 * 2 (10..12)
    # + 3 (13) = 13 rows, White's 4 * 2 (21..24) + 4 * 1 (25..28) = 12: tempo 1
    ("B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,10,11,12,13", "tempo_opening", 1),
    ("B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,10,11,12,13", "tempo_ending", 0),
    ("B:W25:B17", "tempo_ending", 3),                  # 2 pieces: Black's man 4 rows up, White's 1
    ("B:W25:B17", "tempo_opening", 0),
    # the White king on 4 can only step to 8, where Black's man on 3 jumps it (3x12): dominated
    ("B:WK4:B3", "dominated_kings", -1),
    ("B:WK4:B3,12", "dominated_kings", 0),             # 12 held: the jump 3x12 has no landing square
    # Black's king on 11 would jump 11x4 over 8, landing on the square the White king left
    ("B:WK4:BK11", "dominated_kings", -1),
    ("B:WK4:B11", "dominated_kings", 0),               # a man on 11 jumps only forward (toward 29..32)
    # Black's king on 29 can only step to 25, where White's man on 30 jumps it (30x21)
    ("B:W30:BK29", "dominated_kings", 1),
    ("B:W21,30:BK29", "dominated_kings", 0),           # 21 held: 25 is safe
    ("B:WK4:B8,11", "dominated_kings", 0),             # no step at all: trapped, not dominated
    ("B:W:B3", "bridge", 0),                           # no White man: nothing to guard against
    ("B:W32:B1,3", "bridge", 1),                       # Black's bridge on 1 and 3 against White's man on 32
])
def test_feature_values(fen: str, name: str, expected: float) -> None:
    assert fv(fen)[name] == expected


def test_feature_count_and_docs() -> None:
    assert 15 <= len(FEATURES) <= 23 and len(set(FEATURES)) == len(FEATURES)
    # the features added for issue 27 come last, so a weight table written before them keeps its meaning
    assert FEATURES[-3:] == ("tempo_opening", "tempo_ending", "dominated_kings")
    # read from the source: a module compiled by mypyc keeps no docstrings on its functions
    import ast
    from pathlib import Path
    tree = ast.parse(Path(checkers_features.__file__.rsplit("/", 1)[0], "checkers_features.py").read_text())
    docs = {n.name: ast.get_docstring(n) or "" for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)}
    for f in checkers_features.EXTRA_FEATURES.values():
        assert len(docs.get(f.__name__, "")) > 40, f.__name__


def random_state(rng: random.Random) -> CheckersState:
    squares = rng.sample(range(1, 33), rng.randint(2, 24))
    b = w = k = 0
    for i, s in enumerate(squares):
        bit = 1 << (s - 1)
        black = i % 2 == 0
        king = rng.random() < 0.25 or (black and s > 28) or (not black and s < 5)
        if black:
            b |= bit
        else:
            w |= bit
        if king:
            k |= bit
    return CheckersState(b, w, k, rng.randint(0, 1))


def flipped(s: CheckersState) -> CheckersState:
    def f(x: int) -> int:
        return sum(1 << (32 - sq) for sq in range(1, 33) if x >> (sq - 1) & 1)
    return CheckersState(f(s.white), f(s.black), f(s.kings), 1 - s.turn)


STATES = [random_state(random.Random(i)) for i in range(300)]


def test_colour_symmetry() -> None:
    for s in STATES:
        a, b = feature_values(s), feature_values(flipped(s))
        assert {n: -v for n, v in a.items()} == {n: v + 0.0 for n, v in b.items()}, G.format_position(s)


@pytest.mark.parametrize("preset", ["default", "tuned", "material", "textbook", "random", "acf", "cake"])
def test_fast_path_equals_weighted_features(preset: str) -> None:
    rng = random.Random(7)
    weights = ({n: rng.choice([0.0, rng.randint(1, 60) * rng.choice([-1.0, 1.0])]) for n in FEATURES} | {"men": 100.0}
               if preset == "random" else WEIGHT_PRESETS[preset])
    ev = CheckersEvaluation(weights)
    # The evaluation sums exact unit weights snapped to a 2**-20 grid (ai.kernel.evaluation.canonical_weights): equal up
    # to that rounding, a few 1e-6 at most here.
    tol = 1e-4
    for s in STATES:
        f = feature_values(s)
        slow = sum(weights.get(n, 0.0) * f[n] for n in FEATURES)
        for player in (0, 1):
            fast = ev(s, player)
            assert fast == pytest.approx(slow if player == 0 else -slow, abs=tol)
            assert sum(c for _, c in ev.breakdown(s, player).values()) == pytest.approx(fast, abs=tol)


def test_threats_match_the_move_generator() -> None:
    for s in STATES:
        hit = []
        for turn in (0, 1):
            t = CheckersState(s.black, s.white, s.kings, turn)
            hit.append(len({m.captures[0] for m in G.actions(t) if m.captures}))
        assert feature_values(s)["threats"] == hit[0] - hit[1], G.format_position(s)


ROWCOL = {s: ((s - 1) // 4, 2 * ((s - 1) % 4) + (1 if ((s - 1) // 4) % 2 == 0 else 0)) for s in range(1, 33)}
SQUARE = {rc: s for s, rc in ROWCOL.items()}


def dominated_by_coordinates(st: CheckersState) -> int:
    """dominated_kings counted square by square on (row, column) coordinates, independently of the bitboards."""
    def at(s: int) -> str:
        bit = 1 << (s - 1)
        return "" if not (st.black | st.white) & bit else ("b" if st.black & bit else "w")

    total = 0
    for s in range(1, 33):
        bit = 1 << (s - 1)
        if not st.kings & bit or not (st.black | st.white) & bit:
            continue
        me = at(s)
        r, c = ROWCOL[s]
        steps, jump = [], False
        for dr in (1, -1):
            for dc in (1, -1):
                y = SQUARE.get((r + dr, c + dc))
                if y is None:
                    continue
                if not at(y):
                    steps.append(y)
                elif at(y) != me and not at(SQUARE.get((r + 2 * dr, c + 2 * dc), y)):
                    jump = True
        if not steps or jump:
            continue

        def unsafe(y: int, me: str = me, s: int = s) -> bool:
            ry, cy = ROWCOL[y]
            for dr in (1, -1):
                for dc in (1, -1):
                    a, land = SQUARE.get((ry + dr, cy + dc)), SQUARE.get((ry - dr, cy - dc))
                    if a is None or land is None or at(a) in ("", me) or (at(land) and land != s):
                        continue
                    king = bool(st.kings & (1 << (a - 1)))
                    # the attacker jumps with row change -dr: a Black man only up the rows, a White man only down
                    if king or (at(a) == "b" and -dr > 0) or (at(a) == "w" and -dr < 0):
                        return True
            return False

        if all(unsafe(y) for y in steps):
            total += 1 if me == "b" else -1
    return total


def test_dominated_kings_match_coordinates() -> None:
    seen = 0
    for s in STATES:
        want = dominated_by_coordinates(s)
        seen += want != 0
        assert feature_values(s)["dominated_kings"] == want, G.format_position(s)
    assert seen >= 5  # the random positions do exercise it


def test_tempo_phases_add_up_to_tempo() -> None:
    for s in STATES:
        f = feature_values(s)
        # tempo by its definition: rows each man has advanced from its own back row, Black's minus White's
        men = [(sq, ROWCOL[sq][0]) for sq in range(1, 33) if (1 << (sq - 1)) & ~s.kings & (s.black | s.white)]
        assert f["tempo"] == sum(r if s.black >> (sq - 1) & 1 else -(7 - r) for sq, r in men)
        n = (s.black | s.white).bit_count()
        assert f["tempo_opening"] == (f["tempo"] if n >= 20 else 0)
        assert f["tempo_ending"] == (f["tempo"] if n <= 12 else 0)


def test_tuned_preset_loads() -> None:
    tuned = WEIGHT_PRESETS["tuned"]
    assert tuned["men"] == 100 and set(tuned) <= set(FEATURES) and len(tuned) >= 15
    assert "tuned" in make_profile().weight_presets
    agent = make_agent("checkers", "alphabeta:depth=2,weights=tuned")
    assert agent.choose(G.initial_state()).move in G.actions(G.initial_state())


def test_acf_preset_loads() -> None:
    acf = WEIGHT_PRESETS["acf"]
    assert acf["men"] == 100 and set(acf) == set(FEATURES)  # every feature, the three new ones included
    assert acf["dominated_kings"] < 0 and acf["mobility"] == 0
    assert "acf" in make_profile().weight_presets
    agent = make_agent("checkers", "alphabeta:depth=2,weights=acf")
    assert agent.choose(G.initial_state()).move in G.actions(G.initial_state())


def test_cake_preset_loads_and_expert_keeps_acf() -> None:
    cake = WEIGHT_PRESETS["cake"]
    assert cake["men"] == 100 and set(cake) == set(FEATURES) and cake["mobility"] == 0
    assert "cake" in make_profile().weight_presets
    agent = make_agent("checkers", "alphabeta:depth=2,weights=cake")
    assert agent.choose(G.initial_state()).move in G.actions(G.initial_state())
    assert make_profile().presets["expert"]["weights"] == "acf"  # cake is offered, not yet shipped in expert


def test_presets_unchanged() -> None:
    assert WEIGHT_PRESETS["textbook"] == {"kings": 5.0, "men": 1.0}
    assert WEIGHT_PRESETS["material"] == {"men": 100.0, "kings": 150.0}
    assert WEIGHT_PRESETS["default"] == {"men": 100.0, "kings": 150.0, "back_rank": 8.0, "centre": 4.0,
                                         "advancement": 3.0, "mobility": 2.0, "runaway": 6.0, "tempo": 0.0,
                                         "endgame": 4.0}
