"""Click's own messages in Spanish (issue 13 §4).

Click writes its usage lines, option help and errors ("Usage:", "Missing argument", "No
such command", "Show this message and exit.") through ``gettext``; each of its modules
binds ``_`` and ``ngettext`` when imported. ``install()`` binds them instead to
``CATALOGUE``, a ``gettext.NullTranslations`` holding the Spanish text of every message of
Click 8 that a user of ``duplicada`` can see; a message missing from it stays in English
rather than failing. Call it before the commands are declared (the ``--version`` help is
read at declaration).
"""

from __future__ import annotations

import gettext
from importlib import import_module

import click

SPANISH: dict[str, str] = {
    "Usage:": "Uso:",
    "Options": "Opciones",
    "Commands": "Órdenes",
    "Positional arguments": "Argumentos",
    "Show this message and exit.": "Muestra esta ayuda y termina.",
    "Show the version and exit.": "Muestra la versión y termina.",
    "%(prog)s, version %(version)s": "%(prog)s, versión %(version)s",
    "Error: {message}": "Error: {message}",
    "Try '{command} {option}' for help.": "Pruebe «{command} {option}» para ver la ayuda.",
    "Missing argument": "Falta el argumento",
    "Missing option": "Falta la opción",
    "Missing parameter": "Falta el parámetro",
    "Missing {param_type}": "Falta {param_type}",
    "Missing parameter: {param_name}": "Falta el parámetro {param_name}",
    "Missing command.": "Falta la orden.",
    "No such command {name!r}.": "No existe la orden «{name}».",
    "No such option {name!r}.": "No existe la opción «{name}».",
    "Option {name!r} does not take a value.": "La opción «{name}» no lleva valor.",
    "Invalid value: {message}": "Valor no válido: {message}",
    "Invalid value for {param_hint}: {message}": "Valor no válido para {param_hint}: {message}",
    "Argument {name!r} takes {nargs} values.": "El argumento «{name}» lleva {nargs} valores.",
    "{value!r} is not a valid {number_type}.": "«{value}» no es un número válido.",
    "{value} is not in the range {range}.": "{value} no está en el intervalo {range}.",
    "{value!r} is not a valid UUID.": "«{value}» no es un UUID válido.",
    "Choose from:\n\t{choices}": "Elija entre:\n\t{choices}",
    "Could not open file {filename!r}: {message}": "No se pudo abrir el archivo «{filename}»: {message}",
    "{name} {filename!r} does not exist.": "{name} «{filename}» no existe.",
    "{name} {filename!r} is a directory.": "{name} «{filename}» es una carpeta.",
    "{name} {filename!r} is a file.": "{name} «{filename}» es un archivo.",
    "{name} {filename!r} is not readable.": "{name} «{filename}» no se puede leer.",
    "{name} {filename!r} is not writable.": "{name} «{filename}» no se puede escribir.",
    "{name} {filename!r} is not executable.": "{name} «{filename}» no es ejecutable.",
    "file": "archivo",
    "directory": "carpeta",
    "path": "ruta",
    "default: {default}": "por omisión: {default}",
    "env var: {var}": "variable de entorno: {var}",
    "deprecated": "obsoleta",
    "(dynamic)": "(dinámico)",
    "Aborted!": "¡Cancelado!",
    "Do you want to continue?": "¿Desea continuar?",
    "Confirm the action without prompting.": "Confirma la acción sin preguntar.",
    "Repeat for confirmation": "Repítalo para confirmar",
    "Error: The two entered values do not match.": "Error: los dos valores escritos no coinciden.",
    "Error: invalid input": "Error: respuesta no válida",
    "Press any key to continue...": "Pulse una tecla para continuar…",
    "unknown error": "error desconocido",
    "Value must be an iterable.": "El valor debe ser una lista.",
    "required": "obligatoria",
    "{value!r} is not a valid boolean. Recognized values: {states}":
        "«{value}» no es un valor de sí o no. Valores admitidos: {states}",
    "DeprecationWarning: The command {name!r} is deprecated.{extra_message}":
        "Aviso: la orden «{name}» está obsoleta.{extra_message}",
    "DeprecationWarning: The {param_type} {name!r} is deprecated.{extra_message}":
        "Aviso: {param_type} «{name}» está obsoleto.{extra_message}",
    "Couldn't detect Bash version, shell completion is not supported.":
        "No se reconoce la versión de Bash: no se puede completar en el intérprete.",
    "Shell completion is not supported for Bash versions older than 4.4.":
        "Completar en el intérprete necesita Bash 4.4 o posterior.",
    "d": "d",
    "{editor}: Editing failed": "{editor}: no se pudo editar",
    "{editor}: Editing failed: {e}": "{editor}: no se pudo editar: {e}",
}
"""Click's message (as in its source) → the Spanish shown. ``"required"`` is the mark
of a required option in the help (``[obligatoria]``)."""

DECLARATION_ERRORS: frozenset[str] = frozenset({
    "Could not determine name for option with declarations {decls!r}",
    "No options defined but a name was passed ({name}). Did you mean to declare an argument instead? "
    "Did you mean to pass '--{name}'?",
    "Arguments take exactly one parameter declaration, got {length}: {decls}.",
    "Name '{name}' defined twice",
    "Boolean option {decl!r} cannot use the same flag for true/false.",
    "Invalid start character for option ({option})",
    "Choice({choices})",
    "Unknown color {colour!r}",
    "Unknown standard stream '{name}'",
})
"""Click's messages that only a mistake in declaring our commands can show (raised as
``TypeError``/``ValueError`` while the program starts, or a ``repr``): left in English, for the
developer. Every other message of Click is in ``SPANISH`` or ``SPANISH_PLURALS``."""

