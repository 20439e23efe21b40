"""The projector's slip family (issue 34 §1): each event of ``duplicate.record.events_slips``
applied to a state gives exactly the rows expected, and the service's slip actions write
slips, conflicts, claims, closed and annulled rounds and published games only through it.

The state is a real game (three players, round 1 with its rack and master placed by the
service); the events are stored by hand with chosen values, as a replay stores them, and
applied with ``project``. The expected rows are written out from those chosen values.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import inspect, select
from sqlalchemy.orm import Session

from duplicate.record.event_kinds import TournamentEvent
from duplicate.record.events_slips import (
    BonusesAwarded,
    ClaimFiled,
    ClaimResolved,
    ConflictResolved,
    GameReopened,
    MasterAnnulled,
    ResultsPublished,
    RoundClosed,
    SlipChecked,
    SlipConflict,
    SlipCorrected,
    SlipEntered,
)
from duplicate.service.facade import TournamentService
from duplicate.service.slip_entry import SlipEntry
from duplicate.service.settings import TournamentSettings
from duplicate.storage.database import Database, open_database
from duplicate.storage.models import Base, Claim, Conflict, Event, GameRow, RoundRow, Seat, Slip
from duplicate.storage.projector import ProjectionBypassed, project
from lexicon.lexicon import Lexicon
from tests.credentials import ASSISTANT_PINS, JUDGE_PIN
from tests.duplicate.test_stations import _postgres_url

START = datetime(2031, 5, 4, 10, 0, tzinfo=UTC)
"""When the hand-stored events happen (later than the service's own: the chain keeps them as given)."""


@dataclass
class Played:
    """A game with round 1's rack and master placed: its ids and each table's entry."""

    service: TournamentService
    tournament_id: int
    game_id: int
    game_number: int
    entries: dict[int, int]
    """Entry id by table."""
    moments: Iterator[datetime]

    @property
    def db(self) -> Database:
        return self.service.context.db

    def apply(self, typed: TournamentEvent, *, arbiter: str = "Juez Pérez", reason: str = "",
              payload: dict[str, Any] | None = None, round_number: int | None = 1) -> Event:
        """Store ``typed`` (or the raw ``payload`` of its kind) as the next event of the
        game and project it, reading it back from the stored row as a replay does."""
        with self.db.write() as session:
            row = Event(tournament_id=self.tournament_id, game_id=self.game_id, round_number=round_number,
                        kind=typed.KIND.value, payload=payload if payload is not None else typed.payload(),
                        station="mesa-arbitral", arbiter=arbiter, role="judge", reason=reason,
                        created_at=next(self.moments))
            session.add(row)
            session.flush()
            project(session, row)
        with self.db.read() as session:
            stored = session.get(Event, row.id)
            assert stored is not None
            return stored


def _columns(item: Base) -> dict[str, Any]:
    return {column.key: getattr(item, column.key) for column in inspect(type(item)).column_attrs}


def rows(db: Database, model: type[Base], **where: Any) -> list[dict[str, Any]]:
    """The rows of ``model`` (filtered by column values) as dicts, by id."""
    with db.read() as session:
        query = select(model).filter_by(**where).order_by(model.id)   # type: ignore[attr-defined]
        return [_columns(item) for item in session.scalars(query)]


def slip_of(played: Played, table: int) -> dict[str, Any]:
    [slip] = rows(played.db, Slip, game_id=played.game_id, round_number=1, entry_id=played.entries[table])
    return slip


def round_one(played: Played) -> dict[str, Any]:
    [found] = rows(played.db, RoundRow, game_id=played.game_id, number=1)
    return found


def snapshot(played: Played) -> dict[str, list[dict[str, Any]]]:
    """Every table the slip family writes."""
    return {model.__name__: rows(played.db, model) for model in (Slip, Conflict, Claim, RoundRow, GameRow)}


@pytest.fixture
def played(tmp_path: Path, spanish_lexicon: Lexicon) -> Played:
    service = TournamentService(open_database(str(tmp_path / "p.db")), station="mesa-arbitral",
                                lexicon=spanish_lexicon, pin=JUDGE_PIN)
    tournament_id = service.create_tournament("Proyección de papeletas",
                                              settings=TournamentSettings(corrections_after_final=True))
    for name in ("Ana Pérez", "Berta Gil", "Carlos Ruiz"):
        service.add_player(name)
    game = service.create_game(seed=3)
    service.draw_rack(game)
    service.choose_master(game)
    with service.context.db.read() as session:
        game_id = session.scalar(select(GameRow.id).where(GameRow.tournament_id == tournament_id,
                                                          GameRow.number == game))
        assert game_id is not None
        entries = {seat.table_number: seat.entry_id
                   for seat in session.scalars(select(Seat).where(Seat.game_id == game_id))}
    moments = (START + timedelta(minutes=minute) for minute in range(1000))
    return Played(service, tournament_id, game_id, game, entries, moments)


def entered(played: Played, table: int, text: str = "H8-CASA", *, score: int = 14, status: str = "valid",
            move: str | None = "H8-CASA", arbiter: str = "aux1") -> Event:
    return played.apply(SlipEntered(table, played.entries[table], text, status, score, move, ""), arbiter=arbiter)


# --- one test per event kind --------------------------------------------------------------------


def test_slip_entered_inserts_the_players_slip_as_the_event_says(played: Played) -> None:
    event = played.apply(SlipEntered(2, played.entries[2], "h8 casa", "misplaced", 0, "H8-CASA",
                                     "la palabra no cabe ahí", board="H8 → CASA", hint="¿quiso decir 8H-CASA?"),
                         arbiter="aux1")
    slip = slip_of(played, 2)
    slip.pop("id")
    assert slip == {"game_id": played.game_id, "round_number": 1, "entry_id": played.entries[2], "table_number": 2,
                    "text": "h8 casa", "move": "H8-CASA", "status": "misplaced", "score": 0,
                    "reason": "la palabra no cabe ahí", "hint": "¿quiso decir 8H-CASA?", "board": "H8 → CASA",
                    "entered_by": "aux1", "entered_at": event.created_at, "checked_by": None, "event_id": event.id}
    assert event.created_at.replace(tzinfo=UTC) == START


def test_slip_entered_stored_before_hints_were_logged_gives_a_slip_without_hint(played: Played) -> None:
    payload = {"table": 1, "entry": played.entries[1], "text": "H8-CASA", "status": "valid", "score": 14,
               "move": "H8-CASA", "reason": ""}                  # an event of an earlier record: no hint, no board
    event = played.apply(SlipEntered(1, played.entries[1], "", "", 0, None, ""), payload=payload)
    slip = slip_of(played, 1)
    assert (slip["text"], slip["status"], slip["score"], slip["hint"], slip["board"], slip["event_id"]) == (
        "H8-CASA", "valid", 14, None, None, event.id)


def test_slip_checked_records_who_double_checked_it(played: Played) -> None:
    entered(played, 1)
    before = slip_of(played, 1)
    played.apply(SlipChecked(1, played.entries[1], "H8-CASA"), arbiter="aux2")
    assert slip_of(played, 1) == {**before, "checked_by": "aux2"}


def test_slip_conflict_inserts_the_conflict_with_the_id_it_names(played: Played) -> None:
    entered(played, 3)
    event = played.apply(SlipConflict(41, "duplicate", 3, played.entries[3], "", "late", "H8-CASA", "aux1"),
                         arbiter="aux2")
    assert rows(played.db, Conflict) == [
        {"id": 41, "game_id": played.game_id, "round_number": 1, "entry_id": played.entries[3], "table_number": 3,
         "kind": "duplicate", "text": "", "mark": "late", "entered_by": "aux2", "entered_at": event.created_at,
         "resolution": None, "resolved_by": None}]


def test_slip_corrected_rewrites_the_slip_and_keeps_who_checked_it(played: Played) -> None:
    entered(played, 1, "H8-QZQZ", score=0, status="invalid_word", move="H8-QZQZ")
    played.apply(SlipChecked(1, played.entries[1], "H8-QZQZ"), arbiter="aux2")
    first = slip_of(played, 1)
    after = {"text": "H8-CASA", "status": "valid", "score": 14, "move": "H8-CASA", "reason": ""}
    event = played.apply(SlipCorrected(1, played.entries[1], {"text": "H8-QZQZ"}, after, hint=None),
                         reason="reclamación aceptada")
    assert slip_of(played, 1) == {**first, **after, "hint": None, "board": None, "entered_by": "Juez Pérez",
                                  "entered_at": event.created_at, "event_id": event.id, "checked_by": "aux2"}


def test_slip_corrected_without_a_slip_inserts_it(played: Played) -> None:
    after = {"text": "", "status": "late", "score": 0, "move": None, "reason": "papeleta entregada tarde"}
    event = played.apply(SlipCorrected(2, played.entries[2], None, after, hint="H8-CASA"))
    slip = slip_of(played, 2)
    slip.pop("id")
    assert slip == {"game_id": played.game_id, "round_number": 1, "entry_id": played.entries[2], "table_number": 2,
                    "text": "", "move": None, "status": "late", "score": 0, "reason": "papeleta entregada tarde",
                    "hint": "H8-CASA", "board": None, "entered_by": "Juez Pérez", "entered_at": event.created_at,
                    "checked_by": None, "event_id": event.id}


def test_conflict_resolved_closes_the_conflict_by_the_judge(played: Played) -> None:
    entered(played, 3)
    played.apply(SlipConflict(7, "double_entry", 3, played.entries[3], "H8-COSA", None, "H8-CASA", "aux1"),
                 arbiter="aux2")
    [before] = rows(played.db, Conflict)
    slips = rows(played.db, Slip)
    played.apply(ConflictResolved(7, "kept"), arbiter="Juez Pérez")
    assert rows(played.db, Conflict) == [{**before, "resolution": "kept", "resolved_by": "Juez Pérez"}]
    assert rows(played.db, Slip) == slips                  # a correction is an event of its own


def test_master_annulled_marks_the_round_and_zeroes_the_listed_slips_III29(played: Played) -> None:
    for table in (1, 2, 3):
        entered(played, table, score=14 + table)
    kept = slip_of(played, 2)
    first, third = slip_of(played, 1), slip_of(played, 3)
    round_before = round_one(played)
    played.apply(MasterAnnulled(1, "H8-CASA", [{"table": 1, "entry": played.entries[1], "score": 15},
                                               {"table": 3, "entry": played.entries[3], "score": 17}]),
                 reason="CASA no es la maestra")
    reason = "jugada maestra anulada (III.29): CASA no es la maestra"
    assert slip_of(played, 1) == {**first, "status": "annulled", "score": 0, "reason": reason}
    assert slip_of(played, 3) == {**third, "status": "annulled", "score": 0, "reason": reason}
    assert slip_of(played, 2) == kept                      # not listed: untouched
    assert round_one(played) == {**round_before, "annulled": True}


def test_master_annulled_without_a_reason_stores_the_rule(played: Played) -> None:
    entered(played, 1)
    played.apply(MasterAnnulled(1, "H8-CASA", [{"table": 1, "entry": played.entries[1], "score": 14}]))
    assert slip_of(played, 1)["reason"] == "jugada maestra anulada (III.29)"


def test_round_closed_closes_the_round_only(played: Played) -> None:
    before = snapshot(played)
    played.apply(RoundClosed(1))
    after = snapshot(played)
    assert round_one(played)["closed"] is True
    assert before["RoundRow"][0]["closed"] is False
    assert {**after, "RoundRow": before["RoundRow"]} == before
    assert [{**row, "closed": False} for row in after["RoundRow"]] == before["RoundRow"]


def test_bonuses_awarded_changes_no_table_III24(played: Played) -> None:
    entered(played, 1)
    played.apply(RoundClosed(1))
    before = snapshot(played)
    played.apply(BonusesAwarded(1, {str(played.entries[1]): 3}))
    assert snapshot(played) == before                      # bonuses are computed from the slips when read


def test_claim_filed_inserts_the_claim_with_the_id_it_names_III27(played: Played) -> None:
    event = played.apply(ClaimFiled(12, 2, played.entries[2], "mi papeleta decía CASA"), arbiter="Juez Pérez")
    assert rows(played.db, Claim) == [
        {"id": 12, "game_id": played.game_id, "round_number": 1, "entry_id": played.entries[2],
         "text": "mi papeleta decía CASA", "status": "open", "resolution": None, "created_at": event.created_at}]


def test_claim_resolved_sets_its_status_and_resolution_III27(played: Played) -> None:
    played.apply(ClaimFiled(5, 2, played.entries[2], "sumaron mal"))
    [before] = rows(played.db, Claim)
    played.apply(ClaimResolved(5, "rejected", "la suma es correcta"))
    assert rows(played.db, Claim) == [{**before, "status": "rejected", "resolution": "la suma es correcta"}]


def test_results_published_sets_the_games_status_III26(played: Played) -> None:
    [game] = rows(played.db, GameRow)
    assert game["status"] == "playing"
    played.apply(ResultsPublished("provisional", [{"entry": played.entries[1], "position": 1, "total": 14}]),
                 round_number=None)
    assert rows(played.db, GameRow) == [{**game, "status": "provisional"}]
    played.apply(ResultsPublished("final", []), round_number=None)
    assert rows(played.db, GameRow) == [{**game, "status": "final"}]


def test_game_reopened_makes_the_final_game_provisional_IV32(played: Played) -> None:
    played.apply(ResultsPublished("final", []), round_number=None)
    [game] = rows(played.db, GameRow)
    played.apply(GameReopened("provisional"), round_number=None, reason="error de suma")
    assert rows(played.db, GameRow) == [{**game, "status": "provisional"}]


# --- the service writes these tables only through the projector ----------------------------


def test_a_claim_written_outside_the_projector_is_refused(played: Played) -> None:
    with pytest.raises(ProjectionBypassed):
        with played.db.write() as session:
            session.add(Claim(game_id=played.game_id, round_number=1, entry_id=played.entries[1], text="a mano",
                              created_at=START))
    assert rows(played.db, Claim) == []


def test_a_claim_changed_outside_the_projector_is_refused(played: Played) -> None:
    claim = played.service.file_claim(played.game_number, 1, 1, "sumaron mal")
    with pytest.raises(ProjectionBypassed):
        with played.db.write() as session:
            found = session.get(Claim, claim)
            assert found is not None
            found.status = "upheld"
    assert [row["status"] for row in rows(played.db, Claim)] == ["open"]


def test_every_slip_action_writes_through_the_projector(played: Played) -> None:
    # The guard (on every session) refuses any write of a slip, conflict, claim, round or
    # game made outside the projector: the whole round below runs under it.
    service, game = played.service, played.game_number
    service.set_assistant_range("aux1", 1, 3)
    service.set_pin("assistant", ASSISTANT_PINS["aux1"], name="aux1")
    service.set_assistant_range("aux2", 1, 3)
    service.set_pin("assistant", ASSISTANT_PINS["aux2"], name="aux2")
    aux1, aux2 = service.with_pin(ASSISTANT_PINS["aux1"]), service.with_pin(ASSISTANT_PINS["aux2"])
    master = service.rounds(game)[0].master
    assert master is not None
    assert [result.outcome for result in aux1.enter_slips(game, [(1, master), (2, "H8-QZQZ")])] == [
        "accepted", "accepted"]
    assert aux2.double_check(game, 1, master).outcome == "checked"
    assert aux2.double_check(game, 2, master).outcome == "conflict"
    assert aux1.enter_slip(game, 1, "tarde").outcome == "conflict"
    conflicts = [conflict.id for conflict, _ in service.conflicts(game)]
    service.resolve_conflict(conflicts[0], use_new=True)
    service.resolve_conflict(conflicts[1], use_new=False)
    service.correct_slip(game, 2, master, round_number=1, reason="mal tecleada")
    assert service.annul_master(game, 1, reason="no era la maestra") == 2
    closed = service.close_round(game, 1)
    assert closed.missing_tables == (3,)
    service.end_game(game)
    service.publish(game)
    claim = service.file_claim(game, 1, 3, "sí la entregué")
    service.resolve_claim(claim, upheld=True, resolution="estaba en el montón", corrected_status="late")
    service.publish(game, final=True)
    service.reopen(game, reason="revisión")
    slips = {slip.table_number: (slip.status, slip.score, slip.checked_by) for slip in service.slips(game)}
    assert slips == {1: ("annulled", 0, "aux2"), 2: ("annulled", 0, None), 3: ("late", 0, None)}
    assert [(row["id"], row["resolution"]) for row in rows(played.db, Conflict)] == [
        (conflicts[0], "replaced"), (conflicts[1], "kept")]
    assert rows(played.db, Claim)[0]["status"] == "upheld"
    assert round_one(played)["closed"] and round_one(played)["annulled"]
    assert rows(played.db, GameRow)[0]["status"] == "provisional"


def test_the_guard_catches_a_slip_a_round_closed_and_a_game_published_by_hand(played: Played) -> None:
    # The check of the test above can fail: a slip, a round closed or a game published outside the projector.
    with pytest.raises(ProjectionBypassed, match="Slip"):
        with played.db.write() as session:
            session.add(Slip(game_id=played.game_id, round_number=1, entry_id=played.entries[1], table_number=1,
                             text="", status="late", score=0, entered_by="a mano", entered_at=START))
    with pytest.raises(ProjectionBypassed, match="RoundRow"):
        with played.db.write() as session:
            row = session.scalar(select(RoundRow).where(RoundRow.game_id == played.game_id))
            assert row is not None
            row.closed = True
    with pytest.raises(ProjectionBypassed, match="GameRow"):
        with played.db.write() as session:
            game = session.get(GameRow, played.game_id)
            assert game is not None
            game.status = "provisional"
    assert rows(played.db, GameRow)[0]["status"] != "provisional"
    assert rows(played.db, Slip) == [] and round_one(played)["closed"] is False


# --- two stations entering the same player's slip at once -------------------------------------


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'race.db'}"
    else:
        yield from _postgres_url()


