"""Bradley-Terry ratings (ai/bench/ratings.py): exact small cases, an independent fit, recovery of known ratings."""

from __future__ import annotations

import math
import random

import pytest

from ai.bench.ratings import ELO_PER_NATURAL_UNIT, RatingsError, expected_score, fit_ratings

K = math.log(10.0) / 400.0  # natural units per Elo point


def _two_player(wins: int, losses: int, draws: int = 0) -> list[tuple[str, str, float]]:
    return [("A", "B", 1.0)] * wins + [("A", "B", 0.0)] * losses + [("A", "B", 0.5)] * draws


def test_two_players_75_percent_is_400_log10_3_without_prior() -> None:
    a, b = fit_ratings(["A", "B"], _two_player(75, 25), prior_draws=0)
    assert a.rating - b.rating == pytest.approx(400 * math.log10(3), abs=1e-6)  # 190.85
    assert a.rating + b.rating == pytest.approx(0, abs=1e-9)
    # the Hessian error: Var(r_A - r_B) = 1 / (k^2 N p (1 - p)); each centred rating carries half of it
    sd_diff = 1.0 / (K * math.sqrt(100 * 0.75 * 0.25))
    assert a.error_95 == pytest.approx(1.959964 * sd_diff / 2, rel=1e-5)  # 39.3 Elo
    assert b.error_95 == pytest.approx(a.error_95)


def test_draws_count_half_a_point() -> None:
    # 50 wins, 50 draws, 0 losses = 75 points of 100: the same fit as 75 wins and 25 losses
    a, b = fit_ratings(["A", "B"], _two_player(50, 0, 50), prior_draws=0)
    assert a.rating - b.rating == pytest.approx(400 * math.log10(3), abs=1e-6)


def test_two_players_with_the_prior_solved_independently() -> None:
    # With one virtual draw of each against a 0-rated opponent, r_A = -r_B = d / 2 by symmetry and
    # d ll / d r_A = 0 reads 75 - 100 P(d) + 0.5 - P(d / 2) = 0; solved here by bisection.
    def f(d: float) -> float:
        return 75 - 100 * expected_score(d, 0) + 0.5 - expected_score(d / 2, 0)

    lo, hi = 0.0, 400.0
    for _ in range(200):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if f(mid) > 0 else (lo, mid)
    a, b = fit_ratings(["A", "B"], _two_player(75, 25))
    assert a.rating - b.rating == pytest.approx(lo, abs=1e-6)
    assert lo < 400 * math.log10(3)  # the prior pulls towards 0: by 1.2 Elo here
    assert 400 * math.log10(3) - lo < 2.0


def _mm_fit(names: list[str], games: list[tuple[str, str, float]]) -> dict[str, float]:
    """Hunter's (2004) minorisation-maximisation iteration for Bradley-Terry strengths, an independent fit:
    gamma_i <- W_i / sum_j N_ij / (gamma_i + gamma_j); ratings 400 log10 gamma, mean 0."""
    idx = {n: k for k, n in enumerate(names)}
    n = len(names)
    w = [0.0] * n
    cnt = [[0.0] * n for _ in range(n)]
    for a, b, s in games:
        w[idx[a]] += s
        w[idx[b]] += 1 - s
        cnt[idx[a]][idx[b]] += 1
        cnt[idx[b]][idx[a]] += 1
    g = [1.0] * n
    for _ in range(5000):
        g = [w[i] / sum(cnt[i][j] / (g[i] + g[j]) for j in range(n) if j != i) for i in range(n)]
        m = sum(math.log10(x) for x in g) / n
        g = [x / 10 ** m for x in g]
    return {names[i]: 400 * math.log10(g[i]) for i in range(n)}


def _games_from(ratings: dict[str, float], per_pair: int, seed: int) -> list[tuple[str, str, float]]:
    rng = random.Random(seed)
    names = list(ratings)
    games = []
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            p = expected_score(ratings[a], ratings[b])
            d = 0.4 * min(p, 1 - p)  # some draws, the expected score kept at p
            for g in range(per_pair):
                u = rng.random()
                s = 1.0 if u < p - d / 2 else (0.5 if u < p + d / 2 else 0.0)
                games.append((a, b, s) if g % 2 == 0 else (b, a, 1 - s))
    return games


