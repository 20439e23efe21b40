"""A realistic duplicate tournament, simulated through the tournament service (issue 3 §9).

``simulate_tournament(service, players=60, games=3, seed=S)`` registers ``players``
invented players, plays ``games`` games and publishes them, calling exactly the
``TournamentService`` methods an arbitration room calls (``import_players`` with the
list of players as a CSV file, ``create_game``, ``draw_rack``, ``choose_master``,
``enter_slips``, ``close_round``, ``end_game``, ``publish``), so the whole pipeline —
slip judging, bonuses (III.24), standings (III.26, IV.31), export — runs on events of
60–300 players. The ``simulate`` click command wraps it with a progress display and a
Spanish summary. A round's slips are one batch: one write, their events and their
slips stored in one statement each (issue 38; timed by ``bench/simulate.py``).

**Players.** Each player has a skill drawn from Beta(2.2, 2.2), or for about one
player in twelve (the experts) from Beta(8, 2), clipped to [0.1, 0.99]: a few
experts near the top, most club players in the middle. Every round each player:

1. finds the master move with probability ``0.02 + 0.80 * skill ** 1.6`` (writes its
   text exactly);
2. otherwise aims at a fraction ``q`` of the top score, ``q ~ N(0.31 + 0.59 * skill,
   0.18)`` clipped to [0.05, 0.98], and writes a legal move of the score nearest
   to ``q * top`` among the moves below the top (ties broken at random): strong
   players land just below the top, weak ones much lower.

Realism reached (default rates, 60 players × 3 full-bag games, seeds 1–6): the
winner 88–94 % of the master total, the median player 60–69 %, the weakest 29–39 %.

**Mistakes** (``MistakeRates``; the default per-slip rates below are for a player of
average skill and scale with ``1.5 - skill``, so a top expert makes about half as
many and the weakest half again as many):

=====================  =======  =========================================================
mistake                 rate     what is entered → status
=====================  =======  =========================================================
missing                 1.0 %    no slip: ``close_round`` marks it ``missing`` (0 points)
late                    1.0 %    ``SlipStatus.LATE`` (III.13, III.25.b)
null                    0.3 %    ``SlipStatus.NULL`` (illegible, III.20.4)
swapped coordinate      2.0 %    ``8H-CASA`` for the across move ``H8-CASA`` or vice versa
                                 → ``misplaced`` (or ``off_board``, ``not_connected``;
                                 III.25.c); valid by chance when the word fits both ways
unmarked blank          3.0 %    of the slips whose move plays a blank: the blank's letter
                                 written uppercase → ``unmarked_blank`` (III.25.a)
invalid word            1.5 %    two new tiles swapped, or a new tile replaced by a spare
                                 rack tile, making a word not in the lexicon → ``invalid_word``
wrong tile              1.0 %    a new tile replaced by a letter not on the rack →
                                 ``not_in_rack``
=====================  =======  =========================================================

A text mistake is only made when it produces the intended status (checked with
``check_move``); otherwise the slip is written correctly. Besides, 12 % of the
written slips are typed in another valid form, as assistants type them: lowercase
coordinate (``h8-CASA``), a space instead of the hyphen (``H8 CASA``), no
separator after a row-first coordinate (``H8CASA``), or the oriented notation's arrow
when the tournament admits it (``H8-CASA →``, III.20.1.b). The word's case is never
changed: a lowercase letter is a blank (III.20.3).

**Determinism.** Everything comes from one ``random.Random(seed)``: names, skills, the
games' bag seeds and every choice. Two runs with the same arguments give the same
tournament (timestamps aside). The move list is generated once per round and shared
by every player.
"""

from __future__ import annotations

import bisect
import csv
import itertools
import random
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from duplicate.rules.game import NO_MOVE_REDRAWS
from duplicate.rules.notation import (
    ACROSS_ARROW,
    DOWN_ARROW,
    InvalidWordError,
    SlipError,
    TilesNotInRackError,
    UnmarkedBlankError,
    check_move,
    format_move,
    parse_move,
)
from duplicate.rules.rack import parse_rack_text
from duplicate.rules.slips import SlipStatus
from duplicate.service.facade import TournamentService
from duplicate.service.settings import TournamentSettings
from lexicon.alphabet import BLANK_FLAG
from lexicon.board import Board, Direction
from lexicon.lexicon import Lexicon
from lexicon.move import Move
from lexicon.movegen import MoveList, generate

