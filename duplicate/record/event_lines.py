"""One Spanish line per event of the log, for ``duplicada history`` (issue 35 §4).

``describe(kind, payload)`` says what an event did in words a judge reads («Ronda 3:
atril AEI[RR]ST sacado de la bolsa», «Jugador añadido: Ana Pérez (entrada 4)»), from
its kind and its payload as stored (or as shown: racks with digraph tiles in brackets,
``EventView.shown``). Every kind of ``EVENT_TYPES`` has its describer (``DESCRIBERS``;
a test checks it). A payload of an unexpected shape (a damaged row) is never
interpreted: its line names the kind and shows the value as it is.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

from duplicate.labels import BONUS_MODES, CLAIM_STATUS, CONFLICT_KIND, CRITERION_NAMES, ENTRY_STATUS, SLIP_STATUS
from duplicate.labels import label as _label

Payload = Mapping[str, Any]


def _text(payload: Payload, key: str, default: str = "?") -> str:
    value = payload.get(key)
    if value is None or value == "":
        return default
    if isinstance(value, (dict, list)):
        return json.dumps(value, ensure_ascii=False)
    return str(value)


def _count(payload: Payload, key: str) -> int:
    value = payload.get(key)
    return len(value) if isinstance(value, (list, dict)) else 0


def _label_of(table: Mapping[str, str], payload: Payload, key: str) -> str:
    return _label(table, _text(payload, key))


def _round(payload: Payload) -> str:
    return f"Ronda {_text(payload, 'round')}: "


def _slip(payload: Payload, key: str = "text") -> str:
    mark = payload.get("mark") or (payload.get("status") if not payload.get(key) else None)
    if isinstance(mark, str) and mark in SLIP_STATUS and not payload.get(key):
        return _label(SLIP_STATUS, mark)
    return f"«{_text(payload, key, '')}»"


def _settings(payload: Payload) -> str:
    settings = payload.get("settings")
    if not isinstance(settings, dict):
        return ""
    bonus = _label(BONUS_MODES, str(settings.get("bonus_mode", "")))
    criterion = _label(CRITERION_NAMES, str(settings.get("criterion", "")))
    return f"; bonificaciones: {bonus}; clasificación: {criterion}"


def _rack(payload: Payload, verb: str) -> str:
    redraws = _count(payload, "redraws")
    again = f" (tras {redraws} atril{'es' if redraws != 1 else ''} devuelto{'s' if redraws != 1 else ''})" \
        if redraws else ""
    replaces = f", en lugar de {_text(payload, 'replaces')}" if payload.get("replaces") else ""
    top = f"; mejor jugada {_text(payload, 'top_score')} puntos" if payload.get("top_score") is not None else ""
    return f"{_round(payload)}atril {_text(payload, 'rack')} {verb}{again}{replaces}{top}"


DESCRIBERS: dict[str, Callable[[Payload], str]] = {
    # registration
    "tournament_created": lambda p: f"Torneo creado: «{_text(p, 'name')}»"
                                    + (f" en {_text(p, 'venue')}" if p.get("venue") else "") + _settings(p),
    "settings_changed": lambda p: "Criterios del torneo cambiados"
                                  + _settings({"settings": p.get("after")}),
    "pin_changed": lambda p: f"PIN {'fijado' if p.get('set', True) else 'retirado'}: "
                             f"{'juez' if p.get('role') in ('judge', 'venue_judge') else 'auxiliar'}"
                             + (f" {_text(p, 'name')}" if p.get("name") else "")
                             + (f" (sede {_text(p, 'venue')})" if p.get("venue") else ""),
    "player_added": lambda p: f"Jugador inscrito: {_text(p, 'name')} (inscripción {_text(p, 'entry')})"
                              + (f", club {_text(p, 'club')}" if p.get("club") else "")
                              + (f", sede {_text(p, 'venue')}" if p.get("venue") else ""),
    "entry_status": lambda p: f"Inscripción {_text(p, 'entry')}: de {_label_of(ENTRY_STATUS, p, 'before')} "
                              f"a {_label_of(ENTRY_STATUS, p, 'after')}",
    "assistant_range": lambda p: f"Auxiliar {_text(p, 'assistant')}: mesas {_text(p, 'first')} a {_text(p, 'last')}",
    "player_updated": lambda p: f"Datos del jugador de la inscripción {_text(p, 'entry')} corregidos",
    "venue_added": lambda p: f"Sede añadida: {_text(p, 'venue')}",
    "venue_imported": lambda p: f"Registro de la sede {_text(p, 'venue')} importado"
                                + (f", firmado con la clave de huella {_text(p, 'signed_by')}" if p.get("signed_by") else "")
                                + (", SIN FIRMA" if p.get("unsigned") else "")
                                + (" (sustituye al anterior)" if p.get("replaces") else ""),
    "venue_key_registered": lambda p: f"Clave de la sede {_text(p, 'venue')} registrada: huella {_text(p, 'fingerprint')}"
                                      + (f" (sustituye a {_text(p, 'replaces')})" if p.get("replaces") else ""),
    "signing_key_made": lambda p: f"Clave de firma del torneo creada: huella {_text(p, 'fingerprint')}",
    # play
    "game_created": lambda p: f"Partida {_text(p, 'number')} creada"
                              + (f": {_text(p, 'planned_rounds')} ronda{'' if p.get('planned_rounds') == 1 else 's'}"
                                 if p.get("planned_rounds") else "")
                              + (f", {_text(p, 'seconds_per_round')} s por ronda" if p.get("seconds_per_round") else ""),
    "tables_assigned": lambda p: f"Mesas asignadas ({_count(p, 'tables')} jugadores)",
    "rack_drawn": lambda p: _rack(p, "sacado de la bolsa"),
    "rack_set": lambda p: _rack(p, "dictado por el juez"),
    "rack_withdrawn": lambda p: f"{_round(p)}atril {_text(p, 'rack')} retirado (III.29)",
    "slips_set_aside": lambda p: f"{_round(p)}{_count(p, 'slips')} papeletas apartadas al cambiar el atril "
                                 f"{_text(p, 'rack')} (III.29)",
    "master_chosen": lambda p: f"{_round(p)}jugada maestra {_text(p, 'master')}, {_text(p, 'score')} puntos"
                               + (f" (acumulado {_text(p, 'cumulative')})" if p.get("cumulative") is not None else ""),
    "master_undone": lambda p: f"{_round(p)}jugada maestra {_text(p, 'master')} deshecha",
    "master_annulled": lambda p: f"{_round(p)}jugada maestra {_text(p, 'master')} anulada (III.29)",
    "game_ended": lambda p: f"Partida terminada: {_text(p, 'reason', 'sin motivo')}",
    "prepared_game_loaded": lambda p: f"Partida preparada cargada (resumen {_text(p, 'digest')[:12]}…)",
    "prepared_game_left": lambda p: f"{_round(p)}se deja la partida preparada",
    "timer": lambda p: "Reloj de la ronda: " + {"start": "en marcha", "pause": "en pausa", "reset": "a cero",
                                                 "resume": "en marcha de nuevo"}.get(_text(p, "action"),
                                                                                     _text(p, "action"))
                       + (f", quedan {_text(p, 'remaining')} s" if p.get("remaining") is not None else ""),
    # slips
    "slip_entered": lambda p: f"Mesa {_text(p, 'table')}: papeleta {_slip(p)}"
                              + (f" anotada como {_label_of(SLIP_STATUS, p, 'status')}" if p.get("status") else "")
                              + (f", {_text(p, 'score')} puntos" if p.get("score") is not None else ""),
    "slip_checked": lambda p: f"Mesa {_text(p, 'table')}: papeleta {_slip(p)} comprobada (doble entrada)",
    "slip_conflict": lambda p: f"Mesa {_text(p, 'table')}: conflicto {_text(p, 'conflict')} "
                               f"({_label_of(CONFLICT_KIND, p, 'kind')}): {_slip(p)} frente a "
                               f"{_slip(p, 'stored_text')}",
    "slip_corrected": lambda p: f"Mesa {_text(p, 'table')}: papeleta corregida",
    "conflict_resolved": lambda p: f"Conflicto {_text(p, 'conflict')} resuelto: "
                                   + ("se sustituye la papeleta" if p.get("resolution") == "replaced"
                                      else "se mantiene la registrada" if p.get("resolution") == "kept"
                                      else _text(p, "resolution")),
    "round_closed": lambda p: f"{_round(p)}cerrada",
    "bonuses_awarded": lambda p: f"{_round(p)}{_count(p, 'bonuses')} bonificaciones (III.24)",
    "claim_filed": lambda p: f"Mesa {_text(p, 'table')}: reclamación {_text(p, 'claim')} presentada (III.27)",
    "claim_resolved": lambda p: f"Reclamación {_text(p, 'claim')} {_label_of(CLAIM_STATUS, p, 'status')}",
    "results_published": lambda p: "Resultados publicados: "
                                   + ("definitivos" if p.get("status") == "final" else "provisionales"),
    "game_reopened": lambda p: "Partida reabierta (IV.32)",
    # ranking and classic events
    "division_created": lambda p: f"División {_text(p, 'division')} creada: sistema {_text(p, 'system')}, "
                                  f"{_text(p, 'rounds')} rondas",
    "round_paired": lambda p: f"División {_text(p, 'division')}, {_round(p).lower()}{_count(p, 'boards')} "
                              "tableros emparejados",
    "result_entered": lambda p: f"División {_text(p, 'division')}, ronda {_text(p, 'round')}, tablero "
                                f"{_text(p, 'table')}: {_text(p, 'first_score')}-{_text(p, 'second_score')}"
                                + (" (incomparecencia)" if p.get("forfeit") else ""),
    "result_conflict": lambda p: f"División {_text(p, 'division')}, ronda {_text(p, 'round')}, tablero "
                                 f"{_text(p, 'table')}: resultados distintos "
                                 f"({_text(p, 'first_score')}-{_text(p, 'second_score')})",
    "result_resolved": lambda p: f"División {_text(p, 'division')}, ronda {_text(p, 'round')}, tablero "
                                 f"{_text(p, 'table')}: resultado fijado {_text(p, 'first_score')}-"
                                 f"{_text(p, 'second_score')}",
    "classic_entry": lambda p: f"División {_text(p, 'division')}: jugador {_text(p, 'number')}, "
                               f"{_text(p, 'change')}",
    "ratings_updated": lambda p: f"EloDI: versión {_text(p, 'version')}, {_count(p, 'games')} partidas valoradas",
    "ratings_recomputed": lambda p: f"EloDI: versión {_text(p, 'version')} recalculada desde la "
                                    f"{_text(p, 'previous')}",
}
"""The describer of each kind of event: its payload (as stored or shown) to one line."""


def describe(kind: str, payload: object) -> str:
    """One Spanish line saying what an event of ``kind`` with ``payload`` did. A kind
    without a describer or a payload that is not a JSON object (a damaged row) gives
    the kind and the value as stored, never an error."""
    describer = DESCRIBERS.get(kind)
    if describer is None or not isinstance(payload, Mapping):
        return f"{kind}: {json.dumps(payload, ensure_ascii=False, default=str)}"
    try:
        return describer(payload)
    except (TypeError, ValueError, AttributeError):
        return f"{kind}: {json.dumps(payload, ensure_ascii=False, default=str)}"