SPANISH_PLURALS: dict[str, tuple[str, str]] = {
    "Got unexpected extra argument ({args})": ("Sobra un argumento ({args})", "Sobran argumentos ({args})"),
    "Option {name!r} requires an argument.": ("La opción «{name}» necesita un valor.",
                                              "La opción «{name}» necesita {nargs} valores."),
    "Did you mean {possibility}?": ("¿Quería decir {possibility}?", "(¿Quería decir alguna de estas: {possibilities}?)"),
    "{value!r} is not {choice}.": ("«{value}» no es {choice}.", "«{value}» no es ninguna de estas: {choices}."),
    "Takes {nargs} values but 1 was given.": ("Lleva {nargs} valores, pero se dio 1.",
                                              "Lleva {nargs} valores, pero se dieron {len}."),
    "{value!r} does not match the format {format}.": ("«{value}» no sigue el formato {format}.",
                                                      "«{value}» no sigue ninguno de los formatos {formats}."),
    "{len_type} values are required, but {len_value} was given.": (
        "Hacen falta {len_type} valores, pero se dio {len_value}.",
        "Hacen falta {len_type} valores, pero se dieron {len_value}."),
}
"""Click's singular message → the Spanish singular and plural."""


class SpanishCatalogue(gettext.NullTranslations):
    """``SPANISH`` and ``SPANISH_PLURALS`` as a gettext catalogue; unknown messages pass through."""

    def gettext(self, message: str) -> str:
        return SPANISH.get(message, message)

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        forms = SPANISH_PLURALS.get(msgid1)
        if forms is None:
            return msgid1 if n == 1 else msgid2
        return forms[0] if n == 1 else forms[1]


CATALOGUE = SpanishCatalogue()

_CLICK_MODULES = ("core", "decorators", "exceptions", "formatting", "parser", "types", "termui", "utils",
                  "shell_completion", "_termui_impl")


def install() -> None:
    """Make Click speak Spanish: bind each Click module's ``_`` and ``ngettext`` to ``CATALOGUE``."""
    for name in _CLICK_MODULES:
        module = import_module(f"click.{name}")
        if hasattr(module, "_"):
            setattr(module, "_", CATALOGUE.gettext)  # noqa: B010 - a module attribute the type checker cannot see
        if hasattr(module, "ngettext"):
            setattr(module, "ngettext", CATALOGUE.ngettext)  # noqa: B010 - as above


TYPE_METAVARS: dict[str, str] = {"integer": "ENTERO", "integer range": "ENTERO", "float": "NÚMERO",
                                  "float range": "NÚMERO", "text": "TEXTO", "file": "ARCHIVO", "directory": "CARPETA",
                                  "path": "RUTA", "archivo": "ARCHIVO", "carpeta": "CARPETA", "ruta": "RUTA",
                                  "filename": "ARCHIVO", "boolean": "SÍ/NO", "uuid": "UUID", "datetime": "FECHA"}
"""Click's type names (its ``INTEGER``, ``TEXT``… placeholders) → the Spanish placeholder."""


ARGUMENT_METAVARS: dict[str, str] = {
    "table": "MESA", "tables": "MESAS", "text": "TEXTO", "round_number": "RONDA", "path": "ARCHIVO",
    "name": "NOMBRE", "entry_id": "INSCRIPCIÓN", "first": "PRIMERA", "last": "ÚLTIMA",
    "first_score": "PUNTOS1", "second_score": "PUNTOS2", "number": "NÚMERO", "out": "SALIDA",
    "player": "JUGADOR", "players": "JUGADORES", "claim_id": "RECLAMACIÓN", "conflict_id": "CONFLICTO",
    "trf": "TRF", "choice": "ELECCIÓN", "words": "PALABRAS", "status": "ESTADO", "role": "PAPEL",
}
"""An argument's name (as declared) → its Spanish placeholder in the usage line, the help
and the errors (``MESA`` where Click would write ``TABLE``). The commands' help texts
name their arguments by these placeholders."""


def spanish_metavars(command: click.Command) -> click.Command:
    """``command`` (and its subcommands) with the usage line's placeholders in Spanish:
    ``[OPCIONES]``, ``ORDEN [ARGUMENTOS]...`` and each option's value (``ENTERO``,
    ``TEXTO``, ``ARCHIVO``…; choices stay as they are). Returns ``command``."""
    if command.options_metavar == "[OPTIONS]":
        command.options_metavar = "[OPCIONES]"
    for param in command.params:
        if (isinstance(param, click.Argument) and param.metavar is None and param.name in ARGUMENT_METAVARS
                and type(param.type).get_metavar is click.ParamType.get_metavar):   # choices keep {a|b}
            param.metavar = ARGUMENT_METAVARS[param.name]
        if isinstance(param, click.Option) and param.metavar is None and not param.is_flag:
            spanish = TYPE_METAVARS.get(param.type.name.lower())
            if spanish is not None:
                param.metavar = spanish
    if isinstance(command, click.Group):
        if command.subcommand_metavar in (None, "COMMAND [ARGS]...", "[COMMAND] [ARGS]..."):
            command.subcommand_metavar = ("[ORDEN] [ARGUMENTOS]..." if command.invoke_without_command
                                          else "ORDEN [ARGUMENTOS]...")
        for subcommand in command.commands.values():
            spanish_metavars(subcommand)
    return command
