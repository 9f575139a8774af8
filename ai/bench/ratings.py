"""Ratings by maximum likelihood from game results: the Bradley-Terry model on the Elo scale.

Each game between agents ``i`` and ``j`` gives ``i`` a score ``s`` in {0, 1/2, 1} (a draw is half a point) and ``j``
the score ``1 - s``. The model (Bradley and Terry 1952; Zermelo 1929) says

    P(i beats j) = 1 / (1 + 10 ** ((r_j - r_i) / 400))

with ratings ``r`` in Elo points (400 points = odds of 10 to 1), and the fit maximises the log-likelihood
``sum s log P + (1 - s) log(1 - P)`` over the games, a draw counting as half a win and half a loss. This is the
model Ordo fits (Ordo's default also takes a draw as half a point; it anchors the mean at 2300, here at 0). The
ratings are reported with mean 0.

The fit is Newton's method on the negative log-likelihood (strictly convex; with the prior below, or a penalty on the
mean without it), with its exact gradient and Hessian and a backtracking line search, from all ratings 0 until the
gradient vanishes to rounding (numpy only: :func:`_maximise`; 5-12 steps on the tables tried). ``tests/test_ratings.py``
checks it against scipy on the same function: ``scipy.optimize.minimize(method="trust-exact")``, which the fit used
before, and ``scipy.optimize.root`` on the gradient.

The 95% error of a rating is the half-width of its interval, ``1.96 * sqrt(Var r_i)``, with the covariance of the
centred ratings taken as ``P H^+ P``: ``H`` is the Hessian of the negative log-likelihood at the fit (the observed
Fisher information), ``^+`` its (pseudo-)inverse and ``P = I - 11^T / n`` the projection onto ratings with mean 0
(the normal approximation of the maximum-likelihood estimate). Ordo computes its errors by simulation
(replaying the games from the fitted ratings) instead. The Hessian treats every game as a win-or-loss trial of
probability ``P``; a draw scores ``1/2`` with less spread than that, so with many draws these errors are cautious
(on a checkers round robin with 25% draws, 63-74 Elo where the simulation gave 50-61).

The maximum-likelihood estimate does not exist when the agents split into two groups and one group scored every
point between them (an agent that won, or lost, every game: its rating runs off to infinity). As BayesElo and
similar tools do, the fit therefore adds a small prior: ``prior_draws`` virtual draws of every agent against a
virtual opponent rated 0 (default one), which keeps every rating finite and pulls the ratings a little towards 0
(on 6 agents with 120 games each: 1-6 Elo, 15 for an agent that scored 4.5 of 120). ``prior_draws=0`` gives
the plain maximum-likelihood fit and raises :class:`RatingsError` when it does not exist.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, Iterable, Sequence

if TYPE_CHECKING:  # numpy is imported by the fit only: a match's Elo needs none
    import numpy as np
    from numpy.typing import NDArray

ELO_PER_NATURAL_UNIT = 400.0 / math.log(10.0)
"""Elo points per unit of the natural logit (``P = 1 / (1 + exp(-(r_i - r_j) / 173.7...))``)."""
Z_95 = 1.959963984540054
"""The two-sided 95% quantile of the standard normal distribution."""
DEFAULT_PRIOR_DRAWS = 1.0
"""Virtual draws of each agent against a 0-rated opponent (see the module docstring)."""


class RatingsError(ValueError):
    """The results cannot be rated: an unknown agent, a score outside [0, 1], or (with no prior) a split where
    the maximum-likelihood ratings do not exist."""


@dataclass(frozen=True)
class Rating:
    """One agent's fitted rating."""

    agent: str
    rating: float
    """Elo points, mean 0 over the agents."""
    error_95: float
    """Half-width of the 95% interval, Elo points (``inf`` when the agent played no game and there is no prior)."""


def expected_score(r_i: float, r_j: float) -> float:
    """``P(i beats j)`` with a draw as half a point, for ratings in Elo points (the logistic Elo curve)."""
    return float(1.0 / (1.0 + 10.0 ** ((r_j - r_i) / 400.0)))


