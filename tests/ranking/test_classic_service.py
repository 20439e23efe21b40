"""Classic events through the service (issue 16): a division paired round by round by the
engines, results from several stations with conflicts for the judge, byes, forfeits,
withdrawals and late entries, roles, standings by wins then spread then tie-breaks, and the
exported TRF that re-pairs to the same rounds."""

from __future__ import annotations

import random
from fractions import Fraction
from pathlib import Path

import pytest

from duplicate.service.errors import InvalidInput, InvalidNumber, MissingReason, NotAuthorised, NotFound, StateConflict
from duplicate.service.facade import TournamentService
from duplicate.storage.database import open_database
from ranking.classic.engines import PairingSystem, py4swiss_installed
from ranking.classic.replay import check_tournament
from ranking.classic.service import ClassicService
from ranking.classic.trf import read_trf
from ranking.classic.views import DivisionSettings
from tests.credentials import ASSISTANT_PINS, JUDGE_PIN


@pytest.fixture
def services(tmp_path: Path) -> tuple[TournamentService, ClassicService]:
    database = open_database(str(tmp_path / "clasico.db"))
    tournament = TournamentService(database, station="mesa", pin=JUDGE_PIN)
    tournament.create_tournament("Open clásico de Añón")
    for index in range(12):
        tournament.add_player(f"Jugador {index:02d}", club="Club A" if index % 3 == 0 else "Club B")
    tournament.set_assistant_range("aux1", 1, 3)
    tournament.set_pin("assistant", ASSISTANT_PINS["aux1"], name="aux1")
    return tournament, ClassicService(database, station="mesa", pin=JUDGE_PIN)


def play(classic: ClassicService, rng: random.Random) -> None:
    for board in classic.boards():
        if board.table is not None:
            classic.enter_result(board.round, board.table, rng.randint(280, 520), rng.randint(280, 520))


def test_a_swiss_division_runs_and_its_trf_re_pairs_to_the_same_rounds(
        services: tuple[TournamentService, ClassicService]) -> None:
    _, classic = services
    classic.create_division(rounds=5, system=PairingSystem.DUTCH_2026.value)
    rng = random.Random(7)
    for _ in range(4):
        boards = classic.pair_round()
        assert len([b for b in boards if b.table is not None]) == 6 and all(b.second for b in boards)
        play(classic, rng)
    text = classic.trf_text()
    trf = read_trf(text)
    assert trf.rounds_played == 4 and trf.total_rounds == 5 and len(trf.players) == 12
    assert check_tournament(trf, PairingSystem.DUTCH_2026) == (4, None)     # the engine's own rounds
    # The rank column (86–89) carries the division's standings: wins, spread, tie-breaks.
    ranks = {int(line[4:8]): int(line[85:89]) for line in text.splitlines() if line.startswith("001")}
    assert ranks == {line.number: line.place for line in classic.standings()}


def test_standings_are_wins_then_spread_and_buchholz_is_the_sum_of_opponents_wins(
        services: tuple[TournamentService, ClassicService]) -> None:
    _, classic = services
    classic.create_division(rounds=4, system=PairingSystem.DUTCH_2026.value,
                            settings=DivisionSettings(tie_breaks=("BH",)))
    rng = random.Random(3)
    for _ in range(3):
        classic.pair_round()
        play(classic, rng)
    lines = classic.standings()
    assert [(-line.wins, -line.spread) for line in lines] == sorted((-line.wins, -line.spread) for line in lines)
    # Slow, obvious versions from the boards themselves.
    wins: dict[int, Fraction] = {line.number: Fraction(0) for line in lines}
    spread = {line.number: 0 for line in lines}
    opponents: dict[int, list[int]] = {line.number: [] for line in lines}
    for number in (1, 2, 3):
        for board in classic.boards(number):
            a, b = board.first_score, board.second_score
            assert a is not None and b is not None
            wins[board.first] += Fraction(1) if a > b else Fraction(1, 2) if a == b else 0
            wins[board.second] += Fraction(1) if b > a else Fraction(1, 2) if a == b else 0
            spread[board.first] += a - b
            spread[board.second] += b - a
            opponents[board.first].append(board.second)
            opponents[board.second].append(board.first)
    for line in lines:
        assert line.wins == wins[line.number] and line.spread == spread[line.number]
        assert line.tie_breaks["BH"] == float(sum(wins[o] for o in opponents[line.number]))
        assert line.games == 3 and line.points_for - line.points_against == line.spread


