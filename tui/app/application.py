"""The duplicada Textual app: start (open or create a tournament), sign in with a role and
PIN, then the screens of that role (issue 4).

``DuplicadaApp(service)``: ``service`` is a ``TournamentService`` on the tournament
database. The app polls the event log every ``POLL_SECONDS`` and posts ``DataChanged`` to
the active screen when another station (or this one) changed something, so every station
sees the others' entries without restarting.
"""

from __future__ import annotations

from importlib import import_module
from pathlib import Path

from textual import work
from textual.binding import Binding
from textual.notifications import SeverityLevel
from textual.screen import ModalScreen

from duplicate.service.access import Action, Actor
from duplicate.service.errors import StorageUnavailable, TournamentError
from duplicate.service.facade import TournamentService
from tui.app.heap import freeze_heap
from tui.app.key_order import KeysInOrderApp
from tui.app.messages import DataChanged
from tui.app.screens.home import HomeScreen
from tui.app.screens.signin import SignInScreen
from tui.app.screens.start import StartScreen
from tui.app.station import StationState

POLL_SECONDS = 1.5

WARM_SCREENS = ("tui.app.screens.judge", "tui.app.screens.entry")
"""The screens whose modules the warm-up imports after sign-in (the heaviest to open)."""

KEY_NAMES = {"enter": "Intro", "space": "espacio", "backspace": "Retroceso", "delete": "Supr",
             "pageup": "RePág", "pagedown": "AvPág"}
"""How the footer names these keys (Textual: «⏎», «space», «⌫», «del», «pgup», «pgdn»)."""


