"""The options every ``duplicada`` command shares, declared once, and the command context.

Every command takes ``--db URL`` (default: ``$DUPLICADA_DB`` or a SQLite file in the
user's data directory), ``--tournament ID`` (default: the newest tournament) and, where
it matters, ``--game N`` (default: the game in play) and ``--station`` (recorded with
every event; who acted is the credential's name, recorded beside it). ``--arbiter`` is
still accepted, hidden, and has no effect: a typed name is not an identity. Output and messages are in Spanish; a refused action exits
with status 1 and says why, bad input with status 2.
"""

from __future__ import annotations

import os
import stat
import sys
from collections.abc import Callable
from functools import wraps
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import unicodedata
from collections.abc import Mapping

import click

from duplicate.bounds import BONUS_MAX, DB_INT_MAX, ROUND_SECONDS_MAX, SEED_MAX, NumberError, table_span

if TYPE_CHECKING:
    from duplicate.service.facade import TournamentService
    from lexicon.lexicon import Lexicon
    from ranking.service import EloDIHooks


def _plain(word: str) -> str:
    """``word`` lowercased without accents (``Automáticas`` → ``automaticas``)."""
    return "".join(c for c in unicodedata.normalize("NFKD", word.strip().lower()) if not unicodedata.combining(c))


if TYPE_CHECKING:                            # generic for the type checker; older Click's is not at run time
    _ParamType = click.ParamType[str]
else:
    _ParamType = click.ParamType


class SpanishChoice(_ParamType):
    """One of a few Spanish words (shown in ``--help`` and in the errors), each standing
    for the value the program keeps (``{"automáticas": "automatic"}``). Accents and case
    do not matter; the kept (English) values are accepted too, as aliases for scripts
    written before (issue 35 §4). Converts to the kept value."""

    name = "opción"

    def __init__(self, words: Mapping[str, str]) -> None:
        self.words = dict(words)
        self._read = {_plain(word): value for word, value in words.items()}
        self._read.update({_plain(value): value for value in words.values() if _plain(value) not in self._read})

    def get_metavar(self, param: click.Parameter, ctx: click.Context) -> str | None:
        return "[" + "|".join(self.words) + "]"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        kept = self._read.get(_plain(str(value)))
        if kept is None:
            self.fail(f"«{value}» no es una de: {', '.join(self.words)}", param, ctx)
        return kept

    def shell_complete(self, ctx: click.Context, param: click.Parameter,
                       incomplete: str) -> list[click.shell_completion.CompletionItem]:
        from click.shell_completion import CompletionItem

        return [CompletionItem(word) for word in self.words if _plain(word).startswith(_plain(incomplete))]


BONUS_MODE = SpanishChoice({"sin": "off", "automáticas": "automatic", "manuales": "manual"})
"""``--bonus`` (III.24): no bonuses, automatic (+10 / +5) or manual; the service's ``BonusMode`` values."""

CRITERION = SpanishChoice({"suma": "total", "promedio-plazas": "average_place",
                           "promedio-porcentajes": "average_percentage", "desviación": "deviation"})
"""``--criterion`` (IV.31): the service's ``TournamentCriterion`` values."""

ENTRY_STATUS_WORDS = SpanishChoice({"activo": "active", "retirado": "withdrawn", "ausente": "absent",
                              "descalificado": "disqualified"})
"""A player's status in a tournament (``EntryStatus`` values)."""

SEATING = SpanishChoice({"clasificación": "standings", "elodi": "rating", "alfabético": "alphabetical",
                         "sorteo": "random"})
"""How players are seated (II.6; ``SeatingMethod`` values)."""

OUTPUT_FORMAT = SpanishChoice({"tabla": "table", "csv": "csv", "json": "json"})
"""``--format`` of the listings: a table for people, CSV or JSON for programs."""


F = TypeVar("F", bound=Callable[..., Any])


# --- the ranges of numbers (issue 26 §3) -------------------------------------------------------
class Bounded(click.IntRange):
    """A whole number from ``min`` to ``max`` (both given): Click's ``IntRange`` whose
    refusal of a number written with many digits quotes its first digits only (a
    5,000-digit id is not echoed back whole)."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, str) and len(value.strip()) > 20:
            self.fail(f"«{value.strip()[:20]}…» ({len(value.strip())} caracteres) no es un número del intervalo "
                      f"{self._describe_range()}.", param, ctx)
        return super().convert(value, param, ctx)


NUMBER = Bounded(1, DB_INT_MAX)
"""An id, a game, round or table number: 1 to 2³¹ − 1 (an ``INTEGER`` column on PostgreSQL)."""
SEED = Bounded(0, SEED_MAX)
"""A seed of a draw (stored with the game)."""
SECONDS = Bounded(10, ROUND_SECONDS_MAX)
"""Seconds of a round (III.13: 180)."""
BONUS = Bounded(1, BONUS_MAX)
"""The value of a manual bonus (III.24: 5 or 10 advised)."""
SCORE = Bounded(0, DB_INT_MAX)
"""Points of a game's result or a spread (stored in ``INTEGER`` columns)."""