def test_the_fit_matches_an_independent_bradley_terry_fit() -> None:
    truth = {"A": 0.0, "B": 100.0, "C": 200.0, "D": -300.0}
    games = _games_from(truth, 60, seed=5)
    mm = _mm_fit(list(truth), games)
    fit = {r.agent: r.rating for r in fit_ratings(list(truth), games, prior_draws=0)}
    for name in truth:
        assert fit[name] == pytest.approx(mm[name], abs=1e-4)


def test_known_ratings_are_recovered_within_their_error() -> None:
    truth = {"A": 0.0, "B": 100.0, "C": 200.0, "D": -300.0}
    mean = sum(truth.values()) / 4
    fit = fit_ratings(list(truth), _games_from(truth, 2000, seed=11))
    assert sum(r.rating for r in fit) == pytest.approx(0, abs=1e-6)
    for r in fit:
        assert abs(r.rating - (truth[r.agent] - mean)) < r.error_95, r
        assert 5 < r.error_95 < 30


def test_errors_shrink_as_one_over_root_games() -> None:
    small = fit_ratings(["A", "B"], _two_player(30, 10), prior_draws=0)[0].error_95
    large = fit_ratings(["A", "B"], _two_player(120, 40), prior_draws=0)[0].error_95
    assert small / large == pytest.approx(2.0, rel=1e-6)


def test_a_perfect_score_stays_finite_with_the_prior_and_is_refused_without() -> None:
    games = _two_player(10, 0) + [("B", "C", 0.5)] * 10
    fit = {r.agent: r for r in fit_ratings(["A", "B", "C"], games)}
    assert fit["A"].rating > fit["B"].rating + 200
    assert all(math.isfinite(r.rating) and math.isfinite(r.error_95) for r in fit.values())
    with pytest.raises(RatingsError, match="B, C scored no point"):
        fit_ratings(["A", "B", "C"], games, prior_draws=0)
    with pytest.raises(RatingsError, match="do not exist"):  # an agent without games
        fit_ratings(["A", "B", "C"], [("A", "B", 0.5)], prior_draws=0)


def _random_table(seed: int) -> tuple[list[str], list[tuple[str, str, float]]]:
    """A table of 3-9 agents with ratings in [-300, 300] and 4-12 games a pair, a game in ten left out."""
    rng = random.Random(seed)
    n = rng.randint(3, 9)
    truth = {f"a{k}": rng.uniform(-300, 300) for k in range(n)}
    games = [g for g in _games_from(truth, rng.randint(4, 12), seed) if rng.random() < 0.9]
    return list(truth), games


def _scipy_fit(names: list[str], games: list[tuple[str, str, float]], prior_draws: float,
               method: str = "root") -> dict[str, tuple[float, float]]:
    """{agent: (rating, error_95)} with the same objective solved by scipy: ``"trust-exact"``, its trust-region
    Newton minimiser (what ai/bench/ratings.py used before its own Newton iteration), or ``"root"``, MINPACK's hybrid
    method on the gradient with the Hessian as its Jacobian (``scipy.optimize.root``)."""
    optimize = pytest.importorskip("scipy.optimize")
    import numpy as np

    from ai.bench import ratings
    idx = {a: k for k, a in enumerate(names)}
    n = len(names)
    score, count = np.zeros((n, n)), np.zeros((n, n))
    for a, b, s in games:
        i, j = idx[a], idx[b]
        score[i, j] += s
        score[j, i] += 1 - s
        count[i, j] += 1
        count[j, i] += 1
    f, h = ratings.objective(score, count, prior_draws)  # scipy solves the very function the fit minimises
    if method == "trust-exact":
        res = optimize.minimize(f, np.zeros(n), jac=True, hess=h, method="trust-exact", options={"gtol": 1e-10})
    else:
        res = optimize.root(lambda t: f(t)[1], np.zeros(n), jac=h, method="hybr", options={"xtol": 1e-13})
    # either may say it stopped short of its tolerance on rounding (trust-exact: "A bad approximation caused failure
    # to predict improvement", a few 1e-6 Elo from the optimum; hybr: "no further improvement"): the gradient says
    assert np.linalg.norm(f(res.x)[1]) < (1e-6 if method == "trust-exact" else 1e-9), res.message
    theta = res.x - res.x.mean()
    proj = np.eye(n) - np.full((n, n), 1.0 / n)
    cov = proj @ np.linalg.pinv(ratings.observed_information(res.x, count, prior_draws), hermitian=True) @ proj
    return {a: (theta[k] * ELO_PER_NATURAL_UNIT, ratings.Z_95 * math.sqrt(cov[k, k]) * ELO_PER_NATURAL_UNIT)
            for k, a in enumerate(names)}


