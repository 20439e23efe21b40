"""What the judge's console shows (issue 4 §2), from the service's views: pure functions,
no Textual. ``JudgeScreen`` (``tui.app.screens.judge``) puts their texts in its widgets.

``console_state`` turns a ``GameView`` and the game's rounds into a ``ConsoleState``;
the other functions turn a ``ConsoleState`` (or a ``RoundStatus``) into Spanish text.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, replace

from rich.text import Text

from data.rules import ROUND_SECONDS
from duplicate.plurals import counted
from duplicate.rules.announce import SpellingTable, master_announcement, spoken_rack
from duplicate.rules.statuses import GameStatus
from duplicate.service.views import BoardCells, GameInfo, GameView, RoundStatus, RoundView, TopMove, pending_line
from tui.app.widgets.board import BLANK_STYLE, TILE_STYLE
from tui.app.widgets.glyphs import WARNING_MARK


@dataclass(frozen=True)
class ConsoleState:
    """Everything the console shows of one game, as plain values (built off the UI thread).

    ``game`` is None when the tournament has no game; ``rack_round`` is the round whose
    rack waits for its master (None between rounds); ``close_round`` the newest round
    with a master that is not closed yet; ``board`` a copy of the game's board to draw.
    """

    game: int | None
    seconds: int = ROUND_SECONDS
    planned_rounds: int | None = None
    round_number: int = 0
    board: BoardCells | None = None
    highlight: frozenset[tuple[int, int]] = frozenset()
    bag: tuple[int, int, int, int] = (0, 0, 0, 0)
    """Tiles in the bag: total, vowels, consonants, blanks."""
    rack_round: int | None = None
    rack_leftover: tuple[str, ...] = ()
    rack_drawn: tuple[str, ...] = ()
    redraws: tuple[str, ...] = ()
    tops: tuple[TopMove, ...] = ()
    """The first moves of top score (``TournamentService.game_view``), in the III.15 order."""
    top_total: int = 0
    move_count: int = 0
    rack_reading: str = ""
    master_reading: str = ""
    last_master: str | None = None
    over: bool = False
    end_reason: str = ""
    close_round: int | None = None
    status_round: int | None = None
    shared_timer: tuple[int | None, float, bool] | None = None
    """The round clock as stored by the service (round, seconds left, running), III.13."""
    unpublished: int | None = None
    """The last game when it is over and its results are not published yet (IV.32)."""
    prepared: bool = False
    """The game follows a prepared game (III.15, «duplicada maestra»)."""
    prepared_master: str | None = None
    """The prepared master of the rack in play: placed with Enter, no choice (III.15)."""


def console_state(info: GameInfo, view: GameView, rounds: Sequence[RoundView], table: SpellingTable) -> ConsoleState:
    """The console's state of game ``info`` from its ``view`` and its ``rounds`` (the
    readings spelt with ``table``, III.16–III.18)."""
    last = view.last
    played = [round_ for round_ in rounds if round_.master is not None]
    open_rounds = [round_.number for round_ in played if not round_.closed]
    clock = view.clock
    state = ConsoleState(
        game=view.number, seconds=info.seconds_per_round, planned_rounds=info.planned_rounds,
        round_number=view.round_number, board=view.board,
        highlight=last.squares if last is not None else frozenset(),
        bag=(view.bag.total, view.bag.vowels, view.bag.consonants, view.bag.blanks),
        master_reading=master_announcement(last.master, last.score, last.cumulative, table) if last else "",
        last_master=last.master if last is not None else None,
        over=view.over, end_reason=view.end_reason,
        close_round=open_rounds[-1] if open_rounds else None,
        status_round=(open_rounds[-1] if open_rounds else rounds[-1].number) if rounds else None,
        shared_timer=None if clock is None else (clock.round_number, clock.remaining, clock.running),
        unpublished=view.number if info.status == GameStatus.ENDED.value else None,
        prepared=view.prepared is not None and view.prepared.left_at is None,
        prepared_master=view.prepared.master if view.prepared is not None else None)
    rack = view.rack
    if rack is None:
        return state
    kept, drawn = tuple(tile.text for tile in rack.leftover), tuple(tile.text for tile in rack.drawn)
    return replace(state, rack_round=rack.number, rack_leftover=kept, rack_drawn=drawn,
                   redraws=rack.redraws, tops=rack.tops, top_total=rack.top_total, move_count=rack.move_count,
                   rack_reading=spoken_rack(kept, drawn, table))


def tables_text(tables: Sequence[int], shown: int = 12) -> str:
    """Table numbers, the first ``shown`` then how many more."""
    head = ", ".join(str(table) for table in tables[:shown])
    return head + (f" y {len(tables) - shown} más" if len(tables) > shown else "")


def status_text(status: RoundStatus, *, pending: bool = True) -> Text:
    """Slips entered versus expected, per assistant range, and the tables missing; then,
    unless ``pending`` is false (the console shows them above its panels, ``pending_text``),
    what the judge must resolve."""
    text = Text()
    text.append(f"Ronda {status.round_number}: {status.entered}/{counted(status.expected, 'papeleta')}", style="bold")
    text.append("\n")
    covered: set[int] = set()
    for assistant, (expected, entered, missing) in sorted(status.per_assistant.items()):
        covered.update(missing)
        style = "green" if not missing else "yellow"
        text.append(f"  {assistant}: {entered}/{expected}", style=style)
        if missing:
            text.append(f" — faltan {tables_text(missing)}")
        text.append("\n")
    loose = tuple(table for table in status.missing_tables if table not in covered)
    if loose:
        label = "sin auxiliar asignado" if status.per_assistant else "faltan"
        text.append(f"  {label}: {tables_text(loose)}", style="yellow")
    elif not status.missing_tables and status.expected:
        text.append("  todas entregadas", style="green")
    if status.pending and pending:
        text.append(f"\nPendiente del juez ({len(status.pending)}; «r» resuelve):", style="bold red")
        for item in status.pending:
            text.append(f"\n  {WARNING_MARK} {pending_line(item)}", style="yellow")
    return text


PENDING_SHOWN = 2
"""Pending conflicts listed in full above the console's panels (each may take two lines
at 80 columns); the others are counted."""


def pending_text(status: RoundStatus | None, shown: int = PENDING_SHOWN) -> Text:
    """What the judge must resolve before closing the round (conflicts between two slips,
    double-entry mismatches, II.4.a), for the block the console keeps in sight above its
    panels (issue 25 §2: at 80×24 the slips panel is below the fold): a title with how
    many and the key, the first ``shown`` in full, the rest counted. Empty when nothing
    is pending."""
    if status is None or not status.pending:
        return Text("")
    items = status.pending
    text = Text(f"⚠ Pendiente del juez ({len(items)}; «r» resuelve): la ronda {status.round_number} "
                "no se cierra antes", style="bold red")
    for item in items[:shown]:
        text.append(f"\n  {pending_line(item)}", style="yellow")
    if len(items) > shown:
        text.append(f"\n  y {len(items) - shown} más («r» los resuelve uno a uno)", style="yellow")
    return text


def situation(state: ConsoleState, *, conducts: bool = True) -> str:
    """The line that says what the judge does next. ``conducts``: this station conducts
    the game (racks, masters, the clock, closing rounds); a venue's judge (issue 27 §2)
    does not — its line says who does and what it resolves here."""
    if not conducts:
        return venue_situation(state)
    if state.game is None:
        return "El torneo no tiene partidas: pulse «p» para crear una."
    if state.over:
        return f"La partida {state.game} ha terminado: {state.end_reason}. «p» crea la siguiente."
    if state.rack_round is not None and not state.top_total:
        return (f"Ronda {state.rack_round}: el atril no tiene ninguna jugada válida: cámbielo («x», III.29); "
                "la partida no termina por eso (III.22).")
    if state.rack_round is not None and state.prepared_master:
        return (f"Ronda {state.rack_round}: partida preparada: coloque su maestra {state.prepared_master} (Enter); "
                "cambiar el atril («x», III.29) deja la partida preparada.")
    if state.rack_round is not None:
        return f"Ronda {state.rack_round}: elija la jugada maestra (Enter) o cambie el atril («x», III.29)."
    undo = " «u» deshace la última maestra." if state.last_master else ""
    return f"Ronda {state.round_number}: saque el atril («d») o escríbalo («a»).{undo}"


def venue_situation(state: ConsoleState) -> str:
    """``situation`` for a venue's judge (issue 27 §2, docs/venues.md «Rights»): the game
    is the organiser's; what this console does is its venue's conflicts."""
    if state.game is None:
        return "El torneo no tiene partidas: las crea el juez árbitro del torneo (el organizador)."
    if state.over:
        return f"La partida {state.game} ha terminado: {state.end_reason}."
    return (f"Ronda {state.round_number}: el atril, la maestra, el crono y el cierre de la ronda los lleva el juez "
            "árbitro del torneo; aquí se resuelven los conflictos de su sede («r»).")


def within(status: RoundStatus, tables: Collection[int]) -> RoundStatus:
    """``status`` restricted to ``tables`` (a venue's tables, issue 27 §2): the slips
    expected, entered and missing at those tables and their pending conflicts; the
    assistants' counts, which span every venue's tables, are left out."""
    mine = set(tables)
    missing = tuple(table for table in status.missing_tables if table in mine)
    return RoundStatus(status.round_number, len(mine), len(mine) - len(missing), missing, {},
                       tuple(item for item in status.pending if item.table in mine))


def sub_title(state: ConsoleState) -> str:
    """The header's second line: the game, its length and the round."""
    if state.game is None:
        return "sin partida"
    rounds = counted(state.planned_rounds, "ronda") if state.planned_rounds else "bolsa completa"
    if state.prepared:
        rounds += ", partida preparada"
    return (f"Partida {state.game} ({rounds}) — terminada" if state.over
            else f"Partida {state.game} ({rounds}) — ronda {state.round_number}")


def rack_text(state: ConsoleState) -> Text:
    """The rack as tiles (leftover │ drawn) and its redraws (III.19)."""
    text = Text()
    if state.rack_round is None:
        text.append(f"Ronda {state.round_number}: sin atril", style="dim")
        return text
    text.append(f"Ronda {state.rack_round}: ", style="bold")
    for tile in state.rack_leftover:
        text.append(f" {tile} ", style=BLANK_STYLE if tile == "?" else TILE_STYLE)
        text.append(" ")
    if state.rack_leftover:
        text.append("│ ", style="bold")
    for tile in state.rack_drawn:
        text.append(f" {tile} ", style=BLANK_STYLE if tile == "?" else TILE_STYLE)
        text.append(" ")
    for redraw in state.redraws:
        text.append(f"\ncambio de fichas: {redraw}", style="yellow")
    return text


def bag_line(state: ConsoleState) -> str:
    """The bag: total, vowels, consonants, blanks."""
    total, vowels, consonants, blanks = state.bag
    return (f"Bolsa {total}: {vowels} vocales, {consonants} consonantes, {blanks} "
            f"{'comodín' if blanks == 1 else 'comodines'}")


def moves_subtitle(state: ConsoleState) -> str:
    """Under the move list: how many tops and moves (nothing without a rack)."""
    return f"{state.top_total} de máxima puntuación, {state.move_count} en total" if state.rack_round else ""


def empty_moves_text(state: ConsoleState, *, conducts: bool = True) -> str:
    """What the move list says when it has no move (``conducts``: as ``situation``)."""
    if not conducts:
        return ("Sin partida." if state.game is None else "La partida ha terminado." if state.over
                else "Sin atril: lo saca el juez árbitro del torneo.")
    if state.game is None:
        return "Sin partida: «p» crea una."
    if state.rack_round:
        return "Ninguna jugada válida con este atril: «x» lo cambia (III.29)."
    if state.over:
        return "La partida ha terminado."
    return "Sin atril: «d» lo saca de la bolsa, «a» lo escribe."


def reading_text(state: ConsoleState) -> Text:
    """What the announcer reads aloud: the master (III.16) and the rack (III.17, III.18)."""
    text = Text()
    if state.master_reading:
        text.append("Maestra: ", style="bold")
        text.append(state.master_reading)
    if state.rack_reading:
        if text:
            text.append("\n")
        text.append(f"Atril ronda {state.rack_round}: ", style="bold")
        text.append(state.rack_reading)
    if not text:
        text.append("(nada que leer todavía)", style="dim")
    return text


def summary_text(state: ConsoleState, clock: str, running: bool, call: str = "") -> Text:
    """The one line a narrow terminal keeps above the scrolling panels: rack, bag and
    the clock (``clock`` as shown, ``running`` or not, and the ``call`` to make now,
    III.13: «ALCEN», «TIEMPO»…)."""
    text = Text()
    if state.rack_round is not None:
        text.append("Atril ", style="bold")
        text.append(" ".join(state.rack_leftover + state.rack_drawn), style="bold")
        text.append(f" · bolsa {state.bag[0]}")
    elif state.game is not None:
        text.append(f"Ronda {state.round_number}: sin atril", style="dim")
    if call:                        # the call says the clock runs (80 columns: the line is full)
        text.append(f" · crono {clock} · ")
        text.append(call, style="bold reverse")
    else:
        text.append(f" · crono {clock} {'en marcha' if running else 'parado'}")
    return text