def test_two_stations_with_different_scores_leave_a_conflict_for_the_judge(
        services: tuple[TournamentService, ClassicService]) -> None:
    _, judge = services
    judge.create_division(rounds=3, system=PairingSystem.DUTCH_2026.value)
    judge.pair_round()
    assistant = ClassicService(judge.db, station="auxiliar", pin=ASSISTANT_PINS["aux1"])
    assert assistant.enter_result(1, 2, 400, 350) == "stored"
    assert judge.enter_result(1, 2, 400, 350) == "confirmed"
    assert assistant.enter_result(1, 2, 410, 350) == "conflict"
    board = next(b for b in judge.boards(1) if b.table == 2)
    assert board.conflict and (board.first_score, board.second_score) == (400, 350)    # the first stands
    with pytest.raises(NotAuthorised, match="mesa 5 no es del árbitro auxiliar «aux1»"):
        assistant.enter_result(1, 5, 300, 200)
    with pytest.raises(NotAuthorised):
        assistant.pair_round()
    for board in judge.boards(1):
        if board.table not in (None, 2):
            judge.enter_result(1, board.table, 300, 250)
    with pytest.raises(StateConflict) as refused:
        judge.pair_round()
    assert (refused.value.what, refused.value.state) == ("ronda 1", "incomplete")
    judge.resolve_result(1, 2, 410, 350, reason="acta firmada por los dos jugadores")
    judge.pair_round()
    kinds = [event.kind for event in TournamentService(judge.db).history()]
    assert {"division_created", "round_paired", "result_entered", "result_conflict", "result_resolved"} <= set(kinds)


def test_byes_forfeits_withdrawals_and_late_entries(services: tuple[TournamentService, ClassicService]) -> None:
    tournament, classic = services
    classic.create_division(rounds=4, system=PairingSystem.DUTCH_2026.value,
                            settings=DivisionSettings(bye_spread=40, forfeit_spread=60, tie_breaks=()))
    classic.request_bye(5, 1, "H")               # asked before round 1: not paired, half a win
    boards = classic.pair_round()
    paired = {n for b in boards for n in (b.first, b.second) if n}
    assert 5 not in paired and len(paired) == 11
    bye = next(b for b in boards if b.table is None)
    classic.record_forfeit(1, 1, "second", reason="no se presentó")
    play_all_but = [b for b in boards if b.table not in (None, 1)]
    for board in play_all_but:
        classic.enter_result(1, board.table or 0, 400, 300)
    lines = {line.number: line for line in classic.standings()}
    assert lines[5].wins == Fraction(1, 2) and lines[5].spread == 0
    assert lines[bye.first].wins == 1 and lines[bye.first].spread == 40
    first_table = boards[0]
    assert lines[first_table.first].spread == 60 and lines[first_table.second].spread == -60
    classic.withdraw(first_table.second, reason="abandona el torneo")
    tournament.add_player("Llegada Tardía")
    round_2 = classic.pair_round()
    numbers = {n for b in round_2 for n in (b.first, b.second) if n}
    assert first_table.second not in numbers and 13 in numbers and 5 in numbers
    trf = read_trf(classic.trf_text())
    assert trf.player(13).rounds[0].result == "Z" and trf.player(5).rounds[0].result == "H"


