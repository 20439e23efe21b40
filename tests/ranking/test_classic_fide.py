"""Classic events by the book (issue 25 §5; FIDE C.04, C.06 in /work/shared/rules): the
Gibson board within the absolute criteria and its fallback, the initial colour drawn by lot,
the exported TRF that a third party re-checks (same-club pairs, Gibson boards)."""

from __future__ import annotations

import random
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

import pytest

from duplicate.service.errors import TournamentError
from duplicate.service.facade import TournamentService
from duplicate.storage.database import open_database
from ranking.classic.engines import PairingSystem, berger_schedule, py4swiss_installed
from ranking.classic.errors import PlayerWithdrawn, ReasonRequired
from ranking.classic.pairing_rules import Pair, check_pairing, colours_played
from ranking.classic.publish import scorecard_rows
from ranking.classic.replay import check_tournament, pairs_of_round
from ranking.classic.round_robin import round_robin_schedule
from ranking.classic.service import ClassicService
from ranking.classic.trf import read_trf
from ranking.classic.views import DivisionSettings
from tests.credentials import JUDGE_PIN

Played = tuple[int, int, str]      # first, second, who wins: "first", "second" or "draw"


def division(tmp_path: Path, players: int, **settings: object) -> ClassicService:
    database = open_database(str(tmp_path / "fide.db"))
    tournament = TournamentService(database, station="mesa", pin=JUDGE_PIN)
    tournament.create_tournament("Open por el reglamento")
    for index in range(1, players + 1):
        tournament.add_player(f"Jugador {index:02d}")
    classic = ClassicService(database, station="mesa", pin=JUDGE_PIN)
    classic.create_division(rounds=4, system=PairingSystem.DUTCH_2026.value,
                            settings=DivisionSettings(tie_breaks=(), first_colour="w", **settings))  # type: ignore[arg-type]
    return classic


def command_line(database: Path, monkeypatch: pytest.MonkeyPatch) -> Callable[..., str]:
    """``run(*args, code=0)``: the command line on ``database`` as the judge; asserts the exit
    code and returns the output."""
    from click.testing import CliRunner

    from tui.cli.main import main

    monkeypatch.setenv("DUPLICADA_DB", str(database))
    monkeypatch.setenv("DUPLICADA_PIN", JUDGE_PIN)
    runner = CliRunner()

    def run(*args: str, code: int = 0) -> str:
        result = runner.invoke(main, list(args))
        assert result.exit_code == code, result.output
        return result.output

    return run


def play_manual(classic: ClassicService, boards: list[Played]) -> None:
    """The judge pairs a round by hand (no rule broken, but unlike the system: a reason,
    C.04.2 A.4/A.5), then the results."""
    paired = classic.pair_round(manual=[(first, second) for first, second, _ in boards],
                                reason="ronda preparada para la prueba")
    for board, (_, _, winner) in zip(paired, boards):
        scores = {"first": (420, 300), "second": (300, 420), "draw": (350, 350)}[winner]
        classic.enter_result(board.round, board.table or 0, *scores)


def test_the_gibson_board_keeps_the_colour_rules(tmp_path: Path) -> None:
    """Player 1 wins three games and has clinched first place; player 6 (no wins, out of
    contention) moved second in rounds 2 and 3. With the colours the Gibson rule prefers
    (1 moved first no more often than 6) player 6 would move second three times running
    (C.04.1 g): player 6 moves first instead."""
    classic = division(tmp_path, 6, gibson=True)
    play_manual(classic, [(2, 1, "second"), (6, 3, "second"), (5, 4, "second")])
    play_manual(classic, [(1, 3, "first"), (5, 6, "first"), (4, 2, "draw")])
    play_manual(classic, [(4, 1, "second"), (2, 6, "first"), (3, 5, "draw")])
    boards = classic.pair_round()
    gibson = next(b for b in boards if 1 in (b.first, b.second))
    assert (gibson.first, gibson.second) == (6, 1) and gibson.method == "gibson"
    for board in boards:
        classic.enter_result(4, board.table or 0, 400, 380)
    trf = read_trf(classic.trf_text())
    for player in trf.players:
        history = colours_played(trf, player.number)
        assert not any(len(set(history[i:i + 3])) == 1 for i in range(len(history) - 2)), player.number
        assert abs(history.count("w") - history.count("b")) <= 2