if TYPE_CHECKING:                            # generic for the type checker (see ``SpanishChoice``)
    _SpanType = click.ParamType[tuple[int, int]]
else:
    _SpanType = click.ParamType


class TableSpan(_SpanType):
    """An assistant's tables typed ``A-B`` (or one table ``A``), each from 1 to 2³¹ − 1
    (``duplicate.bounds.table_span``): converts to ``(A, B)``; anything else is refused
    before the database is opened (issue 36 §5)."""

    name = "A-B"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, tuple):
            return value
        try:
            return table_span(str(value))
        except NumberError as error:
            self.fail(str(error), param, ctx)


TABLE_SPAN = TableSpan()
"""``--tables A-B`` of ``tournament pin assistant``."""

if TYPE_CHECKING:
    _TextType = click.ParamType[str]
else:                                   # Click before 8.5: ParamType is not generic
    _TextType = click.ParamType


class MarkChoice(_TextType):
    """A slip's mark as the judge says it: ``tarde``, ``nula`` or ``no-entregada`` (also
    «falta», «fuera de tiempo»…, any case and accents: ``duplicate.rules.slips.read_mark``); the
    storage codes ``late``, ``null``, ``missing`` are still accepted but not offered. The
    value is the code (``"late"``…)."""

    name = "marca"

    def get_metavar(self, param: click.Parameter, ctx: click.Context | None = None) -> str:
        from duplicate.rules.slips import MARK_NAMES

        return "{" + "|".join(MARK_NAMES.values()) + "}"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        from duplicate.rules.slips import MARK_NAMES, MARKED_STATUSES, read_mark

        mark = read_mark(str(value))
        if mark not in MARKED_STATUSES:
            self.fail(f"«{str(value)[:40]}» no es una marca: escriba {', '.join(MARK_NAMES.values())}", param, ctx)
        return mark.value


MARK = MarkChoice()
"""``slip mark``'s and ``--status``'s mark (see ``MarkChoice``)."""


# --- the shared options, declared once -------------------------------------------------------
def _database_url(context: click.Context, parameter: click.Parameter, value: str | None) -> str | None:
    """``--db``: a URL whose password is written ``?`` gets it from a hidden prompt (issue 14 §4)."""
    if value is None or ":?@" not in value:             # the service (and SQLAlchemy) only when needed
        return value
    from duplicate.service.opening import url_with_password

    return url_with_password(value, lambda question: str(click.prompt(question, hide_input=True, err=True)))


db_option = click.option("--db", envvar="DUPLICADA_DB", default=None, metavar="URL", callback=_database_url,
                         help="Base de datos: URL de SQLAlchemy o archivo SQLite (por defecto, $DUPLICADA_DB o el "
                              "de la carpeta de datos). Con «:?@» en lugar de la contraseña, se pregunta.")
tournament_option = click.option("--tournament", "tournament_id", type=NUMBER, default=None,
                                 help="Id del torneo (por defecto, el último).")
station_option = click.option("--station", default=None,
                              help="Nombre de este puesto (por defecto, $DUPLICADA_STATION o el equipo).")
arbiter_option = click.option("--arbiter", default="", hidden=True, expose_value=False,
                              help="Sin efecto (se acepta por compatibilidad): quien actúa lo dice el PIN del puesto.")
lexicon_option = click.option("--lexicon", "lexicon_path", type=click.Path(dir_okay=False, path_type=Path),
                              default=None, help="Léxico compilado (por defecto, el del torneo o el incluido).")
pin_file_option = click.option("--pin-file", type=click.Path(dir_okay=False, path_type=Path), default=None,
                               help="Archivo con el PIN del puesto en su primera línea (si no, $DUPLICADA_PIN o "
                                    "se pregunta sin mostrarlo).")
game_option = click.option("--game", "game_number", type=NUMBER, default=None,
                           help="Número de partida (por defecto, la que está en juego).")
