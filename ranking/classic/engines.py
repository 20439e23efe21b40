"""The FIDE pairing engines behind one adapter: our TRF in, pairs out, every pair checked.

Pairing is never ours (issue 16): two maintained engines do it.

* **py4swiss** 0.3.1 (MIT; its core is bbpPairings, Apache-2.0): the FIDE Dutch system of
  C.04.3 as in force until 31 January 2026 — the edition in our rule set — and Dubov and
  Burstein. Compiled wheels for CPython 3.11–3.14 on Linux x86_64, macOS arm64 and Windows
  only: elsewhere those systems are reported unavailable.
* **gacrux** 1.11.65 (MIT, © FIDE; pure Python): the FIDE Dutch system of 1 February 2026
  (``dutch-2026``) and the Berger tables of C.05 Annex 1.

Both read a TRF we write from our own data (``trf.write_trf``: points recomputed, no date
lines, UTF-8 text passed in memory to gacrux, which otherwise reads Latin-1 and ignores
``XXC``); the first player is white. Each pairing goes through
``pairing_rules.check_pairing`` before it is returned.
"""

from __future__ import annotations

import importlib.util
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from enum import StrEnum
from pathlib import Path

from ranking.classic.pairing_rules import Pair, check_pairing
from ranking.classic.trf import Trf, write_trf


class PairingSystem(StrEnum):
    """The Swiss systems offered: ``dutch`` (C.04.3, py4swiss), ``dutch-2026`` (gacrux),
    ``dubov`` and ``burstein`` (C.04.4, py4swiss)."""

    DUTCH = "dutch"
    DUTCH_2026 = "dutch-2026"
    DUBOV = "dubov"
    BURSTEIN = "burstein"


SYSTEM_NAMES = {
    PairingSystem.DUTCH: "sistema holandés FIDE (C.04.3)",
    PairingSystem.DUTCH_2026: "sistema holandés FIDE, edición de 2026",
    PairingSystem.DUBOV: "sistema Dubov (C.04.4.1)",
    PairingSystem.BURSTEIN: "sistema Burstein (C.04.4.2)",
}
PY4SWISS_SYSTEMS = frozenset({PairingSystem.DUTCH, PairingSystem.DUBOV, PairingSystem.BURSTEIN})


class PairingError(Exception):
    """A round that cannot be paired, or an engine's answer that breaks a rule; the message
    (Spanish) says why."""


class EngineUnavailable(PairingError):
    """The engine of a system is not installed on this machine."""


def py4swiss_installed() -> bool:
    return importlib.util.find_spec("py4swiss") is not None


def available_systems() -> list[PairingSystem]:
    """The systems this machine can pair with (py4swiss's only where its wheel installs)."""
    return [s for s in PairingSystem if s not in PY4SWISS_SYSTEMS or py4swiss_installed()]


def pair_next_round(trf: Trf, system: PairingSystem) -> list[Pair]:
    """The next round's pairs of ``trf`` by ``system``, in board order (a bye last, as
    ``Pair(n, 0)``). Raises ``EngineUnavailable`` when the system's engine is not installed,
    ``PairingError`` when the round cannot be paired or the engine's pairing breaks an
    absolute rule (``pairing_rules``)."""
    if trf.total_rounds is None:
        raise PairingError("falta el número de rondas del torneo (línea XXR)")
    if trf.rounds_played >= trf.total_rounds:
        raise PairingError(f"ya se han jugado las {trf.total_rounds} rondas del torneo")
    if system in PY4SWISS_SYSTEMS:
        pairs = _py4swiss(trf, system)
    else:
        pairs = _gacrux_dutch(trf)
    pairs = [p for p in pairs if not p.is_bye] + [p for p in pairs if p.is_bye]
    problems = check_pairing(trf, pairs)
    if system in PY4SWISS_SYSTEMS:
        problems += [f"{p.first} y {p.second} no debían enfrentarse (XXP)" for p in pairs
                     if (p.first, p.second) in trf.forbidden or (p.second, p.first) in trf.forbidden]
    if problems:
        raise PairingError(f"el {SYSTEM_NAMES[system]} dio un emparejamiento que incumple el reglamento: "
                           + "; ".join(problems))
    return pairs