def elo_difference(score: float, n: int) -> float:
    """The Elo difference that makes ``score`` the expected score: the inverse of :func:`expected_score`,
    ``D = -400 log10(1/s - 1)``, with ``s`` clamped half a game from 0 and 1 so a clean sweep stays finite.

    Args:
        score: points per game, in [0, 1]. n: games played (>= 1).

    Raises:
        ZeroDivisionError: ``n`` is 0.
    """
    eps = 0.5 / n
    s = min(max(score, eps), 1 - eps)
    return -400.0 * math.log10(1.0 / s - 1.0)


def elo_estimate(score: float, se: float, n: int) -> tuple[float, float]:
    """A match's Elo difference and its 95% error, Elo points: :func:`elo_difference` of ``score`` over ``n``
    games, and half the width between the differences at ``score -/+ 1.96 se`` (``se``: the standard error of the
    mean per-game score; the normal approximation, as engine testers do, e.g. cutechess-cli).

    ``(0, 0)`` for no games. The one formula behind ``match``, the gauntlet and the match figure.
    """
    if n == 0:
        return 0.0, 0.0
    return (elo_difference(score, n),
            (elo_difference(score + 1.96 * se, n) - elo_difference(score - 1.96 * se, n)) / 2.0)


def fit_ratings(agents: Sequence[str], games: Iterable[tuple[str, str, float]],
                prior_draws: float = DEFAULT_PRIOR_DRAWS) -> list[Rating]:
    """Bradley-Terry ratings (Elo scale, mean 0) and their 95% errors from a list of games.

    Args:
        agents: the agents' names, in the order wanted back (an agent without games is allowed).
        games: ``(i, j, s)`` per game: agent ``i`` scored ``s`` (1 win, 0.5 draw, 0 loss) against agent ``j``.
        prior_draws: virtual draws of every agent against a 0-rated opponent (>= 0; 0: the plain maximum
            likelihood).

    Returns:
        One :class:`Rating` per agent, in the order of ``agents``.

    Raises:
        RatingsError: an agent of ``games`` is not in ``agents``, an agent plays itself, a score is outside
            [0, 1], ``prior_draws`` is negative, or with ``prior_draws=0`` the results split the agents into
            groups one of which scored every point between them (the estimate does not exist).
    """
    import numpy as np
    names = list(agents)
    n = len(names)
    index = {a: k for k, a in enumerate(names)}
    if len(index) != n:
        raise RatingsError("an agent name is given twice")
    if prior_draws < 0 or not math.isfinite(prior_draws):
        raise RatingsError(f"prior_draws must be a finite number >= 0, got {prior_draws}")
    score = np.zeros((n, n))  # score[i, j]: points of i against j
    count = np.zeros((n, n))  # games between i and j (symmetric)
    for a, b, s in games:
        if a not in index or b not in index:
            raise RatingsError(f"a game names an agent that is not rated: {a if a not in index else b!r}")
        if a == b:
            raise RatingsError(f"agent {a!r} cannot play itself")
        if not 0.0 <= s <= 1.0:
            raise RatingsError(f"a score must be in [0, 1], got {s}")
        i, j = index[a], index[b]
        score[i, j] += s
        score[j, i] += 1.0 - s
        count[i, j] += 1.0
        count[j, i] += 1.0
    if n == 0:
        return []
    if prior_draws == 0:
        _check_exists(names, score)
    theta = _maximise(score, count, prior_draws)
    hess = observed_information(theta, count, prior_draws)
    proj = np.eye(n) - np.full((n, n), 1.0 / n)
    cov = proj @ np.linalg.pinv(hess, hermitian=True) @ proj
    theta = theta - theta.mean()
    out = []
    for k, a in enumerate(names):
        played = count[k].sum() > 0 or prior_draws > 0
        err = Z_95 * math.sqrt(max(float(cov[k, k]), 0.0)) * ELO_PER_NATURAL_UNIT if played else math.inf
        out.append(Rating(a, float(theta[k]) * ELO_PER_NATURAL_UNIT, err))
    return out


def _sigmoid(x: NDArray[np.float64]) -> NDArray[np.float64]:
    import numpy as np
    out: NDArray[np.float64] = 0.5 * (1.0 + np.tanh(0.5 * x))  # exact logistic, no overflow
    return out


