"""What the slip entry screen shows, from the service's views, without Textual (issue 24
§3): ``tui.app.screens.entry_presenter`` on hand-made views."""

from __future__ import annotations

from datetime import datetime

from rich.text import Text

from duplicate.labels import SLIP_STATUS
from duplicate.rules.slips import SlipStatus
from duplicate.service.errors import RoundClosed, StorageUnavailable, TournamentError
from duplicate.service.views import AssistantRangeView, ConflictView, RoundView, SetAsideSlipView, SlipView
from tui.app.screens.entry_presenter import (
    Refusal,
    RoundToShow,
    assistant_range,
    conflict_sides,
    conflicts_line,
    context_text,
    default_round,
    missing_line,
    problem,
    refusal_reason,
    refusals_text,
    round_to_show,
    set_aside_notice,
    slip_row,
    tables_shown,
    without_entered,
)

WHEN = datetime(2026, 5, 1, 10, 0)


def round_view(number: int, master: str | None, *, closed: bool = False) -> RoundView:
    return RoundView(number=number, rack="AEIRST?", board_before="", top_score=70, top_moves=(), move_count=900,
                     master=master, master_score=70 if master else None, cumulative=70 if master else None,
                     annulled=False, closed=closed, rack_shown="AEIRST?")


def slip(table: int, text: str, status: str = SlipStatus.VALID.value, score: int = 70, move: str | None = "H8-ARISTE?"
         ) -> SlipView:
    return SlipView(id=table, game_id=1, round_number=2, entry_id=table, table_number=table, text=text, move=move,
                    status=status, score=score, reason="", hint=None, entered_by="aux1", entered_at=WHEN,
                    checked_by=None, event_id=None)


def conflict(table: int, text: str, mark: str | None = None) -> ConflictView:
    return ConflictView(id=7, game_id=1, round_number=2, entry_id=table, table_number=table, kind="duplicate",
                        text=text, mark=mark, entered_by="aux2", entered_at=WHEN, resolution=None, resolved_by=None)


def test_the_screen_follows_the_newest_round_with_a_master() -> None:
    assert default_round({}) is None
    assert default_round({1: round_view(1, None)}) == 1                       # before the first master
    rounds = {1: round_view(1, "H8-CASA"), 2: round_view(2, "8H-COSA"), 3: round_view(3, None)}
    assert default_round(rounds) == 2                                         # round 3's rack is being played


def test_the_assistants_range_and_the_tables_listed() -> None:
    ranges = [AssistantRangeView("Ana Pérez", 1, 10), AssistantRangeView("Luis", 11, 20)]
    assert assistant_range(ranges, "  ana pérez ") == (1, 10)
    assert assistant_range(ranges, "") is None and assistant_range(ranges, "Eva") is None
    seats = [12, 3, 25, 11, 1]
    assert tables_shown(seats, (11, 20), show_all=False) == [11, 12]
    assert tables_shown(seats, (11, 20), show_all=True) == [1, 3, 11, 12, 25]
    assert tables_shown(seats, None, show_all=False) == [1, 3, 11, 12, 25]


def test_a_row_per_table_with_the_slip_as_typed() -> None:
    row = slip_row(4, "Ana", slip(4, "h8 aristE?"), in_conflict=False)
    assert [cell.plain if isinstance(cell, Text) else cell for cell in row] == [
        "4", "Ana", "h8 aristE?", "H8-ARISTE?", "70", "válida", "aux1"]
    late = slip_row(5, "Luis", slip(5, "", SlipStatus.LATE.value, 0, None), in_conflict=True)
    assert [cell.plain if isinstance(cell, Text) else cell for cell in late][4:6] == ["0", "‼ conflicto"]
    empty = slip_row(6, "Eva", None, in_conflict=False)
    assert [cell.plain if isinstance(cell, Text) else cell for cell in empty] == ["6", "Eva"] + ["—"] * 5
    # A name or slip with brackets is plain text, never markup.
    assert slip_row(7, "[bold]x[/]", slip(7, "[red]"), in_conflict=False)[1:3] == ["[bold]x[/]", "[red]"]


def test_missing_slips_and_conflicts_lines() -> None:
    entered = {1: slip(1, "H8 CASA"), 3: slip(3, "8H COSA")}
    assert missing_line([1, 2, 3, 4], entered, 2) == ("Faltan 2 de 4 papeletas de la ronda 2: 2, 4", False)
    assert missing_line([1, 3], entered, 2) == ("Todas las papeletas de la ronda 2 están anotadas (2 de 2).", True)
    line = conflicts_line([conflict(3, "H8 COSA"), conflict(9, "J1 XI")], [1, 2, 3], entered)
    assert line.plain == "‼ Conflictos pendientes del juez árbitro: mesa 3: «H8 COSA» frente a «8H COSA»"
    assert conflicts_line([conflict(9, "J1 XI")], [1, 2, 3], entered).plain == ""


def test_the_context_line() -> None:
    view = round_view(2, "H8-CASA", closed=True)
    text = context_text(1, view, double_entry=True, follow=False, assistant=(1, 10), show_all=False,
                        arbiter="Ana").plain
    first, second = text.split("\n")
    assert first.startswith(" DOBLE ENTRADA (F11)  Partida 1 ·  Ronda 2 ")
    assert "atril AEIRST?" in first and "maestra H8-CASA (70 puntos)" in first
    assert "cerrada" in first and "elegida a mano" in first
    assert second == "Mesas 1–10 de Ana (F9: todas) · F1: reclamación (III.27)"
    waiting = context_text(1, round_view(3, None), double_entry=False, follow=True, assistant=(1, 10),
                           show_all=True, arbiter="Ana").plain
    assert "aún sin jugada maestra" in waiting and "DOBLE" not in waiting and "elegida" not in waiting
    assert waiting.endswith("\nTodas las mesas (F9: las de Ana) · F1: reclamación (III.27)")
    assert context_text(None, None, double_entry=False, follow=True, assistant=None, show_all=False,
                        arbiter="").plain == "Partida None\nTodas las mesas · F1: reclamación (III.27)"


