"""A corpus of tamperings of a real tournament record (issue 26 §2), for ``duplicada verify``.

``play_tournament(service)`` runs a small tournament through the service as a venue
would: a judge and an assistant station, six players (one corrected, one withdrawn), two
games of three rounds with every kind of slip, an annulment (III.29), a claim upheld
(III.27) and final results. ``TAMPERINGS`` lists ways a hostile file changes the record
it exports, each a ``Tampering`` (``name``, ``kind``: the class of the record it touches,
``change``: mutates a copy of the record in place). Many are *consistent forgeries*: the
forger also rewrites the log and re-polishes every standing the checker recomputes
(``polish``, the checker's own expected values), so only the log, its agreement with the
rest of the record and the chain of event hashes can give them away.

Used by ``bench/tamper.py`` (the figure of ``docs/robustness.md``) and by
``tests/duplicate/test_tamper.py`` (one test per kind).
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from duplicate.record.difference import Difference
from duplicate.record.verify import verify_record
from duplicate.rules.slips import SlipStatus
from duplicate.service.facade import TournamentService
from duplicate.service.settings import TournamentSettings
from lexicon.lexicon import Lexicon

Record = dict[str, Any]

JUDGE = "juez-de-prueba"
ASSISTANT = ("Marta", "marta-mesas")
PLAYERS = 6


def play_tournament(service: TournamentService) -> None:
    """The small tournament the corpus tampers with (``service`` holds the judge's PIN)."""
    service.create_tournament("Open de la Corrupción", settings=TournamentSettings(
        bonus_mode="automatic", criterion="total", tie_breaks=True))
    name, pin = ASSISTANT
    service.set_pin("assistant", pin, name=name)
    service.set_assistant_range(name, 1, PLAYERS)
    assistant = service.with_pin(pin)
    entries = [service.add_player(f"Jugador {index}", club=f"Club {index % 3}", country="ES",
                                  federation_id=f"F{index}") for index in range(PLAYERS)]
    service.update_player(entries[2], club="Club Nuevo", reason="cambio de club")
    for number, seed in enumerate((41, 42), start=1):
        game = service.create_game(rounds=3, seed=seed)
        assert game == number
        for round_index in range(3):
            view = service.draw_rack(game)
            assert view is not None
            view = service.choose_master(game)
            assert view.master is not None
            coordinate, word = view.master.split("-")
            service.enter_slip(game, 1, view.master)
            if round_index:                       # round 1: table 1 alone at the master (a bonus, III.24)
                assistant.enter_slip(game, 2 + round_index % 2, view.master)
            assistant.enter_slip(game, 4, f"{coordinate}-{word}Z")
            assistant.mark_slip(game, 5, SlipStatus.LATE)
            if number == 2 and round_index == 1:
                service.annul_master(game, view.number, reason="maestra mal anotada")
            service.close_round(game)
        service.end_game(game)
        service.publish(game)
        if number == 2:
            claim = service.file_claim(game, 1, 6, "la entregué a tiempo")
            service.resolve_claim(claim, upheld=True, resolution="papeleta encontrada",
                                  corrected_text=service.rounds(game)[0].master)
        service.publish(game, final=True)
    service.set_entry_status(entries[5], "withdrawn", reason="se marcha")   # type: ignore[arg-type]


@dataclass(frozen=True)
class Tampering:
    """One way to change a record: ``change`` mutates the record in place."""

    name: str
    kind: str
    change: Callable[[Record], None]


def tamper(record: Record, tampering: Tampering) -> Record:
    """A tampered deep copy of ``record``."""
    forged = copy.deepcopy(record)
    tampering.change(forged)
    return forged


# --- helpers a forger uses --------------------------------------------------------------------

_STANDING = re.compile(r"^(?:partida (\d+), clasificación|clasificación del torneo), jugador (\d+)")
_ROUND = re.compile(r"^partida (\d+), ronda (\d+)")
_PLAYER = re.compile(r"jugador (\d+)")
_POLISHED = {"position", "value", "total", "bonus", "percentage"}

POLISH_LEXICON: list[Lexicon] = []
"""The lexicon ``polish`` re-runs the checker with (set by the corpus' users)."""


def polish(record: Record) -> None:
    """Rewrite every standing the checker recomputes to the value it expects (a forger with
    ``verify`` in hand does this), so that only the log and the chain can tell."""
    for _ in range(4):
        changed = False
        for difference in verify_record(record, POLISH_LEXICON[0]):
            if difference.field == "bonuses" and (place := _ROUND.match(difference.where)):
                changed |= _polish_bonus(record, int(place.group(1)), int(place.group(2)), difference)
                continue
            match = _STANDING.match(difference.where)
            if match is None or difference.field not in _POLISHED:
                continue
            game, player = match.group(1), int(match.group(2))
            lines = (record["standings"] if game is None
                     else next(item for item in record["games"] if item["number"] == int(game))["standings"])
            for line in lines:
                if line["player"] == player:
                    line[difference.field] = difference.expected
                    changed = True
        if not changed:
            return


def _polish_bonus(record: Record, game: int, number: int, difference: Difference) -> bool:
    """A round's bonuses (and the log's award) set to what the checker expects."""
    round_ = next(item for item in record["games"][game - 1]["rounds"] if item["number"] == number)
    player = _PLAYER.search(difference.message)
    if player is None:
        return False
    bonuses = round_["bonuses"]
    if difference.expected is None:
        bonuses.pop(player.group(1), None)
    else:
        bonuses[player.group(1)] = difference.expected
    for event in events_of(record, "bonuses_awarded", game):
        if event["round"] == number:
            event["payload"]["bonuses"] = dict(bonuses)
    return True


def events_of(record: Record, kind: str, game: int | None = None) -> list[dict[str, Any]]:
    return [event for event in record["events"]
            if event["kind"] == kind and (game is None or event["game"] == game)]


def valid_slip(record: Record, game: int = 1, round_: int = 1) -> dict[str, Any]:
    rounds = record["games"][game - 1]["rounds"]
    return next(slip for slip in rounds[round_ - 1]["slips"] if slip["status"] == "valid")


def slip_event(record: Record, game: int, round_: int, entry: int) -> dict[str, Any]:
    return next(event for event in events_of(record, "slip_entered", game)
                if event["round"] == round_ and event["payload"]["entry"] == entry)


def shift_time(text: str, seconds: float) -> str:
    return (datetime.fromisoformat(text) + timedelta(seconds=seconds)).isoformat()


def _winner_and_last(record: Record) -> tuple[dict[str, Any], dict[str, Any]]:
    order = sorted(record["standings"], key=lambda line: line["position"])
    players = {player["id"]: player for player in record["players"]}
    return players[order[0]["player"]], players[order[-1]["player"]]


# --- the tamperings --------------------------------------------------------------------------

def swap_names(record: Record) -> None:
    first, last = _winner_and_last(record)
    first["name"], last["name"] = last["name"], first["name"]


def swap_names_and_log(record: Record) -> None:
    first, last = _winner_and_last(record)
    for event in events_of(record, "player_added"):
        if event["payload"]["entry"] in (first["id"], last["id"]):
            event["payload"]["name"] = last["name"] if event["payload"]["entry"] == first["id"] else first["name"]
    swap_names(record)


def rename_player(record: Record) -> None:
    record["players"][0]["name"] = "Otro Nombre"


def change_club(record: Record) -> None:
    record["players"][1]["club"] = "Club Falso"


def change_federation_id(record: Record) -> None:
    record["players"][1]["federation_id"] = "F999"


def change_status(record: Record) -> None:
    record["players"][5]["status"] = "active"


def add_player(record: Record) -> None:
    record["players"].append({"id": 999, "name": "Fantasma", "club": "", "country": "", "federation_id": None,
                              "status": "active", "venue": None})      # a player as format 12 on writes one


def remove_unplaced_player(record: Record) -> None:
    """The withdrawn player removed from ``players`` (and the standings that list him)."""
    gone = record["players"].pop(5)["id"]
    for game in record["games"]:
        game["tables"].pop(str(gone), None)
        game["standings"] = [line for line in game["standings"] if line["player"] != gone]
        for round_ in game["rounds"]:
            round_["slips"] = [slip for slip in round_["slips"] if slip["player"] != gone]
    record["standings"] = [line for line in record["standings"] if line["player"] != gone]
    polish(record)


def remove_game(record: Record) -> None:
    record["games"].pop()
    polish(record)


def remove_game_and_events(record: Record) -> None:
    record["games"].pop()
    record["events"] = [event for event in record["events"] if event["game"] != 2]
    polish(record)


def remove_last_round(record: Record) -> None:
    record["games"][0]["rounds"].pop()
    polish(record)


def remove_last_round_and_events(record: Record) -> None:
    last = record["games"][0]["rounds"].pop()["number"]
    record["events"] = [event for event in record["events"]
                        if not (event["game"] == 1 and event["round"] == last)]
    polish(record)


def change_planned_rounds(record: Record) -> None:
    record["games"][0]["planned_rounds"] = 2


def change_game_status(record: Record) -> None:
    record["games"][1]["status"] = "provisional"


def change_end_reason(record: Record) -> None:
    record["games"][0]["end_reason"] = "bolsa vacía"


def change_seconds(record: Record) -> None:
    record["games"][0]["seconds_per_round"] = 60


def swap_tables(record: Record) -> None:
    tables = record["games"][0]["tables"]
    a, b = list(tables)[:2]
    tables[a], tables[b] = tables[b], tables[a]
    for round_ in record["games"][0]["rounds"]:
        for slip in round_["slips"]:
            if str(slip["player"]) in (a, b):
                slip["table"] = tables[str(slip["player"])]


def duplicate_event(record: Record) -> None:
    index = len(record["events"]) // 2
    record["events"].insert(index, copy.deepcopy(record["events"][index]))


def remove_middle_event(record: Record) -> None:
    index = next(i for i, event in enumerate(record["events"]) if event["kind"] == "assistant_range")
    record["events"].pop(index)


def remove_last_event(record: Record) -> None:
    record["events"].pop()


def reorder_events(record: Record) -> None:
    events = record["events"]
    index = next(i for i, event in enumerate(events) if event["kind"] == "slip_entered")
    events[index], events[index + 1] = events[index + 1], events[index]


def reorder_events_keep_ids(record: Record) -> None:
    """Two events swapped, their ids and timestamps left in place."""
    events = record["events"]
    index = next(i for i, event in enumerate(events) if event["kind"] == "slip_entered")
    first, second = events[index], events[index + 1]
    for key in ("id", "created_at"):
        first[key], second[key] = second[key], first[key]
    events[index], events[index + 1] = second, first


def gap_in_ids(record: Record) -> None:
    for event in record["events"][len(record["events"]) // 2:]:
        event["id"] += 1


def earlier_timestamp(record: Record) -> None:
    event = record["events"][len(record["events"]) // 2]
    event["created_at"] = shift_time(event["created_at"], -3600)


def shifted_timestamp(record: Record) -> None:
    """One timestamp moved by a millisecond, still between its neighbours."""
    events = record["events"]
    index = next(i for i in range(1, len(events) - 1)
                 if events[i - 1]["created_at"] < events[i]["created_at"] < events[i + 1]["created_at"])
    before = datetime.fromisoformat(events[index - 1]["created_at"])
    events[index]["created_at"] = (before + (datetime.fromisoformat(events[index]["created_at"]) - before) / 2
                                   ).isoformat()


def change_role(record: Record) -> None:
    next(event for event in record["events"] if event["role"] == "assistant")["role"] = "judge"


def change_arbiter(record: Record) -> None:
    next(event for event in record["events"] if event["role"] == "assistant")["arbiter"] = "Otro"


def change_station(record: Record) -> None:
    record["events"][3]["station"] = "puesto-falso"


def change_reason(record: Record) -> None:
    events_of(record, "master_annulled")[0]["reason"] = "a petición del organizador"


def change_kind(record: Record) -> None:
    event = events_of(record, "game_ended")[0]
    event["kind"] = "game_reopened"
    event["payload"] = {"status": "provisional"}


def edit_score(record: Record) -> None:
    valid_slip(record)["score"] += 5
    polish(record)


def edit_score_and_log(record: Record) -> None:
    """A late slip turned into the master with its score, in the record and in the log."""
    round_ = record["games"][0]["rounds"][0]
    late = next(slip for slip in round_["slips"] if slip["status"] == "late")
    good = valid_slip(record)
    late.update(text=good["text"], status="valid", score=good["score"], move=good["move"], reason="")
    event = slip_event(record, 1, 1, late["player"])
    event["payload"].update(text=good["text"], status="valid", score=good["score"], move=good["move"], reason="")
    polish(record)


def edit_slip_text(record: Record) -> None:
    slip = next(slip for slip in record["games"][0]["rounds"][1]["slips"] if slip["status"] == "not_in_rack")
    slip["text"] = slip["text"][:-1] + "Q"


def edit_slip_and_log(record: Record) -> None:
    """A valid slip turned late (0 points) in the record and the log, standings polished."""
    slip = valid_slip(record, 1, 2)
    slip.update(status="late", score=0, move=None)
    slip_event(record, 1, 2, slip["player"])["payload"].update(status="late", score=0, move=None)
    for key, points in list(record["games"][0]["rounds"][1]["bonuses"].items()):
        if int(key) == slip["player"] and points:
            record["games"][0]["rounds"][1]["bonuses"].pop(key)
    polish(record)


def edit_bonus_and_log(record: Record) -> None:
    round_ = next(round_ for round_ in record["games"][0]["rounds"] if round_["bonuses"])
    round_["bonuses"] = {}
    for event in events_of(record, "bonuses_awarded", 1):
        if event["round"] == round_["number"]:
            event["payload"]["bonuses"] = {}


def rename_tournament(record: Record) -> None:
    record["tournament"]["name"] = "Open Limpio"


def change_criterion(record: Record) -> None:
    record["tournament"]["settings"]["criterion"] = "average_percentage"
    polish(record)


def change_settings_and_log(record: Record) -> None:
    record["tournament"]["settings"]["criterion"] = "average_percentage"
    events_of(record, "tournament_created")[0]["payload"]["settings"]["criterion"] = "average_percentage"
    polish(record)


def change_player_payload(record: Record) -> None:
    events_of(record, "player_updated")[0]["payload"]["after"]["club"] = "Club Viejo"


def remove_claim_events(record: Record) -> None:
    record["events"] = [event for event in record["events"] if event["kind"] not in ("claim_filed", "claim_resolved")]


def truncate_log(record: Record) -> None:
    """The log cut after game 1 (everything later dropped)."""
    last = max(index for index, event in enumerate(record["events"]) if event["game"] == 1)
    del record["events"][last + 1:]


def change_head(record: Record) -> None:
    if "events_head" in record:
        record["events_head"] = "0" * 64
    else:
        record["events"][-1]["reason"] = "cabeza cambiada"


TAMPERINGS: list[Tampering] = [
    Tampering("nombres del ganador y el último intercambiados en players[]", "players", swap_names),
    Tampering("nombres intercambiados en players[] y en el historial", "players", swap_names_and_log),
    Tampering("jugador renombrado", "players", rename_player),
    Tampering("club cambiado", "players", change_club),
    Tampering("número de federado cambiado", "players", change_federation_id),
    Tampering("estado de inscripción cambiado", "players", change_status),
    Tampering("jugador añadido", "players", add_player),
    Tampering("jugador retirado borrado del registro", "players", remove_unplaced_player),
    Tampering("partida entera quitada (clasificación repulida)", "games", remove_game),
    Tampering("partida quitada con sus eventos", "games", remove_game_and_events),
    Tampering("última ronda quitada", "rounds", remove_last_round),
    Tampering("última ronda quitada con sus eventos", "rounds", remove_last_round_and_events),
    Tampering("rondas previstas cambiadas", "games", change_planned_rounds),
    Tampering("estado de la partida cambiado", "games", change_game_status),
    Tampering("motivo de fin cambiado", "games", change_end_reason),
    Tampering("segundos por ronda cambiados", "games", change_seconds),
    Tampering("mesas de dos jugadores intercambiadas", "games", swap_tables),
    Tampering("evento duplicado", "events", duplicate_event),
    Tampering("evento del medio quitado", "events", remove_middle_event),
    Tampering("último evento quitado", "events", remove_last_event),
    Tampering("dos eventos reordenados", "events", reorder_events),
    Tampering("dos eventos reordenados, ids y horas en su sitio", "events", reorder_events_keep_ids),
    Tampering("hueco en los ids de los eventos", "events", gap_in_ids),
    Tampering("hora de un evento una hora antes", "event fields", earlier_timestamp),
    Tampering("hora de un evento movida sin romper el orden", "event fields", shifted_timestamp),
    Tampering("rol de un evento cambiado", "event fields", change_role),
    Tampering("árbitro de un evento cambiado", "event fields", change_arbiter),
    Tampering("puesto de un evento cambiado", "event fields", change_station),
    Tampering("motivo de una anulación cambiado", "event fields", change_reason),
    Tampering("tipo de un evento cambiado", "event fields", change_kind),
    Tampering("datos de un evento cambiados", "event fields", change_player_payload),
    Tampering("reclamación borrada del historial", "events", remove_claim_events),
    Tampering("historial cortado tras la partida 1", "events", truncate_log),
    Tampering("cabeza de la cadena cambiada", "events", change_head),
    Tampering("puntuación de una papeleta cambiada", "slips", edit_score),
    Tampering("papeleta tardía convertida en la maestra, también en el historial", "slips", edit_score_and_log),
    Tampering("texto de una papeleta cambiado", "slips", edit_slip_text),
    Tampering("papeleta válida marcada tarde, también en el historial", "slips", edit_slip_and_log),
    Tampering("bonificación quitada, también en el historial", "slips", edit_bonus_and_log),
    Tampering("nombre del torneo cambiado", "tournament", rename_tournament),
    Tampering("criterio de clasificación cambiado", "tournament", change_criterion),
    Tampering("criterio cambiado también en el historial", "tournament", change_settings_and_log),
]
"""The corpus: 42 tamperings, most of them consistent forgeries."""


def caught(record: Record, lexicon: Lexicon) -> list[Difference]:
    """The differences ``verify`` finds in ``record`` (empty: the tampering passed)."""
    return verify_record(record, lexicon)