def _negative_log_likelihood(theta: NDArray[np.float64], score: NDArray[np.float64], count: NDArray[np.float64],
                             prior: float) -> tuple[float, NDArray[np.float64]]:
    """``-log L`` and its gradient for natural-unit ratings ``theta`` (each pair counted from both sides, so
    halved), plus the prior's virtual draws against 0."""
    import numpy as np
    diff = theta[:, None] - theta[None, :]
    p = _sigmoid(diff)
    # log P = -log(1 + exp(-x)) = -logaddexp(0, -x), stable for any x
    ll = 0.5 * float(np.sum(score * -np.logaddexp(0.0, -diff) + (count - score) * -np.logaddexp(0.0, diff)))
    grad = np.sum(score - count * p, axis=1)  # d ll / d theta_i
    if prior > 0:
        ll += float(np.sum(0.5 * prior * (-np.logaddexp(0.0, -theta) - np.logaddexp(0.0, theta))))
        grad = grad + prior * (0.5 - _sigmoid(theta))
    return -ll, -grad


def observed_information(theta: NDArray[np.float64], count: NDArray[np.float64], prior: float) -> NDArray[np.float64]:
    """The Hessian of ``-log L`` (the observed Fisher information) at natural-unit ratings ``theta`` (shape ``(n,)``)
    for the games ``count`` (shape ``(n, n)``, games between each pair) and ``prior`` virtual draws of each agent
    against a rating of 0: a matrix of shape ``(n, n)``. Its pseudo-inverse is the ratings' covariance."""
    import numpy as np
    p = _sigmoid(theta[:, None] - theta[None, :])
    w = count * p * (1.0 - p)
    hess: NDArray[np.float64] = -w
    np.fill_diagonal(hess, w.sum(axis=1) - np.diag(w))
    if prior > 0:
        q = _sigmoid(theta)
        hess = hess + np.diag(prior * q * (1.0 - q))
    return hess


def objective(score: NDArray[np.float64], count: NDArray[np.float64], prior: float) -> tuple[
        Callable[[NDArray[np.float64]], tuple[float, NDArray[np.float64]]],
        Callable[[NDArray[np.float64]], NDArray[np.float64]]]:
    """The function the fit minimises over natural-unit ratings ``theta`` (shape ``(n,)``), for the points ``score``
    (shape ``(n, n)``: what each agent scored against each other) in the games ``count`` (shape ``(n, n)``) and
    ``prior`` virtual draws (the Bradley-Terry model, fitted by maximum likelihood), as two callables:
    ``theta -> (value, gradient of shape (n,))`` and ``theta -> Hessian of shape (n, n)``.

    With a prior it is ``-log L`` plus the virtual draws, strictly convex. Without one the likelihood is flat along
    ``theta + c`` (only differences count), so a penalty ``(mean theta)^2 / 2`` pins the free shift: it leaves the
    optimum of the differences where it was, puts the mean at 0 and makes the function strictly convex whenever the
    estimate exists (:func:`_check_exists`)."""
    import numpy as np
    n = score.shape[0]
    if prior > 0:
        def f(t: NDArray[np.float64]) -> tuple[float, NDArray[np.float64]]:
            return _negative_log_likelihood(t, score, count, prior)

        def h(t: NDArray[np.float64]) -> NDArray[np.float64]:
            return observed_information(t, count, prior)
    else:
        def f(t: NDArray[np.float64]) -> tuple[float, NDArray[np.float64]]:
            v, g = _negative_log_likelihood(t, score, count, 0.0)
            m = float(t.mean())
            return v + 0.5 * m * m, g + m / n

        def h(t: NDArray[np.float64]) -> NDArray[np.float64]:
            out: NDArray[np.float64] = observed_information(t, count, 0.0) + np.full((n, n), 1.0 / (n * n))
            return out
    return f, h


GRADIENT_TOLERANCE = 1e-10
"""The fit stops when the gradient's Euclidean norm (natural units) is at most this, or at most ``1e-13`` per game
beyond 1,000 games (the gradient is a sum over the games, so its rounding, about ``2e-16`` a game, grows with them)."""
MAX_NEWTON_STEPS = 200
"""Newton steps before the fit gives up (:class:`RatingsError`); the tables tried took 5-12."""