def test_a_gibson_round_that_cannot_be_paired_is_paired_without_gibson(tmp_path: Path) -> None:
    """Player 1 has clinched first place; the only player it has not met who is out of
    contention is 5, but with 1-5 on the Gibson board players 2, 3, 4 and 6 cannot be paired
    (they have met or their colours forbid it). The round is paired without the Gibson rule
    — 1 meets 6 — and the round's record says so."""
    classic = division(tmp_path, 6, gibson=True)
    play_manual(classic, [(2, 1, "second"), (4, 3, "draw"), (5, 6, "second")])
    play_manual(classic, [(3, 1, "second"), (5, 2, "second"), (6, 4, "second")])
    play_manual(classic, [(1, 4, "first"), (6, 2, "draw"), (3, 5, "first")])
    boards = classic.pair_round()
    leader = next(b for b in boards if 1 in (b.first, b.second))
    assert {leader.first, leader.second} == {1, 6}
    assert not any(b.method == "gibson" for b in boards)
    event = TournamentService.on(classic.context).history()[-1]
    assert event.kind == "round_paired" and "Gibson" in event.reason


def test_the_initial_colour_is_drawn_by_lot_and_recorded(tmp_path: Path) -> None:
    """C.04.3 E: the initial colour is drawn before round 1; the draw is in the division's
    record and in the TRF (XXC), and the engine pairs by it."""
    database = open_database(str(tmp_path / "sorteo.db"))
    tournament = TournamentService(database, station="mesa", pin=JUDGE_PIN)
    classic = ClassicService(database, station="mesa", pin=JUDGE_PIN)
    drawn = set()
    for draw in range(12):                         # twelve draws: both colours come up (1 in 2048 not)
        number = tournament.create_tournament(f"Sorteo {draw}")
        for index in range(1, 9):
            tournament.add_player(f"Jugador {index:02d}", tournament_id=number)
        view = classic.create_division(rounds=3, system=PairingSystem.DUTCH_2026.value, tournament_id=number)
        assert view.settings.first_colour in ("w", "b")
        event = tournament.history(number)[-1]
        assert event.kind == "division_created" and event.payload["settings"]["first_colour"] == view.settings.first_colour
        assert event.reason
        drawn.add(view.settings.first_colour)
        boards = classic.pair_round(tournament_id=number)
        one = next(b for b in boards if 1 in (b.first, b.second))
        assert (one.first == 1) == (view.settings.first_colour == "w")
        assert read_trf(classic.trf_text(tournament_id=number)).first_colour == view.settings.first_colour
    assert drawn == {"w", "b"}


@pytest.mark.skipif(not py4swiss_installed(), reason="py4swiss no se instala en este sistema")
def test_the_exported_trf_of_a_club_restricted_event_checks(tmp_path: Path) -> None:
    """The same-club pairs (XXP) and the rounds that kept them apart are in the export, so
    `classic check` re-pairs our own event to the same rounds."""
    database = open_database(str(tmp_path / "clubes.db"))
    service = TournamentService(database, pin=JUDGE_PIN)
    service.create_tournament("Clubes")
    for index in range(1, 9):
        service.add_player(f"Jugador {index:02d}", club=f"Club {index % 4}")
    classic = ClassicService.like(service)
    classic.create_division(rounds=3, settings=DivisionSettings(club_rounds=2, first_colour="w"))
    rng = random.Random(3)
    for _ in range(3):
        for board in classic.pair_round():
            if board.table is not None:
                classic.enter_result(board.round, board.table, rng.randint(280, 520), rng.randint(280, 520))
    text = classic.trf_text()
    trf = read_trf(text)
    assert (1, 5) in trf.forbidden and trf.restricted_rounds == frozenset({1, 2})
    assert check_tournament(trf, PairingSystem.DUTCH) == (3, None)
    from click.testing import CliRunner

    from tui.cli.main import main

    (tmp_path / "clubes.trf").write_text(text, encoding="utf-8")             # `classic check` on our export
    checked = CliRunner().invoke(main, ["classic", "check", str(tmp_path / "clubes.trf"), "--system", "dutch"])
    assert checked.exit_code == 0, checked.output


