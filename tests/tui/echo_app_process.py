"""A stand-in for the app process ``duplicada serve`` starts for each browser (textual-serve's
packet protocol on stdin and stdout), for the tests of the server itself: it says it is
ready, then sends back every keystroke packet as screen data, and every meta packet (a
resize, a focus) as screen data holding its JSON, until told to quit. Run as a script:
``python tests/tui/echo_app_process.py``.
"""

from __future__ import annotations

import json
import sys


def main() -> None:
    source, sink = sys.stdin.buffer, sys.stdout.buffer
    sink.write(b"__GANGLION__\n")
    sink.flush()
    while len(head := source.read(5)) == 5:
        payload = source.read(int.from_bytes(head[1:], "big"))
        if head[:1] == b"M" and json.loads(payload).get("type") == "quit":
            break
        sink.write(b"D" + len(payload).to_bytes(4, "big") + payload)
        sink.flush()


if __name__ == "__main__":
    main()
