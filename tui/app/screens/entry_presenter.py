"""What the slip entry screen shows (issue 4 §2, II.4.c), from the service's views: pure
functions, no Textual. ``EntryScreen`` (``tui.app.screens.entry``) puts them on screen.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from rich.text import Text

from duplicate.plurals import counted
from duplicate.rules.slips import SlipStatus
from duplicate.service.errors import StorageUnavailable, TournamentError
from duplicate.service.views import (
    AssistantRangeView,
    ConflictView,
    EntryView,
    PlayerView,
    RoundView,
    SetAsideSlipView,
    SlipView,
)
from tui.app.widgets.glyphs import WARNING_MARK
from tui.app.widgets.slip_feedback import Feedback, set_aside_feedback, status_name

Cell = str | Text
"""A cell of the slips table: plain text (as typed, never markup) or styled text."""


@dataclass(frozen=True)
class GameData:
    """What the screen reads of the game: its number, rounds and seats, the ranges, and
    whether the tournament admits slips written on a paper board (II.8)."""

    game: int
    rounds: Sequence[RoundView]
    seats: Sequence[tuple[int, EntryView, PlayerView]]
    ranges: Sequence[AssistantRangeView]
    board_notation: bool = False


@dataclass(frozen=True)
class Refusal:
    """A slip (or action) the service refused, kept on screen until the assistant has
    seen it (issue 25 §2): the ``table`` (None: an action for many tables), what was
    ``typed``, the ``round_number`` it was typed for and the service's ``reason``."""

    table: int | None
    typed: str
    round_number: int | None
    reason: str


REFUSALS_SHOWN = 3
"""Refused slips listed one a line; older ones are counted on the title line."""


def refusals_text(refusals: Sequence[Refusal], shown: int = REFUSALS_SHOWN) -> Text:
    """The list of refused slips, newest last, under a title that says how many there are
    and how to dismiss them (Ctrl+O); empty text when there are none. What was typed is
    plain text, never markup."""
    if not refusals:
        return Text("")
    count = len(refusals)
    # One line each, cut with «…» rather than wrapped: little room at 80×24 (issue 35 §4).
    text = Text(f"⚠ {count} {'papeleta' if count == 1 else 'papeletas'} NO "
                f"{'anotada' if count == 1 else 'anotadas'}: tecléelas de nuevo o avise al juez (Ctrl+O: vistas)",
                style="bold", no_wrap=True, overflow="ellipsis")
    hidden = count - shown
    if hidden > 0:
        text.append(f" · {hidden} más antiguas no caben aquí", style="dim")
    for refusal in refusals[-shown:]:
        where = f"mesa {refusal.table}" if refusal.table is not None else "acción"
        in_round = f", ronda {refusal.round_number}" if refusal.round_number is not None else ""
        text.append(f"\n{where}{in_round}", style="bold")
        if refusal.typed:
            text.append(f" «{refusal.typed}»")
        text.append(f": {refusal.reason}")
    return text


def refusal_reason(outcome: object, table: int | None, typed: str) -> str | None:
    """Why the service refused an action — the feedback and the refused slips' list say
    it (issue 25 §2) — or None when ``outcome`` (what the call returned, or the exception
    it raised) is not a refusal. A database that does not answer (``StorageUnavailable``)
    names the ``table`` (None: an action for many tables) and what was ``typed``, to be
    typed again; any other error than a ``TournamentError`` is named as unexpected."""
    if isinstance(outcome, StorageUnavailable):
        where = f"mesa {table}" if table is not None else "la acción"
        return f"NO GUARDADA: {where}{f' «{typed}»' if typed else ''}: {outcome}; vuelva a anotarla"
    if isinstance(outcome, Exception):
        return problem(outcome)
    return None


def without_entered(refusals: Sequence[Refusal], table: int, round_number: int) -> list[Refusal]:
    """The refusals still to show once a slip of ``table`` was stored in ``round_number``:
    that table's refusals in that round are done, every other one stays (issue 25 §2)."""
    return [item for item in refusals if (item.table, item.round_number) != (table, round_number)]