__all__ = ["MistakeRates", "SimulatedPlayer", "draw_players", "simulate_tournament"]

@dataclass(frozen=True)
class MistakeRates:
    """Per-slip probabilities of each mistake for a player of average skill (0.5); a
    player's rates are these times ``1.5 - skill``. ``unmarked_blank`` applies only
    to slips whose move plays a blank; ``variation`` is the share of correctly written
    slips typed in another *valid* form (not scaled). Each value in [0, 1], else
    ``ValueError``. The marks (``missing``, ``late``, ``null``) are drawn first, then
    the text mistakes; when a group's scaled rates add up to more than 1 the later
    fields of the group are cut. See the module doc."""

    missing: float = 0.010
    late: float = 0.010
    null: float = 0.003
    swapped_coordinate: float = 0.020
    unmarked_blank: float = 0.030
    invalid_word: float = 0.015
    wrong_tile: float = 0.010
    variation: float = 0.12

    def __post_init__(self) -> None:
        for name, value in vars(self).items():
            if not 0.0 <= value <= 1.0:
                raise ValueError(f"la tasa de error {name} debe estar entre 0 y 1, no {value}")


@dataclass(frozen=True)
class SimulatedPlayer:
    """An invented player: ``name``, ``club``, ``country`` and ``skill`` in [0, 1]."""

    name: str
    club: str
    country: str
    skill: float


_FIRST_NAMES = (
    "Alba", "Alejandro", "Alicia", "Álvaro", "Ana", "Andrés", "Ángela", "Antonio", "Beatriz", "Benjamín", "Blanca",
    "Camila", "Carlos", "Carmen", "Claudia", "Cristina", "Daniel", "Diego", "Elena", "Emilio", "Eva", "Fernando",
    "Gabriela", "Gonzalo", "Guadalupe", "Héctor", "Inés", "Íñigo", "Irene", "Javier", "Jimena", "Jorge", "José",
    "Juan", "Julia", "Laura", "Lucía", "Luis", "Manuel", "María", "Marta", "Mateo", "Miguel", "Natalia", "Nicolás",
    "Nuria", "Óscar", "Pablo", "Patricia", "Pedro", "Pilar", "Rafael", "Ramón", "Raquel", "Ricardo", "Rocío",
    "Rodrigo", "Rosa", "Santiago", "Sara", "Sergio", "Silvia", "Sofía", "Teresa", "Tomás", "Valentina", "Víctor",
    "Ximena", "Yolanda",
)
_SURNAMES = (
    "Acosta", "Aguilar", "Álvarez", "Arias", "Báez", "Benítez", "Blanco", "Bravo", "Cabrera", "Calvo", "Campos",
    "Castillo", "Castro", "Cortés", "Delgado", "Díaz", "Domínguez", "Espinoza", "Fernández", "Flores", "Fuentes",
    "Gallego", "García", "Gil", "Giménez", "Gómez", "González", "Guerrero", "Gutiérrez", "Herrera", "Hernández",
    "Ibáñez", "Iglesias", "Jiménez", "León", "López", "Lozano", "Marín", "Márquez", "Martín", "Martínez", "Medina",
    "Méndez", "Molina", "Montero", "Mora", "Morales", "Moreno", "Muñoz", "Navarro", "Núñez", "Ortega", "Ortiz",
    "Pascual", "Peña", "Pérez", "Prieto", "Ramírez", "Ramos", "Reyes", "Rivera", "Rodríguez", "Romero", "Rubio",
    "Ruiz", "Sáez", "Sánchez", "Santana", "Santos", "Serrano", "Suárez", "Torres", "Vargas", "Vázquez", "Vega",
    "Vidal", "Zamora",
)
_CLUBS = (
    ("Club Scrabble Madrid", "España"), ("Club Scrabble Barcelona", "España"), ("Club Scrabble Valencia", "España"),
    ("Scrabble Sevilla", "España"), ("Club Palabras de Bilbao", "España"), ("Scrabble Tenerife", "España"),
    ("Club Scrabble Buenos Aires", "Argentina"), ("Scrabble Rosario", "Argentina"),
    ("Club Scrabble México", "México"), ("Scrabble Guadalajara", "México"), ("Club Scrabble Bogotá", "Colombia"),
    ("Club Scrabble Caracas", "Venezuela"), ("Club Scrabble Santiago", "Chile"), ("Scrabble Lima", "Perú"),
    ("Club Scrabble Montevideo", "Uruguay"), ("Scrabble Santo Domingo", "República Dominicana"),
)
_EXPERT_SHARE = 1 / 12
_SKILL_RANGE = (0.1, 0.99)


