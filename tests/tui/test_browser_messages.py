"""The browser's websocket messages under ``duplicada serve`` (issue 36 §2): whatever a
client sends — any JSON, any text, any bytes — ``browser_message`` returns one of the
page's five shapes or raises ``MalformedMessage``, never anything else."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from tui.cli.browser_messages import Focus, Keys, MalformedMessage, Ping, Resize, browser_message

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12)
SHAPED = st.tuples(st.sampled_from(["stdin", "resize", "ping", "focus", "blur", "nada"]),
                   st.lists(JSON_VALUES | st.fixed_dictionaries({"width": JSON_VALUES, "height": JSON_VALUES}),
                            max_size=2)).map(lambda shape: [shape[0], *shape[1]])


def read(data: str | bytes) -> object:
    try:
        return browser_message(data)
    except MalformedMessage as error:
        assert str(error) and "\n" not in str(error)
        return error


@settings(max_examples=300, deadline=None)
@given(st.one_of(JSON_VALUES, SHAPED).map(json.dumps) | st.text() | st.binary())
def test_any_message_is_read_or_refused_never_raises_anything_else(data: str | bytes) -> None:
    assert isinstance(read(data), Keys | Resize | Ping | Focus | MalformedMessage)


def test_the_pages_own_messages_are_read_and_the_rest_refused() -> None:
    assert browser_message('["stdin","\\u001b[A ñ"]') == Keys("\x1b[A ñ")
    assert browser_message('[ "resize" , {"height": 30, "width": 100} ]') == Resize(100, 30)
    assert browser_message('["ping","1767225600000"]') == Ping("1767225600000")
    assert browser_message('["focus"]') == Focus(True) and browser_message('["blur"]') == Focus(False)
    for refused in ('["resize",{"width":1001,"height":24}]', '["resize",{"width":80,"height":24,"x":1}]',
                    '["ping","' + "1" * 65 + '"]', '["stdin","a"', "[" * 100_000 + "]" * 100_000):
        assert isinstance(read(refused), MalformedMessage), refused
