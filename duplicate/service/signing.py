"""The tournament's signing key (issue 35 §2; docs/venues.md, «Registros firmados»).

Each tournament has an Ed25519 key pair (``cryptography``). Its private key signs every
record the judge-arbiter exports (``duplicate.service.record``; the signature's form:
``duplicate.record.signature``), so that the organiser of an event played in several
venues takes from each offline venue only the records its installation exported,
unchanged (``duplicate.service.venues``).

Where the key lives:

* the **public key** is in the log: a ``signing_key_made`` event (its 32 raw bytes in
  base64 and its fingerprint), appended when the tournament is created — so the record,
  ``verify`` and ``restore`` carry it;
* the **private key** is a secret, like the credentials' digests: never in the log nor in
  a record (a record is published and travels; a PIN-sealed key in it could be guessed
  offline). It is kept beside the log in ``tournament_keys`` (not projected), sealed with
  the judge-arbiter's PIN: scrypt (the cost of the PIN digests, ``access.scrypt_n``) gives
  a 256-bit key, and AES-256-GCM seals the 32 private bytes with the public key as
  associated data (``seal``, ``unseal``). Changing the organiser's judge PIN seals it
  again with the new one (``reseal``, from ``Registration.set_pin``).

When it is made: by ``create_tournament`` (same transaction as ``tournament_created``); for
a tournament without a key here — created before keys existed, or restored from a record,
which never holds the private key — when the judge first asks for it: ``tournament_key``
(``duplicada tournament key``) makes a new pair and logs its ``signing_key_made`` with the
reason. Until then ``export`` writes the record unsigned and says so.

Who signs: only a handle holding the organiser's judge PIN opens the key; an assistant's,
a venue judge's or a viewer's export is unsigned.
"""

from __future__ import annotations

import base64
import os
from dataclasses import dataclass
from typing import TYPE_CHECKING

from sqlalchemy import select
from sqlalchemy.orm import Session

from duplicate.record.event_kinds import EventKind
from duplicate.record.events_registration import SigningKeyMade
from duplicate.record.signature import fingerprint, public_key_text
from duplicate.service.access import SCRYPT_P, SCRYPT_R, Action, Role, scrypt_n
from duplicate.service.base import TaskModule, _now
from duplicate.service.errors import DamagedData, InvalidPin, StateConflict
from duplicate.storage.models import Event, TournamentKey

__all__ = ["SEAL_MARK", "Signing", "SigningKeyView", "make_key", "raw_public", "reseal", "seal", "unseal"]

SEAL_MARK = "scrypt-aesgcm"
"""First field of a sealed key: ``scrypt-aesgcm$N$r$p$SALT$NONCE$CIPHERTEXT`` (hex)."""

if TYPE_CHECKING:
    # cryptography is imported in the functions that sign, seal or open a key (issue 38:
    # a read-only command never loads it).
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey


def raw_public(private: Ed25519PrivateKey) -> bytes:
    """The 32 raw bytes of ``private``'s public key."""
    from cryptography.hazmat.primitives import serialization

    return private.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)


def _kdf(pin: str, salt: bytes, n: int, r: int, p: int) -> bytes:
    from cryptography.hazmat.primitives.kdf.scrypt import Scrypt

    return Scrypt(salt=salt, length=32, n=n, r=r, p=p).derive(pin.encode("utf-8"))


def seal(private: Ed25519PrivateKey, pin: str) -> str:
    """``private`` sealed with ``pin``: scrypt (a fresh 16-byte salt, the cost of the PIN
    digests) and AES-256-GCM (a fresh 12-byte nonce; the public key as associated data)."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.ciphers.aead import AESGCM

    n, salt, nonce = scrypt_n(), os.urandom(16), os.urandom(12)
    secret = private.private_bytes(serialization.Encoding.Raw, serialization.PrivateFormat.Raw,
                                   serialization.NoEncryption())
    sealed = AESGCM(_kdf(pin, salt, n, SCRYPT_R, SCRYPT_P)).encrypt(nonce, secret, raw_public(private))
    return "$".join([SEAL_MARK, str(n), str(SCRYPT_R), str(SCRYPT_P), salt.hex(), nonce.hex(), sealed.hex()])


def unseal(sealed: str, public_raw: bytes, pin: str) -> Ed25519PrivateKey | None:
    """The private key ``sealed`` (``seal``) for the public key ``public_raw``, opened with
    ``pin``; None when ``pin`` does not open it. ``DamagedData`` for a text that is not a
    sealed key, or a key that is not the public key's."""
    from cryptography.exceptions import InvalidTag
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
    from cryptography.hazmat.primitives.ciphers.aead import AESGCM

    fields = sealed.split("$")
    try:
        if len(fields) != 7 or fields[0] != SEAL_MARK:
            raise ValueError(sealed[:20])
        n, r, p = (int(field) for field in fields[1:4])
        salt, nonce, body = (bytes.fromhex(field) for field in fields[4:])
        secret = AESGCM(_kdf(pin, salt, n, r, p)).decrypt(nonce, body, public_raw)
    except InvalidTag:
        return None
    except ValueError as error:
        raise DamagedData("la clave de firma guardada del torneo está dañada: restaure una copia de la base de "
                          "datos o cree otra con «duplicada tournament key»") from error
    private = Ed25519PrivateKey.from_private_bytes(secret)
    if raw_public(private) != public_raw:
        raise DamagedData("la clave de firma guardada no es la de su clave pública: la base de datos está dañada")
    return private