def _assert_same_fit(names: list[str], games: list[tuple[str, str, float]], prior_draws: float) -> None:
    ours = fit_ratings(names, games, prior_draws=prior_draws)
    for method, tolerance in (("root", 1e-6), ("trust-exact", 1e-5)):
        theirs = _scipy_fit(names, games, prior_draws, method)
        for r in ours:
            assert r.rating == pytest.approx(theirs[r.agent][0], abs=tolerance), (method, r)
            assert r.error_95 == pytest.approx(theirs[r.agent][1], abs=tolerance), (method, r)


@pytest.mark.parametrize(("seed", "prior_draws"), [(s, p) for s in range(1, 7) for p in (1.0, 0.0)] + [(7, 2.5)])
def test_the_newton_fit_equals_scipys(seed: int, prior_draws: float) -> None:
    """The fit (numpy's Newton iteration) gives scipy's optimum, ratings and errors, on random tables with the
    default prior, with none and with a larger one: to 1e-6 Elo with scipy's root finder on the gradient, to 1e-5 Elo
    with the trust-region minimiser the fit used before (which stops up to 3.3e-6 Elo short on these tables)."""
    names, games = _random_table(seed)
    _assert_same_fit(names, games, prior_draws)


def test_the_newton_fit_equals_scipys_with_a_perfect_score() -> None:
    """A clean sweep (the prior keeps it finite: the iteration's damped phase) and a 9,000-game table."""
    sweep = _two_player(40, 0) + [("B", "C", 0.5)] * 10 + [("C", "D", 1.0)] * 3 + [("D", "C", 1.0)]
    _assert_same_fit(["A", "B", "C", "D"], sweep, 1.0)
    big = _games_from({"A": 0.0, "B": 150.0, "C": -250.0, "D": 600.0}, 1500, seed=3)
    _assert_same_fit(["A", "B", "C", "D"], big, 1.0)
    _assert_same_fit(["A", "B", "C", "D"], big, 0.0)


def test_the_fit_says_when_it_does_not_converge(monkeypatch: pytest.MonkeyPatch) -> None:
    from ai.bench import ratings
    monkeypatch.setattr(ratings, "MAX_NEWTON_STEPS", 1)
    with pytest.raises(RatingsError, match="did not converge in 1 Newton steps"):
        fit_ratings(["A", "B"], _two_player(75, 25))


def test_bad_input() -> None:
    with pytest.raises(RatingsError, match="not rated"):
        fit_ratings(["A"], [("A", "Z", 1.0)])
    with pytest.raises(RatingsError, match="itself"):
        fit_ratings(["A", "B"], [("A", "A", 1.0)])
    with pytest.raises(RatingsError, match=r"\[0, 1\]"):
        fit_ratings(["A", "B"], [("A", "B", 2.0)])
    with pytest.raises(RatingsError, match="prior_draws"):
        fit_ratings(["A", "B"], [], prior_draws=-1)
    assert fit_ratings([], []) == []
    assert ELO_PER_NATURAL_UNIT == pytest.approx(173.7178, abs=1e-4)


def test_one_elo_formula_the_inverse_of_the_expected_score() -> None:
    """``match``, the gauntlet and the match figure all read ``ai.bench.ratings.elo_estimate`` (issue 24): a score is
    turned into the Elo difference that predicts it, clamped half a game from 0 and 1."""
    from ai.bench.ratings import elo_difference, elo_estimate
    from gameplay.cli.match import elo
    from gameplay.pictures.plots import elo_estimate as plotted
    assert plotted is elo_estimate
    for s in (0.1, 0.25, 0.5, 0.64, 0.9):
        assert expected_score(elo_difference(s, 100), 0.0) == pytest.approx(s)
    assert elo_difference(1.0, 10) == elo_difference(0.95, 10) == pytest.approx(-400 * math.log10(1 / 0.95 - 1))
    per = [1.0, 1.0, 0.5, 0.0, 1.0, 0.5]
    s = sum(per) / len(per)
    se = math.sqrt(sum((x - s) ** 2 for x in per) / (len(per) - 1) / len(per))
    assert elo(s, len(per), per) == elo_estimate(s, se, len(per))
    assert elo_estimate(0.5, 0.0, 0) == (0.0, 0.0) == elo(0.0, 0, [])
