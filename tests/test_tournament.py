"""Class tournaments (gameplay/tournament*.py): schedule, journal, resume and table, with a fake game runner.

The runner stand-in (tests/tournament_fakes.py) plays ``s<rating>`` agents from the Elo curve with the task's
seed, so every result is deterministic and the tests take milliseconds. The engines, a killed run and the real
runner are in tests/test_tournament_engines.py.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from tournament_fakes import FakeTask, crashing_play, fake_play

from gameplay.tournament.journal import open_journal, read_journal
from gameplay.tournament.model import (
    Entrant,
    TournamentError,
    TournamentSpec,
    default_rounds,
    entrants_from_dir,
    make_entrant,
    round_robin,
    swiss_games,
    swiss_pairings,
)
from gameplay.tournament.report import ratings_svg, report_html
from gameplay.tournament.run import journal_record, run_tournament


def _spec(game: str = "tictactoe", agents: tuple[str, ...] = ("s0", "s100", "s200"), **kw: object) -> TournamentSpec:
    return TournamentSpec(game, tuple(Entrant(a, a) for a in agents), **kw)  # type: ignore[arg-type]


def _run(spec: TournamentSpec, journal: Path, play: object = fake_play, **kw: object) -> object:
    return run_tournament(spec, journal, play=play, task_factory=FakeTask, progress=False, **kw)  # type: ignore


# ----- schedule ---------------------------------------------------------------------------------------------------
def test_round_robin_with_ballots_takes_the_deck_in_order_each_twice_with_colours_swapped() -> None:
    from gameplay.rules.checkers.ballots import load_ballots
    deck = load_ballots()
    spec = _spec("checkers", ("A", "B", "C"), openings="ballots", games_per_pair=6)
    games = round_robin(spec)
    assert len(games) == 3 * 6 == spec.total_games()
    assert len({g.key for g in games}) == len(games)
    assert sorted(g.number for g in games) == list(range(1, 19))
    assert [g.pair for g in games[:3]] == [("A", "B"), ("A", "C"), ("B", "C")]  # pairs interleaved
    ab = sorted((g for g in games if g.pair == ("A", "B")), key=lambda g: g.number)
    assert [g.opening for g in ab] == [str(deck[k // 2].number) for k in range(6)]
    assert [g.opening_label for g in ab[:2]] == [deck[0].label()] * 2
    assert [(g.first, g.second) for g in ab] == [("A", "B"), ("B", "A")] * 3
    assert ab[1].key == f"A|B|ACF {deck[0].number}|B first"
    task = ab[1].task(spec, FakeTask)
    assert task.agents == ("B", "A") and task.opening == str(deck[0].number) and task.game == "checkers"


def test_the_deck_wraps_around_with_a_lap_in_the_key() -> None:
    spec = _spec("checkers", ("A", "B"), openings="ballots", games_per_pair=314)
    keys = [g.key for g in round_robin(spec)]
    assert len(set(keys)) == 314
    assert keys[-1].endswith("lap 2|B first")


def test_without_openings_colours_alternate_and_seeds_differ_reproducibly() -> None:
    spec = _spec("pig", ("A", "B"), games_per_pair=5, seed=7)
    games = round_robin(spec)
    assert [g.first for g in games] == ["A", "B", "A", "B", "A"]
    assert all(g.opening is None and g.opening_label == "start" for g in games)
    seeds = [g.seed for g in games]
    assert len(set(seeds)) == 5
    assert seeds == [g.seed for g in round_robin(_spec("pig", ("A", "B"), games_per_pair=5, seed=7))]
    assert seeds != [g.seed for g in round_robin(_spec("pig", ("A", "B"), games_per_pair=5, seed=8))]


@pytest.mark.parametrize("kw, message", [
    ({"agents": ("A",)}, "at least 2 agents"),
    ({"agents": ("A", "A")}, "given twice"),
    ({"format": "knockout"}, "--format"),
    ({"games_per_pair": 0}, "--games-per-pair must be >= 1"),
    ({"openings": "ballots"}, "for checkers"),
    ({"openings": "book"}, "'ballots'"),
    ({"game": "checkers", "openings": "ballots", "games_per_pair": 3}, "even"),
    ({"time_limit_s": 0.0}, "--time"),
    ({"format": "swiss"}, "--rounds"),
    ({"rounds": 3}, "for --format swiss"),
])
def test_bad_definitions_are_refused(kw: dict[str, object], message: str) -> None:
    with pytest.raises(TournamentError, match=message):
        _spec(**kw)  # type: ignore[arg-type]


def test_agents_dir_takes_py_and_toml_files(tmp_path: Path) -> None:
    (tmp_path / "bob.toml").write_text('algorithm = "alphabeta"\n')
    (tmp_path / "alice.py").write_text("def choose(state):\n    return None\n")
    (tmp_path / "_helper.py").write_text("")
    (tmp_path / "notes.txt").write_text("")
    found = entrants_from_dir(tmp_path)
    assert [e.name for e in found] == ["alice.py", "bob.toml"]
    assert found[0].spec == f"file:{tmp_path / 'alice.py'}" and len(found[0].fingerprint) == 64
    with pytest.raises(TournamentError, match="cannot read the agent file"):
        make_entrant("file:/no/such/agent.py")
    with pytest.raises(TournamentError, match="cannot contain"):
        make_entrant("a|b")


# ----- running, journal, resume -------------------------------------------------------------------------------
def test_a_round_robin_plays_every_game_once_and_journals_each(tmp_path: Path) -> None:
    spec = _spec(agents=("s0", "s100", "s200", "s-300"), games_per_pair=8)
    journal = tmp_path / "t.jsonl"
    run = _run(spec, journal)
    assert run.complete and run.played_now == 48 == run.scheduled  # type: ignore[attr-defined]
    lines = journal.read_text().splitlines()
    assert json.loads(lines[0])["type"] == "tournament" and len(lines) == 49
    keys = [json.loads(line)["key"] for line in lines[1:]]
    assert sorted(keys) == sorted(g.key for g in round_robin(spec))
    rows = {r.agent: r for r in run.table.rows}  # type: ignore[attr-defined]
    assert sum(r.points for r in rows.values()) == 48
    assert all(r.games == 24 and r.wins + r.draws + r.losses == 24 for r in rows.values())
    cross = run.table.crosstable  # type: ignore[attr-defined]
    assert cross["s0"]["s100"]["points"] + cross["s100"]["s0"]["points"] == 8
    assert sum(r.rating for r in rows.values()) == pytest.approx(0, abs=1e-6)
    assert rows["s200"].rating > rows["s-300"].rating
    assert (tmp_path / "t-games" / "game-0001.txt").read_text().startswith("# tictactoe tournament game 1")
    again = _run(spec, journal)  # everything is in the journal: nothing is played again
    assert again.played_now == 0 and again.table.rows == run.table.rows  # type: ignore[attr-defined]


def test_resume_after_a_kill_mid_line_plays_exactly_the_missing_games(tmp_path: Path) -> None:
    spec = _spec(agents=("s0", "s100", "s200"), games_per_pair=6)
    full = _run(spec, tmp_path / "full.jsonl")
    journal = tmp_path / "t.jsonl"
    _run(spec, journal)
    lines = journal.read_text().splitlines(keepends=True)
    journal.write_text("".join(lines[:8]) + lines[8][:25])  # 7 games, then a line cut short by the kill
    run = _run(spec, journal)
    assert run.played_now == 11  # type: ignore[attr-defined]
    keys = Counter(json.loads(line)["key"] for line in journal.read_text().splitlines()[1:])
    assert len(keys) == 18 and set(keys.values()) == {1}
    assert run.table.rows == full.table.rows  # type: ignore[attr-defined]


def test_a_journal_of_another_tournament_or_a_foreign_game_is_refused(tmp_path: Path) -> None:
    journal = tmp_path / "t.jsonl"
    _run(_spec(games_per_pair=2), journal)
    with pytest.raises(TournamentError, match=r"another tournament: the agents differ \(s300\)"):
        _run(_spec(agents=("s0", "s100", "s200", "s300"), games_per_pair=2), journal)
    with pytest.raises(TournamentError, match="games_per_pair is 2 there, 4 here"):
        _run(_spec(games_per_pair=4), journal)
    with pytest.raises(TournamentError, match="time is null there, 5.0 here"):
        _run(_spec(games_per_pair=2, time_limit_s=5.0), journal)
    rec = json.loads(journal.read_text().splitlines()[1])
    with journal.open("a") as f:
        f.write(json.dumps({**rec, "key": "s0|s100|game 9|s0 first"}) + "\n")
    with pytest.raises(TournamentError, match="not in this tournament's schedule: 's0|s100|game 9"):
        _run(_spec(games_per_pair=2), journal)
    bad = tmp_path / "bad.jsonl"
    bad.write_text(journal.read_text().splitlines()[0] + "\n{oops\n" + json.dumps(rec) + "\n")
    with pytest.raises(TournamentError, match=r"bad.jsonl:2: not a JSON line"):
        _run(_spec(games_per_pair=2), bad)
    other = tmp_path / "other.jsonl"
    other.write_text('{"hello": 1}\n')
    with pytest.raises(TournamentError, match="not a tournament journal"):
        _run(_spec(games_per_pair=2), other)


def test_a_changed_agent_file_is_noticed(tmp_path: Path) -> None:
    f = tmp_path / "alice.py"
    f.write_text("# v1\n")
    spec = TournamentSpec("tictactoe", (make_entrant(f"file:{f}", "alice.py"), Entrant("s0", "s0")),
                          games_per_pair=2)
    journal = tmp_path / "t.jsonl"
    _run(spec, journal)
    f.write_text("# v2\n")
    spec2 = TournamentSpec("tictactoe", (make_entrant(f"file:{f}", "alice.py"), Entrant("s0", "s0")),
                           games_per_pair=2)
    with pytest.raises(TournamentError, match="the file of agent alice.py changed"):
        _run(spec2, journal)


def test_a_journal_in_use_is_refused(tmp_path: Path) -> None:
    spec = _spec(games_per_pair=2)
    with open_journal(tmp_path / "t.jsonl", spec):
        with pytest.raises(TournamentError, match="in use by another running tournament"):
            open_journal(tmp_path / "t.jsonl", spec)


def test_a_game_that_fails_is_not_journaled_and_the_rerun_plays_it(tmp_path: Path) -> None:
    spec = _spec(agents=("s0", "s100"), games_per_pair=4)
    journal = tmp_path / "t.jsonl"
    run = _run(spec, journal, play=crashing_play)
    assert not run.complete and [k for k, _ in run.failed] == ["s0|s100|game 2|s100 first"]  # type: ignore
    assert "RuntimeError: worker lost" in run.failed[0][1]  # type: ignore[attr-defined]
    run = _run(spec, journal)
    assert run.complete and run.played_now == 1  # type: ignore[attr-defined]


def test_forfeits_are_losses_counted_with_their_reason(tmp_path: Path) -> None:
    spec = _spec(agents=("s0", "forfeit"), games_per_pair=4)
    run = _run(spec, tmp_path / "t.jsonl")
    rows = {r.agent: r for r in run.table.rows}  # type: ignore[attr-defined]
    assert rows["forfeit"].forfeits == 4 and rows["forfeit"].losses == 4 and rows["s0"].points == 4
    assert {(f["agent"], f["opponent"], f["reason"], f["detail"]) for f in run.table.failures} == {  # type: ignore
        ("forfeit", "s0", "time", "took 12.5 s, limit 10 s")}
    assert run.records[1]["forfeit_by"] == "forfeit" and run.records[1]["winner"] == "s0"  # type: ignore


def test_checkers_games_are_saved_as_pdn(tmp_path: Path) -> None:
    spec = _spec("checkers", ("s0", "s100"), openings="ballots", games_per_pair=2)
    run = _run(spec, tmp_path / "t.jsonl", games_dir=tmp_path / "pdn")
    files = sorted(p.name for p in (tmp_path / "pdn").iterdir())
    assert files == ["game-0001.pdn", "game-0002.pdn"]
    assert run.records[0]["file"] == "pdn/game-0001.pdn"  # type: ignore[attr-defined]
    assert (tmp_path / "pdn" / "game-0001.pdn").read_text().startswith('[Event "s0|s100|ACF')


def test_journal_record_maps_player_indices_to_names(tmp_path: Path) -> None:
    spec = _spec("tictactoe", ("A", "B"), games_per_pair=2)
    g = round_robin(spec)[1]  # B moves first
    res = fake_play(FakeTask(g.key, "tictactoe", ("B", "A"), seed=g.seed))
    rec = journal_record(spec, g, res, tmp_path / "g", tmp_path)
    assert (rec["first"], rec["second"]) == ("B", "A")
    assert rec["winner"] == (None if res.winner is None else ("B", "A")[res.winner])
    assert rec["file"] == "g/game-0002.txt"


# ----- Swiss ------------------------------------------------------------------------------------------------------
def test_swiss_pairs_by_points_without_rematches_and_rotates_the_bye(tmp_path: Path) -> None:
    agents = ("s0", "s100", "s200", "s300", "s-200")
    spec = _spec(agents=agents, format="swiss", rounds=3, games_per_pair=2, seed=3)
    assert default_rounds(5) == 5 and default_rounds(40) == 8 and default_rounds(2) == 1
    run = _run(spec, tmp_path / "t.jsonl")
    assert run.complete and len(run.records) == 3 * 2 * 2 == spec.total_games()  # type: ignore[attr-defined]
    byes = [n for _, n in run.byes]  # type: ignore[attr-defined]
    assert len(byes) == 3 and len(set(byes)) == 3
    met = Counter(frozenset((r["first"], r["second"])) for r in run.records)  # type: ignore[attr-defined]
    assert set(met.values()) == {2}  # 6 different pairings, each a 2-game mini-match
    recs = run.records  # type: ignore[attr-defined]
    pairs2, _ = swiss_pairings(spec, 2, recs)
    points = Counter[str]()
    for r in recs:
        if r["round"] == 1:
            for n in (r["first"], r["second"]):
                points[n] += 0.5 if r["winner"] is None else float(r["winner"] == n)
    assert max(points[n] for n in pairs2[0]) == max(points.values())  # the leader is paired first
    # deterministic: the same pairings from the same records
    assert [g.key for g in swiss_games(spec, 3, recs)[0]] == [g.key for g in swiss_games(spec, 3, recs)[0]]


def test_swiss_resumes_in_the_middle_of_a_round(tmp_path: Path) -> None:
    spec = _spec(agents=("s0", "s100", "s200", "s300"), format="swiss", rounds=3, games_per_pair=2)
    full = _run(spec, tmp_path / "full.jsonl")
    journal = tmp_path / "t.jsonl"
    _run(spec, journal)
    lines = journal.read_text().splitlines(keepends=True)
    journal.write_text("".join(lines[:7]))  # round 1 (4 games) and 2 of round 2
    run = _run(spec, journal)
    assert run.played_now == 6 and run.table.rows == full.table.rows  # type: ignore[attr-defined]
    rec = json.loads(lines[1])
    journal.write_text(lines[0] + json.dumps({**rec, "key": "R2|s0|s300|game 1|s0 first", "round": 2}) + "\n")
    with pytest.raises(TournamentError, match="not in this tournament's schedule"):
        _run(spec, journal)


# ----- report -----------------------------------------------------------------------------------------------------
def test_the_report_is_one_self_contained_page(tmp_path: Path) -> None:
    spec = _spec("checkers", ("s0", "s100", "forfeit"), openings="ballots", games_per_pair=2)
    journal = tmp_path / "j" / "t.jsonl"
    run = _run(spec, journal)
    page = report_html(run, tmp_path)
    assert page.startswith("<!DOCTYPE html>") and "<svg" in page and "<script" not in page
    assert 'href="j/t-games/game-0001.pdn"' in page
    assert "Forfeits" in page and "<b>time</b>" in page
    assert page.count("<circle") == 3
    header, records = read_journal(journal)
    assert header["game"] == "checkers" and len(records) == 6


def test_the_ratings_plot_puts_the_best_on_top() -> None:
    svg = ratings_svg([("low", -100.0, 40.0), ("high", 150.0, 30.0)])
    assert svg.index(">high<") < svg.index(">low<")
    assert svg.count("<circle") == 2
