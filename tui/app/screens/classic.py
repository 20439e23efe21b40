"""Classic event (issue 16): the round's boards with result entry, and the standings.

Tabs: F2 the round (its boards, who moves first, both scores, conflicts), F3 the standings
(wins, spread, tie-breaks, first/second balance), F4 the starting list (number, rating,
title, withdrawn or late). In the round tab the result field takes
``MESA PUNTOS1 PUNTOS2`` and Enter (``3 420 385``): the scores of the player who moved first,
then the second's; the field clears at once for the next board, and the line below says
what the service did (stored, confirmed, conflict for the judge, refused). F7/F8 show the
previous/next round; F6 the next division when the tournament has several; F9 writes the
publication (HTML, PDF, CSV, TRF) into the tournament's publication folder, ``clasico/``
(``clasico-A/`` for division A).

The judge's keys: F5 pairs the next round (the division's system; the engines' answer
is checked by the rules before it is stored), and when the tournament has no classic
division yet the screen offers to create one (rounds, system). Assistants enter the results
of their tables only (the service refuses others, II.4.c). The judge also types short orders
in the same field (shown under it): ``3 i2`` the second player of table 3 did not show
(forfeit), ``d 5`` player 5 asks for a bye next round (no points, C.04.2 D.4; ``dm 5``
half a point, in a Swiss division whose rules say so), ``r 5``
withdraws player 5, ``3 ii`` neither player of table 3 came (double forfeit), ``e Nombre 1850
FM`` puts a tournament player in the division with a rating and title, ``v 5 1900`` corrects
player 5's rating, ``m 1-8,2-7,…: motivo`` pairs the next round by hand (the reason is needed
when the pairing breaks a rule, and kept in the log). ``: motivo`` after an order or a result
gives the judge's reason, which overwriting a result already counted needs. Every service call runs in a
worker thread; a refusal is a Spanish line, never a traceback. Refreshed on ``DataChanged``.
"""

from __future__ import annotations

from typing import Any, ClassVar

from rich.text import Text
from textual import on, work
from textual.worker import get_current_worker
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Header, Input, Label, Select, Static, TabbedContent, TabPane
from textual.widgets.data_table import ColumnKey

from duplicate.plurals import counted
from duplicate.service.access import Action
from duplicate.service.errors import TournamentError
from ranking.classic.engines import SYSTEM_NAMES, PairingError, PairingSystem
from ranking.classic.errors import ReasonRequired
from ranking.classic.pairing_rules import parse_pairs
from ranking.classic.service import ClassicService
from ranking.classic.standings import Seeded, StandingLine
from ranking.classic.starting_list import TITLES
from ranking.classic.trf import is_number
from ranking.classic.views import (
    DOUBLE_ROUND_ROBIN,
    FIRST_COLOUR_TEXT,
    MANUAL,
    ROUND_ROBIN,
    BoardView,
    DivisionView,
    system_name,
)
from tui.app.messages import DataChanged
from tui.app.station import StationScreen
from tui.app.widgets.glyphs import HEADER_ICON
from tui.app.widgets.ordered_input import OrderedInput
from tui.app.widgets.plain_table import PlainTable
from tui.app.widgets.spanish_select import SpanishSelect
from tui.app.widgets.steady_footer import SteadyFooter

SYSTEM_CHOICES = [(SYSTEM_NAMES[s], s.value) for s in PairingSystem] + [
    ("Todos contra todos (Berger)", ROUND_ROBIN), ("Todos contra todos a doble vuelta", DOUBLE_ROUND_ROBIN),
    ("A mano (el juez)", MANUAL)]
_TABS = Binding.Group("Pestañas", compact=True)
_ROUNDS = Binding.Group("Ronda −/+", compact=True)


def parse_result(text: str) -> tuple[int, int, int]:
    """``"MESA PUNTOS1 PUNTOS2"`` → (table, first, second). Raises ``ValueError`` (Spanish)
    naming what was expected."""
    parts = text.replace(",", " ").replace("-", " ").split()
    if len(parts) != 3 or not all(is_number(p) for p in parts):
        raise ValueError(f"«{text}»: se esperaba MESA PUNTOS1 PUNTOS2, p. ej. «3 420 385»")
    table, first, second = (int(p) for p in parts)
    return table, first, second


