"""Progress bars (gameplay.cli.progress, tqdm): a live bar on a terminal, about ten lines in a log, the match's
score."""

from __future__ import annotations

import io

import pytest

from gameplay.cli.progress import CountProgress, progress_bar


class Terminal(io.StringIO):
    """Standard error as a terminal."""

    def isatty(self) -> bool:
        return True


def test_in_a_log_a_bar_writes_a_line_per_tenth_and_the_end_once(capsys: pytest.CaptureFixture[str]) -> None:
    with progress_bar(45, "work", "item") as bar:
        for _ in range(45):
            bar.update(1)
    lines = capsys.readouterr().err.splitlines()
    # 4, 8, ..., 44 and 45: nothing before the first step, the end not twice, no carriage return
    assert [line.split("|")[2].split()[0] for line in lines] == [f"{n}/45" for n in range(4, 45, 4)] + ["45/45"]
    assert all(line.startswith("work:") and "\r" not in line for line in lines)


def test_a_long_run_stays_about_ten_lines_in_a_log(capsys: pytest.CaptureFixture[str]) -> None:
    count = CountProgress("solving", "state", unit_scale=True)
    for done in range(0, 505_001, 2_525):  # 201 calls, as the Pig policy's value iteration makes
        count(done, 505_000)
    err = capsys.readouterr().err
    assert 10 <= len(err.splitlines()) <= 11 and "505k/505k" in err.splitlines()[-1]


def test_on_a_terminal_the_bar_redraws_in_place(monkeypatch: pytest.MonkeyPatch) -> None:
    term = Terminal()
    monkeypatch.setattr("sys.stderr", term)
    with progress_bar(3, "work", "item", mininterval=0) as bar:
        for _ in range(3):
            bar.update(1)
    text = term.getvalue()
    assert text.count("\r") >= 3 and text.endswith("\n") and text.count("\n") == 1 and "3/3" in text


def test_an_interrupted_bar_stays_as_drawn_for_the_message_that_ends_its_line(monkeypatch: pytest.MonkeyPatch
                                                                             ) -> None:
    term = Terminal()
    monkeypatch.setattr("sys.stderr", term)
    with pytest.raises(KeyboardInterrupt), progress_bar(10, "work", "item", mininterval=0) as bar:
        bar.update(4)
        raise KeyboardInterrupt
    text = term.getvalue()
    assert "4/10" in text.split("\r")[-1] and not text.endswith("\n")  # the CLI writes "\ninterrupted ..." next


def test_quiet_draws_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    with progress_bar(10, "work", "item", show=False) as bar:
        bar.update(10)
    assert capsys.readouterr().err == ""


def test_a_match_in_a_log_shows_the_score_about_ten_times(capsys: pytest.CaptureFixture[str]) -> None:
    from gameplay.cli import run
    assert run(["match", "tictactoe", "--p1", "random:seed=1", "--p2", "random:seed=2", "--games", "40",
                "--pdn", "none"]) == 0
    out, err = capsys.readouterr()
    lines = err.splitlines()
    assert len(lines) == 10 and all("p1 score" in line for line in lines)
    final = float(lines[-1].rsplit("p1 score ", 1)[1].rstrip("]"))
    assert "40/40" in lines[-1] and f"score {final:.3f}" in out  # the bar's last score is the match's
