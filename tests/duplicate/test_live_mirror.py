"""The static mirror of the live pages (issue 37): ``write_mirror`` deletes the pages it
wrote before that are gone from the site and nothing else (its manifest), leaves a file
whose content is unchanged alone (its modification time kept, for rsync), and a manifest
that is corrupt or names a path outside the folder never makes it delete outside.

The sites are plain values (``LiveSite``): the mirror only writes what it is given.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from duplicate.publishing.live_pages import MIRROR_MANIFEST, LiveSite, _remove_page, write_mirror
from duplicate.service.errors import InvalidFile

OLD = 1_000_000_000
"""A modification time (seconds) long past, to see whether a file was written again."""


def site(*names: str, version: int = 1, text: str = "página") -> LiveSite:
    return LiveSite(version, {name: f"<main>{text} {name}</main>" for name in names})


def files_in(folder: Path) -> set[str]:
    return {str(path.relative_to(folder)) for path in folder.rglob("*") if path.is_file()}


def test_a_page_gone_from_the_site_is_deleted_and_a_foreign_file_stays(tmp_path: Path) -> None:
    folder = tmp_path / "espejo"
    folder.mkdir()
    (folder / "club.html").write_text("la portada del club", encoding="utf-8")
    write_mirror(site("index.html", "jugadores/jugador-1.html", "jugadores/jugador-2.html", "sede-a.html",
                      "clasica-elite/jugadores/jugador-1.html"), folder)
    (folder / "jugadores" / "foto.jpg").write_bytes(b"\xff\xd8")
    assert {"index.html", "jugadores/jugador-2.html", "sede-a.html", "clasica-elite/jugadores/jugador-1.html"} \
        <= files_in(folder)
    write_mirror(site("index.html", "jugadores/jugador-1.html", "sede-b.html", version=2), folder)
    assert files_in(folder) == {"index.html", "jugadores/jugador-1.html", "sede-b.html", "club.html",
                                "jugadores/foto.jpg", MIRROR_MANIFEST}
    assert not (folder / "clasica-elite").exists()                 # the folders it emptied
    assert (folder / "club.html").read_text(encoding="utf-8") == "la portada del club"
    manifest = (folder / MIRROR_MANIFEST).read_text(encoding="utf-8").splitlines()
    assert [line for line in manifest if not line.startswith("#")] == [
        "index.html", "jugadores/jugador-1.html", "sede-b.html"]


def test_an_unchanged_page_keeps_its_modification_time(tmp_path: Path) -> None:
    folder = tmp_path / "espejo"
    first = site("index.html", "partida-1.html", "estilo.css")
    assert sorted(map(str, write_mirror(first, folder))) == ["estilo.css", "index.html", "partida-1.html"]
    for name in ("index.html", "partida-1.html", "estilo.css"):
        os.utime(folder / name, (OLD, OLD))
    second = LiveSite(2, {**first.pages, "partida-1.html": "<main>ronda 1 cerrada</main>"})
    assert [str(path) for path in write_mirror(second, folder)] == ["partida-1.html"]
    assert (folder / "index.html").stat().st_mtime == OLD and (folder / "estilo.css").stat().st_mtime == OLD
    assert (folder / "partida-1.html").stat().st_mtime != OLD
    assert (folder / "partida-1.html").read_text(encoding="utf-8") == "<main>ronda 1 cerrada</main>"
    manifest = (folder / MIRROR_MANIFEST).stat().st_mtime_ns
    assert write_mirror(second, folder) == [] and (folder / MIRROR_MANIFEST).stat().st_mtime_ns == manifest


@pytest.mark.parametrize("manifest", [
    b"\xff\xfe\x00garbage\x00\x81",
    b"../fuera.html\n",
    b"jugadores/../../fuera.html\n",
    b"./../fuera.html\n",
    "{outside}\n",
    b"\n.\n..\n/\n" + MIRROR_MANIFEST.encode() + b"\n",
])
def test_a_corrupt_or_outward_manifest_never_deletes_outside_the_folder(tmp_path: Path, manifest: bytes | str) -> None:
    outside = tmp_path / "fuera.html"
    outside.write_text("intacto", encoding="utf-8")
    folder = tmp_path / "espejo"
    write_mirror(site("index.html"), folder)
    data = manifest.format(outside=outside).encode() if isinstance(manifest, str) else manifest
    (folder / MIRROR_MANIFEST).write_bytes(data)
    (folder / "club.html").write_text("del club", encoding="utf-8")
    write_mirror(site("index.html", version=2), folder)
    assert outside.read_text(encoding="utf-8") == "intacto"
    assert files_in(folder) == {"index.html", "club.html", MIRROR_MANIFEST}
    lines = (folder / MIRROR_MANIFEST).read_text(encoding="utf-8").splitlines()
    assert [line for line in lines if not line.startswith("#")] == ["index.html"]      # written anew


def test_a_link_on_the_way_never_makes_it_delete_through_it(tmp_path: Path) -> None:
    outside = tmp_path / "fuera"
    outside.mkdir()
    (outside / "jugador-1.html").write_text("intacto", encoding="utf-8")
    folder = tmp_path / "espejo"
    write_mirror(site("index.html", "jugadores/jugador-1.html"), folder)
    (folder / "jugadores" / "jugador-1.html").unlink()
    (folder / "jugadores").rmdir()
    (folder / "jugadores").symlink_to(outside, target_is_directory=True)
    with pytest.raises(InvalidFile, match="enlace simbólico"):           # refused as a whole, as publish does
        write_mirror(site("index.html", version=2), folder)
    _remove_page(folder, "jugadores/jugador-1.html")                      # and the deletion itself checks again
    (folder / "fichero.html").symlink_to(outside / "jugador-1.html")
    _remove_page(folder, "fichero.html")
    assert (outside / "jugador-1.html").read_text(encoding="utf-8") == "intacto"
    assert (folder / "fichero.html").is_symlink()


def test_a_write_cut_halfway_still_lists_every_page_it_wrote(tmp_path: Path) -> None:
    folder = tmp_path / "espejo"
    write_mirror(site("index.html"), folder)
    (folder / "z.html").mkdir()                               # a page that cannot be written: after a.html
    with pytest.raises(OSError):
        write_mirror(site("index.html", "a.html", "z.html", version=2), folder)
    assert (folder / "a.html").is_file()
    (folder / "z.html").rmdir()
    write_mirror(site("index.html", version=3), folder)
    assert files_in(folder) == {"index.html", MIRROR_MANIFEST}               # a.html was listed: deleted