@contextmanager
def _trf_file(trf: Trf) -> Iterator[Path]:
    with tempfile.TemporaryDirectory(prefix="duplicada-trf-") as folder:
        path = Path(folder) / "torneo.trf"
        path.write_text(write_trf(trf), encoding="utf-8")
        yield path


def _py4swiss(trf: Trf, system: PairingSystem) -> list[Pair]:
    if not py4swiss_installed():
        raise EngineUnavailable(f"el {SYSTEM_NAMES[system]} necesita py4swiss, que no se puede instalar en este "
                                "sistema (solo hay paquetes para CPython 3.11–3.14 en Linux x86_64, macOS arm64 "
                                "y Windows); use --system dutch-2026")
    from py4swiss.engines import BursteinEngine, DubovEngine, DutchEngine
    from py4swiss.engines.common.exceptions import PairingError as EnginePairingError
    from py4swiss.trf import TrfParser

    engine = {PairingSystem.DUTCH: DutchEngine, PairingSystem.DUBOV: DubovEngine,
              PairingSystem.BURSTEIN: BursteinEngine}[system]
    with _trf_file(trf) as path:
        try:
            parsed = TrfParser.parse(path)
            pairings = engine.generate_pairings(parsed)
        except EnginePairingError:
            raise PairingError("la ronda no se puede emparejar con las reglas absolutas "
                               "(todos los posibles rivales ya se enfrentaron)") from None
        except Exception as error:  # noqa: BLE001 — the engine's own checks on our file
            raise PairingError(f"py4swiss rechazó el torneo: {error}") from None
    return [Pair(p.white, p.black) for p in pairings]


def _gacrux_dutch(trf: Trf) -> list[Pair]:
    from gacrux.gacruxexeptions import GacruxError, GacruxNoLegalPairing
    from gacrux.pairingdutch import pairing_dutch
    from gacrux.trf2json import trf2json

    reader = trf2json()
    # gacrux reads no forbidden pairs (XXP): that preference is py4swiss's systems' only.
    reader.parse_file(write_trf(replace(trf, first_colour=trf.first_colour or "w", forbidden=frozenset()),
                                colour_record=True), 0)
    if reader.get_status() >= 400:
        raise PairingError(f"gacrux rechazó el torneo: {reader.chessjson.get('status')}")
    tournament = reader.get_tournament(1)
    tournament["pairingSystem"] = ["dutch"]
    tournament["maxMeets"] = 1
    tournament["numRounds"] = trf.total_rounds
    options = {"experimental": [], "verbose": 0, "top_color": trf.first_colour or "w", "rank": False}
    try:
        brackets = pairing_dutch(tournament, tournament["currentRound"] + 1, options).compute_pairing(False)
    except GacruxNoLegalPairing:
        raise PairingError("la ronda no se puede emparejar con las reglas absolutas "
                           "(todos los posibles rivales ya se enfrentaron)") from None
    except GacruxError as error:
        raise PairingError(f"gacrux rechazó el torneo: {error}") from None
    boards = sorted((p for bracket in brackets if bracket for p in bracket["pairs"]), key=lambda p: p["board"])
    return [Pair(int(p["w"]), int(p["b"])) for p in boards]


def berger_schedule(players: int) -> list[list[Pair]]:
    """The Berger round-robin schedule for ``players`` (≥ 2) by gacrux (FIDE C.05 Annex 1):
    one list of pairs per round, first player white; with an odd number the player who
    would meet the phantom has the bye (``Pair(n, 0)``). Raises ``ValueError`` below 2."""
    if players < 2:
        raise ValueError("un todos contra todos necesita al menos 2 jugadores")
    from gacrux.berger import bergertables

    table = bergertables(players)
    phantom = table["players"] if players % 2 else None
    rounds = []
    for number in sorted(table["pairing"], key=int):
        boards = table["pairing"][number]
        pairs = []
        for board in sorted(boards, key=int):
            white, black = int(boards[board]["white"]), int(boards[board]["black"])
            if phantom in (white, black):
                pairs.append(Pair(black if white == phantom else white, 0))
            else:
                pairs.append(Pair(white, black))
        rounds.append(pairs)
    return rounds
