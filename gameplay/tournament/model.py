"""Class tournaments, the model: who plays whom (round robin or Swiss), the game keys, and the final table.

The tournament core does not know where games are played (``gameplay.tournament.run`` hands them to local
processes or a Dask cluster) and does not play them itself (``ai.agents.arena.play_isolated`` does, each agent in its
own worker process). Everything here is deterministic: the schedule, the keys and the seeds depend only on the
definition (:class:`TournamentSpec`), so a tournament interrupted at any point resumes from its journal
(``gameplay.tournament.journal``) with exactly the games that are missing.

Round robin: every pair of agents plays ``games_per_pair`` games. With ``openings`` (one of the game's opening decks,
``GameInfo.openings``) the openings are taken from the deck in order, each played twice with colours swapped, so
``games_per_pair`` is even and the pair plays the deck's first ``games_per_pair / 2`` openings (the deck wraps
around when it runs out). Without openings the games start from the start position and the agents
alternate who moves first. Every game gets its own seed (dice, seeded agents) from ``seed`` and its key.

Swiss: ``rounds`` rounds (default :func:`default_rounds`). Before each round the agents are ranked by points (ties
broken by a fixed order drawn once from ``seed``) and paired by :func:`gameplay.tournament.swiss.pair_round`: a
search over every pairing of the round (a maximum-weight matching) for the Dutch system's aims, in order: nobody sits
out twice
while another has not, no rematch while a pairing without one exists, the bye to the lowest-ranked, pairs of equal
points, colours (who moves first in the pairing's first game) alternated, then the Dutch order. With an odd
number of agents the one paired with the bye sits the round out (a bye scores nothing and is not a game). Each
pairing plays a mini-match of ``games_per_pair`` games exactly like a round-robin pair, the deck's openings
continuing round after round. A round's pairing depends only on the journal's records of the rounds before it.
"""

from __future__ import annotations

import hashlib
import math
import random
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

from gameplay.rules.base import GameError, quoted, quoted_path
from gameplay.rules.limits import MAX_PLIES
from gameplay.rules.openings import Opening
from gameplay.rules.registry import game_info, games_with_openings, opening_deck_names
from gameplay.tournament.swiss import SwissHistory

FORMATS = ("roundrobin", "swiss")
DEFAULT_GAMES_PER_PAIR = 10
"""Games each pair plays when ``--games-per-pair`` is not given (with openings: 5 openings, both colours)."""


class TournamentError(GameError):
    """A tournament definition or journal that cannot be used (bad input: exit code 2 on the command line)."""


@dataclass(frozen=True)
class Entrant:
    """One agent of the tournament."""

    name: str
    """The name in tables, keys and the journal (the spec as typed, or the file name for ``--agents-dir``)."""
    spec: str
    """The agent spec handed to the game runner (``alphabeta:depth=3``, ``file:alice.py``, ``bob.toml``)."""
    fingerprint: str = ""
    """SHA-256 of the agent's file (file and TOML agents), so a journal notices an agent that changed."""


def agent_file(spec: str) -> Path | None:
    """The file an agent spec reads (``file:PATH.py[:key=value,...]`` or ``PATH.toml``), or ``None`` for a
    built-in agent.

    Raises:
        GameError: a ``file:`` spec that names no ``.py`` file (``ai.agents.agent_file.split_file_spec``).
    """
    from ai.agents.agent_file import is_file_spec, split_file_spec
    if is_file_spec(spec):
        return Path(split_file_spec(spec)[0]).expanduser()
    if spec.lower().endswith(".toml"):
        return Path(spec).expanduser()
    return None


def make_entrant(spec: str, name: str | None = None) -> Entrant:
    """An :class:`Entrant` for ``spec``, named ``name`` (default: the spec itself), with its file's fingerprint.

    Raises:
        TournamentError: the spec is empty, the name contains ``|`` (the key separator), or the agent's file
            cannot be read.
    """
    spec = spec.strip()
    if not spec:
        raise TournamentError("an agent spec is empty")
    name = spec if name is None else name
    if "|" in name:
        raise TournamentError(f"an agent name cannot contain '|': {quoted(name)}")
    path = agent_file(spec)
    digest = ""
    if path is not None:
        try:
            digest = hashlib.sha256(path.read_bytes()).hexdigest()
        except OSError as e:
            raise TournamentError(f"cannot read the agent file {quoted_path(str(path))}: {e.strerror or e}") from None
    return Entrant(name, spec, digest)