def problem(error: Exception) -> str:
    """The Spanish text of a failed read (a ``TournamentError`` says it; anything else is
    named as unexpected)."""
    return str(error) if isinstance(error, TournamentError) else f"error inesperado ({type(error).__name__}): {error}"


def default_round(rounds: Mapping[int, RoundView]) -> int | None:
    """The round the screen follows: the round whose slips are being typed (issue 25 §2).

    The newest round with a master that is still open (its slips are typed while the
    next rack is played, III.16); with none, the oldest open round (its rack is being
    played: its slips come next); when every round is closed, the newest (nothing is
    typed there, but it is what there is to see). None: no round. A closed round is never
    followed while another is open: the service refuses its slips (only the judge
    corrects a closed round).
    """
    open_rounds = [number for number, view in rounds.items() if not view.closed]
    with_master = [number for number in open_rounds if rounds[number].master is not None]
    if with_master:
        return max(with_master)
    if open_rounds:
        return min(open_rounds)
    return max(rounds) if rounds else None


@dataclass(frozen=True)
class RoundToShow:
    """The round the entry screen shows after reading the rounds (``round_to_show``):
    its ``number`` (None: the game has no round), whether it ``follow``s the round being
    typed, and the ``notice`` shown when the screen moves on by itself (None: it does not)."""

    number: int | None
    follow: bool
    notice: str | None = None


def round_to_show(rounds: Mapping[int, RoundView], shown: int | None, *, follow: bool, typing: bool) -> RoundToShow:
    """Which round the screen shows, given the ``rounds`` read and the round ``shown``
    (issue 25 §2). A round shown that is not in ``rounds`` (none shown yet, or its rack
    was withdrawn, III.29) gives way to ``default_round``, followed again, silently.
    Otherwise the screen moves on to ``default_round`` — saying so — only when it
    ``follow``s and no slip is half-typed (``typing``: that slip belongs to the round
    shown, the screen moves on right after it is entered); a round chosen by hand (F7/F8,
    not ``follow``) stays."""
    default = default_round(rounds)
    if shown not in rounds:
        return RoundToShow(default, True)
    if not follow or typing or default == shown:
        return RoundToShow(shown, follow)
    return RoundToShow(default, True, f"Ahora se anota la ronda {default}")


def set_aside_notice(aside: Sequence[SetAsideSlipView], seen: int | None) -> tuple[int, Feedback | None]:
    """III.29: what to tell about the slips set aside when the judge withdrew a rack they
    had been entered against. ``aside`` are the game's set-aside slips (any round), each
    with the ``event_id`` of its withdrawal; ``seen`` is the newest withdrawal already
    looked at on this screen (None: the game was not looked at yet). Returns the newest
    withdrawal (the next ``seen``) and the feedback asking for the round's slips again —
    only for a withdrawal newer than ``seen``, once; None on the first look (said long
    ago, or by another station) or when nothing is new."""
    newest = max((slip.event_id for slip in aside), default=0)
    if seen is None or newest <= seen:
        return newest, None
    told = [slip for slip in aside if slip.event_id == newest]
    return newest, set_aside_feedback(told[0].round_number, told)


def assistant_range(ranges: Sequence[AssistantRangeView], arbiter: str) -> tuple[int, int] | None:
    """The tables of the assistant named ``arbiter`` (case and spaces aside), II.4.c."""
    name = arbiter.strip().casefold()
    mine = [item for item in ranges if name and item.assistant.strip().casefold() == name]
    return (mine[0].first_table, mine[0].last_table) if mine else None


def tables_shown(seats: Sequence[int], assistant: tuple[int, int] | None, show_all: bool) -> list[int]:
    """The tables listed: the assistant's range unless ``show_all`` or none, in order."""
    tables = sorted(seats)
    if assistant is not None and not show_all:
        first, last = assistant
        tables = [table for table in tables if first <= table <= last]
    return tables


