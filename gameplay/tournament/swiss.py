"""Swiss pairing: the pairings of one round, chosen by a search over every pairing of the round (a weighted
matching), never greedily.

The aims are the Dutch system's (FIDE's C.04.3, which the FIDE-endorsed pairing programs implement), in a simpler
form and in this order of priority, each one decided only among the pairings that are best for the ones before
it:

1. **Byes**: with an odd number of agents, one sits the round out; nobody gets a second bye while an agent
   without one is left (then the fewest byes so far).
2. **No rematch** while any pairing of the round avoids one (then as few rematches, and of pairs that met the
   fewest times, as possible).
3. **The bye to the lowest-ranked** agent that rules 1 and 2 allow.
4. **Equal scores**: the sum of the squared score differences of the pairs is as small as possible (agents play
   within their score group; a group with an odd count floats one agent, and a float crosses as few points as
   it can).
5. **Colours alternate**: as few agents as possible play the colour they played in their previous round (the
   colour of a pairing is who moves first in its first game; a mini-match of several games alternates inside).
6. **The Dutch order** decides what is left: the highest-ranked agent gets the partner it prefers, then the next,
   and so on, each preferring the agent at its place in the other half of its score group (1 against 5, 2
   against 6, ... in a group of 8), then the nearest to that place.

Rule 6 makes the best pairing unique, so the answer depends on the history only (not on how the matching is
searched): a tournament resumed from its journal pairs every round the same way. The search is Edmonds' blossom
algorithm (``networkx.max_weight_matching``, exact with integer weights) over the complete graph of the agents
(and a "bye" vertex when their number is odd), each edge weighted with the six aims as the digits of one integer,
rule 1 the most significant; any pairing of the round is a perfect matching of that graph, so the maximum-weight
perfect matching is the best pairing by those rules.

Colour allocation inside a pair: an agent due a colour (the one it did not play last) gets it; when both are due
the same colour, the one who played the other colour more often (then the longer run of the other colour at the
end) gets it, then the higher-ranked. When neither is due one (round 1), the higher-ranked moves first on
the 1st, 3rd, ... pairing and second on the others.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations

FIRST, SECOND = 0, 1
"""Colours: moved first in the pairing's first game, or second."""


@dataclass
class SwissHistory:
    """What the pairing of a round needs from the rounds before it."""

    points: dict[str, float] = field(default_factory=dict)
    """Points of each agent so far (a win 1, a draw 1/2)."""
    met: dict[frozenset[str], int] = field(default_factory=dict)
    """Rounds in which each pair of agents was paired."""
    byes: dict[str, int] = field(default_factory=dict)
    """Byes each agent had."""
    colours: dict[str, list[int]] = field(default_factory=dict)
    """Each agent's colour (:data:`FIRST` or :data:`SECOND`) in each round it played, in order."""

    def record_round(self, pairs: Sequence[tuple[str, str]], bye: str | None) -> None:
        """Add a round's pairings (``(first, second)`` each) and bye, without results (add points separately)."""
        for a, b in pairs:
            key = frozenset((a, b))
            self.met[key] = self.met.get(key, 0) + 1
            self.colours.setdefault(a, []).append(FIRST)
            self.colours.setdefault(b, []).append(SECOND)
        if bye is not None:
            self.byes[bye] = self.byes.get(bye, 0) + 1


def ranking(names: Sequence[str], points: Mapping[str, float]) -> list[str]:
    """``names`` ordered by points, highest first; equal points keep the order of ``names`` (the tie-break)."""
    index = {n: k for k, n in enumerate(names)}
    return sorted(names, key=lambda n: (-points.get(n, 0.0), index[n]))


def _due(colours: Sequence[int]) -> int | None:
    """The colour an agent is due (the other one than in its last round), ``None`` before its first game."""
    return None if not colours else 1 - colours[-1]


def _lean(colours: Sequence[int], colour: int) -> tuple[int, int]:
    """How strongly an agent wants ``colour``: (its imbalance towards the other colour, its run of the other)."""
    other = 1 - colour
    imbalance = sum(1 for c in colours if c == other) - sum(1 for c in colours if c == colour)
    run = 0
    for c in reversed(colours):
        if c != other:
            break
        run += 1
    return imbalance, run


def colour_repeats(a: str, b: str, history: SwissHistory) -> int:
    """Agents of the pair ``a``-``b`` who must play the colour of their previous round (0 or 1)."""
    da, db = _due(history.colours.get(a, [])), _due(history.colours.get(b, []))
    return int(da is not None and da == db)


