"""Credentials the tests use (issue 12 §1): the judge's PIN of every test tournament and
assistants' PINs. Not secrets: test data."""

JUDGE_PIN = "juez-de-prueba"
"""The judge-arbiter's passphrase of the tournaments the tests create."""

ASSISTANT_PINS = {"aux1": "auxiliar-uno", "aux2": "auxiliar-dos", "Marta": "marta-mesas", "Luis": "luis-mesas"}
"""Assistants' PINs by assistant name."""


def pin_of(role: str, name: str = "") -> str | None:
    """The PIN of the station with ``role`` (``judge``, ``assistant`` named ``name``,
    ``viewer``: none)."""
    if role == "judge":
        return JUDGE_PIN
    if role == "assistant":
        return ASSISTANT_PINS[name]
    return None
