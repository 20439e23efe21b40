"""The tables are the log's projection (issue 34 §1): any sequence of commands, valid or
refused, leaves tables that the log alone rebuilds. The log of a database is replayed into
an empty one — every stored event copied with its id and applied by the projector — and
every projected table comes out row for row the same, with the same chain of hashes.

The credentials' digests and the sign-in counters are not in the log (secrets and
counters, never in a record) and are left out of the comparison.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from sqlalchemy import func, select

from duplicate.service.errors import TournamentError
from duplicate.service.facade import TournamentService
from duplicate.service.settings import TournamentSettings
from duplicate.storage.database import Database, open_database
from duplicate.simulate import MistakeRates, simulate_tournament
from duplicate.storage.models import Base, Event, Slip
from duplicate.storage.projector import replay_log
from lexicon.lexicon import Lexicon
from tests.credentials import JUDGE_PIN

NOT_PROJECTED = {"events", "credentials", "tournament_access", "sign_in_sources", "tournament_keys"}
"""Tables outside the projection: the log itself, the secrets and counters of sign-in, and the
sealed signing keys (issue 35 §2: their public halves are in the log)."""

TABLES = 4

_table = st.integers(min_value=1, max_value=TABLES + 1)        # one table more than seated: refused
_slip = st.sampled_from(["master", "master", "H8-ZZZZ", "tarde", "nula", "8H-CASA", "A1-AS"])
COMMANDS = st.one_of(
    st.tuples(st.just("player")),
    st.tuples(st.just("game")),
    st.tuples(st.just("rack")),
    st.tuples(st.just("rack")),
    st.tuples(st.just("master"), st.integers(min_value=0, max_value=2)),
    st.tuples(st.just("master"), st.integers(min_value=0, max_value=2)),
    st.tuples(st.just("slip"), _table, _slip),
    st.tuples(st.just("slip"), _table, _slip),
    st.tuples(st.just("slip"), _table, _slip),
    st.tuples(st.just("check"), _table, _slip),
    st.tuples(st.just("correct"), _table, _slip),
    st.tuples(st.just("resolve"), st.booleans()),
    st.tuples(st.just("claim"), _table),
    st.tuples(st.just("claim_resolve"), st.booleans()),
    st.tuples(st.just("close")),
    st.tuples(st.just("close")),
    st.tuples(st.just("replace")),
    st.tuples(st.just("undo")),
    st.tuples(st.just("annul")),
    st.tuples(st.just("end")),
    st.tuples(st.just("publish"), st.booleans()),
    st.tuples(st.just("reopen")),
    st.tuples(st.just("withdraw"), _table),
    st.tuples(st.just("timer")),
)


def _master_text(service: TournamentService, game: int) -> str:
    rounds = service.rounds(game)
    placed = [row for row in rounds if row.master]
    return str(placed[-1].master) if placed else "H8-CASA"


def _run(service: TournamentService, command: tuple[Any, ...]) -> None:
    """One command as the judge's station sends it; a refusal (``TournamentError``) changes nothing."""
    kind = command[0]
    game = service.current_game() if kind not in ("player", "game") else 0
    if kind == "player":
        service.add_player(f"Jugador {len(service.entries()) + 1}")
    elif kind == "game":
        service.create_game(seed=3, rounds=4, unpublished_reason="prueba")
    elif kind == "rack":
        service.draw_rack(game)
    elif kind == "master":
        service.choose_master(game, command[1])
    elif kind in ("slip", "check", "correct"):
        text = _master_text(service, game) if command[2] == "master" else command[2]
        if kind == "slip":
            service.enter_slip(game, command[1], text)
        elif kind == "check":
            service.double_check(game, command[1], text)
        else:
            service.correct_slip(game, command[1], text, reason="corrección")
    elif kind == "resolve":
        pending = service.conflicts(game)
        if pending:
            service.resolve_conflict(pending[0][0].id, use_new=command[1], reason="resuelto")
    elif kind == "claim":
        rounds = [row.number for row in service.rounds(game) if row.master]
        if rounds:
            service.file_claim(game, rounds[-1], command[1], "reclamación")
    elif kind == "claim_resolve":
        open_claims = [claim for claim in service.claims(game) if claim.status == "open"]
        if open_claims:
            service.resolve_claim(open_claims[0].id, upheld=command[1], resolution="visto")
    elif kind == "close":
        service.close_round(game)
    elif kind == "replace":
        service.replace_rack(game, reason="atril mal sacado")
    elif kind == "undo":
        service.undo_master(game, reason="otra jugada")
    elif kind == "annul":
        rounds = [row.number for row in service.rounds(game) if row.master]
        if rounds:
            service.annul_master(game, rounds[-1], reason="maestra inválida")
    elif kind == "end":
        service.end_game(game, reason="fin")
    elif kind == "publish":
        service.publish(game, final=command[1])
    elif kind == "reopen":
        service.reopen(game, reason="reclamación tardía")
    elif kind == "withdraw":
        entries = service.entries()
        if command[1] <= len(entries):
            service.set_entry_status(entries[command[1] - 1][0].id, "withdrawn")
    elif kind == "timer":
        service.record_timer(game, "start", 180.0)