def entrants_from_dir(folder: Path) -> list[Entrant]:
    """Every ``*.py`` (as a ``file:`` agent) and ``*.toml`` agent in ``folder``, sorted by file name, each named by
    its file name and given by its absolute path (the same on a lab's machines when the folder is shared at the
    same place); files whose name starts with ``_`` or ``.`` are left out.

    Raises:
        TournamentError: the folder cannot be read.
    """
    try:
        files = sorted(p for p in folder.iterdir() if p.is_file() and p.suffix in (".py", ".toml")
                       and not p.name.startswith(("_", ".")))
    except OSError as e:
        raise TournamentError(f"cannot read the agents folder {quoted_path(str(folder))}: {e.strerror or e}") from None
    return [make_entrant(("file:" + str(p.absolute())) if p.suffix == ".py" else str(p.absolute()), p.name)
            for p in files]


@dataclass(frozen=True)
class TournamentSpec:
    """The definition of a tournament: what the journal's header records and a resumed run must repeat."""

    game: str
    entrants: tuple[Entrant, ...]
    format: str = "roundrobin"
    """``roundrobin`` or ``swiss``."""
    openings: str | None = None
    """The name of one of the game's opening decks (``GameInfo.openings``; checkers: ``ballots``, the ACF deck) or
    ``None`` (the start position)."""
    games_per_pair: int = DEFAULT_GAMES_PER_PAIR
    """Games each pairing plays (round robin: each pair; Swiss: each pairing of a round)."""
    time_limit_s: float | None = None
    """Every agent's limit per move, seconds (``None``: the runner's default)."""
    seed: int = 1
    rounds: int | None = None
    """Swiss rounds (``None`` for round robin)."""
    max_plies: int = MAX_PLIES
    """The move limit: a game still going after this many plies (chance outcomes counted) is a draw, termination
    ``move limit`` (``--max-plies``)."""

    def __post_init__(self) -> None:
        names = [e.name for e in self.entrants]
        if len(names) < 2:
            raise TournamentError(f"a tournament needs at least 2 agents, got {len(names)}")
        dup = sorted({n for n in names if names.count(n) > 1})
        if dup:
            raise TournamentError(f"agent {quoted(dup[0])} is given twice (names must be unique)")
        if self.format not in FORMATS:
            raise TournamentError(f"--format must be one of {', '.join(FORMATS)}, got {quoted(self.format)}")
        if self.games_per_pair < 1:
            raise TournamentError(f"--games-per-pair must be >= 1, got {self.games_per_pair}")
        if self.openings is not None:
            decks = opening_deck_names()
            if self.openings not in decks:
                raise TournamentError(f"--openings must be {' or '.join(repr(n) for n in decks)}, got "
                                      f"{quoted(self.openings)}")
            if game_info(self.game).opening_deck(self.openings) is None:
                raise TournamentError(f"--openings {self.openings} is for "
                                      f"{' and '.join(games_with_openings(self.openings))}")
            if self.games_per_pair % 2:
                raise TournamentError(f"--games-per-pair must be even with --openings {self.openings} (each opening "
                                      f"is played twice, colours swapped), got {self.games_per_pair}")
        if self.time_limit_s is not None and not (self.time_limit_s > 0 and math.isfinite(self.time_limit_s)):
            raise TournamentError(f"--time must be a number of seconds > 0, got {self.time_limit_s}")
        if self.format == "swiss":
            if self.rounds is None or self.rounds < 1:
                raise TournamentError(f"--rounds must be >= 1, got {self.rounds}")
        elif self.rounds is not None:
            raise TournamentError("--rounds is for --format swiss")
        if self.max_plies < 1:
            raise TournamentError(f"--max-plies must be >= 1, got {self.max_plies}")

    @property
    def names(self) -> list[str]:
        """The agents' names, in the order given."""
        return [e.name for e in self.entrants]

    def spec_of(self, name: str) -> str:
        """The agent spec of the entrant called ``name``."""
        return next(e.spec for e in self.entrants if e.name == name)

    def definition(self) -> dict[str, Any]:
        """The JSON-ready definition (the journal header's fields that a resumed run must match)."""
        return {"game": self.game, "format": self.format,
                "agents": [{"name": e.name, "spec": e.spec, "fingerprint": e.fingerprint} for e in self.entrants],
                "openings": self.openings, "games_per_pair": self.games_per_pair, "time": self.time_limit_s,
                "seed": self.seed, "rounds": self.rounds,
                **({} if self.max_plies == MAX_PLIES else {"max_plies": self.max_plies})}  # older journals match

    def digest(self) -> str:
        """A short hash of the definition (names the default journal)."""
        import json
        return hashlib.sha256(json.dumps(self.definition(), sort_keys=True).encode()).hexdigest()[:10]

    def total_games(self) -> int:
        """Games in the whole tournament (Swiss: rounds x pairings a round x games a pairing)."""
        n = len(self.entrants)
        if self.format == "roundrobin":
            return n * (n - 1) // 2 * self.games_per_pair
        return (self.rounds or 0) * (n // 2) * self.games_per_pair


def round_robin_rounds(agents: int) -> int:
    """Rounds of a round robin of ``agents``: ``n - 1``, or ``n`` when ``n`` is odd (each agent sits one out)."""
    return agents if agents % 2 else agents - 1


def default_rounds(agents: int) -> int:
    """Swiss rounds when ``--rounds`` is not given: ``ceil(log2 n) + 2``, at most :func:`round_robin_rounds`.

    ``ceil(log2 n)`` rounds are the fewest in which one agent can win every game and so stand alone on top (a
    knock-out's count); the two more let the places below it separate too, and keep one lost game early from
    deciding the tournament. More rounds than a round robin has would force rematches (and second byes).
    """
    n = max(agents, 2)
    return max(1, min(round_robin_rounds(n), math.ceil(math.log2(n)) + 2))


@dataclass(frozen=True)
class ScheduledGame:
    """One game of the schedule."""

    key: str
    """Unique and stable: ``A|B|ACF 5|A first`` (round robin; ``ACF 5`` the opening's ``place``) or
    ``R2|A|B|game 1|B first`` (Swiss)."""
    number: int
    """1-based position in the schedule (names the game's saved file)."""
    round: int
    first: str
    """The entrant moving first (player 0)."""
    second: str
    pair: tuple[str, str]
    """The pairing as scheduled (its first name ranked or listed higher)."""
    opening: str | None
    """The opening handed to the runner (its :attr:`~gameplay.rules.openings.Opening.key`: a ballot's ACF number as
    text), or ``None``."""
    opening_label: str
    """The opening's label (:attr:`~gameplay.rules.openings.Opening.label`) or ``start``."""
    seed: int

    def task(self, spec: TournamentSpec, factory: Any = None) -> Any:
        """The runner's task for this game (``ai.agents.arena.ArenaTask`` unless ``factory`` is given)."""
        if factory is None:
            from ai.agents.arena import ArenaTask
            factory = ArenaTask
        from gameplay.rules.registry import portable_name
        return factory(key=self.key, game=portable_name(spec.game),
                       agents=(spec.spec_of(self.first), spec.spec_of(self.second)),
                       opening=self.opening, time_limit_s=spec.time_limit_s, seed=self.seed,
                       max_plies=spec.max_plies)


def deck_of(spec: TournamentSpec) -> tuple[Opening, ...] | None:
    """The openings of the tournament's deck, in order (``spec.openings`` among the game's decks), or ``None``
    without openings.

    Raises:
        GameError: the deck's data cannot be read.
    """
    if spec.openings is None:
        return None
    found = game_info(spec.game).opening_deck(spec.openings)
    return None if found is None else found.openings()


def game_seed(seed: int, key: str) -> int:
    """The seed of one game: from the tournament's seed and the game's key (the same in every process)."""
    return (seed * 1_000_003 + zlib.crc32(key.encode("utf-8"))) % (2 ** 31 - 1) + 1


def pair_games(spec: TournamentSpec, a: str, b: str, round_no: int, first_opening: int, number: int,
               deck: Sequence[Opening] | None = None) -> list[ScheduledGame]:
    """The ``games_per_pair`` games of the pairing ``a``-``b``: game ``g`` takes opening ``first_opening + g // 2``
    of the deck (with openings) and ``a`` moves first in the even games.

    Args:
        spec: the tournament.
        a, b: the pairing's agents (``a`` first in the key).
        round_no: the round (1 for round robin; the key carries it for Swiss).
        first_opening: index into the deck of the pairing's first opening.
        number: the schedule number of the pairing's first game.
        deck: the deck's openings (:func:`deck_of`, loaded when needed).
    """
    out = []
    if spec.openings is not None and deck is None:
        deck = deck_of(spec)
    prefix = f"R{round_no}|" if spec.format == "swiss" else ""
    for g in range(spec.games_per_pair):
        first, second = (a, b) if g % 2 == 0 else (b, a)
        if deck is not None and spec.openings is not None:
            k = first_opening + g // 2
            start = deck[k % len(deck)]
            lap = k // len(deck)
            where = start.place + (f" lap {lap + 1}" if lap else "")
            opening, label = start.key, start.label
        else:
            where, opening, label = f"game {g + 1}", None, "start"
        key = f"{prefix}{a}|{b}|{where}|{first} first"
        out.append(ScheduledGame(key, number + g, round_no, first, second, (a, b), opening, label,
                                 game_seed(spec.seed, key)))
    return out


def round_robin(spec: TournamentSpec) -> list[ScheduledGame]:
    """Every game of a round robin, in the order they are handed out: the pairs' first games, then their second
    games, ... (so a tournament stopped early has played every pair about equally).

    Raises:
        TournamentError: the format is not ``roundrobin``.
    """
    if spec.format != "roundrobin":
        raise TournamentError("round_robin() needs a round-robin tournament")
    names = spec.names
    pairs = [(names[i], names[j]) for i in range(len(names)) for j in range(i + 1, len(names))]
    deck = deck_of(spec)
    per_pair = [pair_games(spec, a, b, 1, 0, 1 + p * spec.games_per_pair, deck) for p, (a, b) in enumerate(pairs)]
    return [games[g] for g in range(spec.games_per_pair) for games in per_pair]


# ----- results ------------------------------------------------------------------------------------------------
def score_of(record: Mapping[str, Any], name: str) -> float:
    """The points ``name`` scored in a journal record (1 win, 0.5 draw, 0 loss)."""
    w = record.get("winner")
    return 0.5 if w is None else (1.0 if w == name else 0.0)


def swiss_history(spec: TournamentSpec, round_no: int, done: Iterable[Mapping[str, Any]]) -> SwissHistory:
    """What the pairing of Swiss round ``round_no`` needs from the journal records of the rounds before it: points,
    who met whom, byes (with an odd number of agents, whoever has no game in a round sat it out) and colours (the
    first name of a pairing's keys moved first in its first game)."""
    names = spec.names
    history = SwissHistory(points={n: 0.0 for n in names})
    rounds: dict[int, dict[tuple[str, str], None]] = {r: {} for r in range(1, round_no)}
    for r in done:
        r_no = int(r["round"])
        if r_no >= round_no:
            continue
        a, b = r["first"], r["second"]
        history.points[a] += score_of(r, a)
        history.points[b] += score_of(r, b)
        parts = str(r["key"]).split("|")
        rounds[r_no][(parts[1], parts[2])] = None  # R<round>|<first>|<second>|...
    for r_no in sorted(rounds):
        pairs = list(rounds[r_no])
        seated = {m for p in pairs for m in p}
        sat_out = [n for n in names if n not in seated]
        history.record_round(pairs, sat_out[0] if len(names) % 2 and len(sat_out) == 1 else None)
    return history


def swiss_pairings(spec: TournamentSpec, round_no: int, done: Iterable[Mapping[str, Any]]
                   ) -> tuple[list[tuple[str, str]], str | None]:
    """The pairings of Swiss round ``round_no`` from the games of the earlier rounds (see the module docstring).

    Args:
        spec: a Swiss tournament.
        round_no: 1-based round.
        done: journal records (those of round ``round_no`` and later are ignored; every game of the earlier
            rounds must be there).

    Returns:
        ``(pairs, bye)``: pairs in rank order, each ``(first, second)`` (who moves first in the pairing's first
        game), and the agent sitting out (or ``None``).
    """
    from gameplay.tournament.swiss import pair_round
    order = list(spec.names)
    random.Random(spec.seed).shuffle(order)  # the fixed tie-break, drawn once
    return pair_round(order, swiss_history(spec, round_no, done), max(0, (spec.rounds or round_no) - round_no))


def swiss_games(spec: TournamentSpec, round_no: int, done: Iterable[Mapping[str, Any]]
                ) -> tuple[list[ScheduledGame], str | None]:
    """The games of Swiss round ``round_no`` (pairings from :func:`swiss_pairings`) and the agent with a bye.

    Round ``r`` takes the deck's openings ``(r - 1) * games_per_pair / 2`` onwards, the same for every pairing of the
    round; numbers continue from the earlier rounds.
    """
    pairs, bye = swiss_pairings(spec, round_no, done)
    deck = deck_of(spec)
    n_pairs = len(spec.entrants) // 2
    base = (round_no - 1) * n_pairs * spec.games_per_pair + 1
    first_opening = (round_no - 1) * (spec.games_per_pair // 2)
    per_pair = [pair_games(spec, a, b, round_no, first_opening, base + p * spec.games_per_pair, deck)
                for p, (a, b) in enumerate(pairs)]
    return [games[g] for g in range(spec.games_per_pair) for games in per_pair], bye


@dataclass
class Row:
    """One agent's line of the final table."""

    agent: str
    points: float = 0.0
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    forfeits: int = 0
    """Games lost by forfeit (time, crash, illegal move, malformed answer, memory)."""
    rating: float = 0.0
    """Elo points, mean 0 (``ai.bench.ratings``)."""
    rating_error_95: float = 0.0

    def to_json(self) -> dict[str, Any]:
        """``{"agent", "points", "games", "rating", "rating_error_95", "wins", "draws", "losses", "forfeits"}``."""
        return {"agent": self.agent, "points": self.points, "games": self.games, "rating": round(self.rating, 2),
                "rating_error_95": round(self.rating_error_95, 2), "wins": self.wins, "draws": self.draws,
                "losses": self.losses, "forfeits": self.forfeits}


@dataclass
class Standings:
    """The final table: rows sorted by points then rating, the crosstable and the forfeits."""

    rows: list[Row]
    crosstable: dict[str, dict[str, dict[str, float]]]
    """``crosstable[a][b] = {"points": points of a against b, "games": games between them}``."""
    failures: list[dict[str, Any]] = field(default_factory=list)
    """One per forfeit: ``{"agent", "opponent", "reason", "detail", "key"}``."""


def standings(spec: TournamentSpec, records: Iterable[Mapping[str, Any]]) -> Standings:
    """The table of a tournament from its journal records (finished games).

    Ratings are Bradley-Terry maximum-likelihood ratings with a draw as half a point, Elo scale, mean 0
    (:func:`ai.bench.ratings.fit_ratings`, with its default prior of one virtual draw per agent).
    """
    from ai.bench.ratings import fit_ratings
    names = spec.names
    rows = {n: Row(n) for n in names}
    cross = {a: {b: {"points": 0.0, "games": 0.0} for b in names if b != a} for a in names}
    failures = []
    games = []
    for r in records:
        a, b = r["first"], r["second"]
        sa = score_of(r, a)
        games.append((a, b, sa))
        for me, other, s in ((a, b, sa), (b, a, 1.0 - sa)):
            row = rows[me]
            row.games += 1
            row.points += s
            row.wins += s == 1.0
            row.draws += s == 0.5
            row.losses += s == 0.0
            cross[me][other]["points"] += s
            cross[me][other]["games"] += 1
        if r.get("forfeit_by") is not None or r.get("reason"):
            # one agent at fault loses; both at fault before the first move: a draw, a forfeit for each
            for loser in [r["forfeit_by"]] if r.get("forfeit_by") is not None else [a, b]:
                rows[loser].forfeits += 1
                failures.append({"agent": loser, "opponent": b if loser == a else a, "reason": r.get("reason", ""),
                                 "detail": r.get("detail", ""), "key": r["key"]})
    for rating in fit_ratings(names, games):
        rows[rating.agent].rating = rating.rating
        rows[rating.agent].rating_error_95 = rating.error_95
    ordered = sorted(rows.values(), key=lambda x: (-x.points, -x.rating, names.index(x.agent)))
    return Standings(ordered, cross, failures)
