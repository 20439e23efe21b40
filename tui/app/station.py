"""What a screen may ask of the app it runs in: the station (issue 24 §3).

Textual types ``Screen.app`` as ``App[object]``; the screens need the duplicada app's
service, its station state and its sign-in steps. ``Station`` names that interface (the
``DuplicadaApp`` has it), and ``StationScreen`` gives every screen a typed ``station``
with ``service`` and ``tournament_id`` shortcuts, so no screen reaches for an attribute
the type checker cannot see.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol, TypeVar, runtime_checkable

from textual.reactive import Reactive
from textual.screen import Screen
from textual.widget import Widget

from duplicate.service.access import Action, Actor
from duplicate.service.facade import TournamentService


@dataclass
class StationState:
    """Who this station is: the tournament open, the role signed in, the name recorded and,
    for a venue's judge or assistant (issue 27 §2, online venues), its venue; where each
    tournament was published."""

    tournament_id: int | None = None
    role: str | None = None
    station: str = "principal"
    arbiter: str = ""
    venue: str | None = None
    published: dict[int, Path] = field(default_factory=dict)
    """The folder each tournament was last published to from this app (F9 on the
    standings): the publication a change of a game's status rewrites (issue 35 §4)."""


@runtime_checkable
class Station(Protocol):
    """The app as the screens see it (``tui.app.application.DuplicadaApp``).

    ``base_service`` reads without a credential; ``service`` acts with the signed-in
    station's credential; ``remote`` is a browser's session (``duplicada serve``)."""

    remote: bool
    base_service: TournamentService
    service: TournamentService
    state: StationState

    def open_tournament(self, tournament_id: int) -> None:
        """Select a tournament and ask for the role and PIN."""

    def check_pin(self, pin: str | None) -> tuple[TournamentService, Actor]:
        """The service acting with ``pin`` and who that is (slow: call it off the UI thread)."""

    def adopt(self, acting: TournamentService, actor: Actor) -> None:
        """Act from now on through ``acting``, as ``actor``."""

    def sign_in(self, pin: str | None) -> None:
        """Act with ``pin`` and show the role's menu."""

    def sign_out(self) -> None:
        """Forget the credential and ask for a PIN again."""

    def may(self, action: Action, table: int | None = None) -> bool:
        """Whether this station may do ``action`` (for ``table``): the service's answer."""


ResultT = TypeVar("ResultT")


class StationScreen(Screen[ResultT]):
    """A screen of the duplicada app: ``station`` is the app, typed."""

    focused: Reactive[Widget | None] = Reactive(None, repaint=False)
    """As ``Screen.focused``, without repainting the whole screen when the focus moves: the
    widget that loses the focus and the one that gains it repaint themselves (and those
    styled ``:focus-within`` are restyled), which is all that changes. The slip form moves
    the focus twice per slip; a whole-screen repaint each time was a third of the work of
    the frames between Intro and the feedback (issue 38, ``bench/tui_entry.py``)."""

    @property
    def station(self) -> Station:
        """The app this screen runs in. Raises ``TypeError`` if it is not a duplicada
        station (a screen mounted in some other app)."""
        app = self.app
        if not isinstance(app, Station):
            raise TypeError(f"{type(self).__name__} needs the duplicada app, not {type(app).__name__}")
        return app

    @property
    def service(self) -> TournamentService:
        """The service acting with this station's credential."""
        return self.station.service

    def may(self, action: Action, table: int | None = None) -> bool:
        """Whether this station may do ``action`` (for ``table``, II.4.c): the service
        decides (``TournamentService.may``); screens ask instead of comparing roles."""
        return self.station.may(action, table)

    @property
    def tournament_id(self) -> int | None:
        """The tournament open at this station (None: none yet)."""
        return self.station.state.tournament_id