def round_choice(default: str) -> Callable[[F], F]:
    """``--round N``, its help saying what the command does without it (``default``)."""
    return click.option("--round", "round_number", type=NUMBER, default=None, help=f"Ronda (por defecto, {default}).")


round_option = round_choice("la última con la jugada maestra ya anunciada, III.16: en ella se anotan las papeletas")
"""``--round`` of the slip commands (``TournamentService.enter_slip``'s default round)."""
format_option = click.option("--format", "output", type=OUTPUT_FORMAT, default="tabla",
                             show_default=True, help="Formato de salida.")


def load_lexicon(path: Path | None) -> Lexicon:
    """The compiled lexicon at ``path`` (default: the built-in one, compiled on first use);
    a bad file ends the command with its Spanish message."""
    from lexicon import lexicon as compiled
    from lexicon.default import default_lexicon_path

    try:
        if path is None:
            path = default_lexicon_path(lambda message: click.echo(message, err=True))
        return compiled.Lexicon.load(path)
    except compiled.LexiconError as error:
        raise click.ClickException(str(error)) from None


STATION_ENV = "DUPLICADA_STATION"


def station_name(station: str | None) -> str:
    """``--station``, else ``$DUPLICADA_STATION``, else the machine's name, checked like
    every typed text (``duplicate.texts``: valid UTF-8, no control or invisible
    characters, at most ``PERSON_MAX`` characters); ``click.BadParameter`` otherwise."""
    from duplicate.texts import PERSON_MAX, TextError, checked_text

    name = station or os.environ.get(STATION_ENV)
    if not name:
        import socket       # only here: ``analyze`` and ``--help`` never name a station (issue 38)

        name = socket.gethostname()
    try:
        return checked_text(name, "el nombre del puesto (--station o $DUPLICADA_STATION)", limit=PERSON_MAX)
    except TextError as error:
        raise click.BadParameter(str(error), param_hint="'--station'") from None


PIN_ENV = "DUPLICADA_PIN"
"""Environment variable holding the station's credential (never a command-line argument)."""

REFUSED_STATUS = 3
"""Exit status of an action the credential may not do, or a credential refused."""


def read_pin(pin_file: Path | None, *, prompt: str = "PIN o contraseña de este puesto") -> str:
    """The station's credential: the first line of ``pin_file``, else ``$DUPLICADA_PIN``,
    else a hidden prompt when a person is at the terminal. Never echoed nor logged.
    Raises ``click.ClickException`` (Spanish) when there is none."""
    if pin_file is not None:
        return _pin_in_file(pin_file)
    pin = os.environ.get(PIN_ENV)
    if pin:
        return pin
    if sys.stdin.isatty():
        return str(click.prompt(prompt, hide_input=True))
    raise click.ClickException(f"esta acción necesita la credencial del puesto: use --pin-file ARCHIVO o la variable "
                               f"{PIN_ENV} (nunca el PIN en la línea de órdenes)")


PIN_FILE_MAX_BYTES = 4096
"""Bytes of a PIN file read at most (a PIN is a line; ``/dev/zero`` is not read through)."""


def _pin_in_file(path: Path) -> str:
    """The first line of the PIN file ``path``, without a UTF-8 byte-order mark and
    surrounding spaces; ``click.ClickException`` (Spanish, naming the file, never its
    content) for a file that is not a regular one (a FIFO, a device), too long, not
    UTF-8 or empty."""
    try:
        if not stat.S_ISREG(path.stat().st_mode):
            raise click.ClickException(f"el archivo del PIN {path} no es un archivo normal")
        with path.open("rb") as handle:
            data = handle.read(PIN_FILE_MAX_BYTES + 1)
        if len(data) > PIN_FILE_MAX_BYTES:
            raise click.ClickException(f"el archivo del PIN {path} ocupa más de {PIN_FILE_MAX_BYTES} bytes: "
                                       "debe tener el PIN en su primera línea")
        lines = data.decode("utf-8-sig").splitlines()
    except (OSError, UnicodeDecodeError) as error:
        raise click.ClickException(f"no se puede leer el archivo del PIN {path}: {error.__class__.__name__}") from None
    pin = lines[0].strip() if lines else ""
    if not pin:
        raise click.ClickException(f"el archivo del PIN {path} está vacío")
    return pin


