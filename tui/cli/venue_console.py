"""What ``duplicada serve`` writes on the judge's console: one line per event, nothing secret
(issue 36 §2).

textual-serve logs through a Rich handler that prints tracebacks with every frame's local
variables — among them the request's ``Authorization`` header, the venue password in
base64 — and aiohttp's access log prints each request line whole, query string included.
Here, instead:

* :class:`OneLineFormatter` turns every log record into one line: the first line of its
  message, control characters escaped, at most ``LINE_LENGTH`` characters, and of an
  exception only its class name — never a traceback, never locals, never the exception's
  text (which may quote what a browser sent);
* :class:`PathAccessLogger` writes one line per request with the client's address, the
  method, the path without its query string (a download's key masked) and the status;
* :func:`install_console_logging` makes that formatter the only handler of the root
  logger, on standard error.
"""

from __future__ import annotations

import logging
import sys
from typing import TextIO

from aiohttp.abc import AbstractAccessLogger
from aiohttp.web import BaseRequest, Response, StreamResponse

LINE_LENGTH = 300
"""Characters of a console line at most (a longer message is cut, marked ``…``)."""

AIOHTTP_REQUEST_ERROR = "Error handling request from %s"
"""aiohttp's own message for a request it could not handle (a malformed HTTP request, a
handler's error): rewritten in Spanish."""


def printable(text: str, limit: int = LINE_LENGTH) -> str:
    """``text`` with every character that is not printable (newlines, escapes, bidi
    controls) written as ``\\xNN``/``\\uNNNN``, cut to ``limit`` characters (``…``)."""
    shown = text if text.isprintable() else \
        "".join(character if character.isprintable() else ascii(character)[1:-1] for character in text)
    return shown if len(shown) <= limit else shown[:limit - 1] + "…"


class OneLineFormatter(logging.Formatter):
    """A log record as one line without secrets (see the module's docstring)."""

    def format(self, record: logging.LogRecord) -> str:
        try:
            if record.name == "aiohttp.server" and record.msg == AIOHTTP_REQUEST_ERROR and record.args:
                address = record.args[0] if isinstance(record.args, tuple) else "desconocida"
                message = f"Petición de {address} descartada: no se pudo atender"
            else:
                message = record.getMessage()
        except Exception:                       # a record whose arguments do not fit its message
            message = str(record.msg)
        lines = message.splitlines()
        line = printable(lines[0] if lines else "")
        if record.exc_info and record.exc_info[0] is not None:
            line += f" ({record.exc_info[0].__name__})"
        return line


class PathAccessLogger(AbstractAccessLogger):
    """aiohttp's access log, one line per request: ``ADDRESS METHOD PATH STATUS (N ms)``
    — the path as the browser sent it (percent-encoded), never its query string; the key
    of a ``/download/`` path masked (whoever holds it may fetch the file)."""

    def log(self, request: BaseRequest, response: StreamResponse, time: float) -> None:
        path = request.rel_url.raw_path
        if path.startswith("/download/"):
            path = "/download/…"
        self.logger.info("%s %s %s %d (%d ms)", request.remote or "desconocida", printable(request.method, 16),
                         printable(path, 200), response.status, round(time * 1000))


def install_console_logging(debug: bool = False, stream: TextIO | None = None) -> None:
    """Every log record of the process, one line each (:class:`OneLineFormatter`) on
    ``stream`` (standard error when None): the root logger's handlers are replaced,
    its level set to INFO (DEBUG when ``debug``)."""
    handler = logging.StreamHandler(stream if stream is not None else sys.stderr)
    handler.setFormatter(OneLineFormatter())
    root = logging.getLogger()
    for old in root.handlers[:]:
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(logging.DEBUG if debug else logging.INFO)


def unexpected_error(log: logging.Logger, request: BaseRequest, error: Exception, answer: str) -> Response:
    """What a server says of an error its handler did not expect (issue 36 §2): one line on
    ``log`` — the request's method, path (no query string) and address, the error's class,
    never a traceback (aiohttp's frames hold the request's headers) nor the error's text —
    and a Spanish 500 whose body is ``answer``."""
    log.error("Petición %s %s de %s: error inesperado (%s); respondida con el error 500.",
              printable(request.method, 16), printable(request.rel_url.raw_path, 200),
              request.remote or "desconocida", type(error).__name__)
    return Response(status=500, content_type="text/plain", charset="utf-8", text=answer)

