"""A tournament record's stored figures checked against its own event log (issue 14 §5).

``duplicate.record.verify`` recomputes every figure from the stored rounds — boards, masters,
slips, bonuses, standings — so a tampered value that breaks the rules is caught. A
*consistent* forgery (a slip's text and score changed together, a rack and its master
swapped for another legal pair) passes that check. The event log records each decision
as it was taken; ``event_differences`` folds it into the state it leads to and compares:

* each round's rack with the last rack event of the round (``rack_drawn`` /
  ``rack_set``, a ``rack_withdrawn`` undoing it), and every drawn rack with the one the
  bag gives again from the game's ``seed`` (III.12, III.17, III.19: the engine replays
  the draws, the typed racks and the recorded masters, as the service does on restart);
* each round's master and its score with the last ``master_chosen`` not undone;
* each slip (text, board form — II.8 —, status, score) with its ``slip_entered`` event, or
  the last ``slip_corrected``, and its ``entered_at`` and ``entered_by`` with that event's
  ``created_at`` and ``arbiter`` (the service stores the slip as the event says: since format
  13 the same instant; before, two readings of the clock in one transaction, so a gap up to
  ``ENTERED_AT_TOLERANCE`` is no difference; issue 36 §5); a slip with no event, or an event with no slip — a
  ``slips_set_aside`` event (III.29: the rack was withdrawn) takes its slips out, so the
  round's slips are those entered after it;
* each round's bonuses with its last ``bonuses_awarded``.

Scores of an annulled round (III.29) are not compared (the annulment rewrites them).
A malformed event is reported, never raised.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from duplicate.record.chain import canonical_time
from duplicate.record.difference import Difference
from duplicate.rules.game import Game
from duplicate.rules.game_record import GameError
from duplicate.rules.rack import RackError

if TYPE_CHECKING:   # the compiled lexicon loads numpy: annotations only (issue 38)
    from lexicon.lexicon import Lexicon

__all__ = ["ENTERED_AT_TOLERANCE", "event_differences"]

_RACK_KINDS = ("rack_drawn", "rack_set")

ENTERED_AT_TOLERANCE = timedelta(seconds=1)
"""The largest gap between a slip's ``entered_at`` and its event's ``created_at`` that is no
difference: a database written before issue 34 stored the slip and its event with two
readings of the clock in one transaction (microseconds apart); since, the slip is the
event's projection and the two are the same instant (issue 36 §5)."""


def event_differences(record: dict[str, Any], lexicon: Lexicon) -> list[Difference]:
    """Every stored figure of ``record`` (a ``load_record`` record) that its event log does
    not lead to, in game and round order; empty when they agree."""
    events = record.get("events")
    if not isinstance(events, list) or not events:
        return [Difference("historial", "events", len(events) if isinstance(events, list) else type(events).__name__,
                           "los eventos de la partida", "el registro no trae historial de eventos: se han comprobado "
                           "las reglas, no las decisiones que llevaron a cada cifra")]
    differences: list[Difference] = []
    by_game: dict[object, list[dict[str, Any]]] = {}     # one pass over the log, not one a game (issue 38)
    for event in events:
        if isinstance(event, dict):
            number = event.get("game")
            if type(number) is not list and type(number) is not dict:     # hashable: JSON's other values
                by_game.setdefault(number, []).append(event)
    for game in record["games"]:
        # A dict finds a key equal to the game's number as == does (1, 1.0 and true share one list).
        own = by_game.get(game["number"], [])
        differences.extend(_GameCheck(game, own, lexicon).run())
    return differences


