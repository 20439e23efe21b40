"""Counts in agreement with their noun, for every message a user reads: «1 partida»,
«2 partidas» (issue 13 §3). Imports nothing, so that any command may use it without
slowing its start."""

from __future__ import annotations

from collections.abc import Mapping

PLURALS: Mapping[str, str] = {
    "partida": "partidas", "ronda": "rondas", "jugador": "jugadores", "papeleta": "papeletas",
    "conflicto": "conflictos", "mesa": "mesas", "punto": "puntos", "jugada": "jugadas",
    "partida valorada": "partidas valoradas", "papeleta leída": "papeletas leídas",
    "jugador sentado": "jugadores sentados", "rondas con maestra": "rondas con maestra",
    "conflicto pendiente": "conflictos pendientes", "reclamación": "reclamaciones", "evento": "eventos",
    "papeleta pendiente": "papeletas pendientes", "jugada válida": "jugadas válidas", "atril": "atriles",
    "papeleta marcada como no entregada": "papeletas marcadas como no entregadas",
    "versión": "versiones", "activo": "activos", "abierta": "abiertas", "cambio": "cambios", "ficha": "fichas",
    "vocal": "vocales", "consonante": "consonantes", "comodín": "comodines", "mesa asignada": "mesas asignadas",
    "emparejamiento": "emparejamientos", "papeleta comprobada": "papeletas comprobadas", "inscripción": "inscripciones", "página": "páginas", "archivo": "archivos",
}
"""The plural of the nouns counted in messages."""


def agreeing(count: int, noun: str) -> str:
    """``noun`` in agreement with ``count``, without the number: «mesa» for 1, «mesas»
    otherwise (``PLURALS``, else ``noun`` + «s»)."""
    return noun if count == 1 else PLURALS.get(noun, noun + "s")


def counted(count: int, noun: str) -> str:
    """``count`` and ``noun`` in agreement: «1 partida», «2 partidas», «0 partidas»."""
    return f"{count} {agreeing(count, noun)}"
