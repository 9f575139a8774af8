"""Texel tuning of the checkers evaluation weights (``ai.checkers.checkers_eval``) on self-play or real-game positions.

Usage::

    python tools/texel.py [--games N] [--seed S] [--agent SPEC] [--random-plies P] [--random-prob Q]
        [--max-plies M] [--pdn GAMES.pdn [--skip-plies P] [--positions N]]
        [--journal SPAR.jsonl ... [--label-k K]] [--test-journal SPAR.jsonl ...] [--holdout F]
        [--save DATA.npz | --load DATA.npz] [--start default] [--exclude F,G] [--l2 L] [--out WEIGHTS.toml]
        [--quiet]

Texel's tuning method (P. Österlund, 2014; chessprogramming wiki, "Texel's Tuning Method"): label positions
from real games with the game's result ``R`` (1 Black win, 0.5 draw, 0 White win), map the static evaluation
``e`` (Black's point of view, a man = 100) to an expected score ``sigmoid(K * e / 100)``, first fit the scale
``K`` with the starting weights, then fit the weights (the man's fixed at 100) by minimising the mean squared
error ``mean((R - sigmoid(K * e / 100))**2)``. The evaluation is linear in its features, so the features are
computed once (an ``n x 20`` matrix) and the fit is a smooth problem for ``scipy.optimize.minimize``
(L-BFGS-B, analytic gradient). ``--exclude`` keeps some features at weight 0 (e.g. ``mobility``, the one that
needs move generation: see what it is worth by fitting without it).

Data: ``--games`` self-play games of a cheap agent (default ``alphabeta:depth=4,quiescence=on``, seeded per game
and side so it varies among equal moves), game ``g`` from the ACF ballot ``g mod 156``
(``gameplay.rules.checkers.ballots``) refereed by ``gameplay.rules.referee.play_game`` (ply cap ``--max-plies``, a
capped game is a draw); for diversity each side plays a uniformly random legal move with probability
``--random-prob`` during the first ``--random-plies`` plies after the ballot (seeded). Every quiet position of a
game (no capture available to the side to move; not the final position) is one sample. One process, one core.

Data from real games (``--pdn FILE``, instead of self-play): every game of the PDN archive that reads without
error and has a result (``Result`` tag / result token ``1-0``, ``0-1`` or ``1/2-1/2``; a game with ``*`` or an
error is skipped and counted), its moves replayed from its start; every quiet position (as above) from ply
``--skip-plies`` on (default 8: the opening is book, not judgement) is a candidate, and ``--positions N``
(default 0: all) keeps a seeded uniform sample of ``N`` of them. The counts (games read, skipped, candidates,
kept) are printed.

Data from an outside engine's search (``--journal FILE``, repeatable, instead of self-play): the games of
``tools/spar.py`` journals, every quiet position where the engine (Cake 1.20) was to move and printed its value,
labelled ``sigmoid(--label-k * value / 100)`` from Black's side (:func:`journal_positions`): the fit then asks
the static evaluation for what a deeper search of an engine we did not write concluded. ``--test-journal FILE``
(repeatable) prints the loss before and after on other journals' positions, e.g. other ballots' games. The
positions of real games labelled by ``tools/cake_label.py`` (Cake's value of each) read the same way, with
``--journal`` or ``--test-journal``.

Held-out check (``--holdout F``): a seeded fraction ``F`` of the *games* (never half a game) is kept out of the
fit; ``K`` and the weights are fitted on the rest, and the loss of the start and the fitted weights is printed on
both parts.

Output: the loss before/after, the fitted weights, and (``--out``) a TOML agent file
(``name = "alphabeta"`` and a ``[weights]`` table) that ``--agent FILE.toml`` accepts. Exit code 0, 2 on bad input.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402
from scipy.optimize import minimize, minimize_scalar  # noqa: E402
from tqdm import tqdm  # noqa: E402

from ai.agents.agents import make_agent  # noqa: E402
from ai.checkers.checkers_eval import FEATURES, WEIGHT_PRESETS, feature_values  # noqa: E402
from gameplay.rules.checkers.ballots import load_ballots  # noqa: E402
from gameplay.rules.checkers.checkers import Checkers  # noqa: E402
from gameplay.rules.checkers.checkers_board import CheckersState  # noqa: E402
from gameplay.rules.checkers.pdn_archive import read_pdn_file  # noqa: E402
from gameplay.rules.checkers.pdn_read import BLACK_SCORE, iter_records  # noqa: E402
from gameplay.rules.referee import play_game  # noqa: E402

FILE_IDS = 10_000_000
"""Game ids of :func:`journal_positions` are ``FILE_IDS * file + game index`` (unique across its files)."""
MAN = "men"
"""The feature whose weight is fixed at 100 (the unit)."""
LABEL_K = 0.7104
"""The scale (per man) that turns an engine's value into a label for ``--journal``: ``acf``'s fitted ``K``."""


@dataclass(frozen=True)
class _Result:
    move: Any


class _Noisy:
    """An agent that plays a random legal move with probability ``prob`` for its first ``plies`` moves."""

    def __init__(self, agent: Any, game: Checkers, rng: random.Random, prob: float, plies: int) -> None:
        self.agent, self.game, self.rng, self.prob, self.plies = agent, game, rng, prob, plies
        self.played = 0

    def choose(self, state: CheckersState) -> Any:
        self.played += 1
        if self.played <= self.plies and self.rng.random() < self.prob:
            return _Result(self.rng.choice(self.game.actions(state)))
        return self.agent.choose(state)


def generate(games: int, seed: int, agent_spec: str, random_plies: int, random_prob: float,
             max_plies: int, quiet: bool = False) -> tuple[np.ndarray, np.ndarray, dict[str, Any]]:
    """Play the games and label their quiet positions.

    Returns:
        ``(positions, results, stats)``: ``positions`` an ``(n, 4)`` int64 array of (black, white, kings, turn)
        bitboards (bit ``s - 1`` = square ``s``), ``results`` the ``(n,)`` Black scores in {0, 0.5, 1}, and
        ``stats`` (games, Black wins, draws, White wins, plies, seconds).
    """
    game = Checkers()
    ballots = load_ballots()
    rows: list[tuple[int, int, int, int]] = []
    labels: list[float] = []
    wins = [0, 0, 0]  # Black, draw, White
    plies = 0
    t0 = time.perf_counter()
    sep = "," if ":" in agent_spec else ":"
    for g in tqdm(range(games), desc="self-play", unit="game", disable=quiet):
        ballot = ballots[g % len(ballots)]
        rng = random.Random(seed * 1_000_003 + g)
        black, white = (_Noisy(make_agent("checkers", f"{agent_spec}{sep}seed={seed * 100_000 + 2 * g + p}"),
                               game, rng, random_prob, random_plies) for p in (0, 1))
        start = game.parse_position(ballot.fen)
        played = play_game(game, (black, white), start, max_plies=max_plies)
        plies += played.plies
        out = played.outcome
        r = 0.5 if out is None or out.winner is None else (1.0 if out.winner == 0 else 0.0)
        wins[0 if r == 1.0 else (1 if r == 0.5 else 2)] += 1
        s = start
        for m in played.moves:
            if not game.noisy_actions(s):
                rows.append((s.black, s.white, s.kings, s.turn))
                labels.append(r)
            s = game.result(s, m)
    stats = {"games": games, "black_wins": wins[0], "draws": wins[1], "white_wins": wins[2], "plies": plies,
             "seconds": time.perf_counter() - t0}
    return np.array(rows, dtype=np.int64).reshape(-1, 4), np.array(labels, dtype=np.float64), stats


def pdn_positions(path: Path, skip_plies: int = 8, positions: int = 0, seed: int = 1,
                  quiet: bool = False) -> tuple[np.ndarray, np.ndarray, np.ndarray, dict[str, int]]:
    """The quiet positions of the games of a PDN archive, labelled with each game's result.

    Args:
        path: a PDN file.
        skip_plies: positions before this ply (0 = the start) are not taken.
        positions: keep a seeded uniform sample of this many positions (0: all).
        seed: the sample's seed.

    Returns:
        ``(positions, results, game_ids, stats)``: ``positions`` an ``(n, 4)`` int64 array of (black, white,
        kings, turn) bitboards, ``results`` the ``(n,)`` Black scores in {0, 0.5, 1}, ``game_ids`` the ``(n,)``
        0-based index of each position's game in the file, and ``stats`` (games, used, no_result, bad,
        candidates, kept, black_wins, draws, white_wins).

    Raises:
        OSError, ValueError: the file cannot be read or is not text.
    """
    game = Checkers()
    rows: list[tuple[int, int, int, int]] = []
    labels: list[float] = []
    ids: list[int] = []
    st = {"games": 0, "used": 0, "no_result": 0, "bad": 0, "black_wins": 0, "draws": 0, "white_wins": 0}
    for rec in tqdm(iter_records(read_pdn_file(path)), desc="games", unit="game", disable=quiet):
        st["games"] += 1
        if not rec.ok:
            st["bad"] += 1
            continue
        r = BLACK_SCORE.get(rec.game.result)
        if r is None:
            st["no_result"] += 1
            continue
        st["used"] += 1
        st["black_wins" if r == 1.0 else ("draws" if r == 0.5 else "white_wins")] += 1
        s = rec.game.start
        for ply, m in enumerate(rec.game.moves):
            if ply >= skip_plies and not game.noisy_actions(s):
                rows.append((s.black, s.white, s.kings, s.turn))
                labels.append(r)
                ids.append(rec.index)
            s = game.successor(s, m)
    st["candidates"] = len(rows)
    keep = list(range(len(rows)))
    if 0 < positions < len(rows):
        keep = sorted(random.Random(seed).sample(keep, positions))
    st["kept"] = len(keep)
    pos = np.array([rows[i] for i in keep], dtype=np.int64).reshape(-1, 4)
    return pos, np.array([labels[i] for i in keep], dtype=np.float64), np.array([ids[i] for i in keep],
                                                                              dtype=np.int64), st


def journal_positions(paths: list[Path],
                      label_k: float = LABEL_K) -> tuple[np.ndarray, np.ndarray, np.ndarray, dict[str, int]]:
    """The quiet positions an outside engine searched in ``tools/spar.py`` games, labelled with its value.

    A file may also hold the labelled positions of ``tools/cake_label.py`` (lines with ``game``, ``position``
    and ``value_black``: positions of real games, each with the engine's value); each is taken as it is, when
    quiet.

    Each game of each journal (JSON lines of :class:`SparReport` fields; a later line of the same game index
    replaces an earlier one) is replayed from its ``start`` with its ``moves``; each position where the engine was
    to move and printed a value (``engine_values``: a man = 100, the engine's view; ``None`` for a book move) is a
    candidate, taken when it is quiet (no capture for the side to move). Its label is the engine's value as an
    expected score for Black, ``sigmoid(label_k * v / 100)`` with ``v`` the value from Black's side: the
    engine's search (Cake 1.20 at 1 s a move in tools/spar.py) stands in for the game result of Texel's method, so
    the fit asks the static evaluation to predict what a deeper, outside search concluded (the "deep-search
    labels" of issue 27).

    Args:
        paths: journal files of ``tools/spar.py``.
        label_k: the scale of the labels, per man (the default is ``acf``'s ``K``: real games' scale).

    Returns:
        ``(positions, labels, game_ids, stats)`` as :func:`pdn_positions` (``game_ids`` unique across files:
        ``FILE_IDS * file + game index``); ``stats``: games, values (engine moves with a value), kept, noisy, broken
        (games whose moves do not replay; their positions up to the fault are kept).

    Raises:
        OSError: a journal cannot be read. ValueError: a line is not a game record, or its start not a position.
    """
    game = Checkers()
    rows: list[tuple[int, int, int, int]] = []
    values_black: list[float] = []
    ids: list[int] = []
    st = {"games": 0, "values": 0, "noisy": 0, "broken": 0}
    for f, path in enumerate(paths):
        games: dict[int, dict[str, Any]] = {}
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if line.strip():
                rec = json.loads(line)
                if isinstance(rec, dict) and {"game", "position", "value_black"} <= rec.keys():
                    s = game.parse_position(rec["position"])  # a labelled position of tools/cake_label.py
                    st["values"] += 1
                    if game.noisy_actions(s):
                        st["noisy"] += 1
                    else:
                        rows.append((s.black, s.white, s.kings, s.turn))
                        values_black.append(float(rec["value_black"]))
                        ids.append(FILE_IDS * f + int(rec["game"]))
                    continue
                if not isinstance(rec, dict) or not {"index", "our_side", "start", "moves"} <= rec.keys():
                    raise ValueError(f"{path}:{n}: not a game record of tools/spar.py nor a label of "
                                     f"tools/cake_label.py")
                games[int(rec["index"])] = rec
        for idx in sorted(games):
            rec = games[idx]
            st["games"] += 1
            engine_side = 1 - int(rec["our_side"])
            values = iter(rec.get("engine_values") or [])
            s = game.parse_position(rec["start"])
            try:
                for text in rec["moves"]:
                    if s.turn == engine_side:
                        v = next(values, None)
                        if v is not None:
                            st["values"] += 1
                            if game.noisy_actions(s):
                                st["noisy"] += 1
                            else:
                                rows.append((s.black, s.white, s.kings, s.turn))
                                values_black.append(float(v) if engine_side == 0 else -float(v))
                                ids.append(FILE_IDS * f + idx)
                    s = game.result(s, game.parse_move(s, text))
            except ValueError:
                st["broken"] += 1
    st["kept"] = len(rows)
    labels = _sigmoid(label_k * np.array(values_black, dtype=np.float64) / 100.0)
    return np.array(rows, dtype=np.int64).reshape(-1, 4), labels, np.array(ids, dtype=np.int64), st


def holdout_mask(game_ids: np.ndarray, fraction: float, seed: int) -> np.ndarray:
    """A boolean mask of the positions whose game is held out: a seeded ``fraction`` of the distinct games."""
    games = sorted(set(game_ids.tolist()))
    held = set(random.Random(seed + 7919).sample(games, int(round(fraction * len(games))))) if fraction > 0 else set()
    return np.array([g in held for g in game_ids.tolist()], dtype=bool)


def feature_matrix(positions: np.ndarray, quiet: bool = False) -> np.ndarray:
    """The ``(n, len(FEATURES))`` matrix of feature values (Black minus White) of the positions."""
    x = np.zeros((len(positions), len(FEATURES)))
    for i, (b, w, k, t) in enumerate(tqdm(positions.tolist(), desc="features", unit="pos", disable=quiet)):
        st = CheckersState(b, w, k, t)
        f = feature_values(st)
        x[i] = [f[n] for n in FEATURES]
    return x


def _sigmoid(z: np.ndarray) -> np.ndarray:
    return np.asarray(1.0 / (1.0 + np.exp(-np.clip(z, -500, 500))), dtype=np.float64)


def mse(x: np.ndarray, y: np.ndarray, w: np.ndarray, k: float) -> float:
    """``mean((y - sigmoid(k * (x @ w) / 100))**2)``: the Texel loss (weights in units of a man = 100)."""
    return float(np.mean((y - _sigmoid(k * (x @ w) / 100.0)) ** 2))


def fit_k(x: np.ndarray, y: np.ndarray, w: np.ndarray) -> float:
    """The sigmoid scale ``K`` that minimises the loss of the weights ``w`` (bounded scalar search)."""
    res = minimize_scalar(lambda k: mse(x, y, w, k), bounds=(0.01, 10.0), method="bounded")
    return float(res.x)


def fit_weights(x: np.ndarray, y: np.ndarray, w0: np.ndarray, k: float, fixed: int, l2: float = 0.0,
                excluded: frozenset[int] = frozenset()) -> np.ndarray:
    """Minimise the loss over every weight but ``w[fixed]`` and the ``excluded`` ones (kept as in ``w0``).

    L-BFGS-B with the analytic gradient, an optional L2 penalty ``l2 * sum(w_free**2)``.

    Returns:
        The fitted weight vector (same shape as ``w0``).
    """
    free = np.array([i for i in range(len(w0)) if i != fixed and i not in excluded])
    keep = [i for i in range(len(w0)) if i == fixed or i in excluded]
    base = x[:, keep] @ w0[keep]
    xf = x[:, free]
    n = len(y)

    def loss_grad(v: np.ndarray) -> tuple[float, np.ndarray]:
        p = _sigmoid(k * (base + xf @ v) / 100.0)
        r = p - y
        loss = float(np.mean(r ** 2)) + l2 * float(v @ v)
        g = (2.0 / n) * (k / 100.0) * (xf.T @ (r * p * (1.0 - p))) + 2.0 * l2 * v
        return loss, g

    res = minimize(loss_grad, w0[free], jac=True, method="L-BFGS-B", options={"maxiter": 2000})
    w = w0.copy()
    w[free] = res.x
    return w


def round_weights(w: np.ndarray) -> np.ndarray:
    """Rounded for the preset: to 1 above 10, to 0.5 above 1, to 0.05 below (a man = 100)."""
    out = np.where(np.abs(w) >= 10, np.round(w), np.where(np.abs(w) >= 1, np.round(w * 2) / 2, np.round(w * 20) / 20))
    return np.asarray(out, dtype=np.float64)


def _read_journals(paths: list[Path], label_k: float,
                   what: str) -> tuple[np.ndarray, np.ndarray, np.ndarray, dict[str, int]] | None:
    """:func:`journal_positions`, or ``None`` after one ``error:`` line naming ``what`` could not be read."""
    try:
        return journal_positions(paths, label_k)
    except (OSError, ValueError) as e:
        print(f"error: cannot read the {what}: {e}", file=sys.stderr)
        return None


def main(argv: list[str] | None = None) -> int:
    """The command line (see the module docstring)."""
    ap = argparse.ArgumentParser(description="Texel tuning of the checkers evaluation weights.")
    ap.add_argument("--games", type=int, default=600)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--agent", default="alphabeta:depth=4,quiescence=on")
    ap.add_argument("--random-plies", type=int, default=12)
    ap.add_argument("--random-prob", type=float, default=0.1)
    ap.add_argument("--max-plies", type=int, default=300)
    ap.add_argument("--pdn", type=Path, help="read the positions from the games of this PDN archive")
    ap.add_argument("--journal", type=Path, action="append", default=[],
                    help="read the positions from tools/spar.py journals (or tools/cake_label.py labels), labelled "
                         "with the engine's value (repeatable)")
    ap.add_argument("--test-journal", type=Path, action="append", default=[],
                    help="also print the loss on these journals' positions (games not fitted on; repeatable)")
    ap.add_argument("--label-k", type=float, default=LABEL_K, help="with --journal: the labels' scale per man")
    ap.add_argument("--skip-plies", type=int, default=8, help="with --pdn: the first plies of a game not taken")
    ap.add_argument("--positions", type=int, default=0, help="with --pdn: a seeded sample of this many (0: all)")
    ap.add_argument("--holdout", type=float, default=0.0, help="fraction of the games kept out of the fit")
    ap.add_argument("--start", default="default", help="weight preset to start from (and to compare with)")
    ap.add_argument("--l2", type=float, default=0.0)
    ap.add_argument("--exclude", default="", help="comma-separated features kept at weight 0")
    ap.add_argument("--save", type=Path)
    ap.add_argument("--load", type=Path)
    ap.add_argument("--out", type=Path)
    ap.add_argument("--quiet", action="store_true")
    a = ap.parse_args(argv)
    excluded = [n.strip() for n in a.exclude.split(",") if n.strip()]
    if (a.start not in WEIGHT_PRESETS or a.games < 1 or not set(excluded) <= set(FEATURES) - {MAN}
            or a.skip_plies < 0 or a.positions < 0 or not 0.0 <= a.holdout < 1.0
            or sum(map(bool, (a.pdn, a.load, a.journal))) > 1 or a.label_k <= 0):
        print(f"error: --start must be one of {', '.join(WEIGHT_PRESETS)}, --games >= 1, --skip-plies and "
              f"--positions >= 0, 0 <= --holdout < 1, --label-k > 0, one of --pdn, --journal, --load, --exclude "
              f"features of {', '.join(FEATURES[1:])}", file=sys.stderr)
        return 2
    t0 = time.perf_counter()
    test = None
    if a.test_journal and (test := _read_journals(a.test_journal, a.label_k, "test journal")) is None:
        return 2
    if a.load:
        data = np.load(a.load)
        pos, y = data["positions"], data["results"]
        ids = data["games"] if "games" in data else np.arange(len(y))
        print(f"loaded {len(y)} positions from {a.load}")
    elif a.pdn:
        try:
            pos, y, ids, ps = pdn_positions(a.pdn, a.skip_plies, a.positions, a.seed, a.quiet)
        except (OSError, ValueError) as e:
            print(f"error: cannot read {a.pdn}: {e}", file=sys.stderr)
            return 2
        if not len(y):
            print(f"error: {a.pdn} has no quiet position after ply {a.skip_plies} in a game with a result",
                  file=sys.stderr)
            return 2
        print(f"{ps['games']} games read, {ps['used']} used ({ps['black_wins']} Black wins, {ps['draws']} draws, "
              f"{ps['white_wins']} White wins), skipped {ps['no_result']} without a result and {ps['bad']} with an "
              f"error; {ps['candidates']} quiet positions from ply {a.skip_plies} on, {ps['kept']} kept "
              f"(seed {a.seed})")
    elif a.journal:
        if (got := _read_journals(a.journal, a.label_k, "journal")) is None:
            return 2
        pos, y, ids, js = got
        if not len(y):
            print("error: the journals hold no quiet position with an engine value", file=sys.stderr)
            return 2
        print(f"{js['games']} games, {js['values']} engine values, {js['noisy']} of them at a capture (not taken), "
              f"{js['kept']} kept, {js['broken']} games that do not replay to their end; labels "
              f"sigmoid({a.label_k:g} * value / 100)")
    else:
        pos, y, st = generate(a.games, a.seed, a.agent, a.random_plies, a.random_prob, a.max_plies, a.quiet)
        ids = np.arange(len(y))
        print(f"{st['games']} games ({st['black_wins']} Black wins, {st['draws']} draws, {st['white_wins']} White "
              f"wins), {st['plies']} plies, {len(y)} quiet positions, {st['seconds']:.0f} s")
    if a.save and not a.load:
        np.savez_compressed(a.save, positions=pos, results=y, games=ids)
    x_all = feature_matrix(pos, a.quiet)
    held = holdout_mask(ids, a.holdout, a.seed)
    x, y_fit = x_all[~held], y[~held]
    if a.holdout:
        print(f"held out {int(held.sum())} positions of {len(set(ids[held].tolist()))} games; fitting on "
              f"{len(y_fit)}")
    start = WEIGHT_PRESETS[a.start]
    w0 = np.array([float(start.get(n, 0.0)) for n in FEATURES])
    fixed = FEATURES.index(MAN)
    w0 = w0 * (100.0 / w0[fixed])
    k = fit_k(x, y_fit, w0)
    before = mse(x, y_fit, w0, k)
    wstart = w0.copy()
    ex = frozenset(FEATURES.index(n) for n in excluded)
    wstart[list(ex)] = 0.0
    w = fit_weights(x, y_fit, wstart, k, fixed, a.l2, ex)
    after = mse(x, y_fit, w, k)
    wr = round_weights(w)
    rounded = mse(x, y_fit, wr, k)
    k2 = fit_k(x, y_fit, wr)
    print(f"K = {k:.4f} (per man); MSE before ({a.start}) {before:.6f}, after {after:.6f}, rounded {rounded:.6f} "
          f"(refit K {k2:.4f}: {mse(x, y_fit, wr, k2):.6f}); {time.perf_counter() - t0:.0f} s in all")
    if a.holdout:
        xh, yh = x_all[held], y[held]
        print(f"held-out MSE (K {k:.4f}): before ({a.start}) {mse(xh, yh, w0, k):.6f}, after (rounded) "
              f"{mse(xh, yh, wr, k):.6f}")
    if test is not None:
        tpos, ty, _, ts = test
        if len(ty):
            tx = feature_matrix(tpos, a.quiet)
            print(f"test journals ({ts['games']} games, {ts['kept']} positions) MSE (K {k:.4f}): before ({a.start}) "
                  f"{mse(tx, ty, w0, k):.6f}, after (rounded) {mse(tx, ty, wr, k):.6f}")
        else:
            print(f"test journals ({ts['games']} games): no quiet position with an engine value, no loss to print")
    for n, v0, v, r in zip(FEATURES, w0, w, wr):
        print(f"  {n:14s} {v0:8.2f} -> {v:9.3f}  (rounded {r:g})")
    print("tuned = {" + ", ".join(f'"{n}": {r:g}' for n, r in zip(FEATURES, wr)) + "}")
    if a.out:
        lines = ["# Checkers weights fitted by tools/texel.py (Texel's method; a man = 100).",
                 f"# {len(y_fit)} positions, K = {k:.4f}, MSE {before:.6f} -> {rounded:.6f}", 'name = "alphabeta"',
                 "", "[weights]"] + [f"{n} = {float(r)!r}" for n, r in zip(FEATURES, wr)]
        a.out.write_text("\n".join(lines) + "\n", encoding="utf-8")
        print(f"wrote {a.out}")
    return 0

if __name__ == "__main__":
    raise SystemExit(main())