class DuplicadaApp(KeysInOrderApp[None]):
    """The arbitration app. See the module docstring; keys are applied in the order typed
    (``tui.app.key_order``)."""

    TITLE = "duplicada"
    # The command palette and its texts are English: off (everything the user reads is Spanish).
    ENABLE_COMMAND_PALETTE = False
    SUB_TITLE = "Scrabble duplicado — reglamento FISE"
    CSS_PATH = Path(__file__).with_name("app.tcss")
    # Shown only on the start and menu screens (they declare it again): the other
    # screens need the 80 columns of their footer for their own keys (issue 13 §3).
    BINDINGS = [Binding("ctrl+q", "quit", "Salir", priority=True, show=False)]

    def __init__(self, service: TournamentService, *, station: str = "principal", poll: bool = True,
                 remote: bool = False, tournament_id: int | None = None) -> None:
        super().__init__()
        # ``remote``: a browser's session through ``duplicada serve`` (issue 14 §3): it
        # signs in with a station's PIN before any screen — no read-only entry without a
        # PIN, and tournaments are created at the judge's own machine, not from a browser.
        # Its first screen is the PIN, for the served tournament (``tournament_id``; None:
        # the newest): no list of tournaments, no name, before a PIN (issue 26 §1).
        self.remote = remote
        self._served = tournament_id
        # ``base_service`` reads (no credential); ``service`` acts with the signed-in
        # station's credential, so the service decides what this station may do.
        self.base_service = service
        self.service = service
        self.state = StationState(station=station)
        self._poll = poll
        self._may: dict[tuple[Action, int | None], bool] = {}
        """What ``may`` answered, until the credential or the record changes."""
        self._last_event = -1
        self._offline = False

    def on_mount(self) -> None:
        if self.remote:
            self.state.tournament_id = self._served
            self.push_screen(SignInScreen())
        else:
            self.push_screen(StartScreen())
            if self._served is not None:
                self.open_tournament(self._served)
        if self._poll:
            self.set_interval(POLL_SECONDS, self.poll_for_changes)

    def check_for_changes(self) -> None:
        """Post ``DataChanged`` to the screens when the event log grew (read here)."""
        if self.state.tournament_id is not None:
            self._changes_read(*self._read_last_event(self.state.tournament_id))

    @work(thread=True, exclusive=True, group="poll", exit_on_error=False)
    def poll_for_changes(self) -> None:
        """``check_for_changes`` with the database read in a worker thread: the event loop
        never waits for the database (the interval timer calls this)."""
        if self.state.tournament_id is not None:
            self.call_from_thread(self._changes_read, *self._read_last_event(self.state.tournament_id))

    def _read_last_event(self, tournament_id: int) -> tuple[int | None, Exception | None]:
        try:
            return self.service.last_event_id(tournament_id), None
        except StorageUnavailable as error:     # a database hiccup (DamagedData too) must not close the station
            return None, error

    def _changes_read(self, last: int | None, error: Exception | None) -> None:
        if error is not None or last is None:
            if not self._offline:
                self._offline = True
                self.notify(f"Sin conexión con la base de datos; se reintenta ({type(error).__name__})",
                            severity="error", timeout=10)
            return
        if self._offline:
            self._offline = False
            self.notify("Conexión con la base de datos recuperada")
        if last != self._last_event:
            self._last_event = last
            self._may.clear()              # a PIN or an assistant's tables may have changed
            # Every screen of the stack hears it: a dialog on top must not hide it from
            # the screen underneath.
            for screen in self.screen_stack:
                screen.post_message(DataChanged(last))

    def get_key_display(self, binding: Binding) -> str:
        """Keys in the footer by their Spanish keyboard names, in glyphs every font has
        (Textual shows Enter as «⏎» and Space as «space», issue 25 §3)."""
        modifiers, key = binding.parse_key()
        if not binding.key_display and not modifiers and key in KEY_NAMES:
            return KEY_NAMES[key]
        return super().get_key_display(binding)

    def notify(self, message: str, *, title: str = "", severity: SeverityLevel = "information",
               timeout: float | None = None, markup: bool = False) -> None:
        """Textual's toast, with the message and title shown as plain text unless
        ``markup`` (a message may quote a name or what was typed: never read as markup)."""
        super().notify(message, title=title, severity=severity, timeout=timeout, markup=markup)

    def _refresh_notifications(self) -> None:
        """Toasts never cover a dialog (issue 25 §3): while a modal screen is on top they
        wait (their timeout runs) and show when it closes, on the screen underneath."""
        if self.screen_stack and isinstance(self.screen, ModalScreen):
            return
        super()._refresh_notifications()

    def action_help_quit(self) -> None:
        """Ctrl+C: say in Spanish how to quit."""
        self.notify("Pulse Ctrl+Q para salir de la aplicación", title="Salir")

    def open_tournament(self, tournament_id: int) -> None:
        """Select a tournament and ask for the role and PIN."""
        self.state.tournament_id = tournament_id
        self.push_screen(SignInScreen())

    def authenticate(self, pin: str | None) -> Actor:
        """Act from now on with ``pin`` (``None``: read-only) in the open tournament;
        returns who the credential is. Raises ``TournamentError`` (``CredentialRefused``)
        for a wrong PIN or while sign-in is locked; then nothing changes."""
        acting, actor = self.check_pin(pin)
        self.adopt(acting, actor)
        return actor

    def check_pin(self, pin: str | None) -> tuple[TournamentService, Actor]:
        """The service acting with ``pin`` in the open tournament and who that is (the
        service checks the slow hash: call it from a worker thread). Raises
        ``TournamentError`` (``CredentialRefused``) as ``authenticate`` does."""
        acting = self.base_service.with_pin(pin)
        return acting, acting.sign_in(self.state.tournament_id)

    def may(self, action: Action, table: int | None = None) -> bool:
        """Whether this station may do ``action`` (for ``table``, II.4.c) in the open
        tournament: the service's answer (``TournamentService.may``), kept until the
        credential or the record changes, so that footers and menus can ask it often."""
        key = (action, table)
        if key not in self._may:
            self._may[key] = self.service.may(action, table, tournament_id=self.state.tournament_id)
        return self._may[key]

    def adopt(self, acting: TournamentService, actor: Actor) -> None:
        """Act from now on through ``acting``, as ``actor`` (from ``check_pin``)."""
        self._may.clear()
        self.service = acting
        if self.state.tournament_id is None:        # a browser signed in to the newest one
            self.state.tournament_id = actor.tournament_id
        self.state.role = actor.role.value
        self.state.arbiter = actor.name
        self.state.venue = actor.venue
        if self.is_running:
            self.warm_up()

    @work(thread=True, exclusive=True, group="warm-up", exit_on_error=False)
    def warm_up(self) -> None:
        """After sign-in, in a worker thread, while the menu waits for a choice: load the
        tournament's lexicon and the move generator (``TournamentService.warm_up``), replay
        the game in play (its engine is kept) and rank its rack in play when this station
        conducts the game, and import the heaviest screens — so that the judge's console
        and the slip entry open at once (issue 38) instead of loading them on the first
        screen that needs them. Nothing here is needed for correctness: a screen opened
        before it ends waits for the service as it would anyway (the service loads the
        lexicon once, under its lock); a failure is left for that screen to report. A
        read-only station (no slips, no racks) warms nothing: its screens may never need
        the lexicon (tens of MiB in each browser's app under «serve»)."""
        # The console's own count of tops, so that the ranking kept is the one it asks for;
        # its module is among those the warm-up imports anyway (WARM_SCREENS).
        from tui.app.screens.judge import TOPS_SHOWN

        service, tournament_id = self.service, self.state.tournament_id
        try:
            conducts = service.may(Action.DRAW_RACK, None, tournament_id=tournament_id)
            if not conducts and not service.may(Action.ENTER_SLIP, None, tournament_id=tournament_id):
                return
            service.warm_up(tournament_id)
            game = service.current_game(tournament_id)
            service.game_view(game, tournament_id, tops=TOPS_SHOWN if conducts else None)
        except TournamentError:
            pass
        for module in WARM_SCREENS:
            import_module(module)
        freeze_heap()

    def sign_in(self, pin: str | None) -> None:
        """``authenticate`` and show the home menu of the credential's role."""
        self.authenticate(pin)
        self.switch_screen(HomeScreen())

    def sign_out(self) -> None:
        """Forget the credential and ask for a PIN again."""
        self._may.clear()
        self.service = self.base_service
        self.state.role = None
        self.state.arbiter = ""
        self.state.venue = None
        self.switch_screen(SignInScreen())
