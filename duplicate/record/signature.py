"""The signature of a tournament record (format version 14, issue 35 §2; docs/venues.md,
«Registros firmados»).

A hash chain (``duplicate.record.chain``) is unkeyed: whoever edits a record can recompute
its standings and its chain. The signature says *which installation* exported it: the
record is signed at export with the tournament's Ed25519 private key (made when the
tournament is created, sealed with the judge's PIN; ``duplicate.service.signing``), and
carries a ``signature`` block::

    "signature": {"algorithm": "Ed25519", "public_key": BASE64 (the 32 raw bytes),
                  "fingerprint": "1a2b 3c4d 5e6f 7a8b 9c0d", "signed": SIGNED_FORM,
                  "value": BASE64 (the 64 bytes of the signature)}

What is signed (``SIGNED_FORM``): ``MESSAGE_PREFIX`` followed by the canonical JSON
(``canonical``: sorted keys, no spaces, UTF-8) of the object that maps each key of the
record but ``signature`` to the SHA-256 (hex) of its value's canonical JSON. Each value is
hashed on its own so that the export can sign while it streams the games and the events
(``RecordDigest``), and the order and layout of the file do not matter: a record read
and written again with its keys in another order still verifies, one changed value
does not.

This module is the checker's (it imports nothing of the service nor of the storage):
``signature_check`` reads the block of a parsed record and says whether it is signed, by
which key (its ``fingerprint``) and whether the signature holds. Signing itself needs the
private key, and lives in the service.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

__all__ = ["ALGORITHM", "MESSAGE_PREFIX", "SIGNED_FORM", "SIGNED_SINCE", "RecordDigest", "SignatureCheck",
           "canonical", "fingerprint", "public_key_text", "record_message", "signature_block", "signature_check"]

ALGORITHM = "Ed25519"
"""The signature algorithm (RFC 8032), the block's ``algorithm``."""

SIGNED_SINCE = 14
"""The first record format (``format_version``) that may carry a ``signature``."""

MESSAGE_PREFIX = b"duplicada-tournament-1 signature\n"
"""The bytes the signed message starts with: a signature of a record is never valid for
anything else signed with the same key."""

SIGNED_FORM = "sha256-per-key-canonical-json"
"""The block's ``signed``: what the signature is over (module docstring)."""

FINGERPRINT_DIGITS = 20
"""Hexadecimal digits of a fingerprint: 80 bits of the SHA-256 of the raw public key, five
groups of four to read over the phone."""


def canonical(value: Any) -> bytes:
    """``value`` as canonical JSON: sorted keys, no spaces, non-ASCII kept, UTF-8 (a lone
    surrogate, which only an edited file can hold, kept as its code unit: such a record
    then fails its signature, never the check itself)."""
    return _CANONICAL.encode(value).encode("utf-8", "surrogatepass")


_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False)
"""``json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)``, its
encoder made once (``json.dumps`` makes one a call)."""


def fingerprint(public_raw: bytes) -> str:
    """The fingerprint of a 32-byte Ed25519 public key: the first ``FINGERPRINT_DIGITS``
    hexadecimal digits of its SHA-256, in groups of four (``"1a2b 3c4d 5e6f 7a8b 9c0d"``)."""
    digits = hashlib.sha256(public_raw).hexdigest()[:FINGERPRINT_DIGITS]
    return " ".join(digits[start:start + 4] for start in range(0, FINGERPRINT_DIGITS, 4))


def public_key_text(public_raw: bytes) -> str:
    """The raw public key as the record and the events write it (standard base64)."""
    return base64.b64encode(public_raw).decode("ascii")


class RecordDigest:
    """The digests of a record's values, key by key, as they are written: ``add`` a
    whole value, or ``add_items`` a list one item at a time (the same digest as ``add`` of
    the list). ``message`` is then what the signature is over."""

    def __init__(self) -> None:
        self.digests: dict[str, str] = {}

    def add(self, key: str, value: Any) -> None:
        """Hash ``value`` under ``key``; a list item by item, as ``add_items`` (the same digest)."""
        if type(value) is list:
            for _item in self.add_items(key, value):
                pass
            return
        self.digests[key] = hashlib.sha256(canonical(value)).hexdigest()

    def add_items(self, key: str, items: Iterable[Any]) -> Iterable[Any]:
        """Yield ``items`` unchanged, hashing each as it passes (the list's canonical JSON)."""
        digest = hashlib.sha256(b"[")
        depth = _PIECE_DEPTHS.get(key, 0)
        for index, item in enumerate(items):
            if index:
                digest.update(b",")
            for piece in _canonical_pieces(item, depth):
                digest.update(piece)
            yield item
        digest.update(b"]")
        self.digests[key] = digest.hexdigest()

    def message(self) -> bytes:
        return MESSAGE_PREFIX + canonical(self.digests)