def draw_players(count: int, rng: random.Random) -> list[SimulatedPlayer]:
    """``count`` players with distinct Spanish names and skills (see the module doc),
    drawn from ``rng``; raises ``ValueError`` when ``count`` < 1."""
    if count < 1:
        raise ValueError(f"hacen falta jugadores: {count}")
    names: list[str] = []
    seen: set[str] = set()
    while len(names) < count:
        name = f"{rng.choice(_FIRST_NAMES)} {rng.choice(_SURNAMES)} {rng.choice(_SURNAMES)}"
        if name not in seen:
            seen.add(name)
            names.append(name)
    players = []
    for name in names:
        expert = rng.random() < _EXPERT_SHARE
        skill = rng.betavariate(8.0, 2.0) if expert else rng.betavariate(2.2, 2.2)
        club, country = rng.choice(_CLUBS)
        skill = min(_SKILL_RANGE[1], max(_SKILL_RANGE[0], skill))
        players.append(SimulatedPlayer(name, club, country, round(skill, 4)))
    return players


class _RoundMoves:
    """One round's legal moves, shared by every player: moves grouped by score."""

    def __init__(self, moves: MoveList, board: Board, rack: Sequence[int], lexicon: Lexicon) -> None:
        self.board = board
        self.rack = list(rack)
        self.lexicon = lexicon
        self.raw = moves.raw
        groups: dict[int, list[int]] = {}
        for index, entry in enumerate(self.raw):
            groups.setdefault(entry[0], []).append(index)
        self.scores = sorted(groups)                      # ascending distinct scores
        self.groups = groups
        self.top = self.scores[-1] if self.scores else 0

    def move(self, index: int) -> Move:
        _score, down, row, col, word, _placed = self.raw[index]
        return Move(row, col, Direction.DOWN if down else Direction.ACROSS, word)

    def aimed(self, fraction: float, rng: random.Random) -> int:
        """Index of a move below the top whose score is nearest ``fraction * top``
        (all moves share the top score: one of them)."""
        below = self.scores[:-1] or self.scores
        target = fraction * self.top
        position = bisect.bisect_left(below, target)
        candidates = [below[i] for i in (position - 1, position) if 0 <= i < len(below)]
        score = min(candidates, key=lambda value: (abs(value - target), -value))
        return rng.choice(self.groups[score])

    def fails_as(self, text: str, error: type[SlipError] | tuple[type[SlipError], ...]) -> bool:
        """Whether ``text`` is judged with the given kind of problem."""
        try:
            check_move(self.board, self.rack, text, self.lexicon)
        except error:
            return True
        except SlipError:
            return False
        return False