def slip_row(table: int, name: str, slip: SlipView | None, in_conflict: bool) -> list[Cell]:
    """A table's row: table, player, slip as typed, move, points, status, who typed it."""
    cells: list[Cell]
    if slip is None:
        cells = [Text("—", style="dim")] * 5
    else:
        style = "green" if slip.status == SlipStatus.VALID.value else "yellow"
        cells = [slip.text or "", slip.move or "", Text(str(slip.score), style=f"bold {style}", justify="right"),
                 Text(status_name(slip.status), style=style), slip.entered_by]
    if in_conflict:
        cells[3] = Text(f"{WARNING_MARK} conflicto", style="bold white on dark_red")
    return [Text(str(table), justify="right"), name, *cells]


def missing_line(tables: Sequence[int], entered: Mapping[int, SlipView], round_number: int | None) -> tuple[str, bool]:
    """The line under the entry form and whether the round is complete."""
    missing = [table for table in tables if table not in entered]
    round_text = f"ronda {round_number}"
    if missing:
        return (f"{'Falta' if len(missing) == 1 else 'Faltan'} {len(missing)} de {counted(len(tables), 'papeleta')} de la {round_text}: "
                + ", ".join(map(str, missing))), False
    return f"Todas las papeletas de la {round_text} están anotadas ({len(tables)} de {len(tables)}).", True


def conflicts_line(conflicts: Sequence[ConflictView], tables: Sequence[int], entered: Mapping[int, SlipView]) -> Text:
    """The unresolved conflicts of the tables listed (slips as typed, never markup)."""
    listed = set(tables)
    ours = [conflict for conflict in conflicts if conflict.table_number in listed]
    if not ours:
        return Text("")
    return Text(f"{WARNING_MARK} Conflictos pendientes del juez árbitro: " + "; ".join(
        f"mesa {conflict.table_number}: «{conflict.text or conflict.mark}» frente a "
        f"«{entered[conflict.table_number].text if conflict.table_number in entered else ''}»"
        for conflict in ours))


def context_text(game: int | None, view: RoundView | None, *, double_entry: bool, follow: bool,
                 assistant: tuple[int, int] | None, show_all: bool, arbiter: str, board: bool = True) -> Text:
    """The context line: double entry, the game, the round with its rack and master,
    and which tables are listed; F12 is offered only when ``board`` (the tournament
    admits slips written on a paper board, II.8)."""
    text = Text()
    if double_entry:
        text.append(" DOBLE ENTRADA (F11) ", style="bold white on dark_blue")
        text.append(" ")
    text.append(f"Partida {game}", style="bold")
    if view is not None:
        text.append(" · ")
        text.append(f" Ronda {view.number} ", style="bold reverse")
        text.append(" (F7/F8; F12: papeleta en tablero)" if board else " (F7/F8)", style="dim")
        text.append(f" · atril {view.rack_shown}")
        if view.master is not None:
            text.append(f" · maestra {view.master} ({view.master_score} puntos)")
        else:
            text.append(" · aún sin jugada maestra", style="bold yellow")
        if view.closed:
            text.append(" · cerrada", style="bold red")
        if not follow:
            text.append(" · elegida a mano (F7/F8)", style="dim")
    if assistant is not None and not show_all:
        text.append(f"\nMesas {assistant[0]}–{assistant[1]} de {arbiter} (F9: todas)")
    elif assistant is not None:
        text.append(f"\nTodas las mesas (F9: las de {arbiter})")
    else:
        text.append("\nTodas las mesas")
    text.append(" · F1: reclamación (III.27)", style="dim")
    return text


def conflict_sides(conflict: ConflictView, stored: SlipView | None) -> tuple[str, str]:
    """The two sides of a conflict as the judge's dialog shows them: the stored slip and
    the new entry, each with its status, points and who typed it."""
    if stored is None:
        kept = "ninguna"
    else:
        kept = (f"«{stored.text}» · " if stored.text else "") + (
            f"{status_name(stored.status)}, {stored.score} puntos, anotó {stored.entered_by}")
    new = " · ".join(part for part in (f"«{conflict.text}»" if conflict.text else "",
                                        status_name(conflict.mark) if conflict.mark else "") if part)
    return kept, new + f" (anotó {conflict.entered_by})"