class Context:
    """What the common options give a command: the service and the selected ids.

    ``service``: a read-only handle (no credential); ``acting``: the same service acting
    with this station's credential (``read_pin``), for the commands that change the record.
    """

    def __init__(self, db: str | None, tournament: int | None, station: str | None,
                 lexicon: Path | None, pin_file: Path | None = None) -> None:
        self.db_url = db
        self.tournament = tournament
        self.station = station_name(station)
        self.lexicon_path = lexicon
        self.pin_file = pin_file
        self.elodi: EloDIHooks | None = None
        self.creates = False
        """Whether this command may create the database (a SQLite file that does not exist):
        only the commands that make a tournament («tournament create», «restore») set it."""
        self._service: TournamentService | None = None
        self._acting: TournamentService | None = None

    @property
    def service(self) -> TournamentService:
        if self._service is None:
            # Imported here, when a command first needs the database: ``duplicada --help``
            # and the commands without a database never load SQLAlchemy or Alembic.
            from duplicate.service.errors import TournamentError
            from ranking.service import open_tournament_service

            lexicon = None
            if self.lexicon_path is not None:
                # Only here: the compiled lexicon pulls in numpy (issue 38: a read-only
                # command like «standings» never loads it).
                from lexicon import lexicon as compiled

                try:
                    lexicon = compiled.Lexicon.load(self.lexicon_path)
                except compiled.LexiconError as error:
                    raise click.ClickException(str(error)) from None
            try:
                self._service, self.elodi = open_tournament_service(self.db_url, create=self.creates,
                                                                    station=self.station, lexicon=lexicon)
            except TournamentError as error:
                raise click.ClickException(str(error)) from None
        return self._service

    @property
    def acting(self) -> TournamentService:
        if self._acting is None:
            self._acting = self.service.with_pin(read_pin(self.pin_file))
        return self._acting

    @property
    def reading(self) -> TournamentService:
        """The handle for a read that depends on who reads (a venue's credential sees its
        venue): ``acting`` when this station has a credential (``--pin-file`` or
        ``$DUPLICADA_PIN``), else the viewer ``service``."""
        if self._acting is None and self.pin_file is None and not os.environ.get(PIN_ENV):
            return self.service
        return self.acting

    def new_pin(self, prompt: str) -> str:
        """A new credential (a tournament's judge PIN): from ``--pin-file`` or
        ``$DUPLICADA_PIN``, else asked twice at the terminal."""
        if self.pin_file is None and not os.environ.get(PIN_ENV) and sys.stdin.isatty():
            return str(click.prompt(prompt, hide_input=True, confirmation_prompt=True))
        return read_pin(self.pin_file)

    def game(self, number: int | None) -> int:
        return number if number is not None else self.service.current_game(self.tournament)


def _shown_database(db: str | None) -> str:
    """The database a command used, as messages show it (never its password)."""
    from duplicate.service.opening import shown_database

    return shown_database(db)


def common(command: F) -> F:
    """Add ``--db``, ``--tournament``, ``--station``, ``--lexicon``, ``--pin-file`` (and the
    hidden, ineffective ``--arbiter``); turn ``TournamentError`` into a clean exit (status 3 when the
    credential is refused or may not do the action, 1 otherwise)."""

    @db_option
    @tournament_option
    @station_option
    @arbiter_option
    @lexicon_option
    @pin_file_option
    @wraps(command)
    def wrapper(db: str | None, tournament_id: int | None, station: str | None,
                lexicon_path: Path | None, pin_file: Path | None, **kwargs: Any) -> Any:
        from duplicate.service.errors import CredentialRefused, DamagedData, NotAuthorised, TournamentError

        context = Context(db, tournament_id, station, lexicon_path, pin_file)
        try:
            return command(context, **kwargs)
        except (NotAuthorised, CredentialRefused) as error:
            click.echo(f"Denegado: {error}", err=True)
            raise click.exceptions.Exit(REFUSED_STATUS) from None
        except DamagedData as error:
            # Said once which database: the storage's own messages name it already (by URL).
            named = "://" in str(error) or _shown_database(db) in str(error)
            raise click.ClickException(str(error) if named else f"la base de datos {_shown_database(db)}: {error}") from None
        except TournamentError as error:
            raise click.ClickException(str(error)) from None
        except (TypeError, ValueError, KeyError) as error:
            # Stored values of the wrong shape (a damaged database read without a parse error,
            # e.g. a text in a number column): said in Spanish, naming the database, never a traceback.
            raise click.ClickException(
                f"no se ha podido completar la orden: la base de datos {_shown_database(db)} devuelve "
                f"datos inesperados ({type(error).__name__}); puede estar dañada: restaure la última copia (o el "
                "registro exportado) y avise al responsable técnico") from None

    # The wrapper takes the common options where ``command`` takes the ``Context``: the
    # declared type is what Click's decorators see.
    return wrapper  # type: ignore[return-value]
