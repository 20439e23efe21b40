"""Issue 35 §5, classic events by the rule files (/work/shared/rules): an announced absence
scores nothing by default (C.04.2 D.4) and a round robin's unplayed game is "−"/"+" (C.06
11); a Gibson board in a TRF (XXG) is checked against the Gibson rule; a manual Swiss
pairing unlike the system's needs a reason (C.04.2 A.4/A.5), kept in the log and the TRF."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest
from click.testing import CliRunner

from duplicate.record.event_kinds import EventKind
from duplicate.service.errors import InvalidInput, MissingReason
from duplicate.service.facade import TournamentService
from duplicate.storage.database import open_database
from ranking.classic.engines import PairingSystem, py4swiss_installed
from ranking.classic.gibson import gibson_problems
from ranking.classic.replay import check_tournament
from ranking.classic.service import ClassicService
from ranking.classic.standings import Board, Seeded, standings
from ranking.classic.trf import RoundCell, Trf, TrfPlayer, read_trf, write_trf
from ranking.classic.views import DivisionSettings
from tests.credentials import JUDGE_PIN
from tui.cli.main import main

needs_py4swiss = pytest.mark.skipif(not py4swiss_installed(), reason="py4swiss no se instala en este sistema")


def classic_event(tmp_path: Path, players: int, system: str, rounds: int, **settings: object
                  ) -> tuple[TournamentService, ClassicService]:
    database = open_database(str(tmp_path / "clasico.db"))
    tournament = TournamentService(database, station="mesa", pin=JUDGE_PIN)
    tournament.create_tournament("Clásico por el reglamento")
    for index in range(1, players + 1):
        tournament.add_player(f"Jugador {index:02d}")
    classic = ClassicService.like(tournament)
    classic.create_division(rounds=rounds, system=system,
                            settings=DivisionSettings(tie_breaks=(), first_colour="w", **settings))  # type: ignore[arg-type]
    return tournament, classic


def play(classic: ClassicService, number: int) -> None:
    for board in classic.boards(number):
        if board.table is not None:
            classic.enter_result(number, board.table, 400, 300)


# --- byes asked for: C.04.2 D.4, C.06 11 ------------------------------------------------


@needs_py4swiss
def test_C04_2_D4_an_announced_absence_scores_nothing_unless_the_rules_say_otherwise(tmp_path: Path) -> None:
    _, classic = classic_event(tmp_path, 6, PairingSystem.DUTCH_2026.value, 3)
    classic.request_bye(3, 1)                                    # the default: zero
    classic.request_bye(4, 1, "H")                               # the tournament's rules say ½
    classic.pair_round()
    play(classic, 1)
    wins = {line.number: line.wins for line in classic.standings()}
    assert (wins[3], wins[4]) == (Fraction(0), Fraction(1, 2))
    trf = read_trf(classic.trf_text())
    assert (trf.player(3).rounds[0].result, trf.player(4).rounds[0].result) == ("Z", "H")


def test_C06_11_a_round_robin_absence_is_an_unplayed_game_minus_plus(tmp_path: Path) -> None:
    _, classic = classic_event(tmp_path, 4, "round-robin", 3)
    with pytest.raises(InvalidInput, match=r"C\.06 11"):
        classic.request_bye(1, 1, "H")                           # no half point in a round robin
    classic.request_bye(1, 1)
    boards = classic.pair_round()                                # Berger round 1 of 4: 1-4, 2-3
    assert [(b.table, b.first, b.second, b.forfeit) for b in boards if b.table is None] == [(None, 1, 4, "first")]
    play(classic, 1)
    wins = {line.number: line.wins for line in classic.standings()}
    assert (wins[1], wins[4]) == (Fraction(0), Fraction(1))
    trf = read_trf(classic.trf_text())
    assert (trf.player(1).rounds[0].result, trf.player(4).rounds[0].result) == ("-", "+")


def test_the_command_line_bye_is_zero_by_default_and_half_when_asked(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    tournament, classic = classic_event(tmp_path, 6, PairingSystem.DUTCH_2026.value, 3)
    monkeypatch.setenv("DUPLICADA_DB", str(tmp_path / "clasico.db"))
    monkeypatch.setenv("DUPLICADA_PIN", JUDGE_PIN)
    runner = CliRunner()
    assert runner.invoke(main, ["classic", "bye", "2", "1"]).exit_code == 0
    assert runner.invoke(main, ["classic", "bye", "5", "1", "--half"]).exit_code == 0
    kinds = [event.payload["change"] for event in tournament.history() if event.kind == EventKind.CLASSIC_ENTRY
             and event.payload["change"].endswith("-bye")]
    assert kinds == ["zero-bye", "half-bye"]


# --- Gibson records: checked against the rule -------------------------------------------


@pytest.fixture(scope="module")
def gibson_trf(tmp_path_factory: pytest.TempPathFactory) -> str:
    """12 players, 4 rounds, Gibson rule: player 1 wins every game, every other is drawn,
    so after round 3 player 1 (3 wins) has clinched first place against 1½ at most."""
    if not py4swiss_installed():
        pytest.skip("py4swiss no se instala en este sistema")
    _, classic = classic_event(tmp_path_factory.mktemp("gibson"), 12, PairingSystem.DUTCH.value, 4, gibson=True)
    for number in range(1, 5):
        for board in classic.pair_round():
            if board.table is not None:
                scores = (450, 300) if board.first == 1 else (300, 450) if board.second == 1 else (380, 380)
                classic.enter_result(number, board.table, *scores)
    return classic.trf_text()


def test_a_gibson_record_of_a_leader_who_had_not_clinched_is_refused_by_the_checker(gibson_trf: str,
                                                                                    tmp_path: Path) -> None:
    trf = read_trf(gibson_trf)
    assert trf.gibson_board(4) is not None and check_tournament(trf, PairingSystem.DUTCH) == (4, None)
    board = next((cell.opponent, 1) for cell in trf.player(1).rounds[1:2])      # 1's board of round 2
    forged = gibson_trf + f"XXG 2 {board[1]} {board[0]}\n"
    checked, difference = check_tournament(read_trf(forged), PairingSystem.DUTCH)
    assert checked == 1 and difference is not None and difference.number == 2
    assert any("no tenía asegurado el primer puesto" in reason for reason in difference.reasons)
    (tmp_path / "falso.trf").write_text(forged, encoding="utf-8")
    result = CliRunner().invoke(main, ["classic", "check", str(tmp_path / "falso.trf"), "--system", "dutch"])
    assert result.exit_code == 1 and "no cumple la regla Gibson" in result.output


def test_a_gibson_opponent_still_in_contention_or_met_before_breaks_the_rule() -> None:
    """Six players, three rounds. Round 1: 1 beats 3, 2 and 4 both forfeit, 5 and 6 draw;
    round 2: 1 beats 4, 2-3 and 5-6 both forfeit. Player 1 (2 wins) has clinched first
    place against ½ with one round left; of the players it has not met (2, 5, 6) only 2
    (0 wins) is the lowest placed, and nobody is out of contention (½ + 1 is not below ½)."""
    games = {1: [(1, 3, "1", "0"), (2, 4, "-", "-"), (5, 6, "=", "=")],
             2: [(1, 4, "1", "0"), (2, 3, "-", "-"), (5, 6, "-", "-")],
             3: [(1, 5, "1", "0"), (2, 6, "1", "0"), (3, 4, "1", "0")]}
    cells: dict[int, list[RoundCell]] = {number: [] for number in range(1, 7)}
    for pairs in games.values():
        for first, second, first_result, second_result in pairs:
            cells[first].append(RoundCell(second, "w", first_result))
            cells[second].append(RoundCell(first, "b", second_result))
    trf = read_trf(write_trf(Trf(tuple(TrfPlayer(n, f"Jugador {n}", 0, tuple(cells[n])) for n in cells),
                                 total_rounds=3)))
    assert gibson_problems(trf, 3, (1, 2)) == []
    problems = gibson_problems(trf, 3, (1, 5))
    assert problems and "aún podía alcanzar el segundo puesto" in problems[0]
    assert "ya se había enfrentado" in gibson_problems(trf, 3, (4, 1))[0]
    assert "no tenía asegurado" in gibson_problems(trf, 2, (1, 4))[0]     # 1 win against ½, two rounds left
    assert "XXR" in gibson_problems(replace(trf, total_rounds=None), 3, (1, 2))[0]


# --- a manual Swiss round unlike the system's: C.04.2 A.4/A.5 ---------------------------


@needs_py4swiss
def test_C04_2_A4_A5_a_manual_swiss_round_unlike_the_system_needs_a_reason_kept_and_checked(
        tmp_path: Path) -> None:
    tournament, classic = classic_event(tmp_path, 4, PairingSystem.DUTCH.value, 3)
    classic.pair_round()
    play(classic, 1)
    met = {b.first: b.second for b in classic.boards(1)}          # every first player won 400-300
    winner, other = sorted(met)
    # Each winner against the loser it has not met: no rule of C.04.1 broken, but not what the
    # system gives (the two winners together).
    manual = [(winner, met[other]), (other, met[winner])]
    before = tournament.last_event_id()
    with pytest.raises(MissingReason, match=r"C\.04\.2 A\.4/A\.5"):
        classic.pair_round(manual=manual)
    assert tournament.last_event_id() == before
    classic.pair_round(manual=manual, reason="los jugadores 1 y 2 son hermanos")
    event = [e for e in tournament.history() if e.kind == EventKind.ROUND_PAIRED][-1]
    assert event.payload["method"] == "manual" and event.payload["system_pairs"]
    assert event.reason == "los jugadores 1 y 2 son hermanos"
    play(classic, 2)
    text = classic.trf_text()
    assert "XXM 2 los jugadores 1 y 2 son hermanos" in text
    checked, difference = check_tournament(read_trf(text), PairingSystem.DUTCH)
    assert difference is not None and difference.number == 2
    assert any("«los jugadores 1 y 2 son hermanos»" in reason and "A.4/A.5" in reason
               for reason in difference.reasons)


# --- tie-breaks: the edition the docs name ----------------------------------------------


def test_tie_breaks_are_C07s_as_the_docs_say_not_the_C06_annexs_draw_against_oneself() -> None:
    """docs/classic.md «Tie-breaks and unplayed games»: C.07 as gacrux computes it, not the
    C.06 annex (an unplayed game a draw against oneself); its example holds."""
    docs = (Path(__file__).parents[2] / "docs" / "classic.md").read_text(encoding="utf-8")
    section = docs.split("### Tie-breaks and unplayed games: which edition")[1].split("\n## ")[0]
    assert "C.07" in section and "annex to C.06" in section and "Why C.07" in section
    players = [Seeded(number, f"Jugador {number}") for number in range(1, 7)]
    boards = [Board(1, 1, 2, 400, 300), Board(1, 3, 4, 400, 300), Board(1, 5, 6, forfeit="second"),
              Board(2, 1, 3, 400, 300), Board(2, 5, 2, 400, 300), Board(2, 4, 6, 400, 300)]
    lines = {line.number: line for line in standings(players, boards, rounds=3, played=2, tie_breaks=("BH", "SB"))}
    assert lines[5].wins == 2 and lines[6].wins == lines[2].wins == 0
    assert lines[5].tie_breaks == {"BH": 0.0, "SB": 0.0}        # the annex: BH 1.5, SB 0.75
