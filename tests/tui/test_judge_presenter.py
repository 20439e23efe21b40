"""What the judge's console shows, from the service's views, without Textual (issue 24 §3):
``tui.app.screens.judge_presenter`` turns hand-made views into the console's texts."""

from __future__ import annotations

from duplicate.rules.announce import SpellingTable
from duplicate.rules.statuses import GameStatus
from duplicate.service.views import (
    BagView,
    ClockView,
    GameInfo,
    GameView,
    MasterPlaced,
    PendingSlip,
    RackInPlay,
    RoundStatus,
    RoundView,
    Tile,
    TopMove,
    empty_board,
)
from tui.app.screens.judge_presenter import (
    ConsoleState,
    bag_line,
    console_state,
    empty_moves_text,
    moves_subtitle,
    rack_text,
    reading_text,
    situation,
    status_text,
    sub_title,
    summary_text,
    tables_text,
)

A, E, S, BLANK = Tile("A", False), Tile("E", False), Tile("S", False), Tile("?", True)
TABLE = SpellingTable.load()


def info(*, planned: int | None = None, status: str = GameStatus.PLAYING.value) -> GameInfo:
    return GameInfo(number=2, status=status, rounds=3, planned_rounds=planned, seconds_per_round=150, end_reason=None)


def round_view(number: int, *, master: str | None, closed: bool) -> RoundView:
    return RoundView(number=number, rack="AEIOU??", board_before="15/" * 14 + "15", top_score=24,
                     top_moves=(), move_count=10, master=master, master_score=24 if master else None,
                     cumulative=24 if master else None, annulled=False, closed=closed)


def game_view(*, rack: RackInPlay | None = None, last: MasterPlaced | None = None, over: bool = False,
              clock: ClockView | None = None) -> GameView:
    return GameView(number=2, board=empty_board(), round_number=4,
                    bag=BagView(total=60, vowels=25, consonants=33, blanks=2), leftover=(), rack=rack, last=last,
                    played=3, over=over, end_reason="se acabaron las fichas" if over else "", clock=clock)


TOPS = (TopMove("H8-CASA", 24, "más fichas colocadas", ""), TopMove("8H-CASA", 24, "", "E"))
RACK = RackInPlay(number=4, leftover=(A,), drawn=(BLANK, E, S), redraws=("AEIOUUU: más de 5 vocales",),
                  tops=TOPS, top_total=7, move_count=321)
LAST = MasterPlaced(number=3, master="H8-CASA", score=24, cumulative=312, squares=frozenset({(7, 7), (7, 8)}))


def test_between_rounds_the_console_shows_the_last_master_and_asks_for_the_rack() -> None:
    rounds = [round_view(1, master="A1-XX", closed=True), round_view(2, master="B1-YY", closed=False),
              round_view(3, master="H8-CASA", closed=False)]
    state = console_state(info(planned=12), game_view(last=LAST, clock=ClockView(3, 42.5, True)), rounds, TABLE)
    assert (state.game, state.seconds, state.planned_rounds, state.round_number) == (2, 150, 12, 4)
    assert state.rack_round is None and state.tops == () and state.rack_reading == ""
    assert state.highlight == frozenset({(7, 7), (7, 8)}) and state.last_master == "H8-CASA"
    assert state.board is not None and state.board.empty
    assert state.bag == (60, 25, 33, 2)
    # The newest round with a master that is still open is the one «c» closes.
    assert state.close_round == 3 and state.status_round == 3
    assert state.shared_timer == (3, 42.5, True) and state.unpublished is None
    assert "24 puntos" in state.master_reading and "312" in state.master_reading
    assert "Honduras 8" in state.master_reading            # III.18: H is read by its keyword
    assert "«d»" in situation(state) and "«u» deshace" in situation(state)
    assert sub_title(state) == "Partida 2 (12 rondas) — ronda 4"
    assert rack_text(state).plain == "Ronda 4: sin atril"
    assert moves_subtitle(state) == ""
    assert "«d»" in empty_moves_text(state) and "«a»" in empty_moves_text(state)
    assert reading_text(state).plain.startswith("Maestra: ")