class _GameCheck:
    """One game: the state its events lead to, compared with the stored rounds."""

    def __init__(self, game: dict[str, Any], events: list[dict[str, Any]], lexicon: Lexicon) -> None:
        self.game, self.events, self.lexicon = game, events, lexicon
        self.number = game["number"]
        self.differences: list[Difference] = []
        self.racks: dict[int, str] = {}
        self.masters: dict[int, tuple[str, int]] = {}
        self.annulled: set[int] = set()
        self.slips: dict[tuple[int, int], dict[str, Any]] = {}
        self.bonuses: dict[int, dict[int, int]] = {}

    def add(self, where: str, field: str, recorded: object, expected: object, message: str) -> None:
        self.differences.append(Difference(f"partida {self.number}{where}", field, recorded, expected, message))

    def run(self) -> list[Difference]:
        for event, kind, number, payload in self._readable():
            self._fold(event, kind, number, payload)
        self._compare()
        self._replay()
        return self.differences

    def _readable(self) -> Iterator[tuple[dict[str, Any], str, int, dict[str, Any]]]:
        for event in self.events:
            kind, number, payload = event.get("kind"), event.get("round"), event.get("payload")
            if not isinstance(kind, str) or not isinstance(payload, dict):
                self.add("", "events", event.get("id"), None, "evento ilegible (sin «kind» o «payload»)")
                continue
            if isinstance(number, int) or kind in ("game_created", "game_ended", "results_published",
                                                   "game_reopened", "tables_assigned", "timer"):
                yield event, kind, number if isinstance(number, int) else 0, payload

    def _fold(self, event: dict[str, Any], kind: str, number: int, payload: dict[str, Any]) -> None:
        try:
            if kind in _RACK_KINDS:
                self.racks[number] = str(payload["rack"])
            elif kind == "rack_withdrawn":
                self.racks.pop(number, None)
            elif kind == "master_chosen":
                self.masters[number] = (str(payload["master"]), int(payload["score"]))
            elif kind == "master_undone":
                self.masters.pop(number, None)
            elif kind == "master_annulled":
                self.annulled.add(number)
            elif kind == "slip_entered":
                self.slips.setdefault((number, int(payload["entry"])), _slip_state(payload, event))
            elif kind == "slips_set_aside":
                # III.29: the slips of a withdrawn rack stop counting; the round's slips are entered again.
                for slip in payload["slips"]:
                    self.slips.pop((number, int(slip["entry"])), None)
            elif kind == "slip_corrected":
                self.slips[(number, int(payload["entry"]))] = _slip_state(payload["after"], event)
            elif kind == "bonuses_awarded":
                self.bonuses[number] = {int(entry): int(points) for entry, points in payload["bonuses"].items()
                                        if int(points)}
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            self.add(f", ronda {number}", "events", event.get("id"), None,
                     f"evento «{kind}» ilegible ({type(error).__name__}: {error})")

    def _compare(self) -> None:
        stored_slips: set[tuple[int, int]] = set()
        for round_ in self.game["rounds"]:
            number = round_["number"]
            where = f", ronda {number}"
            if round_["rack"] != self.racks.get(number):
                self.add(where, "rack", round_["rack"], self.racks.get(number),
                         "el atril no es el que dice el historial (III.12)")
            chosen = self.masters.get(number)
            if round_["master"] != (chosen[0] if chosen else None):
                self.add(where, "master", round_["master"], chosen[0] if chosen else None,
                         "la jugada maestra no es la que eligió el juez según el historial (III.15)")
            elif chosen and number not in self.annulled and round_.get("master_score") != chosen[1]:
                self.add(where, "master_score", round_.get("master_score"), chosen[1],
                         "los puntos de la maestra no son los del historial")
            for slip in round_["slips"]:
                key = (number, slip["player"])
                stored_slips.add(key)
                logged = self.slips.get(key)
                place = f"{where}, mesa {slip.get('table')}"
                if logged is None:
                    self.add(place, "slip", slip.get("text"), None, "papeleta sin ningún evento en el historial")
                    continue
                fields = ("text", "board") if number in self.annulled else ("text", "board", "status", "score")
                for field in fields:
                    if slip.get(field) != logged.get(field):
                        self.add(place, field, slip.get(field), logged.get(field),
                                 "la papeleta no es la que anotó el historial (ni sus correcciones)")
                self._entered(place, slip, logged)
            stored = {int(entry): int(points) for entry, points in (round_.get("bonuses") or {}).items()
                      if isinstance(points, int) and points}
            if number in self.bonuses and stored != self.bonuses[number]:
                self.add(where, "bonuses", stored, self.bonuses[number],
                         "las bonificaciones no son las concedidas al cerrar la ronda (III.24)")
        for number, entry in sorted(set(self.slips) - stored_slips):
            self.add(f", ronda {number}", "slip", None, self.slips[(number, entry)].get("text"),
                     f"el historial anota una papeleta del jugador {entry} que el registro no tiene")

    def _entered(self, place: str, slip: dict[str, Any], logged: dict[str, Any]) -> None:
        """The slip's ``entered_by`` and ``entered_at`` against the event that stored it."""
        if "entered_by" in slip and slip["entered_by"] != logged["entered_by"]:
            self.add(place, "entered_by", slip["entered_by"], logged["entered_by"],
                     "quien anotó la papeleta no es quien la anotó según el historial (el evento que la guardó)")
        if "entered_at" not in slip or slip["entered_at"] == logged["entered_at"]:
            return                   # the same text: the same instant, or both unreadable (said with the log)
        stored, when = _instant(slip["entered_at"]), _instant(logged["entered_at"])
        if when is None:
            return                   # the event's own time unreadable: reported with the log (log_check)
        if stored is None or abs(stored - when) > ENTERED_AT_TOLERANCE:
            self.add(place, "entered_at", slip["entered_at"], logged["entered_at"],
                     "la hora de la papeleta no es la del evento que la anotó en el historial"
                     if stored is not None else "hora de la papeleta ilegible")

    def _replay(self) -> None:
        """Draw the racks again from the seed, with the typed racks and recorded masters."""
        seed = self.game.get("seed")
        if not isinstance(seed, int):
            return
        planned = self.game.get("planned_rounds")
        engine = Game(self.lexicon, seed=seed,
                      rounds=planned if isinstance(planned, int) and not isinstance(planned, bool) and planned >= 1
                      else None)
        for event in self.events:
            kind, payload, number = event.get("kind"), event.get("payload"), event.get("round")
            if not isinstance(payload, dict):
                continue
            try:
                if kind == "rack_drawn":
                    pending = engine.draw()
                    again = pending.rack.text if pending is not None else None
                    if again != payload.get("rack"):
                        self.add(f", ronda {number}", "rack", payload.get("rack"), again,
                                 "el atril del historial no es el que da la bolsa con la semilla de la partida "
                                 "(III.12, III.17, III.19)")
                        return
                elif kind == "rack_set":
                    engine.set_rack(str(payload["text"]), redraw=bool(payload.get("redraw")))
                elif kind == "rack_withdrawn":
                    engine.withdraw_rack()
                elif kind == "master_chosen":
                    engine.play_recorded(str(payload["master"]), score=int(payload["score"]),
                                         rank=int(payload["rank"]), equal_tops=payload.get("equal_tops"),
                                         reason=str(event.get("reason") or ""))
                elif kind == "master_undone":
                    engine.undo_master()
            except (GameError, RackError, KeyError, TypeError, ValueError) as error:
                self.add(f", ronda {number}", str(kind), payload.get("rack") or payload.get("master"), None,
                         f"el historial no se puede repetir con el motor: {error}")
                return


def _slip_state(payload: Any, event: dict[str, Any]) -> dict[str, Any]:
    """What the event stored of its slip: the payload's figures, and who and when by the event."""
    if not isinstance(payload, dict):
        raise TypeError("se esperaba un objeto")
    return {"text": payload.get("text"), "status": payload.get("status"), "score": payload.get("score"),
            "board": payload.get("board"), "entered_by": event.get("arbiter"), "entered_at": event.get("created_at")}


def _instant(moment: object) -> datetime | None:
    """An ISO 8601 time of the record as an instant (no zone: UTC); None when it is not one."""
    if not isinstance(moment, str):
        return None
    try:
        return datetime.fromisoformat(str(canonical_time(moment)))
    except (ValueError, OverflowError):
        return None
