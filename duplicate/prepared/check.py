"""The independent checks of prepared games (III.15, last paragraph): ``check_prepared``
replays a prepared game file on a fresh engine from its seed (``duplicada prepared
check``: its digest, its lexicon, every rack and master, the totals) and lists the
``PreparedProblem``s found; ``played_differences`` says where a game of a tournament record
did not play its prepared game (its digest, seed, racks and masters; III.29 for a game
that left it).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from duplicate.rules.game import Game
from duplicate.prepared.file import PreparedGame, content_digest
from duplicate.prepared.rounds import PreparedMismatch, apply_master, apply_rack

if TYPE_CHECKING:   # the compiled lexicon loads numpy: annotations only (issue 38)
    from lexicon.lexicon import Lexicon

__all__ = ["PreparedProblem", "check_prepared", "played_differences"]


def played_differences(prepared: PreparedGame, game: dict[str, Any]) -> list[str]:
    """Where ``game`` — one game of a tournament record (``docs/tournament-record.md``) —
    did not play ``prepared``: its ``prepared.digest``, its seed, and every round before the
    one it left the prepared game at (III.29, ``prepared.left_at``): the same rack, master
    and master score, in order. Returns Spanish descriptions, empty when it played it (for
    bringing several rooms' records together, issue 27 §2)."""
    if not isinstance(game, dict):
        return ["la partida del registro no es un objeto"]
    number = game.get("number")
    played = game.get("prepared")
    if not isinstance(played, dict) or played.get("digest") != prepared.digest:
        shown = played.get("digest") if isinstance(played, dict) else None
        return [f"la partida {number} no juega la partida preparada {prepared.digest[:12]}… "
                f"(su resumen: {str(shown)[:12] + '…' if shown else 'ninguno'})"]
    differences = []
    if game.get("seed") != prepared.seed:
        differences.append(f"la partida {number} usa la semilla {game.get('seed')}, no {prepared.seed}")
    left_at = played.get("left_at")
    listed = game.get("rounds")
    rounds: list[Any] = listed if isinstance(listed, list) else []
    for index, item in enumerate(rounds, start=1):
        if isinstance(left_at, int) and index >= left_at:
            break
        expected = prepared.rounds[index - 1] if index <= len(prepared.rounds) else None
        if expected is None:
            differences.append(f"la partida {number} tiene la ronda {index}, que la partida preparada no tiene")
            break
        got = (item.get("rack"), item.get("master"), item.get("master_score")) if isinstance(item, dict) else None
        if got != (expected.rack, expected.master, expected.score):
            differences.append(f"partida {number}, ronda {index}: {got} en lugar de "
                               f"{(expected.rack, expected.master, expected.score)} de la partida preparada")
    return differences


@dataclass(frozen=True)
class PreparedProblem:
    """One thing wrong with a prepared game file: ``round`` (None: the file as a whole)
    and the Spanish ``message``."""

    round: int | None
    message: str

    def __str__(self) -> str:
        return self.message if self.round is None else f"ronda {self.round}: {self.message}"


def check_prepared(data: dict[str, Any], lexicon: Lexicon) -> list[PreparedProblem]:
    """Check a parsed prepared game file independently (``duplicada prepared check``): its
    digest against its content, its lexicon against ``lexicon``, then every round replayed
    on a fresh engine from the seed — each rack drawn from the bag in order (or, for a
    judge's rack, made of the leftover and tiles in the bag), each master a legal move of
    top score of its rack scoring what the file says, with its cumulative — and the totals.
    Returns the problems found, the first bad round last (the replay stops there: what
    follows depends on it); empty when the file is sound. Raises ``PreparedFileError``
    when ``data`` is not a prepared game file."""
    game = PreparedGame.from_dict(data)
    problems: list[PreparedProblem] = []
    body = {key: value for key, value in data.items() if key != "digest"}
    if content_digest(body) != game.digest:
        problems.append(PreparedProblem(None, "el resumen SHA-256 («digest») no corresponde al contenido: el archivo "
                                              "se ha modificado después de sellarlo"))
    if game.alphabet != lexicon.alphabet.name:
        problems.append(PreparedProblem(None, f"la partida usa el alfabeto {game.alphabet!r}, no {lexicon.alphabet.name!r}"))
        return problems
    if game.lexicon_hash != lexicon.content_hash:
        problems.append(PreparedProblem(None, f"la partida se preparó con el léxico {game.lexicon_hash[:12]}…, no con "
                                              f"{lexicon.content_hash[:12]}… ({lexicon.name}): indique su léxico"))
        return problems
    if data.get("origin", {}).get("kind") == "generated":
        typed = [round_.number for round_ in game.rounds if not round_.drawn]
        if typed:
            problems.append(PreparedProblem(typed[0], "una partida generada saca todos sus atriles de la bolsa"))
            return problems
    engine = Game(lexicon, seed=game.seed, rounds=game.agreed_rounds)
    for index, prepared in enumerate(game.rounds, start=1):
        if prepared.number != index:
            problems.append(PreparedProblem(index, f"la ronda lleva el número {prepared.number}"))
            return problems
        try:
            apply_rack(engine, prepared)
            apply_master(engine, prepared)
        except PreparedMismatch as error:
            problems.append(PreparedProblem(index, str(error).removeprefix(f"ronda {index}: ")))
            return problems
    if data.get("total") != game.total:
        problems.append(PreparedProblem(None, f"«total» dice {data.get('total')!r}; las maestras suman {game.total}"))
    if data.get("bingos") != game.bingos:
        problems.append(PreparedProblem(None, f"«bingos» dice {data.get('bingos')!r}; hay {game.bingos} scrabbles"))
    return problems