def test_a_manual_pairing_that_breaks_a_rule_needs_a_reason(services: tuple[TournamentService, ClassicService]) -> None:
    _, classic = services
    classic.create_division(rounds=3, system=PairingSystem.DUTCH_2026.value)
    classic.pair_round(manual=[(n, n + 6) for n in range(1, 7)],        # unlike the system (C.04.2 A.4/A.5)
                       reason="colores sorteados a mano")
    play(classic, random.Random(2))
    repeat = [(1, 7)] + [(n, n + 1) for n in (2, 4, 8, 10)] + [(6, 12)]
    with pytest.raises(MissingReason) as refused:
        classic.pair_round(manual=repeat)
    assert refused.value.action == "override_pairing"
    boards = classic.pair_round(manual=repeat, reason="desempate acordado por los jugadores")
    assert all(b.method == "manual" for b in boards)
    assert TournamentService(classic.db).history()[-1].reason == "desempate acordado por los jugadores"


def test_a_round_robin_follows_the_berger_tables(services: tuple[TournamentService, ClassicService]) -> None:
    _, classic = services
    classic.create_division(rounds=11, system="round-robin")
    met: set[frozenset[int]] = set()
    rng = random.Random(5)
    for _ in range(11):
        boards = classic.pair_round()
        met |= {frozenset((b.first, b.second)) for b in boards}
        play(classic, rng)
    assert len(met) == 66                          # 12 players: every pair once
    with pytest.raises(StateConflict) as refused:
        classic.pair_round()
    assert refused.value.state == "all_paired"


@pytest.mark.skipif(not py4swiss_installed(), reason="py4swiss no se instala en este sistema")
def test_the_default_system_is_py4swiss_dutch(services: tuple[TournamentService, ClassicService]) -> None:
    _, classic = services
    view = classic.create_division(rounds=5)
    assert view.system == "dutch"
    assert len(classic.pair_round()) == 6


@pytest.mark.slow
@pytest.mark.skipif(not py4swiss_installed(), reason="py4swiss no se instala en este sistema")
def test_a_simulated_150_player_9_round_event_end_to_end(tmp_path: Path) -> None:
    """Issue 16: the classic simulator runs a 150-player, 9-round Swiss event through the
    services; the exported TRF re-pairs round by round to exactly the stored rounds, no two
    players met twice, everyone was paired every round unless on a bye or withdrawn."""
    from ranking.classic.simulate import simulate_classic

    service = TournamentService(open_database(str(tmp_path / "sim.db")), station="simulador")
    result = simulate_classic(service, players=150, rounds=9, seed=16, judge_pin=JUDGE_PIN,
                              assistant_pin=ASSISTANT_PINS["aux1"])
    classic = ClassicService(service.db)
    assert result.rounds == 9 and result.boards >= 9 * 70
    met: set[frozenset[int]] = set()
    for number in range(1, 10):
        boards = classic.boards(number)
        games = [frozenset((b.first, b.second)) for b in boards if b.second]
        assert not met & set(games) and len(set(games)) == len(games)
        met |= set(games)
    trf = read_trf(classic.trf_text())
    assert trf.rounds_played == 9
    assert check_tournament(trf, PairingSystem.DUTCH) == (9, None)
    lines = classic.standings()
    assert len(lines) == 150 and lines[0].wins >= 7


@pytest.mark.skipif(not py4swiss_installed(), reason="py4swiss no se instala en este sistema")
def test_same_club_players_are_kept_apart_in_the_early_rounds(tmp_path: Path) -> None:
    database = open_database(str(tmp_path / "clubes.db"))
    service = TournamentService(database, pin=JUDGE_PIN)
    service.create_tournament("Clubes")
    plain, apart = ClassicService.like(service), ClassicService.like(service)
    plain.create_division(rounds=3, name="A")
    apart.create_division(rounds=3, name="B", settings=DivisionSettings(club_rounds=1))
    for division, offset in (("A", 0), ("B", 8)):    # each division holds its own eight players:
        for index in range(1, 9):                 # 1&5, 2&6, 3&7, 4&8 share a club: the Dutch round 1 pairs
            service.add_player(f"Jugador {index + offset:02d}", club=f"Club {index % 4}")   # exactly those
            plain.enter_player(f"Jugador {index + offset:02d}", division=division)
    club = {n: n % 4 for n in range(1, 9)}
    same = [b for b in plain.pair_round("A") if b.second and club[b.first] == club[b.second]]
    assert len(same) == 4                          # what the option prevents
    boards = apart.pair_round("B")
    assert all(club[b.first] != club[b.second] for b in boards if b.second)