class _Slips:
    """Builds the slip of each simulated player for one round."""

    def __init__(self, moves: _RoundMoves, master: str, rates: MistakeRates, oriented: bool,
                 rng: random.Random) -> None:
        self.moves = moves
        self.alphabet = moves.board.alphabet
        self.master = master
        self.rates = rates
        self.oriented = oriented
        self.rng = rng

    def slip(self, skill: float) -> str | SlipStatus | None:
        """The slip of a player of ``skill``: text, a mark, or None (no slip)."""
        rng, rates = self.rng, self.rates
        factor = 1.5 - skill
        draw = rng.random()
        for rate, outcome in ((rates.missing, None), (rates.late, SlipStatus.LATE), (rates.null, SlipStatus.NULL)):
            if draw < rate * factor:
                return outcome
            draw -= rate * factor
        if rng.random() < 0.02 + 0.80 * skill ** 1.6:
            move, text = None, self.master
        else:
            fraction = min(0.98, max(0.05, rng.gauss(0.31 + 0.59 * skill, 0.18)))
            move = self.moves.move(self.moves.aimed(fraction, rng))
            text = format_move(move, self.alphabet)
        mistaken = self._mistake(text, move, factor, rng.random())
        if mistaken is not None:
            return mistaken
        if rng.random() < rates.variation:
            return self._variation(text, rng)
        return text

    def _mistake(self, text: str, move: Move | None, factor: float, draw: float) -> str | None:
        rates = self.rates
        kinds = (
            (rates.swapped_coordinate, self._swapped),
            (rates.unmarked_blank, self._unmarked_blank),
            (rates.invalid_word, self._invalid_word),
            (rates.wrong_tile, self._wrong_tile),
        )
        for rate, make in kinds:
            if draw < rate * factor:
                return make(text, move)
            draw -= rate * factor
        return None

    def _parts(self, text: str, move: Move | None) -> tuple[Move, str, str]:
        if move is None:
            move = parse_move(text, self.alphabet, oriented=False)
        coordinate, word = text.split("-", 1)
        return move, coordinate, word

    def _swapped(self, text: str, move: Move | None) -> str | None:
        """III.25.c: the coordinate written in the other order (misplaced or off the board)."""
        _move, coordinate, word = self._parts(text, move)
        swapped = coordinate[1:] + coordinate[0] if coordinate[0].isalpha() else coordinate[-1] + coordinate[:-1]
        return f"{swapped}-{word}"

    def _unmarked_blank(self, text: str, move: Move | None) -> str | None:
        """III.25.a: the blank's letter written uppercase."""
        move, coordinate, word = self._parts(text, move)
        if not move.uses_blank:
            return None
        candidate = f"{coordinate}-{word.upper()}"
        return candidate if self.moves.fails_as(candidate, UnmarkedBlankError) else None

    def _new_positions(self, move: Move) -> list[int]:
        tiles = self.moves.board.tiles
        return [i for i, (row, col) in enumerate(move.squares()) if tiles[row][col] is None]

    def _invalid_word(self, text: str, move: Move | None) -> str | None:
        """A word not in the lexicon: two new tiles swapped or one replaced by a spare rack tile."""
        move, coordinate, _word = self._parts(text, move)
        new = self._new_positions(move)
        candidates: list[tuple[int, ...]] = []
        for first, second in itertools.pairwise(new):
            swapped = list(move.word)
            swapped[first], swapped[second] = swapped[second], swapped[first]
            candidates.append(tuple(swapped))
        spare = list(self.moves.rack)
        for i in new:
            tile = move.word[i]
            used = self.alphabet.blank if tile & BLANK_FLAG else tile
            if used in spare:
                spare.remove(used)
        for i in new:
            for tile in sorted(set(spare) - {self.alphabet.blank}):
                if tile != move.word[i]:
                    candidates.append(move.word[:i] + (tile,) + move.word[i + 1:])
        self.rng.shuffle(candidates)
        for word in candidates:
            candidate = f"{coordinate}-{self.alphabet.format(word)}"
            if word != move.word and self.moves.fails_as(candidate, InvalidWordError):
                return candidate
        return None

    def _wrong_tile(self, text: str, move: Move | None) -> str | None:
        """A letter that is not on the rack."""
        move, coordinate, _word = self._parts(text, move)
        absent = [code for code in range(self.alphabet.size) if code not in self.moves.rack]
        new = self._new_positions(move)
        for _attempt in range(6):
            if not absent or not new:
                return None
            i = self.rng.choice(new)
            word = move.word[:i] + (self.rng.choice(absent),) + move.word[i + 1:]
            candidate = f"{coordinate}-{self.alphabet.format(word)}"
            if self.moves.fails_as(candidate, TilesNotInRackError):
                return candidate
        return None

    def _variation(self, text: str, rng: random.Random) -> str:
        """The same move typed another valid way (coordinate case, separator, arrow)."""
        coordinate, word = text.split("-", 1)
        forms = [f"{coordinate.lower()}-{word}", f"{coordinate} {word}", f" {coordinate}-{word} "]
        if coordinate[0].isalpha():
            forms.append(f"{coordinate}{word}")
        if self.oriented:
            arrow = ACROSS_ARROW if coordinate[0].isalpha() else DOWN_ARROW
            forms.append(f"{text} {arrow}")
        return rng.choice(forms)


RoundCallback = Callable[[int, int, int | None], None]
"""``on_round(game_number, round_number, planned_rounds)`` after each closed round."""


