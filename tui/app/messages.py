"""Messages the app posts to its screens."""

from __future__ import annotations

from textual.message import Message


class DataChanged(Message):
    """The tournament's event log has new events (``last_event`` is the newest id)."""

    def __init__(self, last_event: int) -> None:
        super().__init__()
        self.last_event = last_event