JUDGE_HINT = ("Juez: «3 i1»/«3 i2»/«3 ii» incomparecencia de quien empieza/del segundo/de los dos en la mesa 3; "
              "«d 5» descanso pedido del 5 en la ronda siguiente (sin puntos), «dm 5» con medio punto; "
              "«r 5» retira al 5; "
              "«e Nombre 1850 FM» inscribe en la división con rating y título; «v 5 1900» corrige el rating del 5; "
              "«m 1-8,2-7,…: motivo» empareja a mano; «: motivo» tras una orden o un resultado que cambia otro")


def parse_judge_order(text: str) -> tuple[str, tuple[Any, ...]] | None:
    """The judge's short orders typed in the result field, or None when ``text`` is not one:
    ``MESA i1|i2|ii`` (forfeit: who did not show, ``ii`` neither), ``d N`` (also ``d0 N``) /
    ``dm N`` (a bye asked for the next round: none, C.04.2 D.4, or half a win), ``r N`` (withdraw), ``e NOMBRE [RATING]
    [TÍTULO]`` (a player put in the division), ``v N RATING [TÍTULO]`` (a rating corrected).
    Raises ``ValueError`` (Spanish) for an order with a bad number. The manual pairing order
    is ``parse_manual_order``'s."""
    parts = text.split()
    lower = [part.lower() for part in parts]
    if len(parts) == 2 and lower[1] in ("i1", "i2", "ii"):
        if not is_number(parts[0]):
            raise ValueError(f"«{text}»: se esperaba MESA i1, MESA i2 o MESA ii")
        return ("forfeit", (int(parts[0]), {"i1": "first", "i2": "second", "ii": "both"}[lower[1]]))
    if len(parts) == 2 and lower[0] in ("d", "d0", "dm", "r"):
        if not is_number(parts[1]):
            raise ValueError(f"«{text}»: se esperaba «{parts[0]} NÚMERO» (número inicial del jugador)")
        return ({"d": "zero-bye", "d0": "zero-bye", "dm": "half-bye", "r": "withdraw"}[lower[0]], (int(parts[1]),))
    if len(parts) >= 2 and lower[0] == "e":
        words = parts[1:]
        title = words.pop().upper() if len(words) > 1 and words[-1].upper() in TITLES else ""
        rating = int(words.pop()) if len(words) > 1 and is_number(words[-1]) else None
        return ("enter", (" ".join(words), rating, title))
    if len(parts) in (3, 4) and lower[0] == "v":
        if not (is_number(parts[1]) and is_number(parts[2])):
            raise ValueError(f"«{text}»: se esperaba «v NÚMERO RATING [TÍTULO]»")
        return ("rating", (int(parts[1]), int(parts[2]), parts[3] if len(parts) == 4 else None))
    return None


def parse_manual_order(text: str) -> tuple[list[tuple[int, int]], str] | None:
    """``m 1-8,2-7,…: motivo`` — the judge pairs the next round by hand (the reason after
    the colon, needed when the pairing breaks a rule) — as (pairs, reason); None when
    ``text`` is not that order. Raises ``ValueError`` (Spanish) for a malformed pair."""
    if not text.lower().startswith("m "):
        return None
    pairs, _, reason = text[2:].partition(":")
    return parse_pairs(pairs), reason.strip()