def _tables(database: Database) -> dict[str, list[tuple[Any, ...]]]:
    """Every projected table's rows, by primary key."""
    dump: dict[str, list[tuple[Any, ...]]] = {}
    with database.read() as session:
        for table in Base.metadata.sorted_tables:
            if table.name in NOT_PROJECTED:
                continue
            order = list(table.primary_key.columns) or list(table.columns)
            dump[table.name] = [tuple(row) for row in session.execute(select(table).order_by(*order))]
    return dump


def _chain(database: Database) -> list[tuple[int, str | None]]:
    with database.read() as session:
        return [(row.id, row.previous_hash) for row in session.scalars(select(Event).order_by(Event.id))]


def replay_into(source: Database, target: Database) -> None:
    """The log of ``source`` stored again in the empty ``target``, each event projected
    (``replay_log``, the projector's one way of rebuilding the tables from a log)."""
    with source.read() as session:
        stored = list(session.scalars(select(Event).order_by(Event.id)))
        session.expunge_all()
    with target.write() as session:
        replay_log(session, stored)


@pytest.fixture(scope="module")
def databases(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    yield tmp_path_factory.mktemp("replay")


_NUMBERS = itertools.count()


def _fresh(folder: Path, name: str) -> Database:
    """A new database file (a new name for every example: an open file is never reused)."""
    return open_database(f"sqlite:///{folder / f'{name}-{next(_NUMBERS)}.db'}")


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.function_scoped_fixture])
@given(commands=st.lists(COMMANDS, min_size=3, max_size=40))
def test_any_commands_replayed_from_the_log_give_the_same_tables(commands: list[tuple[Any, ...]],
                                                                  spanish_lexicon: Lexicon,
                                                                  databases: Path) -> None:
    original = _fresh(databases, "original")
    service = TournamentService(original, station="juez", lexicon=spanish_lexicon, pin=JUDGE_PIN)
    service.create_tournament("Réplica", settings=TournamentSettings(corrections_after_final=True))
    for index in range(TABLES):
        service.add_player(f"Jugador {index}")
    service.create_game(seed=11, rounds=4)
    for command in commands:
        try:
            _run(service, command)
        except TournamentError:
            pass
    replayed = _fresh(databases, "replayed")
    replay_into(original, replayed)
    _assert_the_same_record(original, replayed)


def _assert_the_same_record(original: Database, replayed: Database) -> None:
    """The replayed database holds the original's tables and chain of hashes; both closed."""
    try:
        assert _tables(replayed) == _tables(original)
        assert _chain(replayed) == _chain(original)
    finally:
        original.engine.dispose()
        replayed.engine.dispose()


def test_a_simulated_tournament_replayed_event_by_event_gives_the_same_tables(spanish_lexicon: Lexicon,
                                                                              databases: Path) -> None:
    """The batched writes — the players' import, a round's slips entered at once
    (``enter_slips``) and the missing ones a round's close marks, each projected by
    ``projector.BATCH_HANDLERS`` — leave the tables the per-event handlers rebuild from the
    log, ids included, with the same chain of hashes."""
    original = _fresh(databases, "simulated")
    service = TournamentService(original, station="juez", lexicon=spanish_lexicon, pin=JUDGE_PIN)
    simulate_tournament(service, players=12, games=2, rounds=3, seed=8,
                        mistakes=MistakeRates(missing=0.2, late=0.1, null=0.05))
    with original.read() as session:
        missing = session.scalar(select(func.count()).select_from(Slip).where(Slip.status == "missing"))
    assert missing
    replayed = _fresh(databases, "simulated-replayed")
    replay_into(original, replayed)
    _assert_the_same_record(original, replayed)