def test_a_rack_in_play_shows_its_tiles_tops_and_reading() -> None:
    state = console_state(info(), game_view(rack=RACK), [round_view(4, master=None, closed=False)], TABLE)
    assert state.rack_round == 4 and state.close_round is None and state.status_round == 4
    assert state.rack_leftover == ("A",) and state.rack_drawn == ("?", "E", "S")
    assert state.tops == TOPS and (state.top_total, state.move_count) == (7, 321)
    assert state.redraws == ("AEIOUUU: más de 5 vocales",)
    # III.17: the kept tiles first, then the new ones; a blank is read as such.
    assert state.rack_reading.startswith("Quedan: A de ") and "Nuevas: comodín, E de " in state.rack_reading
    assert "Enter" in situation(state) and "III.29" in situation(state)
    assert sub_title(state) == "Partida 2 (bolsa completa) — ronda 4"
    assert rack_text(state).plain.split("\n") == ["Ronda 4:  A  │  ?   E   S  ",
                                                  "cambio de fichas: AEIOUUU: más de 5 vocales"]
    assert moves_subtitle(state) == "7 de máxima puntuación, 321 en total"
    assert summary_text(state, "2:30", False).plain == "Atril A ? E S · bolsa 60 · crono 2:30 parado"
    assert reading_text(state).plain.split("\n")[0].startswith("Atril ronda 4: Quedan:")


def test_a_rack_without_any_move_asks_to_replace_it_not_to_end_the_game() -> None:
    empty = RackInPlay(number=4, leftover=(), drawn=(A, A, A, A, A, A, A), redraws=(), tops=(), top_total=0,
                       move_count=0)
    state = console_state(info(), game_view(rack=empty), [], TABLE)
    assert "ninguna jugada válida" in situation(state) and "III.22" in situation(state)
    assert "«x»" in empty_moves_text(state)
    assert state.status_round is None
    assert state.rack_reading.startswith("Atril: ")           # nothing kept: only the new tiles


def test_an_ended_game_waits_for_its_results_and_the_next_game() -> None:
    state = console_state(info(status=GameStatus.ENDED.value), game_view(over=True, last=LAST), [], TABLE)
    assert state.over and state.unpublished == 2
    assert "ha terminado: se acabaron las fichas" in situation(state) and "«p»" in situation(state)
    assert sub_title(state) == "Partida 2 (bolsa completa) — terminada"
    assert empty_moves_text(state) == "La partida ha terminado."


def test_without_a_game_everything_says_so() -> None:
    state = ConsoleState(game=None)
    assert "«p»" in situation(state) and sub_title(state) == "sin partida"
    assert "«p»" in empty_moves_text(state)
    assert reading_text(state).plain == "(nada que leer todavía)"
    assert summary_text(state, "3:00", True).plain == " · crono 3:00 en marcha"


def test_slips_status_per_assistant_and_pending_conflicts() -> None:
    pending = PendingSlip(conflict_id=9, table=5, player="Ana", kind="double_entry", stored="H8 CASA",
                          stored_score=24, new="H8 CASAS", new_score=26, entered_by="Luis")
    status = RoundStatus(round_number=3, expected=20, entered=16, missing_tables=(4, 5, 17, 18),
                         per_assistant={"Luis": (10, 8, (4, 5)), "Eva": (8, 8, ())}, pending=(pending,))
    lines = status_text(status).plain.split("\n")
    assert lines[0] == "Ronda 3: 16/20 papeletas"
    assert lines[1:3] == ["  Eva: 8/8", "  Luis: 8/10 — faltan 4, 5"]
    assert lines[3] == "  sin auxiliar asignado: 17, 18"
    assert lines[4].startswith("Pendiente del juez (1;")
    assert "mesa 5 (Ana)" in lines[5] and "Luis" in lines[5]
    done = RoundStatus(round_number=3, expected=2, entered=2, missing_tables=())
    assert status_text(done).plain.endswith("todas entregadas")


def test_tables_and_bags() -> None:
    assert tables_text(list(range(1, 16))) == "1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12 y 3 más"
    assert tables_text([3]) == "3"
    one = ConsoleState(game=1, bag=(10, 4, 5, 1))
    assert bag_line(one) == "Bolsa 10: 4 vocales, 5 consonantes, 1 comodín"
    assert bag_line(ConsoleState(game=1, bag=(9, 4, 5, 0))).endswith("0 comodines")
