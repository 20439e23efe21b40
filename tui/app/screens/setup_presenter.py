"""What the judge's setup screen shows and reads back (issue 4 §2): the choices of its
forms, numbers read from its fields, and the texts of the tournament, its games, its
players and the III.24 advice — pure functions of the service's views, no Textual.
``SetupScreen`` (``tui.app.screens.setup``) puts them on screen.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from rich.text import Text

from duplicate.labels import ENTRY_STATUS, GAME_STATUS, label
from duplicate.plurals import counted
from duplicate.rules.bonuses import BonusMode, BonusPolicy, bonus_warnings
from duplicate.rules.statuses import EntryStatus, SeatingMethod
from duplicate.rules.tournament_standings import TournamentCriterion
from duplicate.service.errors import InvalidNumber, TournamentError
from duplicate.service.settings import TournamentSettings
from duplicate.service.venues import VenueView
from duplicate.service.views import AssistantRangeView, EntryView, PlayerView, TournamentInfo
from tui.app.widgets.glyphs import WARNING_MARK

BONUS_MODES = [
    ("Sin bonificaciones", BonusMode.OFF.value),
    ("Automáticas: 10 a la maestra, 5 a la mejor (III.24)", BonusMode.AUTOMATIC.value),
    ("Manuales: el valor indicado al único con la máxima", BonusMode.MANUAL.value),
]
CRITERIA = [
    ("Suma de puntos", TournamentCriterion.TOTAL.value),
    ("Promedio de plazas (IV.31, criterio 1)", TournamentCriterion.AVERAGE_PLACE.value),
    ("Promedio de porcentajes (IV.31, criterio 2)", TournamentCriterion.AVERAGE_PERCENTAGE.value),
    ("Desviación estándar (IV.31, criterio 3)", TournamentCriterion.DEVIATION.value),
]
SEATING = [
    ("Automático: clasificación parcial, si no alfabético (II.6)", "auto"),
    ("Clasificación parcial del torneo", SeatingMethod.STANDINGS.value),
    ("Escalafón (alfabético mientras no haya ratings)", SeatingMethod.RATING.value),
    ("Orden alfabético", SeatingMethod.ALPHABETICAL.value),
    ("Al azar (con la semilla del sorteo)", SeatingMethod.RANDOM.value),
]
STATUS_BUTTONS = {"withdraw": EntryStatus.WITHDRAWN, "absent": EntryStatus.ABSENT,
                  "disqualify": EntryStatus.DISQUALIFIED, "reactivate": EntryStatus.ACTIVE}
TABS = {"torneo": "tab-torneo", "jugadores": "tab-jugadores", "mesas": "tab-mesas", "auxiliares": "tab-auxiliares",
        "sedes": "tab-sedes"}


def integer(text: str, what: str, *, blank: int | None = None) -> int | None:
    """``text`` as an integer (``blank`` when empty); ``InvalidNumber`` naming ``what``."""
    text = text.strip()
    if not text:
        return blank
    try:
        return int(text)
    except ValueError:
        raise InvalidNumber(f"{what}: «{text}» no es un número entero", what=what, value=text) from None


def problem(error: Exception) -> str:
    """The Spanish text of a failed action or read."""
    return str(error) if isinstance(error, TournamentError) else f"no se pudo hacer ({type(error).__name__}): {error}"


@dataclass(frozen=True)
class SetupData:
    """What the screen shows, read in one worker: ``settings`` only when asked for (the
    form is filled once, not overwritten while the judge types)."""

    info: TournamentInfo
    settings: TournamentSettings | None
    entries: list[tuple[EntryView, PlayerView]]
    seats: list[tuple[int, EntryView, PlayerView]]
    ranges: list[AssistantRangeView]
    venues: list[str] = field(default_factory=list)
    """The online venues (issue 27 §2), in the order they were named."""
    stations: list[tuple[str, str, str | None]] = field(default_factory=list)
    """Every station credential as ``(role, name, venue)`` (``venue_stations``)."""
    views: list[VenueView] = field(default_factory=list)
    """Every venue, online and imported (``venues``); read only for a station offered the
    «Sedes» tab."""

    def within(self, venue: str | None) -> SetupData:
        """What a station of ``venue`` is shown (issue 27 §2): its venue's players and
        assistants only; everything for the organiser's stations (``None``)."""
        if venue is None:
            return self
        assistants = {name for role, name, where in self.stations if role == "assistant" and where == venue}
        return replace(self, entries=[(entry, player) for entry, player in self.entries if entry.venue == venue],
                       ranges=[item for item in self.ranges if item.assistant in assistants],
                       stations=[station for station in self.stations if station[2] == venue])


def info_text(info: TournamentInfo) -> Text:
    """The tournament's name (bold), venue, lexicon (fixed at creation) and players, as
    plain text: every stored text shown as typed, never read as markup."""
    path = f" ({info.lexicon_path})" if info.lexicon_path else ""
    text = Text(info.name, style="bold")
    text.append(f" — {info.venue or 'sin lugar'}\n"
                f"Léxico: {info.lexicon_hash[:16]}…{path} — se fija al crear el torneo; no se cambia desde aquí.\n"
                f"Jugadores: {info.players} inscritos, {counted(info.active_players, 'activo')}"
                f"{info.field_note()}.")
    return text


def lock_text(info: TournamentInfo) -> str:
    """Why the settings are fixed (empty while no round is played), III.24, III.28."""
    started = any(game.rounds for game in info.games)
    return ("Ya hay rondas jugadas: los ajustes quedan fijados (III.24, III.28), salvo los segundos por ronda "
            "(para las próximas partidas, III.13)." if started else "")


def games_text(info: TournamentInfo) -> str:
    """The games: status, rounds played of those planned, seconds per round."""
    lines = [f"Partida {game.number}: {label(GAME_STATUS, game.status)}, {counted(game.rounds, 'ronda')} de "
             f"{game.planned_rounds if game.planned_rounds else 'bolsa completa'}, "
             f"{game.seconds_per_round} s por ronda"
             for game in info.games]
    return "Partidas:\n" + "\n".join(lines) if lines else "Aún no hay partidas."


PLAYER_COLUMNS = ("Nº", "Nombre", "Estado", "Club", "País", "Federación")
"""The players' table's columns; «Sede» is added when the tournament has online venues. The
status next to the name: seen whole at 80 columns, however long the clubs (issue 35 §4)."""


def player_row(entry: EntryView, player: PlayerView, *, venues: bool = False) -> tuple[str, ...]:
    """A row of the players' table (``PLAYER_COLUMNS``): entry, name, status, club, country,
    federation id and, with ``venues``, the player's venue (issue 27 §2; the organiser's room
    when none)."""
    return (str(entry.id), player.name, label(ENTRY_STATUS, entry.status), player.club, player.country,
            player.federation_id or "") + ((entry.venue or "sala del organizador",) if venues else ())


def bonus_advice(active_players: int | None, mode_value: str, bonus_text: str) -> str | None:
    """III.24's advice for the bonus in the form (not yet saved), one warning line each, or
    what is wrong with the value typed; None while the players are not read yet
    (``active_players`` None) and the value is a number."""
    try:
        value = integer(bonus_text, "valor de la bonificación", blank=10)
        mode = BonusMode(mode_value)
        if active_players is None:
            return None
        advice = bonus_warnings(active_players, BonusPolicy(mode, value or 0))
    except (TournamentError, ValueError) as error:
        advice = [str(error)]
    return "\n".join(f"{WARNING_MARK} {line}" for line in advice)