@pytest.mark.skipif(not py4swiss_installed(), reason="py4swiss no se instala en este sistema")
def test_gibson_pairs_a_clinched_leader_with_a_player_out_of_contention(
        services: tuple[TournamentService, ClassicService]) -> None:
    _, classic = services
    classic.create_division(rounds=4, settings=DivisionSettings(gibson=True, tie_breaks=()))
    met: set[int] = set()
    for number in range(1, 4):                     # player 1 wins every game, every other game is drawn
        for board in classic.pair_round():
            if board.table is None:
                continue
            if 1 in (board.first, board.second):
                met.add(board.second if board.first == 1 else board.first)
                scores = (450, 300) if board.first == 1 else (300, 450)
            else:
                scores = (380, 380)
            classic.enter_result(number, board.table, *scores)
    lines = classic.standings()
    assert lines[0].number == 1 and lines[0].wins - lines[1].wins > 1         # clinched with a round to go
    boards = classic.pair_round()
    opponent = next(b.second if b.first == 1 else b.first for b in boards if 1 in (b.first, b.second))
    assert opponent not in met
    assert "regla Gibson" in TournamentService(classic.db).history()[-1].reason


def test_impossible_scores_and_unknown_boards_are_refused_and_nothing_changes(
        services: tuple[TournamentService, ClassicService]) -> None:
    _, classic = services
    classic.create_division(rounds=2, system=PairingSystem.DUTCH_2026.value)
    classic.pair_round()
    before = TournamentService(classic.db).last_event_id()
    # Each refusal: its error type and the input it names (fields, not the Spanish text).
    for call, kind, fields in (
            (lambda: classic.enter_result(1, 1, 5000, 300), InvalidNumber, {"what": "la puntuación", "value": 5000}),
            (lambda: classic.resolve_result(1, 1, 300, -900), InvalidNumber, {"what": "la puntuación", "value": -900}),
            (lambda: classic.enter_result(1, 99, 300, 200), NotFound, {"what": "mesa", "key": 99}),
            (lambda: classic.enter_result(7, 1, 300, 200), NotFound, {"what": "mesa", "key": 1}),
            (lambda: classic.record_forfeit(1, 1, "nadie"), InvalidInput,  # type: ignore[arg-type]
             {"what": "la incomparecencia", "value": "nadie"}),
            (lambda: classic.request_bye(99, 2), NotFound, {"what": "jugador", "key": 99}),
            (lambda: classic.request_bye(3, 9), NotFound, {"what": "ronda", "key": 9}),
            (lambda: classic.pair_round(manual=[(1, 2)]), StateConflict, {"what": "ronda 1", "state": "incomplete"})):
        with pytest.raises(kind) as refused:
            call()
        assert {name: getattr(refused.value, name) for name in fields} == fields
    assert TournamentService(classic.db).last_event_id() == before
    assert all(b.first_score is None for b in classic.boards(1))
    for board in classic.boards(1):
        if board.table is not None:
            classic.enter_result(1, board.table, 400, 300)
    before = TournamentService(classic.db).last_event_id()
    for manual, kind, value in (([], InvalidInput, ""), ([(1, 1)], InvalidInput, 1), ([(1, 2), (2, 3)], InvalidInput, 2),
                                ([(1, 77)], NotFound, 77), ([(1, 0), (2, 0)], InvalidInput, 2)):
        with pytest.raises(kind) as refused:
            classic.pair_round(manual=manual, reason="lo decide el juez")    # a reason does not make it possible
        assert (refused.value.key if isinstance(refused.value, NotFound) else refused.value.value) == value
    assert TournamentService(classic.db).last_event_id() == before and classic.boards(2) == []