class ClassicScreen(StationScreen[None]):
    """See the module docstring."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "app.pop_screen", "Volver"),
        Binding("f2", "tab('ronda')", "Ronda", group=_TABS),
        Binding("f3", "tab('clasificacion')", "Clasificación", group=_TABS),
        Binding("f4", "tab('lista')", "Lista inicial", group=_TABS),
        Binding("f7", "round(-1)", "anterior", group=_ROUNDS),
        Binding("f8", "round(1)", "siguiente", group=_ROUNDS),
        Binding("f5", "pair", "Emparejar ronda"),
        Binding("f9", "publish", "Publicar"),
        Binding("f6", "division", "División", show=False),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.shown_round: int | None = None
        self.division: DivisionView | None = None
        self.division_index = 0
        self.division_count = 1
        self._classic: tuple[object, ClassicService] | None = None

    @property
    def classic(self) -> ClassicService:
        """The classic service acting as this station (made once per signed-in service)."""
        acting = self.station.service
        if self._classic is None or self._classic[0] is not acting:
            self._classic = (acting, ClassicService.like(acting))
        return self._classic[1]

    @property
    def is_judge(self) -> bool:
        """Whether this station runs the division (pairs its rounds: the judge's, II.4.a)."""
        return self.may(Action.PAIR_ROUND)

    def compose(self) -> ComposeResult:
        yield Header(icon=HEADER_ICON)
        with Vertical(id="classic-setup", classes="hidden"):
            yield Label("El torneo aún no tiene división clásica. Rondas y sistema de emparejamiento:")
            with Horizontal():
                yield Input(placeholder="nº de rondas", id="setup-rounds", type="integer", max_length=2)
                yield SpanishSelect(SYSTEM_CHOICES, value=PairingSystem.DUTCH.value, allow_blank=False, id="setup-system")
                yield Button("Crear división", id="setup-create", variant="primary")
        with TabbedContent(initial="ronda", id="classic-tabs"):
            with TabPane("Ronda", id="ronda"):
                yield Static("", id="round-title")
                yield PlainTable(id="boards", cursor_type="row", zebra_stripes=True)
                yield OrderedInput(placeholder="MESA PUNTOS1 PUNTOS2 e Intro (p. ej. 3 420 385)", id="result",
                                   max_length=40, on_enter=self.result_typed)
                yield Static("", id="result-feedback")
                yield Static(Text(JUDGE_HINT), id="judge-hint", classes="hidden")
            with TabPane("Clasificación", id="clasificacion"):
                yield Static("", id="standings-title")
                yield PlainTable(id="standings", cursor_type="row", zebra_stripes=True)
            with TabPane("Lista inicial", id="lista"):
                yield Static("Lista inicial (C.04.2 B): rating, título, nombre", id="starting-title")
                yield PlainTable(id="starting", cursor_type="row", zebra_stripes=True)
        yield SteadyFooter()

    def on_mount(self) -> None:
        self.query_one("#judge-hint").set_class(not self.is_judge, "hidden")
        boards = self.query_one("#boards", PlainTable)
        # The result before the long names (80 columns); the name columns get their width in
        # show_data, from the names and the screen's width.
        boards.add_column("Mesa", key="mesa")
        boards.add_column("Resultado", key="resultado", width=14)
        boards.add_column("Empieza", key="empieza", width=20)
        boards.add_column("Segundo", key="segundo", width=20)
        standings = self.query_one("#standings", PlainTable)
        standings.add_columns("Puesto", "Jugador", "V", "Dif.", "1.º/2.º", "Desempates")
        self.query_one("#starting", PlainTable).add_columns("N.º", "Jugador", "Rating", "Título", "Estado")
        self.query_one("#result", Input).focus()
        self.refresh_data()

    def on_data_changed(self, message: DataChanged) -> None:
        self.refresh_data()

    # --- reading -----------------------------------------------------------------------------
    @work(thread=True, exclusive=True, group="classic-read", exit_on_error=False)
    def refresh_data(self) -> None:
        """Read the division, the round shown, the standings and the players (in a worker
        thread) and show them. A newer read cancels this one (``exclusive``): it stops at
        the next step instead of reading and showing what the newer one will show — with
        results typed in a burst, each result's read overlapped the next ones'."""
        service = self.classic
        tournament = self.station.state.tournament_id
        worker = get_current_worker()
        try:
            divisions = service.divisions(tournament)
            if not divisions:
                self.app.call_from_thread(self.show_no_division)
                return
            division = divisions[self.division_index % len(divisions)]
            self.division_count = len(divisions)
            number = self.shown_round or division.rounds_paired or None
            boards = service.boards(number, division=division.name, tournament_id=tournament) if number else []
            if worker.is_cancelled:
                return
            lines = service.standings(division=division.name, tournament_id=tournament)
            played = service.rounds_complete(division=division.name, tournament_id=tournament)
            if worker.is_cancelled:
                return
            players = service.players(division=division.name, tournament_id=tournament)
        except TournamentError as error:
            self.app.call_from_thread(self.say, str(error), error=True)
            return
        if worker.is_cancelled:
            return
        self.app.call_from_thread(self.show_data, division, number, boards, lines, played)
        self.app.call_from_thread(self.show_players, players)

    def show_players(self, players: list[Seeded]) -> None:
        table = self.query_one("#starting", PlainTable)
        table.clear()
        for player in players:
            state = (f"retirado desde la ronda {player.withdrawn_round}" if player.withdrawn_round is not None else
                     f"entra en la ronda {player.first_round}" if player.first_round > 1 else "")
            table.add_row(str(player.number), player.name, str(player.rating or ""), player.title, state)

    def show_no_division(self) -> None:
        self.division = None
        setup = self.query_one("#classic-setup")
        setup.set_class(not self.is_judge, "hidden")
        if self.is_judge:
            self.query_one("#setup-rounds", Input).focus()
        self.query_one("#round-title", Static).update(Text(
            "El juez árbitro aún no ha creado la división clásica." if not self.is_judge else ""))

    def show_data(self, division: DivisionView, number: int | None, boards: list[BoardView],
                  lines: list[StandingLine], played: int) -> None:
        self.division = division
        self.shown_round = number
        self.query_one("#classic-setup").set_class(True, "hidden")
        system = system_name(division.system)
        label = f"División {division.name} — " if division.name else ""
        title = label + (f"Ronda {number} de {division.rounds} — {system}" if number else
                 f"Sin rondas emparejadas ({division.rounds} rondas, {system}); el juez empareja con F5")
        self.query_one("#round-title", Static).update(Text(title))
        table = self.query_one("#boards", PlainTable)
        table.clear()
        longest = max((len(f"{b.first} {b.first_name}") for b in boards), default=10)
        longest = max([longest] + [len(f"{b.second} {b.second_name}") for b in boards])
        room = max(12, (self.size.width - 4 - 14 - 8) // 2)
        for key in ("empieza", "segundo"):
            table.columns[ColumnKey(key)].width = min(longest, room)
            table.columns[ColumnKey(key)].auto_width = False
        for board in boards:
            if board.second == 0:
                table.add_row("—", "", f"{board.first} {board.first_name}", "descansa")
                continue
            result = ""
            if board.forfeit:
                result = {"first": "no vino el 1.º", "second": "no vino el 2.º"}.get(board.forfeit, "no vino nadie")
            elif board.first_score is not None:
                result = f"{board.first_score}-{board.second_score}"
            cell: Any = Text(result + "  ¡conflicto!", style="bold red") if board.conflict else result
            table.add_row("—" if board.table is None else str(board.table), cell, f"{board.first} {board.first_name}",
                          f"{board.second} {board.second_name}")
        self.query_one("#standings-title", Static).update(Text(
            f"Clasificación tras la ronda {played} de {division.rounds}: victorias, diferencia, desempates"
            if played else "Aún no hay ninguna ronda con todos sus resultados"))
        standings = self.query_one("#standings", PlainTable)
        standings.clear()
        for line in lines:
            breaks = "  ".join(f"{code} {value:g}" for code, value in line.tie_breaks.items())
            standings.add_row(str(line.place), f"{line.number} {line.name}", f"{float(line.wins):g}",
                              f"{line.spread:+d}", f"{line.firsts}/{line.games - line.firsts}", breaks)

    def say(self, text: str, *, error: bool = False) -> None:
        self.query_one("#result-feedback", Static).update(Text(text, style="bold red" if error else "green"))

    # --- actions -------------------------------------------------------------------------------
    def action_tab(self, tab: str) -> None:
        # The focus moves into the new pane too: left in the hidden one, it would bring that
        # pane back (TabbedContent follows the focus).
        self.query_one("#classic-tabs", TabbedContent).active = tab
        self.query_one({"ronda": "#result", "clasificacion": "#standings", "lista": "#starting"}[tab]).focus()

    def action_division(self) -> None:
        """F6: the next division of the tournament (A, B, …), its last round."""
        if self.division_count > 1:
            self.division_index += 1
            self.shown_round = None
            self.refresh_data()

    def action_round(self, step: int) -> None:
        if self.division is None or not self.division.rounds_paired:
            return
        current = self.shown_round or self.division.rounds_paired
        self.shown_round = min(max(1, current + step), self.division.rounds_paired)
        self.refresh_data()

    def action_pair(self) -> None:
        if not self.is_judge:
            self.say("Emparejar es cosa del juez árbitro", error=True)
            return
        self.say("Emparejando…")
        self.pair_round()

    @work(thread=True, exclusive=True, group="classic-write", exit_on_error=False)
    def pair_round(self, manual: list[tuple[int, int]] | None = None, reason: str = "") -> None:
        try:
            boards = self.classic.pair_round(division=self.division.name if self.division else "", manual=manual,
                                             reason=reason,
                                             tournament_id=self.station.state.tournament_id)
        except (TournamentError, PairingError) as error:
            self.app.call_from_thread(self.say, str(error), error=True)
            return
        number = boards[0].round if boards else None
        self.shown_round = number
        division = self.division.name if self.division else ""
        try:
            note = self.classic.round_note(number, division=division, tournament_id=self.station.state.tournament_id)
        except TournamentError:
            note = ""
        tables = sum(1 for board in boards if board.table is not None)
        self.app.call_from_thread(self.say, f"Ronda {number} emparejada: {counted(tables, 'mesa')}" + (f". {note}" if note else ""))
        self.refresh_data()

    def result_typed(self, field: OrderedInput) -> None:
        """Enter in the result field: read it and clear it at once (type-ahead: the next
        board's keys follow immediately), then enter the result in a worker."""
        text = field.value.strip()
        field.value = ""
        if not text:
            return
        try:
            manual = parse_manual_order(text)
            if manual is not None:
                if not self.is_judge:
                    self.say("Esa orden es del juez árbitro", error=True)
                else:
                    self.say("Emparejando a mano…")
                    self.pair_round(*manual)
                return
            body, _, reason = text.partition(":")
            order = parse_judge_order(body)
            if order is not None:
                if not self.is_judge:
                    self.say("Esa orden es del juez árbitro", error=True)
                else:
                    self.judge_order(*order, reason=reason.strip())
                return
            table, first, second = parse_result(body)
        except ValueError as error:
            self.say(str(error), error=True)
            return
        if self.division is None or not self.division.rounds_paired:
            self.say("Aún no hay ninguna ronda emparejada", error=True)
            return
        self.enter_result(self.shown_round or self.division.rounds_paired, table, first, second, reason.strip())

    @work(thread=True, group="classic-write", exit_on_error=False)
    def judge_order(self, kind: str, numbers: tuple[Any, ...], *, reason: str = "") -> None:
        classic = self.classic
        tournament = self.station.state.tournament_id
        division = self.division.name if self.division else ""
        paired = self.division.rounds_paired if self.division else 0
        try:
            if kind == "forfeit":
                table, side = numbers
                classic.record_forfeit(self.shown_round or paired, table, side, division=division, reason=reason,
                                       tournament_id=tournament)
                who = {"first": "de quien empieza", "second": "del segundo", "both": "de los dos"}[side]
                text = f"Mesa {table}: incomparecencia {who}"
            elif kind == "enter":
                name, rating, title = numbers
                number = classic.enter_player(name, division=division, rating=rating, title=title,
                                              tournament_id=tournament)
                text = f"{' '.join(name.split())}: número {number} de la lista inicial"
            elif kind == "rating":
                number, rating, title = numbers
                new = classic.set_rating(number, rating, title=title, division=division, tournament_id=tournament)
                text = f"Rating {rating} anotado" + (f"; ahora es el número {new}" if new != number else "")
            elif kind == "withdraw":
                classic.withdraw(numbers[0], division=division, reason=reason, tournament_id=tournament)
                text = f"El jugador {numbers[0]} queda retirado desde la ronda {paired + 1}"
            else:
                classic.request_bye(numbers[0], paired + 1, "H" if kind == "half-bye" else "Z", division=division,
                                    tournament_id=tournament)
                text = f"El jugador {numbers[0]} descansa en la ronda {paired + 1}"
        except ReasonRequired as error:
            self.app.call_from_thread(self.say, f"{error} (añada «: motivo» a la orden)", error=True)
            return
        except TournamentError as error:
            self.app.call_from_thread(self.say, str(error), error=True)
            return
        self.app.call_from_thread(self.say, text)
        self.refresh_data()

    @work(thread=True, group="classic-write", exit_on_error=False)
    def enter_result(self, number: int, table: int, first: int, second: int, reason: str = "") -> None:
        try:
            outcome = self.classic.enter_result(number, table, first, second,
                                                division=self.division.name if self.division else "", reason=reason,
                                                tournament_id=self.station.state.tournament_id)
        except ReasonRequired as error:
            self.app.call_from_thread(self.say, f"Mesa {table}: {error}: «{table} {first} {second}: motivo»",
                                      error=True)
            return
        except TournamentError as error:
            self.app.call_from_thread(self.say, f"Mesa {table}: {error}", error=True)
            return
        text = {"stored": "anotada", "confirmed": "confirmada", "corrected": "corregida por el juez árbitro",
                "conflict": "CONFLICTO con la anotación anterior: lo resuelve el juez árbitro"}[outcome]
        self.app.call_from_thread(self.say, f"Mesa {table}: {first}-{second} {text}", error=outcome == "conflict")
        self.refresh_data()

    def action_publish(self) -> None:
        self.say("Publicando…")
        self.publish()

    @work(thread=True, exclusive=True, group="classic-publish", exit_on_error=False)
    def publish(self) -> None:
        from ranking.classic.publish import publish_classic
        from tui.app.screens.standings import publication_folder

        tournament = self.station.state.tournament_id
        if tournament is None:
            self.app.call_from_thread(self.say, "No hay ningún torneo abierto que publicar.", error=True)
            return
        name = self.division.name if self.division else ""
        folder = publication_folder(tournament, self.station.service.database_folder) / ("clasico-" + "".join(c if c.isalnum() else "-" for c in name)
                                                   if name else "clasico")
        try:
            files = publish_classic(self.classic.snapshot(division=self.division.name if self.division else "",
                                                          tournament_id=tournament), folder)
        except (TournamentError, OSError) as error:
            self.app.call_from_thread(self.say, f"No se pudo publicar: {error}", error=True)
            return
        self.app.call_from_thread(self.say, f"Publicado: {counted(len(files), 'archivo')} en {folder}")

    @on(Button.Pressed, "#setup-create")
    @on(Input.Submitted, "#setup-rounds")
    def create_division(self) -> None:
        text = self.query_one("#setup-rounds", Input).value.strip()
        if not is_number(text) or not 1 <= int(text) <= 50:
            self.say("Indique el número de rondas (de 1 a 50)", error=True)
            return
        system = str(self.query_one("#setup-system", Select).value)
        self.create(int(text), system)

    @work(thread=True, group="classic-write", exit_on_error=False)
    def create(self, rounds: int, system: str) -> None:
        try:
            view = self.classic.create_division(rounds=rounds, system=system,
                                                tournament_id=self.station.state.tournament_id)
        except TournamentError as error:
            self.app.call_from_thread(self.say, str(error), error=True)
            return
        self.app.call_from_thread(self.say, f"División creada: {counted(rounds, 'ronda')}; color inicial sorteado: "
                                            f"{FIRST_COLOUR_TEXT[view.settings.first_colour]}. F5 empareja la ronda 1.")
        self.app.call_from_thread(self.query_one("#result", Input).focus)
        self.refresh_data()