def make_key(session: Session, tournament_id: int, pin: str) -> SigningKeyMade:
    """A new key pair for ``tournament_id``, its private key sealed with ``pin`` and stored
    (``tournament_keys``, replacing one there); returns the event to log with it."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    private = Ed25519PrivateKey.generate()
    public = raw_public(private)
    row = session.get(TournamentKey, tournament_id)
    if row is None:
        row = TournamentKey(tournament_id=tournament_id)
        session.add(row)
    row.public_key, row.sealed, row.created_at = public_key_text(public), seal(private, pin), _now()
    return SigningKeyMade(public_key_text(public), fingerprint(public))


def reseal(session: Session, tournament_id: int, old_pin: str | None, new_pin: str) -> None:
    """Seal the tournament's private key again with ``new_pin`` (the organiser's judge PIN
    changed), opening it with ``old_pin``. Nothing to do without a key; ``StateConflict``
    when ``old_pin`` does not open it (the PIN is not changed: the key would be lost)."""
    row = session.get(TournamentKey, tournament_id)
    if row is None:
        return
    private = unseal(row.sealed, _raw(row.public_key), old_pin) if old_pin is not None else None
    if private is None:
        raise StateConflict("la clave de firma del torneo no se abre con el PIN con que actúa este puesto: cambie el "
                            "PIN del juez árbitro identificándose con el PIN actual", what="la clave de firma",
                            state="sealed")
    row.sealed = seal(private, new_pin)


def _raw(text: str) -> bytes:
    return base64.b64decode(text.encode("ascii"))


def logged_public_key(session: Session, tournament_id: int) -> str | None:
    """The public key (base64) of the tournament's latest ``signing_key_made`` event, if any."""
    payload = session.scalar(select(Event.payload).where(
        Event.tournament_id == tournament_id, Event.kind == EventKind.SIGNING_KEY_MADE.value)
        .order_by(Event.id.desc()).limit(1))
    return str(payload.get("public_key")) if isinstance(payload, dict) else None


@dataclass(frozen=True)
class SigningKeyView:
    """The tournament's public key: ``pem`` (SubjectPublicKeyInfo PEM, what ``duplicada venue
    key`` reads), ``fingerprint`` (``duplicate.record.signature.fingerprint``) and ``made``:
    True when this call made the key pair (a tournament that had none here)."""

    pem: str
    fingerprint: str
    made: bool


class Signing(TaskModule):
    """The tournament's signing key (module docstring)."""

    def tournament_key(self, tournament_id: int | None = None) -> SigningKeyView:
        """The tournament's public key (``duplicada tournament key``): the organiser's
        judge-arbiter only (``NotAuthorised``, ``CredentialRefused``), whose PIN must open
        the private key (``InvalidPin`` otherwise). A tournament with no key here (created
        before keys; restored: a record never holds the private key) gets a new pair,
        logged (``signing_key_made``, with the reason)."""
        with self._write() as session:
            tournament = self._tournament(session, tournament_id)
            actor = self._authorise(session, tournament.id, Action.SIGN_RECORD)   # not a venue's judge
            pin = self.context.pin_for_new_tournament()
            assert pin is not None                      # authorised: the handle holds a PIN
            row = session.get(TournamentKey, tournament.id)
            if row is not None and logged_public_key(session, tournament.id) == row.public_key:
                private = unseal(row.sealed, _raw(row.public_key), pin)
                if private is None:
                    raise InvalidPin("la clave de firma del torneo no se abre con este PIN: se selló con el PIN del "
                                     "juez árbitro; si lo cambió otro puesto, pida el PIN actual")
                return SigningKeyView(_pem(private), fingerprint(raw_public(private)), made=False)
            restored = logged_public_key(session, tournament.id) is not None
            event = make_key(session, tournament.id, pin)
            self._log(session, tournament.id, event, actor=actor,
                      reason=("la clave privada no viaja en el registro (torneo restaurado o de otra instalación): "
                              "clave nueva" if restored else "torneo creado antes de las claves de firma"))
            session.flush()
            row = session.get(TournamentKey, tournament.id)
            assert row is not None
            private = unseal(row.sealed, _raw(row.public_key), pin)
            assert private is not None
            return SigningKeyView(_pem(private), event.fingerprint, made=True)

    def export_key(self, tournament_id: int | None = None) -> Ed25519PrivateKey | None:
        """The private key an export signs with: the tournament's, opened with this handle's
        PIN when it is the organiser's judge-arbiter's and the key here is the one its log
        names; None otherwise (a viewer, an assistant, a venue's judge, no key here).
        ``CredentialRefused`` for a wrong PIN. Never logged."""
        if not self.context.has_credential:
            return None
        with self._write() as session:
            tournament = self._tournament(session, tournament_id)
            actor = self.context.actor(session, tournament.id)
            if actor.role is not Role.JUDGE or actor.venue is not None:
                return None
            row = session.get(TournamentKey, tournament.id)
            pin = self.context.pin_for_new_tournament()
            if row is None or pin is None or logged_public_key(session, tournament.id) != row.public_key:
                return None
            return unseal(row.sealed, _raw(row.public_key), pin)


def _pem(private: Ed25519PrivateKey) -> str:
    from cryptography.hazmat.primitives import serialization

    return private.public_key().public_bytes(serialization.Encoding.PEM,
                                             serialization.PublicFormat.SubjectPublicKeyInfo).decode("ascii")
