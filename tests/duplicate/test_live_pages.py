"""The live public pages (issue 37): read from the one record, never early.

Each «never early» rule is shown by reading the pages before and after the event: the
rack appears once drawn, the master once placed, a slip once its round is closed, a
claim's correction once it is resolved (its text never); no federation id, no PIN; names
with markup are text.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Callable
from datetime import UTC, datetime, timedelta, tzinfo
from pathlib import Path
from typing import Any

import pytest

from duplicate.publishing.live_clock import live_clock
from duplicate.publishing.live_pages import (
    CURRENT_PAGE,
    PRIVATE_KINDS,
    PRIVATE_WHILE_OPEN,
    PROJECTION_PAGE,
    PROJECTION_STYLE,
    LiveSite,
    changed_pages,
    live_changed,
    live_site,
    live_version,
    main_of,
    shows_change,
)
from duplicate.record.event_kinds import EventKind
from duplicate.rules.timer import CUES
from duplicate.service.facade import TournamentService
from duplicate.service.views import ClockView, LoggedChange
from duplicate.storage.database import open_database
from lexicon.lexicon import Lexicon
from tests.credentials import JUDGE_PIN

NAMES = ["<script>alert(1)</script>", "[b]Negrita[/b]", "Ana Pérez"]


@pytest.fixture
def service(tmp_path: Path, spanish_lexicon: Lexicon) -> TournamentService:
    return TournamentService(open_database(str(tmp_path / "t.db")), station="mesa", lexicon=spanish_lexicon,
                             pin=JUDGE_PIN)


def tournament(service: TournamentService) -> tuple[int, int]:
    tournament_id = service.create_tournament("Torneo en directo", venue="Valencia")
    for index, name in enumerate(NAMES):
        service.add_player(name, club="Club", federation_id=f"LIC-SECRETA-{index}")
    return tournament_id, service.create_game(rounds=3, seed=5)


def everything(service: TournamentService, tournament_id: int) -> str:
    return "\n".join(live_site(service, tournament_id).pages.values())


def table_of(service: TournamentService, game: int, name: str) -> int:
    return next(table for table, _entry, player in service.seats(game) if player.name == name)


def test_the_rack_appears_once_drawn_and_the_master_once_placed(service: TournamentService) -> None:
    tournament_id, game = tournament(service)
    before = live_site(service, tournament_id)
    assert "Esperando el atril de la ronda 1" in before.pages[CURRENT_PAGE]
    view = service.draw_rack(game)
    assert view is not None
    drawn = live_site(service, tournament_id)
    assert drawn.version > before.version
    in_play = service.game_view(game, tournament_id, tops=None).rack
    assert in_play is not None
    rack = "".join(tile.text for tile in in_play.tiles)
    assert f'Atril de la ronda 1: <strong class="atril">{rack}</strong>' in drawn.pages[CURRENT_PAGE]
    assert 'class="atril"' not in before.pages[CURRENT_PAGE]
    tops = [move for move, _score, _reason in view.top_moves]
    assert tops and not any(top in "\n".join(drawn.pages.values()) for top in tops)   # no top before the master
    assert "Jugada maestra de la ronda" not in drawn.pages[CURRENT_PAGE]
    placed = service.choose_master(game)
    assert placed.master is not None
    after = live_site(service, tournament_id)
    assert f"Jugada maestra de la ronda 1: <strong class=\"palabra\">{placed.master}</strong>" in after.pages[CURRENT_PAGE]
    assert 'class="tablero"' in after.pages[CURRENT_PAGE] and " nueva" in after.pages[CURRENT_PAGE]


def test_no_slip_before_its_round_is_closed(service: TournamentService) -> None:
    tournament_id, game = tournament(service)
    service.draw_rack(game)
    placed = service.choose_master(game)
    assert placed.master is not None and placed.master_score is not None
    service.enter_slip(game, table_of(service, game, "Ana Pérez"), placed.master)
    open_round = live_site(service, tournament_id)
    game_page = open_round.pages.get(f"partida-{game}.html", "")
    player_pages = [text for name, text in open_round.pages.items() if name.startswith("jugadores/")]
    assert ">R1<" not in game_page
    assert not any(placed.master.split("-")[-1] in text for text in player_pages)
    assert not any(f">{placed.master_score}<" in text for text in player_pages)
    service.close_round(game)
    closed = live_site(service, tournament_id)
    assert ">R1<" in closed.pages[f"partida-{game}.html"]
    ana = next(text for name, text in closed.pages.items() if name.startswith("jugadores/") and "Ana Pérez" in text)
    assert placed.master.split("-")[-1] in ana
    assert f'<td class="n total">{placed.master_score}</td>' in closed.pages["index.html"]


def test_a_claim_shows_only_once_resolved_and_never_its_text(service: TournamentService) -> None:
    tournament_id, game = tournament(service)
    service.draw_rack(game)
    placed = service.choose_master(game)
    assert placed.master is not None
    table = table_of(service, game, "Ana Pérez")
    service.close_round(game)                               # Ana's slip is missing: 0 points
    claim = service.file_claim(game, 1, table, "Reclamación privada de Ana")
    filed = everything(service, tournament_id)
    assert "Reclamación privada" not in filed
    ana_before = next(text for name, text in live_site(service, tournament_id).pages.items()
                      if name.startswith("jugadores/") and "Ana Pérez" in text)
    word = placed.master.split("-")[-1]
    assert f'<td class="palabra">{word}</td><td class="n puntos">' not in ana_before
    service.resolve_claim(claim, upheld=True, resolution="se le anota la papeleta", corrected_text=placed.master)
    after = live_site(service, tournament_id)
    ana_after = next(text for name, text in after.pages.items() if name.startswith("jugadores/") and "Ana Pérez" in text)
    assert f'<td class="palabra">{word}</td><td class="n puntos">' in ana_after
    assert "Reclamación privada" not in "\n".join(after.pages.values())


def test_names_are_text_and_no_federation_id_or_pin(service: TournamentService) -> None:
    tournament_id, game = tournament(service)
    service.draw_rack(game)
    service.choose_master(game)
    service.close_round(game)
    text = everything(service, tournament_id)
    assert "<script>alert" not in text
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in text
    assert "[b]Negrita[/b]" in text
    assert "LIC-SECRETA" not in text
    assert JUDGE_PIN not in text
    site = live_site(service, tournament_id)
    assert set(site.pages) >= {"index.html", CURRENT_PAGE, f"partida-{game}.html", "estilo.css"}
    assert sum(name.startswith("jugadores/") for name in site.pages) == len(NAMES)
    for name, page in site.pages.items():
        if name.endswith(".html"):
            assert "<h1" in page and "http://" not in page and "https://" not in page, name
            assert "<noscript><meta http-equiv=\"refresh\"" in page, name


def test_the_version_is_the_last_event(service: TournamentService) -> None:
    tournament_id, game = tournament(service)
    version = live_version(service, tournament_id)
    assert version == live_site(service, tournament_id).version == service.last_event_id(tournament_id)
    service.draw_rack(game)
    assert live_version(service, tournament_id) > version


def test_online_venues_get_their_pages_with_closed_rounds_only(service: TournamentService) -> None:
    tournament_id = service.create_tournament("Simultáneo en directo", venue="Barcelona")
    service.add_venue("Lloret", tournament_id)
    service.add_player("Ana Pérez", tournament_id=tournament_id)
    service.add_player("Luis <i>Gil</i>", tournament_id=tournament_id, venue="Lloret")
    game = service.create_game(rounds=2, seed=5)
    service.draw_rack(game)
    placed = service.choose_master(game)
    assert placed.master is not None and placed.master_score is not None
    service.enter_slip(game, table_of(service, game, "Luis <i>Gil</i>"), placed.master)
    before = live_site(service, tournament_id).pages
    assert {"sedes.html", "sede-lloret.html"} <= set(before)
    assert "Luis &lt;i&gt;Gil&lt;/i&gt;" in before["sede-lloret.html"]
    assert f'<td class="n total">{placed.master_score}</td>' not in before["sede-lloret.html"]
    service.close_round(game)
    after = live_site(service, tournament_id).pages
    assert f'<td class="n total">{placed.master_score}</td>' in after["sede-lloret.html"]


def test_the_clock_shows_as_the_judge_last_recorded_it(service: TournamentService) -> None:
    tournament_id, game = tournament(service)
    service.draw_rack(game)
    assert "Cronómetro" not in live_site(service, tournament_id).pages[CURRENT_PAGE]
    service.record_timer(game, "pause", 125.0)
    page = live_site(service, tournament_id).pages[CURRENT_PAGE]
    assert ('Cronómetro: <span class="tiempo">2:05</span> <span class="marcha">(<span class="situacion">parado</span>)'
            in page)


def test_a_game_unchanged_keeps_its_pages_and_a_changed_one_is_rendered_again(service: TournamentService) -> None:
    tournament_id, game = tournament(service)
    service.draw_rack(game)
    service.choose_master(game)
    service.close_round(game)
    service.end_game(game)
    service.publish(game)
    second = service.create_game(rounds=2, seed=6)
    service.draw_rack(second)
    first = live_site(service, tournament_id)
    placed = service.choose_master(second)
    assert placed.master is not None
    service.enter_slip(second, table_of(service, second, "Ana Pérez"), placed.master)
    open_round = live_site(service, tournament_id, previous=first)      # nothing public moved but the board
    for name, text in open_round.pages.items():
        if name.startswith(("jugadores/", "partida-")):
            assert text is first.pages[name], name
    assert open_round.pages[CURRENT_PAGE] != first.pages[CURRENT_PAGE]
    service.close_round(second)
    fresh = live_site(service, tournament_id)
    again = live_site(service, tournament_id, previous=first)
    assert set(again.pages) == set(fresh.pages)
    assert again.pages[f"partida-{game}.html"] is first.pages[f"partida-{game}.html"]       # reused as it was
    assert again.pages[f"partida-{second}.html"] is not first.pages[f"partida-{second}.html"]
    assert ">R1<" in again.pages[f"partida-{second}.html"]
    assert all(again.pages[name] is not first.pages[name] for name in again.pages if name.startswith("jugadores/"))
    footer = re.compile(r"Publicado el .*? a las \d\d:\d\d")
    for name, text in fresh.pages.items():
        assert footer.sub("", again.pages[name]) == footer.sub("", text), name


def test_the_projection_shows_the_rack_once_drawn_and_the_master_once_placed(service: TournamentService) -> None:
    tournament_id, game = tournament(service)
    before = live_site(service, tournament_id).pages
    assert 'href="proyeccion.html"' in before[CURRENT_PAGE]              # linked from the live page
    projection = before[PROJECTION_PAGE]
    assert "Esperando el atril" in projection and 'class="atril-sala"' not in projection
    assert 'class="crono"' not in projection and "Jugada maestra" not in projection
    assert '<link rel="stylesheet" href="proyeccion.css">' in projection and PROJECTION_STYLE in before
    service.draw_rack(game)
    in_play = service.game_view(game, tournament_id, tops=None).rack
    assert in_play is not None
    drawn = live_site(service, tournament_id).pages[PROJECTION_PAGE]
    shown = re.findall(r'<span class="ficha (resto|nueva)[^"]*">([^<]+)</span>', drawn)
    assert shown == [("nueva", tile.text) for tile in in_play.tiles]            # round 1: every tile drawn
    assert '<span class="tiempo">3:00</span>' in drawn and "parado" in drawn     # the whole round, not started
    assert "Jugada maestra" not in drawn
    placed = service.choose_master(game)
    assert placed.master is not None and placed.master_score is not None
    view = service.game_view(game, tournament_id, tops=None)
    assert view.last is not None
    service.close_round(game)
    after = live_site(service, tournament_id).pages[PROJECTION_PAGE]
    assert "Jugada maestra de la ronda 1" in after and 'class="atril-sala"' not in after
    square, word = placed.master.split("-", 1)
    letters = re.search(r'<span class="palabra">(.*?)</span></p>', after)
    assert letters is not None and re.sub(r"<[^>]+>", "", letters.group(1)) == word
    assert f'<span class="casilla">{square}</span>' in after
    assert f'<dd class="puntos-maestra">{placed.master_score}</dd>' in after
    assert f'<dd class="acumulado">{view.last.cumulative}</dd>' in after
    assert after.count(" nueva\">") == len(view.last.squares)                  # the master's squares marked
    service.draw_rack(game)                                                    # round 2: kept tiles first
    second = service.game_view(game, tournament_id, tops=None).rack
    assert second is not None
    page = live_site(service, tournament_id).pages[PROJECTION_PAGE]
    shown = re.findall(r'<span class="ficha (resto|nueva)[^"]*">([^<]+)</span>', page)
    assert shown == ([("resto", tile.text) for tile in second.leftover] + [("nueva", tile.text) for tile in second.drawn])
    if second.leftover:
        assert "Fichas oscuras: quedaron de la ronda anterior" in page


def test_a_running_clock_gives_the_same_pages_at_each_build(service: TournamentService) -> None:
    tournament_id, game = tournament(service)
    service.draw_rack(game)
    service.record_timer(game, "start", 180.0)
    first = live_site(service, tournament_id)
    clock = service.clock_view(game, tournament_id)
    assert clock is not None and clock.running and clock.ends_at is not None
    assert clock.remaining < 180.0                        # time passes between reads...
    second = live_site(service, tournament_id)
    for name in (CURRENT_PAGE, PROJECTION_PAGE):
        assert main_of(second.pages[name]) == main_of(first.pages[name]), name     # ...not on the pages
        assert f'data-limite="{round(clock.ends_at.timestamp() * 1000)}"' in first.pages[name]
        assert '<span class="tiempo">3:00</span>' in first.pages[name]            # as recorded
    assert changed_pages(first, second) == []
    calls = json.loads(html.unescape(re.search(r'data-llamadas="([^"]*)"', first.pages[PROJECTION_PAGE]).group(1)))
    assert calls == [[at, str(cue)] for at, cue in CUES]                       # the III.13 calls, from the rules
    service.record_timer(game, "pause", 42.4)
    paused = live_site(service, tournament_id)
    assert changed_pages(second, paused) == [CURRENT_PAGE, PROJECTION_PAGE]
    page = paused.pages[CURRENT_PAGE]
    assert "data-limite=" not in page and '<span class="tiempo">0:43</span>' in page
    assert '<strong class="llamada" aria-live="polite">queda 1 minuto</strong>' in page
    service.record_timer(game, "start", 3.0)
    alcen = live_site(service, tournament_id).pages[PROJECTION_PAGE]
    assert 'data-aviso="1"' in alcen and ">ALCEN</strong>" in alcen and "en marcha desde las" in alcen


def test_a_clock_that_ran_out_still_shows_its_end_not_a_paused_clock() -> None:
    # Read after 0:00, the service says «not running» (nothing left); the page keeps the
    # deadline of the start recorded, so its script shows 0:00 «TIEMPO», not 0:10 paused.
    started = datetime(2026, 5, 1, 10, 0, 0, tzinfo=UTC)
    over = ClockView(4, 0.0, False, started, 10.0, "start")
    shown = live_clock(over, 4, 180)
    assert shown is not None and shown.running and shown.text == "0:10"
    assert shown.ends_at_ms == round((started + timedelta(seconds=10)).timestamp() * 1000)
    paused = live_clock(ClockView(4, 10.0, False, started, 10.0, "pause"), 4, 180)
    assert paused is not None and not paused.running and paused.ends_at_ms is None and paused.cue == "quedan 30 segundos"
    assert live_clock(over, 5, 180) is None                        # an earlier round's clock is not this round's
    fresh = live_clock(over, 5, 180, full_time=True)
    assert fresh is not None and (fresh.text, fresh.running, fresh.cue) == ("3:00", False, "")
    short = live_clock(None, 1, 45, full_time=True)                # a 45 s round: no «queda 1 minuto»
    assert short is not None and json.loads(short.calls) == [[at, str(cue)] for at, cue in CUES if at < 45]


# --- costs that grow with what changed (issue 37: 2 s from the event to the browser) ----------------

FIXED = datetime(2026, 5, 9, 10, 30)


class _FixedClock(datetime):
    """``datetime`` whose ``now()`` is ``FIXED``: the footer's «Publicado el … a las …»
    of a page kept and of a page rendered again are then the same."""

    @classmethod
    def now(cls, tz: tzinfo | None = None) -> _FixedClock:
        return cls(FIXED.year, FIXED.month, FIXED.day, FIXED.hour, FIXED.minute, tzinfo=tz)


def test_built_step_by_step_the_pages_are_those_built_from_scratch(service: TournamentService,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("duplicate.publishing.results.datetime", _FixedClock)
    tournament_id, game = tournament(service)
    ana, bold = table_of(service, game, "Ana Pérez"), table_of(service, game, "[b]Negrita[/b]")
    masters: list[str] = []

    def master(number: int) -> None:
        placed = service.choose_master(number)
        assert placed.master is not None
        masters.append(placed.master)

    claim: list[int] = []
    steps = [
        ("atril", lambda: service.draw_rack(game)),
        ("reloj", lambda: service.record_timer(game, "pause", 180.0)),     # stopped: the same at both reads
        ("maestra", lambda: master(game)),
        ("papeleta", lambda: service.enter_slip(game, ana, masters[-1])),
        ("papeleta mala", lambda: service.enter_slip(game, bold, "H8-ZZZ")),
        ("cierre", lambda: service.close_round(game)),
        ("reclamación", lambda: claim.append(service.file_claim(game, 1, bold, "Mi jugada era buena"))),
        ("resuelta", lambda: service.resolve_claim(claim[-1], upheld=True, resolution="aceptada",
                                                   corrected_text=masters[0])),
        ("atril 2", lambda: service.draw_rack(game)),
        ("maestra 2", lambda: master(game)),
        ("corrección de una ronda cerrada", lambda: service.correct_slip(game, ana, status="tarde", round_number=1,
                                                                         reason="entregada tarde")),
        ("cierre 2", lambda: service.close_round(game)),
        ("jugador nuevo", lambda: service.add_player("Eva Gil", club="Otro club")),
        ("fin", lambda: service.end_game(game)),
        ("publicada", lambda: service.publish(game)),
        ("partida 2", lambda: service.create_game(rounds=2, seed=6)),
        ("atril p2", lambda: service.draw_rack(game + 1)),
        ("maestra p2", lambda: master(game + 1)),
        ("cierre p2", lambda: service.close_round(game + 1)),
        ("nombre corregido", lambda: service.update_player(service.entries(tournament_id)[0][0].id,
                                                           name="Ana María", reason="errata")),
    ]
    built = built_step_by_step(service, tournament_id, steps)
    assert ">R2<" in built.pages[f"partida-{game}.html"] and "Ana María" in built.pages["index.html"]


def test_with_online_venues_too(service: TournamentService, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("duplicate.publishing.results.datetime", _FixedClock)
    tournament_id = service.create_tournament("Simultáneo en directo", venue="Barcelona")
    service.add_venue("Lloret", tournament_id)
    service.add_player("Ana Pérez", tournament_id=tournament_id)
    service.add_player("Luis Gil", tournament_id=tournament_id, venue="Lloret")
    game = service.create_game(rounds=3, seed=5)
    luis = table_of(service, game, "Luis Gil")
    masters: list[str] = []

    def master() -> None:
        placed = service.choose_master(game)
        assert placed.master is not None
        masters.append(placed.master)

    built = built_step_by_step(service, tournament_id, [
        ("atril", lambda: service.draw_rack(game)),
        ("maestra", master),
        ("papeleta en Lloret", lambda: service.enter_slip(game, luis, masters[-1])),
        ("cierre", lambda: service.close_round(game)),
        ("atril 2", lambda: service.draw_rack(game)),
        ("maestra 2", master),
        ("cierre 2", lambda: service.close_round(game)),
        ("jugador en Lloret", lambda: service.add_player("Eva Gil", tournament_id=tournament_id, venue="Lloret")),
    ])
    assert {"sedes.html", "sede-lloret.html"} <= set(built.pages)


def built_step_by_step(service: TournamentService, tournament_id: int,
                       steps: list[tuple[str, Callable[[], object]]]) -> LiveSite:
    """After each step, the pages built from the previous ones are those built from
    scratch, byte for byte; the last pages built."""
    built = live_site(service, tournament_id)
    for what, step in steps:
        step()
        built = live_site(service, tournament_id, previous=built)
        fresh = live_site(service, tournament_id)
        assert built.version == fresh.version, what
        assert set(built.pages) == set(fresh.pages), what
        for name, text in fresh.pages.items():
            assert built.pages[name] == text, (what, name)
    return built


def test_a_game_whose_record_did_not_move_is_not_read_again(service: TournamentService,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    tournament_id, game = tournament(service)
    service.draw_rack(game)
    service.choose_master(game)
    service.close_round(game)
    service.end_game(game)
    service.publish(game)
    second = service.create_game(rounds=2, seed=6)
    service.draw_rack(second)
    service.choose_master(second)
    read: list[int] = []
    slips = service.slips

    def counted(number: int, *args: Any, **options: Any) -> Any:
        read.append(number)
        return slips(number, *args, **options)

    monkeypatch.setattr(service, "slips", counted)
    first = live_site(service, tournament_id)
    assert sorted(read) == [game, second]
    read.clear()
    service.close_round(second)
    closed = live_site(service, tournament_id, previous=first)
    assert read == [second]                                  # the first game's results kept as read
    assert closed.games[game].results is first.games[game].results
    assert closed.pages[f"partida-{game}.html"] is first.pages[f"partida-{game}.html"]
    read.clear()
    service.add_player("Eva Gil")                           # the tournament's: every game read again
    live_site(service, tournament_id, previous=closed)
    assert sorted(read) == [game, second]


def test_only_events_that_may_show_call_for_new_pages(service: TournamentService) -> None:
    """Each private kind (slips of an open round, a conflict and its resolution, a claim
    filed, a PIN, an assistant's tables) changes no page: ``live_changed`` is False and
    the pages rebuilt are the same; each public kind is True."""
    tournament_id, game = tournament(service)
    ana, bold, other = (table_of(service, game, name) for name in reversed(NAMES))
    service.draw_rack(game)
    placed = service.choose_master(game)
    assert placed.master is not None
    conflicts: list[Any] = []
    claims: list[int] = []
    private = [
        ("slip_entered", lambda: service.enter_slip(game, ana, placed.master or "")),
        ("slip_entered: a mark", lambda: service.mark_slip(game, bold, "tarde")),
        ("slip_checked", lambda: service.double_check(game, ana, placed.master or "")),
        ("slip_conflict", lambda: service.enter_slip(game, ana, "H8-ZZZ")),
        ("conflict_resolved", lambda: service.resolve_conflict(conflicts[-1][0].id, use_new=False)),
        ("slip_corrected in an open round", lambda: service.correct_slip(game, bold, placed.master,
                                                                         reason="errata")),
        ("pin_changed", lambda: service.set_pin("assistant", "auxiliar-uno-9", name="Auxiliar 1")),
        ("assistant_range", lambda: service.set_assistant_range("Auxiliar 1", 1, 2)),
    ]
    public = [
        ("round_closed", lambda: service.close_round(game)),
        ("claim_filed", lambda: claims.append(service.file_claim(game, 1, other, "Reclamo"))),
        ("claim_resolved", lambda: service.resolve_claim(claims[-1], upheld=False, resolution="rechazada")),
        ("slip_corrected in a closed round", lambda: service.correct_slip(game, other, status="nula",
                                                                          round_number=1, reason="ilegible")),
        ("rack_drawn", lambda: service.draw_rack(game)),
        ("timer", lambda: service.record_timer(game, "pause", 90.0)),
        ("master_chosen", lambda: service.choose_master(game)),
        ("game_ended", lambda: service.end_game(game)),
        ("player_added", lambda: service.add_player("Eva Gil")),
    ]
    site = live_site(service, tournament_id)
    for what, action in private:
        if what == "conflict_resolved":
            conflicts.extend(service.conflicts(game))
        before = live_version(service, tournament_id)
        action()
        after = live_version(service, tournament_id)
        assert after > before, what
        assert not live_changed(service, tournament_id, before, after), what
        assert live_site(service, tournament_id).pages.keys() == site.pages.keys()
        assert all(main_of(text) == main_of(site.pages[name])
                   for name, text in live_site(service, tournament_id).pages.items()), what
    for what, action in public:
        before = live_version(service, tournament_id)
        action()
        after = live_version(service, tournament_id)
        # the claim filed (what the next step resolves) is private: it shows nothing
        assert live_changed(service, tournament_id, before, after) is (what != "claim_filed"), what


def test_shows_change_is_conservative() -> None:
    def change(kind: str, round_number: int | None = 1, closed: bool = False) -> LoggedChange:
        return LoggedChange(kind, 1, round_number, closed)

    assert not shows_change([])
    for kind in PRIVATE_KINDS:
        assert not shows_change([change(kind, closed=True), change(kind, None)])
    for kind in PRIVATE_WHILE_OPEN:
        assert not shows_change([change(kind)])
        assert shows_change([change(kind, closed=True)])                       # a closed round corrected
        assert shows_change([change(kind, None)])                              # no round: not known
    for kind in set(EventKind) - PRIVATE_KINDS - PRIVATE_WHILE_OPEN:
        assert shows_change([change(kind)]) and shows_change([change(kind), change("slip_entered")]), kind
    assert shows_change([change("a_kind_not_known_yet")])
