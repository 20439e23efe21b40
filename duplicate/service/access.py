"""Who may do what: station roles, the actions of the record, and the acting credential.

Every action that changes a tournament's record is an ``Action``; the service asks
``authorise(actor, action, tables=...)`` before changing anything (II.4: the judge-arbiter
decides, assistants enter the slips of their tables, II.4.c; a viewer only reads).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Role(StrEnum):
    """A station's role (II.4)."""

    JUDGE = "judge"
    ASSISTANT = "assistant"
    VIEWER = "viewer"


class Action(StrEnum):
    """Every action that changes the record (architecture.md, "the rule of one authority")."""

    CHANGE_SETTINGS = "change_settings"
    SET_CREDENTIAL = "set_credential"
    ADD_PLAYER = "add_player"
    UPDATE_PLAYER = "update_player"
    SET_ENTRY_STATUS = "set_entry_status"
    SET_ASSISTANT_RANGE = "set_assistant_range"
    CREATE_GAME = "create_game"
    ASSIGN_TABLES = "assign_tables"
    DRAW_RACK = "draw_rack"
    SET_RACK = "set_rack"
    REPLACE_RACK = "replace_rack"
    CHOOSE_MASTER = "choose_master"
    ANNUL_MASTER = "annul_master"
    RUN_TIMER = "run_timer"
    END_GAME = "end_game"
    ENTER_SLIP = "enter_slip"
    MARK_SLIP = "mark_slip"
    CHECK_SLIP = "check_slip"
    IMPORT_SLIPS = "import_slips"
    CORRECT_SLIP = "correct_slip"
    RESOLVE_CONFLICT = "resolve_conflict"
    CLOSE_ROUND = "close_round"
    FILE_CLAIM = "file_claim"
    RESOLVE_CLAIM = "resolve_claim"
    PUBLISH_RESULTS = "publish_results"
    REOPEN_RESULTS = "reopen_results"
    UPDATE_RATINGS = "update_ratings"


@dataclass(frozen=True)
class Actor:
    """Who is acting: the role and name of a signed-in credential.

    ``tournament_id``: the tournament the credential belongs to (``None`` for the
    anonymous viewer); ``tables``: an assistant's range of tables ``(first, last)``,
    inclusive (II.4.c), ``None`` for every other role.
    """

    role: Role
    name: str
    tournament_id: int | None = None
    tables: tuple[int, int] | None = None


VIEWER = Actor(Role.VIEWER, "")
"""The anonymous, read-only station (projection screens, published pages)."""