def test_the_two_sides_of_a_conflict_and_read_problems() -> None:
    stored, new = conflict_sides(conflict(3, "H8 COSA"), slip(3, "8H COSA"))
    assert stored == "«8H COSA» · válida, 70 puntos, anotó aux1"
    assert new == "«H8 COSA» (anotó aux2)"
    stored, new = conflict_sides(conflict(3, "", SlipStatus.MISSING.value), None)
    assert stored == "ninguna" and new == f"{SLIP_STATUS['missing']} (anotó aux2)"     # the mark by its name
    assert problem(TournamentError("no hay partida")) == "no hay partida"
    assert problem(KeyError("x")).startswith("error inesperado (KeyError)")


def test_the_round_shown_moves_on_only_when_followed_and_nothing_is_half_typed() -> None:
    """Issue 25 §2: the screen follows the round being typed; a half-typed slip keeps its
    round, a round chosen by hand (F7/F8) stays, a withdrawn round gives way silently."""
    rounds = {1: round_view(1, "H8-CASA", closed=True), 2: round_view(2, "8H-COSA"), 3: round_view(3, None)}
    assert round_to_show(rounds, 1, follow=True, typing=False) == RoundToShow(2, True, "Ahora se anota la ronda 2")
    assert round_to_show(rounds, 1, follow=True, typing=True) == RoundToShow(1, True)      # moves on after Intro
    assert round_to_show(rounds, 1, follow=False, typing=False) == RoundToShow(1, False)   # chosen by hand
    assert round_to_show(rounds, 2, follow=True, typing=False) == RoundToShow(2, True)     # already there
    # None shown yet, or its rack withdrawn (III.29): the default round, followed again, without a notice,
    # whether or not a slip is half-typed or a round was chosen by hand.
    assert round_to_show(rounds, None, follow=False, typing=True) == RoundToShow(2, True)
    assert round_to_show(rounds, 4, follow=False, typing=False) == RoundToShow(2, True)
    assert round_to_show({}, None, follow=True, typing=False) == RoundToShow(None, True)
    # Every round closed: the newest is shown; a round closing under the screen moves it on to the next one.
    closed = {1: round_view(1, "H8-CASA", closed=True), 2: round_view(2, "8H-COSA", closed=True)}
    assert round_to_show(closed, 1, follow=True, typing=False).number == 2
    assert round_to_show({**closed, 3: round_view(3, None)}, 2, follow=True, typing=False).notice == \
        "Ahora se anota la ronda 3"


def aside(table: int, round_number: int, event_id: int) -> SetAsideSlipView:
    return SetAsideSlipView(round_number=round_number, table_number=table, entry_id=table, text="H8 CASA",
                            status=SlipStatus.VALID.value, score=12, entered_by="aux1", rack="CASAXYZ",
                            reason="atril mal sacado", event_id=event_id)


def test_a_withdrawn_rack_is_told_once_and_only_when_new_III29() -> None:
    assert set_aside_notice([], None) == (0, None) and set_aside_notice([], 0) == (0, None)
    old = [aside(1, 2, 5), aside(3, 2, 5)]
    assert set_aside_notice(old, None) == (5, None)       # the first look: said already, or long ago
    assert set_aside_notice(old, 5) == (5, None)          # nothing new
    newest, feedback = set_aside_notice([*old, aside(4, 3, 9), aside(2, 3, 9)], 5)
    assert newest == 9 and feedback is not None
    assert feedback.kind == "conflict"
    assert "ronda 3" in feedback.headline and "CASAXYZ" in feedback.headline and "III.29" in feedback.headline
    details = " ".join(feedback.details)
    assert "atril mal sacado" in details and "2 papeletas" in details and "mesas 2, 4" in details
    assert "mesa 1" not in details and "mesas 1" not in details            # only the newest withdrawal's slips


def test_why_a_slip_was_refused_and_when_the_refusal_is_done() -> None:
    assert refusal_reason(object(), 4, "H8 CASA") is None
    assert refusal_reason(RoundClosed("la ronda 2 está cerrada", round=2), 4, "H8 CASA") == "la ronda 2 está cerrada"
    lost = refusal_reason(StorageUnavailable("la base de datos no responde"), 4, "H8 CASA")
    assert lost == "NO GUARDADA: mesa 4 «H8 CASA»: la base de datos no responde; vuelva a anotarla"
    assert refusal_reason(StorageUnavailable("sin disco"), None, "") == "NO GUARDADA: la acción: sin disco; vuelva a anotarla"
    assert (refusal_reason(ValueError("x"), 4, "") or "").startswith("error inesperado (ValueError)")
    refusals = [Refusal(4, "H8 CASA", 2, "a"), Refusal(4, "8H COSA", 3, "b"), Refusal(None, "maestra", 2, "c"),
                Refusal(5, "J1 XI", 2, "d")]
    assert without_entered(refusals, 4, 2) == refusals[1:]
    assert without_entered(refusals, 6, 2) == refusals
    text = refusals_text(refusals, shown=2).plain
    assert text.startswith("⚠ 4 papeletas NO anotadas") and "2 más antiguas" in text
    assert text.endswith("acción, ronda 2 «maestra»: c\nmesa 5, ronda 2 «J1 XI»: d")