def simulate_tournament(service: TournamentService, *, players: int, games: int, seed: int,
                        rounds: int | None = None, name: str | None = None,
                        settings: TournamentSettings | None = None, mistakes: MistakeRates | None = None,
                        on_round: RoundCallback | None = None) -> int:
    """Create and play a whole simulated tournament; returns its id.

    ``players`` ≥ 1 invented players (``draw_players``); ``games`` ≥ 1 games, each of
    ``rounds`` rounds (None: full bag, III.21); ``seed``: the only source of
    randomness; ``name``: default «Torneo simulado (semilla S)»; ``settings``: the
    rule settings (bonuses III.24, criterion IV.31; default ``TournamentSettings()``);
    ``mistakes``: the rates (default ``MistakeRates()``); ``on_round`` is called after
    every closed round. Per round: ``draw_rack``, ``choose_master`` (the rules'
    choice, III.15), every player's slip in one ``enter_slips`` batch, ``close_round``
    (which marks the missing slips). A game stops when the engine ends it (III.22),
    or when a rack has no legal move (``end_game``); then ``publish(final=True)``.
    Raises ``ValueError`` for bad counts and ``TournamentError`` from the service.
    """
    if games < 1 or players < 1:
        raise ValueError(f"hacen falta jugadores y partidas: {players} jugadores, {games} partidas")
    if rounds is not None and rounds < 1:
        raise ValueError(f"las rondas deben ser al menos 1, no {rounds}")
    rng = random.Random(seed)
    mistakes = mistakes or MistakeRates()
    settings = settings or TournamentSettings()
    roster = draw_players(players, rng)
    tournament_id = service.create_tournament(name or f"Torneo simulado (semilla {seed})", venue="Simulación",
                                              settings=settings)
    _register(service, tournament_id, roster)
    skills = {player.name: player.skill for player in roster}
    lexicon = service.lexicon_for(service.tournament(tournament_id))
    for _game in range(games):
        number = service.create_game(tournament_id=tournament_id, rounds=rounds, seed=rng.randrange(10**9))
        _play_game(service, tournament_id, number, skills, lexicon, settings, mistakes, rng, rounds, on_round)
    return tournament_id


def _register(service: TournamentService, tournament_id: int, roster: Sequence[SimulatedPlayer]) -> None:
    """Enter ``roster`` in its order as an organiser does a list of players: one players'
    file imported (``import_players``, one write; the same ``PlayerAdded`` events as one
    ``add_player`` per player)."""
    with tempfile.TemporaryDirectory(prefix="duplicada-simulacion-") as folder:
        path = Path(folder) / "jugadores.csv"
        with path.open("w", encoding="utf-8", newline="") as handle:
            writer = csv.writer(handle)
            writer.writerow(("nombre", "club", "pais"))
            writer.writerows((player.name, player.club, player.country) for player in roster)
        service.import_players(path, tournament_id=tournament_id)


def _play_game(service: TournamentService, tournament_id: int, number: int, skills: dict[str, float],
               lexicon: Lexicon, settings: TournamentSettings, mistakes: MistakeRates, rng: random.Random,
               rounds: int | None, on_round: RoundCallback | None) -> None:
    seats = [(table, skills[player.name]) for table, _entry, player in service.seats(number, tournament_id)]
    alphabet = lexicon.alphabet
    while not service.engine(number, tournament_id).over:
        view = service.draw_rack(number, tournament_id=tournament_id)
        for _ in range(NO_MOVE_REDRAWS):
            if view is None or view.top_moves:
                break
            # III.29: nobody can play this rack; the judge has another drawn.
            view = service.replace_rack(number, reason=f"el atril {view.rack} no tiene ninguna jugada válida (III.29)",
                                        tournament_id=tournament_id)
        if view is None:
            break
        if not view.top_moves:
            service.end_game(number, tournament_id=tournament_id,
                             reason=f"ningún atril sacado tiene jugada válida (III.22, III.29); el último, {view.rack}")
            break
        board = Board.from_cgp(view.board_before, alphabet)
        rack = parse_rack_text(view.rack, alphabet)
        moves = _RoundMoves(generate(board, rack, lexicon), board, rack, lexicon)
        master = service.choose_master(number, tournament_id=tournament_id)
        assert master.master is not None
        writer = _Slips(moves, master.master, mistakes, settings.oriented_notation, rng)
        batch: list[tuple[int, str | SlipStatus]] = []
        for table, skill in seats:
            slip = writer.slip(skill)
            if slip is not None:
                batch.append((table, slip))
        service.enter_slips(number, batch, round_number=view.number, tournament_id=tournament_id)
        service.close_round(number, view.number, tournament_id=tournament_id)
        if on_round is not None:
            on_round(number, view.number, rounds)
    if not service.engine(number, tournament_id).over:
        service.end_game(number, tournament_id=tournament_id)
    service.publish(number, final=True, tournament_id=tournament_id)


# --- the command ---------------------------------------------------------------------------------