@pytest.mark.skipif(not py4swiss_installed(), reason="py4swiss no se instala en este sistema")
def test_the_exported_trf_of_a_gibson_round_checks(tmp_path: Path) -> None:
    """A Gibson board is in the export (XXG): the checker fixes it and re-pairs the rest."""
    database = open_database(str(tmp_path / "gibson.db"))
    service = TournamentService(database, pin=JUDGE_PIN)
    service.create_tournament("Gibson")
    for index in range(1, 13):
        service.add_player(f"Jugador {index:02d}")
    classic = ClassicService.like(service)
    classic.create_division(rounds=4, settings=DivisionSettings(gibson=True, tie_breaks=(), first_colour="b"))
    for number in range(1, 5):                     # player 1 wins every game, every other game is drawn
        for board in classic.pair_round():
            if board.table is None:
                continue
            scores = (380, 380)
            if 1 in (board.first, board.second):
                scores = (450, 300) if board.first == 1 else (300, 450)
            classic.enter_result(number, board.table, *scores)
    trf = read_trf(classic.trf_text())
    gibson = trf.gibson_board(4)
    assert gibson is not None and 1 in gibson
    assert check_tournament(trf, PairingSystem.DUTCH) == (4, None)


def registered(tmp_path: Path, names: list[str]) -> tuple[TournamentService, ClassicService]:
    database = open_database(str(tmp_path / "lista.db"))
    tournament = TournamentService(database, station="mesa", pin=JUDGE_PIN)
    tournament.create_tournament("Lista inicial")
    for name in names:
        tournament.add_player(name)
    return tournament, ClassicService(database, station="mesa", pin=JUDGE_PIN)


def test_the_starting_list_takes_ratings_and_titles_in_fide_order(tmp_path: Path) -> None:
    """C.04.2 B.2: rating (highest first), title, then name in Spanish order (accents
    ignored, Ñ after N); a rating corrected before round 1 re-orders the list."""
    entered = [("Ximena Ruiz", 1500, ""), ("Úrsula Díaz", 1500, ""), ("Ñaki Soto", 1500, ""),
               ("Nuria Vela", 1500, ""), ("Óscar Gil", 1500, ""), ("Ulises Bo", 1500, ""),
               ("Bruno Paz", 1800, ""), ("Carla Rey", 1800, "fm"), ("Ana Mora", 1900, "")]
    _, classic = registered(tmp_path, [name for name, _, _ in entered])
    classic.create_division(rounds=3, system=PairingSystem.DUTCH_2026.value)
    for name, rating, title in entered:
        classic.enter_player(name, rating=rating, title=title)
    assert [(name, rating, title) for _, name, rating, title in classic.starting_list()] == [
        ("Ana Mora", 1900, ""), ("Carla Rey", 1800, "FM"), ("Bruno Paz", 1800, ""), ("Nuria Vela", 1500, ""),
        ("Ñaki Soto", 1500, ""), ("Óscar Gil", 1500, ""), ("Ulises Bo", 1500, ""), ("Úrsula Díaz", 1500, ""),
        ("Ximena Ruiz", 1500, "")]
    assert [n for n, *_ in classic.starting_list()] == list(range(1, 10))
    assert classic.set_rating(9, 2000) == 1                   # Ximena corrected before round 1: now first
    assert classic.starting_list()[0][1] == "Ximena Ruiz"
    classic.pair_round()
    assert read_trf(classic.trf_text()).player(1).rating == 2000
    assert classic.set_rating(1, 2100) == 1                   # after round 1 the numbers stay (C.04.2 B.3)
    with pytest.raises(TournamentError):
        classic.enter_player("Nadie")
    with pytest.raises(TournamentError):
        classic.set_rating(2, 9000)
    with pytest.raises(TournamentError):
        classic.set_rating(2, 1500, title="XX")