def allocate(higher: str, lower: str, board: int, history: SwissHistory) -> tuple[str, str]:
    """The pair as ``(first, second)``: colours by due colour (see the module docstring); ``higher`` is the
    better-ranked agent, ``board`` the pair's 0-based place in the round (for the first round's alternation)."""
    ch, cl = history.colours.get(higher, []), history.colours.get(lower, [])
    dh, dl = _due(ch), _due(cl)
    if dh is None and dl is None:
        return (higher, lower) if board % 2 == 0 else (lower, higher)
    if dh is not None and dl is not None and dh == dl and _lean(cl, dl) > _lean(ch, dh):
        dh = None  # both due the same colour: the one who wants it more gets it (equal: the higher-ranked)
    if dh is not None:
        return (higher, lower) if dh == FIRST else (lower, higher)
    assert dl is not None
    return (lower, higher) if dl == FIRST else (higher, lower)


def _dutch_preferences(ranked: Sequence[str], points: Mapping[str, float]) -> list[list[int]]:
    """``prefs[i][j]``: how much agent at rank ``i`` prefers the agent (or bye, rank ``n``) at rank ``j > i``
    (0 best), by distance from its place in the other half of its score group (rule 6)."""
    n = len(ranked)
    ideal = []
    for i, name in enumerate(ranked):
        group = [k for k, m in enumerate(ranked) if points.get(m, 0.0) == points.get(name, 0.0)]
        pos, half = group.index(i), len(group) // 2
        ideal.append(group[pos + half] if pos < half else i + 1)
    prefs = []
    for i in range(n):
        order = sorted(range(i + 1, n + 1), key=lambda j: (abs(j - ideal[i]), j))
        rank_of = {j: k for k, j in enumerate(order)}
        prefs.append([rank_of.get(j, 0) for j in range(n + 1)])
    return prefs


LOOKAHEAD_VERTICES = 10
"""Up to this many agents (counting the bye of an odd number), a round's pairing also looks at the rounds after it
(see :func:`pair_round`): at most 945 pairings a round to choose from."""
LOOKAHEAD_STEPS = 200_000
"""Pairings the look-ahead may try before it gives up on a round (then it keeps the plain best pairing)."""


