"""The home menu: the screens of the signed-in role (issue 4 §2–§3).

The judge reaches every screen; an assistant only slip entry, standings and the
projection screen. A screen is offered when the service says this station may do one of
the actions it is for (``service.may``, never a role's name): so a venue's judge (issue 27
§2, online venues), who may resolve its venue's conflicts and register its players but
draws no rack, reaches the judge's console and the setup screen, which offer it only what
it may do.
"""

from __future__ import annotations

from importlib import import_module

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Header, OptionList, Static
from textual.widgets.option_list import Option

from duplicate.service.access import ROLE_NAMES, Action, Role
from duplicate.service.errors import TournamentError
from tui.app.station import StationScreen
from tui.app.widgets.glyphs import HEADER_ICON
from tui.app.widgets.steady_footer import SteadyFooter

SCREENS: dict[str, tuple[str, str, tuple[Action, ...]]] = {
    "setup": ("Preparación del torneo", "tui.app.screens.setup:SetupScreen",
              (Action.CHANGE_SETTINGS, Action.ADD_PLAYER, Action.SET_CREDENTIAL)),
    "judge": ("Consola del juez árbitro", "tui.app.screens.judge:JudgeScreen",
              (Action.DRAW_RACK, Action.RESOLVE_CONFLICT)),
    "entry": ("Entrada de papeletas", "tui.app.screens.entry:EntryScreen", (Action.ENTER_SLIP,)),
    "projection": ("Pantalla de proyección", "tui.app.screens.projection:ProjectionScreen", ()),
    "standings": ("Clasificaciones", "tui.app.screens.standings:StandingsScreen", ()),
    "classic": ("Torneo clásico (emparejamientos y resultados)", "tui.app.screens.classic:ClassicScreen", ()),
}
"""key → (Spanish title, "module:Class", the actions the screen is for: shown to the
stations that may do one of them, ``()``: to every station)."""


def screen_class(key: str) -> type[Screen[None]]:
    """The screen class of ``key`` (imported on demand)."""
    module, name = SCREENS[key][1].split(":")
    found = getattr(import_module(module), name)
    if not (isinstance(found, type) and issubclass(found, Screen)):
        raise TypeError(f"{SCREENS[key][1]} is not a screen")
    return found


class HomeScreen(StationScreen[None]):
    """Menu of the screens this role may open."""

    BINDINGS = [Binding("escape", "sign_out", "Cambiar de usuario"), Binding("ctrl+q", "app.quit", "Salir", priority=True)]

    def compose(self) -> ComposeResult:
        yield Header(icon=HEADER_ICON)
        with Vertical():
            yield Static(Text(self._who()), id="title", classes="title")
            yield OptionList(*(Option(title, id=key) for key, (title, _, actions) in SCREENS.items()
                               if not actions or any(self.may(action) for action in actions)), id="menu")
        yield SteadyFooter()

    def _who(self, tournament: str = "") -> str:
        state = self.station.state
        role = ROLE_NAMES[Role(state.role)] if state.role is not None else "sin identificar"
        venue = f" (sede «{state.venue}»)" if state.venue is not None else ""
        return f"{tournament + ' — ' if tournament else ''}{role}{': ' + state.arbiter if state.arbiter else ''}{venue}"

    def on_mount(self) -> None:
        self.query_one("#menu", OptionList).focus()
        self.read_title()

    @work(thread=True, group="home-title", exit_on_error=False)
    def read_title(self) -> None:
        """The tournament's name in the title, read in a worker thread."""
        try:
            name = self.station.service.tournament(self.station.state.tournament_id).name
        except TournamentError:
            return
        self.app.call_from_thread(self.query_one("#title", Static).update, Text(self._who(name)))

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        assert event.option.id is not None
        self.app.push_screen(screen_class(event.option.id)())

    def action_sign_out(self) -> None:
        self.station.sign_out()