def test_a_single_division_seeds_everyone_in_spanish_order(tmp_path: Path) -> None:
    """Without ratings the names decide, in Spanish order: Úrsula with the U's, not after X."""
    _, classic = registered(tmp_path, ["Ximena Ruiz", "Úrsula Díaz", "Ulises Bo", "Ñaki Soto", "Nuria Vela"])
    classic.create_division(rounds=3, system=PairingSystem.DUTCH_2026.value)
    assert [name for _, name, *_ in classic.starting_list()] == [
        "Nuria Vela", "Ñaki Soto", "Ulises Bo", "Úrsula Díaz", "Ximena Ruiz"]


def test_divisions_hold_their_own_players(tmp_path: Path) -> None:
    """Each division holds the players put in it, and a player is in one division only."""
    names = [f"Jugador {index:02d}" for index in range(1, 9)]
    _, classic = registered(tmp_path, names)
    classic.create_division(rounds=3, name="A", system=PairingSystem.DUTCH_2026.value)
    classic.create_division(rounds=3, name="B", system=PairingSystem.DUTCH_2026.value)
    with pytest.raises(TournamentError):
        classic.pair_round("A")                                 # nobody in it yet
    for index, name in enumerate(names):
        classic.enter_player(name, division="AB"[index % 2])
    with pytest.raises(TournamentError):
        classic.enter_player(names[0], division="B")            # already in A
    with pytest.raises(TournamentError):
        classic.enter_player(names[0], division="A")            # already there
    in_a = {name for _, name, *_ in classic.starting_list(division="A")}
    in_b = {name for _, name, *_ in classic.starting_list(division="B")}
    assert in_a == set(names[0::2]) and in_b == set(names[1::2])
    boards = classic.pair_round("A")
    assert len(boards) == 2 and {n for b in boards for n in (b.first, b.second)} == {1, 2, 3, 4}
    assert len(read_trf(classic.trf_text(division="B")).players) == 4


def test_the_judge_overwriting_a_result_gives_a_reason(tmp_path: Path) -> None:
    """A result already counted is changed by the judge only with a reason, which the log
    keeps; without it nothing changes (the same result again needs none)."""
    classic = division(tmp_path, 6)
    classic.pair_round()
    classic.enter_result(1, 1, 400, 300)
    before = TournamentService.on(classic.context).last_event_id()
    for overwrite in (lambda: classic.enter_result(1, 1, 300, 400), lambda: classic.resolve_result(1, 1, 300, 400),
                      lambda: classic.record_forfeit(1, 1, "first")):
        with pytest.raises(ReasonRequired) as refused:
            overwrite()
        assert (refused.value.round, refused.value.table) == (1, 1)
    assert TournamentService.on(classic.context).last_event_id() == before
    assert (classic.boards(1)[0].first_score, classic.boards(1)[0].second_score) == (400, 300)
    assert classic.enter_result(1, 1, 400, 300) == "confirmed"
    assert classic.enter_result(1, 1, 300, 400, reason="acta firmada: marcador invertido") == "corrected"
    assert TournamentService.on(classic.context).history()[-1].reason == "acta firmada: marcador invertido"
    assert (classic.boards(1)[0].first_score, classic.boards(1)[0].second_score) == (300, 400)


def test_a_double_forfeit_is_a_loss_for_both_and_they_may_meet_again(tmp_path: Path) -> None:
    """Neither player came: both lose (C.06 11: "—" for both), both lose the forfeit
    spread, and the game not played does not stop them meeting later (C.04.2 D.6)."""
    classic = division(tmp_path, 6, forfeit_spread=60)
    boards = classic.pair_round()
    classic.record_forfeit(1, 1, "both")
    for board in boards[1:]:
        classic.enter_result(1, board.table or 0, 400, 300)
    lines = {line.number: line for line in classic.standings()}
    absent = boards[0]
    for number in (absent.first, absent.second):
        assert (lines[number].wins, lines[number].losses, lines[number].spread) == (Fraction(0), Fraction(1), -60)
    trf = read_trf(classic.trf_text())
    assert {trf.player(absent.first).rounds[0].result, trf.player(absent.second).rounds[0].result} == {"-"}
    assert check_pairing(trf, [Pair(absent.first, absent.second)], partial=True) == []
    assert classic.boards(1)[0].forfeit == "both"