@pytest.mark.parametrize(("second", "outcome"), [("same", "repeated"), ("H8-QZQZ", "conflict")])
def test_a_slip_stored_after_the_check_fails_in_the_projector_and_becomes_a_repeat_or_conflict(
        database_url: str, spanish_lexicon: Lexicon, monkeypatch: pytest.MonkeyPatch, second: str,
        outcome: str) -> None:
    # The other station's slip is in the table, but this station's look-up ran before it
    # was committed (simulated: the first look-up sees nothing). The projector's insert
    # then breaks the unique constraint inside the savepoint; the entry is judged again
    # against the stored slip, in the same transaction.
    service = TournamentService(open_database(database_url), station="aux2", lexicon=spanish_lexicon,
                                pin=JUDGE_PIN)
    service.create_tournament("Carrera")
    for name in ("Ana Pérez", "Berta Gil"):
        service.add_player(name)
    game = service.create_game(seed=3)
    service.draw_rack(game)
    master = service.choose_master(game).master
    assert master is not None
    assert service.enter_slip(game, 1, master).outcome == "accepted"
    real = SlipEntry.slip_in
    looked: list[bool] = []

    def late_look(self: SlipEntry, session: Session, context: Any) -> Slip | None:
        looked.append(True)
        return None if len(looked) == 1 else real(self, session, context)

    monkeypatch.setattr(SlipEntry, "slip_in", late_look)
    result = service.enter_slip(game, 1, master if second == "same" else second)
    monkeypatch.undo()
    assert result.outcome == outcome and len(looked) == 2
    [slip] = service.slips(game)
    assert slip.text == master
    kinds = [event.kind for event in service.history(game_number=game)]
    assert kinds.count("slip_entered") == 1
    conflicts = service.conflicts(game)
    if outcome == "conflict":
        [(conflict, stored)] = conflicts
        assert (conflict.id, conflict.text, stored.text if stored else None) == (result.conflict_id, "H8-QZQZ", master)
        assert kinds[-1] == "slip_conflict"
    else:
        assert conflicts == [] and kinds[-1] == "slip_entered"