def pair_round(names: Sequence[str], history: SwissHistory, rounds_left: int = 0
               ) -> tuple[list[tuple[str, str]], str | None]:
    """The pairings of the next round (see the module docstring).

    With few agents (at most :data:`LOOKAHEAD_VERTICES`, the bye included) a pairing that follows rules 1 and 2
    but after which the remaining ``rounds_left`` rounds could not all be paired without a rematch (or a second
    bye) is passed over for the best one after which they can, when there is one. (Six agents over five rounds,
    a whole round robin, got stuck in 32 of 50 simulated tournaments without it.) With more agents and at most
    half as many rounds as agents the rounds after can always be paired (Dirac's theorem, one round at a time).

    Args:
        names: every agent, in the tie-break order (equal points: the earlier in ``names`` ranks higher).
        history: the earlier rounds (empty for round 1).
        rounds_left: rounds still to pair after this one.

    Returns:
        ``(pairs, bye)``: each pair ``(first, second)`` (who moves first in the pairing's first game), in the
        order of their better-ranked agent; the agent sitting out (``None`` with an even number of agents).

    Raises:
        ValueError: fewer than 2 agents.
    """
    import networkx as nx
    if len(names) < 2:
        raise ValueError(f"a Swiss round needs at least 2 agents, got {len(names)}")
    ranked = ranking(names, history.points)
    n = len(ranked)
    vertices = n + 1 if n % 2 else n  # vertex n is the bye
    costs, radix = _edge_costs(ranked, history, vertices)
    top = math.prod(radix)
    graph = nx.Graph()
    graph.add_nodes_from(range(vertices))
    graph.add_weighted_edges_from((i, j, top - c) for (i, j), c in costs.items())
    chosen = sorted(tuple(sorted(e)) for e in nx.max_weight_matching(graph, maxcardinality=True))
    if rounds_left > 0 and vertices <= LOOKAHEAD_VERTICES:
        chosen = _look_ahead(chosen, costs, top // (radix[0] * radix[1]), ranked, history, vertices, rounds_left)
    pairs: list[tuple[str, str]] = []
    bye = None
    for i, j in chosen:
        if j == n:
            bye = ranked[i]
        else:
            pairs.append(allocate(ranked[i], ranked[j], len(pairs), history))
    return pairs, bye


def _edge_costs(ranked: Sequence[str], history: SwissHistory, vertices: int
                ) -> tuple[dict[tuple[int, int], int], list[int]]:
    """Each edge ``(i, j)`` (ranks, ``i < j``; ``j == n`` the bye) and its cost, the six aims as the digits of one
    integer (rule 1 the most significant), and the radices of the digits (each aim's largest sum over a
    pairing, plus one)."""
    n = len(ranked)
    halves = [round(2 * history.points.get(m, 0.0)) for m in ranked]
    spread = max(halves) - min(halves)
    pairs_count = vertices // 2
    prefs = _dutch_preferences(ranked, history.points)
    radix = [max(history.byes.values(), default=0) + 1,                  # 1 byes already had by the bye's agent
             pairs_count * max(history.met.values(), default=0) + 1,     # 2 rematches (times met)
             n,                                                          # 3 the bye's agent's place from the bottom
             pairs_count * spread * spread + 1,                          # 4 squared score differences (half-points)
             pairs_count + 1,                                            # 5 colour repeats
             (n + 1) ** vertices]                                        # 6 the Dutch order (base n + 1, by rank)
    costs = {}
    for i, j in combinations(range(vertices), 2):
        a = ranked[i]
        if j == n:  # the bye
            digits = [history.byes.get(a, 0), 0, n - 1 - i, 0, 0]
        else:
            b = ranked[j]
            d = halves[i] - halves[j]
            digits = [0, history.met.get(frozenset((a, b)), 0), 0, d * d, colour_repeats(a, b, history)]
        digits.append(prefs[i][j] * (n + 1) ** (vertices - 1 - i))
        cost = 0
        for digit, r in zip(digits, radix):
            cost = cost * r + digit
        costs[(i, j)] = cost
    return costs, radix


def _perfect_matchings(vertices: Sequence[int], allowed: Callable[[int, int], bool]) -> Iterator[list[tuple[int, int]]]:
    """Every perfect matching of ``vertices`` (ascending) using the edges ``allowed(i, j)`` (``i < j``)."""
    if not vertices:
        yield []
        return
    a, rest = vertices[0], vertices[1:]
    for k, b in enumerate(rest):
        if allowed(a, b):
            for m in _perfect_matchings([*rest[:k], *rest[k + 1:]], allowed):
                yield [(a, b), *m]


def _look_ahead(best: list[tuple[int, int]], costs: dict[tuple[int, int], int], unit: int, ranked: Sequence[str],
                history: SwissHistory, vertices: int, rounds_left: int) -> list[tuple[int, int]]:
    """``best``, or the cheapest pairing as good by rules 1 and 2 after which ``rounds_left`` more rounds can be
    paired with no rematch and no second bye (``unit``: the value of one step of rule 2's digit). Only as many
    rounds ahead as a round robin has left are looked at: past them a rematch cannot be avoided whatever this
    round is (asked for all of them, ``--rounds`` beyond a round robin's made every round give up on the look-ahead
    and rematches came rounds early)."""
    n = len(ranked)
    used = {(i, j) for (i, j) in costs
            if (j == n and history.byes.get(ranked[i], 0)) or (j < n and history.met.get(frozenset((ranked[i],
                                                                                                  ranked[j]))))}
    clean_rounds = (vertices * (vertices - 1) // 2 - len(used)) // (vertices // 2)  # this round's included
    rounds_left = min(rounds_left, clean_rounds - 1)
    if rounds_left <= 0:
        return best
    steps = [0]

    def completable(taken: set[tuple[int, int]], k: int) -> bool:
        if k == 0:
            return True
        for m in _perfect_matchings(list(range(vertices)), lambda i, j: (i, j) not in taken):
            steps[0] += 1
            if steps[0] > LOOKAHEAD_STEPS:
                raise TimeoutError
            if completable(taken | set(m), k - 1):
                return True
        return False

    try:
        if completable(used | set(best), rounds_left):
            return best
        level = sum(costs[e] for e in best) // unit
        candidates = sorted((sum(costs[e] for e in m), m) for m in _perfect_matchings(list(range(vertices)),
                                                                                       lambda i, j: True))
        for total, m in candidates:
            if total // unit == level and completable(used | set(m), rounds_left):
                return m
    except TimeoutError:
        pass
    return best