def _maximise(score: NDArray[np.float64], count: NDArray[np.float64], prior: float) -> NDArray[np.float64]:
    """The maximum-likelihood ratings in natural units, shape ``(n,)``: :func:`objective` minimised by Newton's
    method with the exact Hessian and a backtracking (Armijo) line search.

    Each step solves ``H d = -g`` (``H`` is positive definite: the objective is strictly convex) and halves the step
    ``t d`` until the value falls by at least ``1e-4 t |g . d|`` (Nocedal and Wright, *Numerical Optimization*,
    2nd ed., algorithm 3.1); a convex function's Newton iteration damped this way converges from any start, and
    quadratically once full steps are taken (Boyd and Vandenberghe, *Convex Optimization*, 9.5). When the predicted
    decrease ``|g . d|`` is below what the value's rounding can show, the full step is taken untested (the iteration
    is then in its quadratic phase). It starts at ``theta = 0`` and stops on :data:`GRADIENT_TOLERANCE`.

    Raises:
        RatingsError: no convergence within :data:`MAX_NEWTON_STEPS` steps, a Hessian that cannot be solved, or a
            line search that finds no decrease.
    """
    import numpy as np
    f, h = objective(score, count, prior)
    n = score.shape[0]
    tolerance = max(GRADIENT_TOLERANCE, 1e-13 * (0.5 * float(count.sum()) + prior * n))
    theta: NDArray[np.float64] = np.zeros(n)
    value, grad = f(theta)
    for _ in range(MAX_NEWTON_STEPS):
        norm = float(np.linalg.norm(grad))
        if norm <= tolerance:
            return theta
        try:
            direction = np.linalg.solve(h(theta), -grad)
        except np.linalg.LinAlgError as err:
            raise RatingsError(f"the ratings' fit failed: the Hessian is singular ({err})") from None
        slope = float(grad @ direction)  # < 0: a descent direction
        if not math.isfinite(slope) or slope >= 0:
            raise RatingsError(f"the ratings' fit failed: the Newton step is not a descent direction (slope {slope})")
        rounding = 16 * np.finfo(float).eps * max(1.0, abs(value))
        step = 1.0
        while True:
            candidate = theta + step * direction
            new_value, new_grad = f(candidate)
            if -slope <= rounding or new_value <= value + 1e-4 * step * slope:
                break
            step *= 0.5
            if step < 1e-12:
                raise RatingsError("the ratings' fit failed: the line search found no decrease "
                                   f"(gradient norm {norm:.3g})")
        theta, value, grad = candidate, new_value, new_grad
    raise RatingsError(f"the ratings' fit did not converge in {MAX_NEWTON_STEPS} Newton steps (gradient norm "
                       f"{float(np.linalg.norm(grad)):.3g}, tolerance {tolerance:.3g})")


def _check_exists(names: list[str], score: NDArray[np.float64]) -> None:
    """Raise unless every agent can reach every other along "scored a point against" edges (Zermelo's condition
    for a finite maximum-likelihood estimate: the directed graph is strongly connected)."""
    n = len(names)
    if n < 2:
        return
    edge = score > 0  # i scored something against j

    def reach(forward: bool) -> set[int]:
        seen, todo = {0}, [0]
        while todo:
            i = todo.pop()
            for j in range(n):
                if j not in seen and (edge[i, j] if forward else edge[j, i]):
                    seen.add(j)
                    todo.append(j)
        return seen

    out, back = reach(True), reach(False)
    if len(out) < n or len(back) < n:
        # ``out`` scored nothing against the others; the agents outside ``back`` scored nothing against it
        losers = out if len(out) < n else set(range(n)) - back
        group = sorted(names[k] for k in losers)
        raise RatingsError("the maximum-likelihood ratings do not exist: "
                           f"{', '.join(group[:5])}{' ...' if len(group) > 5 else ''} scored no point against "
                           "the other agents (or played none of them); use a prior (prior_draws > 0)")