_PIECE_DEPTHS = {"games": 2}
"""Levels of an item of a record's list hashed member by member (``_canonical_pieces``): a
game, and its rounds, so that the canonical text of a whole game (megabytes for 300
players) is never made at once (issue 38); the events, small, each whole."""


def _canonical_pieces(value: Any, depth: int) -> Iterator[bytes]:
    """``canonical(value)`` in pieces (their concatenation is the same bytes): the members of
    a list, or of a dict whose keys are all texts (sorted as ``sort_keys`` sorts them), each
    in pieces ``depth`` levels down; anything else whole."""
    if depth > 0 and type(value) is list and value:
        for index, item in enumerate(value):
            yield b"[" if not index else b","
            yield from _canonical_pieces(item, depth - 1)
        yield b"]"
    elif depth > 0 and type(value) is dict and value and all(type(key) is str for key in value):
        for index, key in enumerate(sorted(value)):
            yield (b"{" if not index else b",") + canonical(key) + b":"
            yield from _canonical_pieces(value[key], depth - 1)
        yield b"}"
    else:
        yield canonical(value)


def record_message(record: dict[str, Any]) -> bytes:
    """The message a parsed ``record``'s signature is over (every key but ``signature``)."""
    digest = RecordDigest()
    for key, value in record.items():
        if key != "signature":
            digest.add(key, value)        # a list item by item (``add``)
    return digest.message()


def signature_block(public_raw: bytes, signature: bytes) -> dict[str, str]:
    """The record's ``signature`` block for ``signature`` (64 bytes) by the key ``public_raw``."""
    return {"algorithm": ALGORITHM, "public_key": public_key_text(public_raw), "fingerprint": fingerprint(public_raw),
            "signed": SIGNED_FORM, "value": base64.b64encode(signature).decode("ascii")}


@dataclass(frozen=True)
class SignatureCheck:
    """What a record's ``signature`` says: ``state`` ``"valid"`` (signed, and the signature
    holds for this content), ``"unsigned"`` (no block) or ``"invalid"`` (a block that
    does not hold: ``problem`` says why, in Spanish); ``fingerprint`` of the key the block
    names (None when unsigned or unreadable)."""

    state: str
    fingerprint: str | None = None
    problem: str = ""

    @property
    def valid(self) -> bool:
        return self.state == "valid"


def _decoded(text: object, length: int) -> bytes | None:
    if not isinstance(text, str):
        return None
    try:
        raw = base64.b64decode(text.encode("ascii"), validate=True)
    except (binascii.Error, UnicodeEncodeError):
        return None
    return raw if len(raw) == length else None


def signature_check(record: dict[str, Any]) -> SignatureCheck:
    """Check the ``signature`` block of a parsed ``record`` (module docstring). A record
    without one is ``"unsigned"`` — every record before format 14, and one exported
    without the judge's PIN; whether that is acceptable is the reader's decision (``venue
    import`` refuses it for a venue whose key is registered)."""
    block = record.get("signature")
    if block is None:
        return SignatureCheck("unsigned")
    if not isinstance(block, dict):
        return SignatureCheck("invalid", problem="el bloque «signature» no es un objeto")
    public_raw = _decoded(block.get("public_key"), 32)
    if block.get("algorithm") != ALGORITHM or public_raw is None:
        return SignatureCheck("invalid", problem=f"la firma no es {ALGORITHM} con una clave pública de 32 bytes")
    shown = fingerprint(public_raw)
    if block.get("fingerprint") != shown:
        return SignatureCheck("invalid", shown, f"la huella anotada ({block.get('fingerprint')}) no es la de la "
                                                f"clave pública de la firma ({shown})")
    version = record.get("format_version", 1)
    if not isinstance(version, int) or version < SIGNED_SINCE or block.get("signed") != SIGNED_FORM:
        return SignatureCheck("invalid", shown, f"una firma solo va en un registro del formato {SIGNED_SINCE} o "
                                                f"posterior, sobre «{SIGNED_FORM}»")
    value = _decoded(block.get("value"), 64)
    if value is None:
        return SignatureCheck("invalid", shown, "el valor de la firma no son 64 bytes en base64")
    # Imported here: only a signature check loads cryptography (issue 38: read-only commands start faster).
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    try:
        Ed25519PublicKey.from_public_bytes(public_raw).verify(value, record_message(record))
    except InvalidSignature:
        return SignatureCheck("invalid", shown, "la firma no corresponde al contenido: el registro se cambió "
                                                "después de exportarlo, o la firma es de otro registro")
    return SignatureCheck("valid", shown)
