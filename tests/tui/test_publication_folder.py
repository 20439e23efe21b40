"""The app's publication folder belongs to one database (issue 25 §3): tournament 1 of two
databases are published in two folders, tournament 1 of the same database in one."""

from __future__ import annotations

from pathlib import Path

from duplicate.service.facade import TournamentService
from duplicate.storage.database import open_database
from sqlalchemy.engine import make_url
from tui.app.screens.standings import publication_folder


def test_tournament_1_of_two_databases_is_published_in_two_folders(tmp_path: Path) -> None:
    (tmp_path / "sala-a").mkdir()
    (tmp_path / "sala-b").mkdir()
    first = TournamentService(open_database(str(tmp_path / "sala-a" / "torneo.db")))
    second = TournamentService(open_database(str(tmp_path / "sala-b" / "torneo.db")))
    again = TournamentService(open_database(str(tmp_path / "sala-a" / "torneo.db")))
    assert first.database_folder != second.database_folder
    assert first.database_folder == again.database_folder and first.database_folder.startswith("torneo-")
    assert publication_folder(1, first.database_folder) != publication_folder(1, second.database_folder)
    assert publication_folder(1, first.database_folder).name == "torneo-1"


def test_a_server_database_is_named_without_its_password() -> None:
    from duplicate.storage.database import folder_name

    with_password = folder_name(make_url("postgresql+psycopg://juez:secreto@servidor:5432/open_valencia"))
    other_password = folder_name(make_url("postgresql+psycopg://juez:otro@servidor:5432/open_valencia"))
    other_server = folder_name(make_url("postgresql+psycopg://juez:secreto@otro:5432/open_valencia"))
    assert with_password == other_password != other_server
    assert with_password.startswith("open_valencia-") and "secreto" not in with_password
    assert folder_name(make_url("sqlite://")) == "memoria"