def test_the_command_line_runs_the_rules(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`classic division --first-colour`, `classic enter`/`rating`/`players` (FIDE order),
    `classic result --reason` over a counted result, `classic forfeit --loser both`."""
    run = command_line(tmp_path / "cli.db", monkeypatch)
    run("tournament", "create", "Clásico")
    for name in ("Ximena Ruiz", "Úrsula Díaz", "Ulises Bo", "Ana Mora"):
        run("player", "add", name)
    run("classic", "division", "--rounds", "3", "--system", "dutch-2026", "--first-colour", "b", "--name", "A")
    run("classic", "division", "--rounds", "3", "--system", "dutch-2026", "--name", "B")
    for name in ("Ximena Ruiz", "Úrsula Díaz", "Ulises Bo"):
        run("classic", "enter", "--division", "A", name, "--rating", "1500")
    run("classic", "enter", "--division", "B", "Ximena Ruiz", code=1)          # in division A already
    run("classic", "enter", "--division", "A", "Ana Mora", "--title", "XY", code=1)
    run("classic", "enter", "--division", "A", "Ana Mora", "--rating", "1400", "--title", "wfm")
    listed = [line.split()[1] for line in run("classic", "players", "--division", "A").splitlines()]
    assert listed == ["Ulises", "Úrsula", "Ximena", "Ana"]
    run("classic", "rating", "--division", "A", "4", "1600")
    assert run("classic", "players", "--division", "A").splitlines()[0].split()[1] == "Ana"
    run("classic", "pair-round", "--division", "A")
    classic = ClassicService(open_database(str(tmp_path / "cli.db")), pin=JUDGE_PIN)
    assert classic.boards(1, division="A")[0].second == 1                     # drawn black: 1 moves second
    run("classic", "result", "--division", "A", "1", "1", "400", "300")
    run("classic", "result", "--division", "A", "1", "1", "300", "400", code=1)
    run("classic", "result", "--division", "A", "1", "1", "300", "400", "--reason", "acta firmada")
    run("classic", "forfeit", "--division", "A", "1", "2", "--loser", "both")
    assert "los dos" in run("classic", "boards", "--division", "A")
    assert classic.boards(1, division="A")[1].forfeit == "both"


def round_robin(tmp_path: Path, players: int, system: str = "round-robin") -> ClassicService:
    _, classic = registered(tmp_path, [f"Jugador {index:02d}" for index in range(1, players + 1)])
    rounds = (players - 1 + players % 2) * (2 if system == "double-round-robin" else 1)
    classic.create_division(rounds=rounds, system=system, settings=DivisionSettings(tie_breaks=(), first_colour="w"))
    return classic


def play_round(classic: ClassicService, scores: tuple[int, int] = (400, 300)) -> None:
    for board in classic.boards():
        if board.table is not None:
            classic.enter_result(board.round, board.table, *scores)


def test_a_round_robin_withdrawal_before_half_is_annulled_and_byes_are_honoured(tmp_path: Path) -> None:
    """C.06 11: player 6 withdraws after 1 of 5 games: not paired again (its games are "-",
    its opponents' "+", without a table, and no result is taken for them), and as it did
    not complete half of its games nothing won by it or against it counts. Player 2 asked
    for a bye in round 2: not paired, its game unplayed like any other in a round robin
    ("-" for it, "+" for the opponent the table gave it; C.06 11, C.04.2 D.4: zero)."""
    classic = round_robin(tmp_path, 6)
    schedule = berger_schedule(6)
    classic.pair_round()
    play_round(classic)
    first_round = {b.first: b.second for b in classic.boards(1)} | {b.second: b.first for b in classic.boards(1)}
    classic.withdraw(6, reason="enfermo")
    classic.request_bye(2, 2)
    boards = classic.pair_round()
    opponent = {p.first: p.second for p in schedule[1]} | {p.second: p.first for p in schedule[1]}
    assert all(6 not in (b.first, b.second) and 2 not in (b.first, b.second) for b in boards if b.table is not None)
    unplayed = {frozenset((b.first, b.second)): b.first if b.forfeit == "first" else b.second
                for b in boards if b.table is None and b.second}
    assert opponent[6] != 2                                      # Berger round 2 of 6: 6-4, 5-3, 1-2
    assert unplayed == {frozenset((6, opponent[6])): 6, frozenset((2, opponent[2])): 2}
    assert [b.first for b in boards if b.second == 0] == []
    with pytest.raises(TournamentError):
        classic.enter_result(2, 9, 400, 300)                     # no table for player 6's game
    play_round(classic)
    with pytest.raises(PlayerWithdrawn) as refused:              # not even by hand, whatever the reason
        classic.pair_round(manual=[(6, 1), (2, 3), (4, 5)], reason="el juez insiste")
    assert refused.value.number == 6
    lines = {line.number: line for line in classic.standings()}
    expected = {number: Fraction(0) for number in range(1, 7)}
    for board in classic.boards(1) + classic.boards(2):
        if 6 in (board.first, board.second):
            continue                                             # annulled: 6 played 1 of 5 games
        if board.forfeit is not None:                            # 2's game: "+" for its opponent
            expected[board.second if board.forfeit == "first" else board.first] += 1
        else:
            expected[board.first] += 1                           # every game 400-300
    assert {number: line.wins for number, line in lines.items()} == expected
    assert lines[6].games == 0 and lines[first_round[6]].games == sum(
        1 for b in classic.boards(2) if b.table is not None and first_round[6] in (b.first, b.second))
    snapshot = classic.snapshot()                                # the scorecards count as the standings do
    assert snapshot.annulled == {6}
    assert {n: Fraction(scorecard_rows(snapshot, n)[-1].wins) for n in range(1, 7)} == expected
    trf = read_trf(classic.trf_text())
    assert trf.player(2).rounds[1].result == "-" and trf.player(opponent[2]).rounds[1].result == "+"
    assert trf.player(6).rounds[1].result in ("-", "Z")
    printed_byes = {b.first for b in classic.boards(2) if b.second == 0}
    assert {p.first for p in pairs_of_round(trf, 2) if p.is_bye} == printed_byes


def test_a_round_robin_withdrawal_after_half_keeps_the_results(tmp_path: Path) -> None:
    """C.06 11: player 4 withdraws after 2 of 3 games (≥ 50 %): its results count, and its
    last game is a forfeit win for the opponent."""
    classic = round_robin(tmp_path, 4)
    for _ in range(2):
        classic.pair_round()
        play_round(classic)
    before = {line.number: line.wins for line in classic.standings()}
    classic.withdraw(4)
    boards = classic.pair_round()
    gone = next(b for b in boards if 4 in (b.first, b.second))
    assert gone.table is None and gone.forfeit == ("first" if gone.first == 4 else "second")
    play_round(classic)
    lines = {line.number: line for line in classic.standings()}
    other = gone.second if gone.first == 4 else gone.first
    assert lines[other].wins == before[other] + 1 and lines[4].wins == before[4]


def test_a_double_round_robin_meets_everyone_twice_with_colours_reversed(tmp_path: Path) -> None:
    """C.06 9.d: the Berger tables twice, the second time with the colours reversed, and
    nobody has the same colour three times running (checked by the slow obvious way)."""
    for players in (3, 5, 6, 7, 8, 10):
        schedule = round_robin_schedule(players, 2)
        games = [(p.first, p.second) for pairs in schedule for p in pairs if not p.is_bye]
        assert sorted(games) == sorted(games[len(games) // 2:] + [(b, a) for a, b in games[len(games) // 2:]])
        assert len(set(games)) == players * (players - 1)        # every ordered pair once
        for number in range(1, players + 1):
            colours = "".join("w" if p.first == number else "b" for pairs in schedule for p in pairs
                              if not p.is_bye and number in (p.first, p.second))
            assert "www" not in colours and "bbb" not in colours, (players, number, colours)
    classic = round_robin(tmp_path, 4, "double-round-robin")
    met: list[tuple[int, int]] = []
    for _ in range(6):
        met += [(b.first, b.second) for b in classic.pair_round()]
        play_round(classic)
    assert sorted(met) == sorted((a, b) for a in range(1, 5) for b in range(1, 5) if a != b)
    with pytest.raises(TournamentError):
        classic.pair_round()


def test_a_bye_asked_for_before_withdrawing_is_void_in_the_trf_and_the_standings(tmp_path: Path) -> None:
    """Player 5 asked for a half-point bye in round 3, then withdrew after round 1: from
    round 2 on it is withdrawn — no ½ in round 3 — and the TRF, the standings and the
    printed round agree (C.04.2 D.3)."""
    from ranking.classic.publish import not_playing

    classic = division(tmp_path, 8)
    classic.request_bye(5, 3, "H")
    for number in range(1, 4):
        if number == 2:
            classic.withdraw(5, reason="abandona")
        classic.pair_round()
        play_round(classic)
    trf = read_trf(classic.trf_text())
    assert [cell.result for cell in trf.player(5).rounds[1:3]] == ["Z", "Z"]
    line = next(line for line in classic.standings() if line.number == 5)
    assert line.wins == trf.player(5).points() == trf.player(5).rounds[0].points
    snapshot = classic.snapshot()
    assert not_playing(snapshot, snapshot.rounds_boards[2]) == ["5. Jugador 05: retirado"]


def test_the_command_line_runs_a_round_robin_with_a_withdrawal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A double round robin from the command line: the withdrawn player's game is printed
    without a table, lost by forfeit, and the exported TRF agrees."""
    run = command_line(tmp_path / "rr.db", monkeypatch)
    run("tournament", "create", "Liga")
    for index in range(1, 5):
        run("player", "add", f"Jugador {index}")
    run("classic", "division", "--rounds", "6", "--system", "double-round-robin")
    for number in (1, 2):
        run("classic", "pair-round")
        for table in (1, 2):
            run("classic", "result", str(number), str(table), "400", "300")
    run("classic", "withdraw", "4", "--reason", "se marcha")
    printed = run("classic", "pair-round")
    line = next(line for line in printed.splitlines() if "Jugador 4" in line)
    assert "sin mesa" in line and "incomparecencia" in line
    run("classic", "result", "3", "1", "400", "300")
    run("classic", "trf", str(tmp_path / "liga.trf"))
    trf = read_trf((tmp_path / "liga.trf").read_text(encoding="utf-8"))
    assert trf.player(4).rounds[2].result == "-" and trf.player(trf.player(4).rounds[2].opponent).rounds[2].result == "+"


@pytest.mark.skipif(not py4swiss_installed(), reason="py4swiss no se instala en este sistema")
def test_classic_pair_keeps_same_club_pairs_apart_only_in_the_rounds_named(tmp_path: Path) -> None:
    """`classic pair` on a file with XXP: kept apart in every round, or only in the rounds
    XXK names (duplicada's record)."""
    from click.testing import CliRunner

    from ranking.classic.trf import Trf, TrfPlayer, write_trf
    from tui.cli.main import main

    players = tuple(TrfPlayer(n, f"Jugador {n}", 2000 - n) for n in range(1, 5))
    paired = {}
    for name, restricted in (("siempre", None), ("ronda-2", frozenset({2}))):
        path = tmp_path / f"{name}.trf"
        path.write_text(write_trf(Trf(players, total_rounds=3, first_colour="w", forbidden=frozenset({(1, 3)}),
                                      restricted_rounds=restricted)), encoding="utf-8")
        result = CliRunner().invoke(main, ["classic", "pair", str(path), "--system", "dutch"])
        assert result.exit_code == 0, result.output
        paired[name] = {tuple(sorted(map(int, line.split()))) for line in result.output.splitlines()[1:]}
    assert (1, 3) in paired["ronda-2"] and (1, 3) not in paired["siempre"]       # Dutch round 1: 1-3, 2-4
