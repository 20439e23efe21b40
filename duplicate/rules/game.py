"""The duplicate game engine: rounds, master moves, the end of the game, and the game record.

Pure: no printing, no files; every text meant for a user is Spanish. A round
(III.13–III.19) goes:

1. the rack is completed — leftovers kept, tiles drawn, the whole rack redrawn
   while it is not valid (III.12, III.17, III.19) — or typed by the arbiter
   (``Game.set_rack``);
2. every legal move is generated, the moves of top score ranked by the III.15
   criteria (``duplicate.rules.master``), and the round waits as a ``PendingRound``;
3. the master move — the first of the ranking, or another top move the arbiter
   picks — is placed and a ``RoundRecord`` written (``Game.play``).

``play_round`` does the three steps; ``play_all`` plays to the end.

The game ends (III.21, III.22) when the agreed rounds are played, when no
valid rack can be formed from the tiles left (vowels or consonants used up),
when a rack has no legal move (``play_round``; the arbiter may instead type
another rack, III.29), or when the arbiter ends it. ``EndReason`` gives a
machine code and the Spanish text.

``GameRecord`` is the game as data — seed, lexicon hash and size, every round's
rack, redraws, master and scores, the total and the end — with a JSON round
trip (``to_json`` / ``from_json``).

The values — ``PendingRound``, ``RoundRecord``, ``EndCode``, ``EndReason``,
``GameRecord`` and the errors — live in ``duplicate.rules.game_record``; this module
holds the engine (``Game``). ``racks_of`` (every distinct rack of a pool, for the
end-of-game search) is ``duplicate.rules.rack``'s.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from data.rules import FIRST_ONE_AND_ONE_ROUND, RACK_SIZE
from duplicate.plurals import counted
from duplicate.rules.bag import Bag
from duplicate.rules.game_record import EndCode, EndReason, GameError, GameRecord, PendingRound, RoundRecord
from duplicate.rules.master import leave_after, rank_top_moves, ranked_moves
from duplicate.rules.notation import SlipError, check_move, format_move, parse_move
from duplicate.rules.rack import (
    NoValidRackError,
    Rack,
    RackRule,
    Redraw,
    RedrawLimitError,
    check_arbiter_rack,
    complete_rack,
    is_valid_rack,
    no_valid_rack_reason,
    rack_text,
    racks_of,
    rule_for_round,
)
from duplicate.rules.tie_criteria import RankedMove
from lexicon.board import Board, Layout
from lexicon.move import Move, placed_tiles

if TYPE_CHECKING:
    # The compiled lexicon (numpy) and the move generator are imported where a round is
    # played (issue 38: a read-only command such as «standings» replays games without them).
    from lexicon.lexicon import Lexicon

NO_MOVE_REDRAWS = 20
"""How many racks without a legal move ``play_round`` sends back (III.29) before it ends
the game (III.22): the reglamento fixes no number; this only keeps a hopeless bag from
redrawing forever."""

EXHAUSTIVE_TILES = 14
"""Tiles left (rack plus bag) up to which ``play_round``, before ending the game because
no rack drawn had a legal move (III.22), tries every possible rack of those tiles
(``racks_of``: each distinct multiset once, valid under III.12) and, if one has a move,
plays it as the rack the judge proposes (III.29). Why 14: two racks' worth, the end of a
game, where 20 unplayable draws happen; it gives at most C(14, 7) = 3 432 distinct racks
(about 1 300–1 800 in real end games), and counting the moves of all of them takes about
0.5 s with the compiled walker on real late-game boards (``bench/no_move_check.py``:
0.46–0.60 s, even though there most racks do have moves; a rack with none is quicker
still). It runs once per game at most, after the 20 redraws. A blank left in the pool
nearly always gives a move, and the search stops at the first rack that has one. Beyond
14 the count grows fast (C(21, 7) = 116 280 racks) and 20 unplayable racks out of a
larger bag leave no practical doubt."""


class Game:
    """One duplicate game (III).

    ``Game(lexicon, seed=None, rounds=None, layout=None)``: ``seed`` for the bag's
    draws (None picks one, kept in ``game.seed``); ``rounds`` the agreed number of
    rounds (None: full bag, III.21); ``layout`` the premium layout (standard by
    default). Raises ``GameError`` if ``rounds`` is less than 1.

    State: ``board``, ``bag``, ``leftover`` (tiles kept for the next round, tile
    order), ``pending`` (the round being played), ``records``, ``end_reason``,
    ``one_and_one_from`` (round from which the 1+1 rule of III.12 applies before
    round 16, or None).
    """

    def __init__(self, lexicon: Lexicon, seed: int | None = None, rounds: int | None = None,
                 layout: Layout | None = None) -> None:
        if rounds is not None and rounds < 1:
            raise GameError(f"el número de rondas pactadas debe ser al menos 1, no {rounds}")
        self.lexicon = lexicon
        self.alphabet = lexicon.alphabet
        self.board = Board(self.alphabet, layout)
        self.bag = Bag(self.alphabet, seed)
        self.seed = self.bag.seed
        self.rounds = rounds
        self.leftover: tuple[int, ...] = ()
        self.one_and_one_from: int | None = None
        self._records: list[RoundRecord] = []
        self._before: list[tuple[PendingRound, Board, tuple[int, ...], int | None]] = []
        """Per round played: its pending round, the board, leftover and 1+1 round before the master."""
        self._pending: PendingRound | None = None
        self._end: EndReason | None = None
        self._check_end()

    # --- state ----------------------------------------------------------------------
    @property
    def records(self) -> tuple[RoundRecord, ...]:
        """The rounds played, in order."""
        return tuple(self._records)

    @property
    def pending(self) -> PendingRound | None:
        """The round waiting for its master move, if any."""
        return self._pending

    @property
    def end_reason(self) -> EndReason | None:
        """Why the game ended, None while it goes on."""
        return self._end

    @property
    def over(self) -> bool:
        """True once the game has ended (III.22)."""
        return self._end is not None

    @property
    def round_number(self) -> int:
        """Number of the current round: the pending one, or the next to play (1-based)."""
        return len(self._records) + 1

    @property
    def total_score(self) -> int:
        """Sum of the master scores so far, in points."""
        return self._records[-1].cumulative if self._records else 0

    @property
    def rack(self) -> tuple[int, ...]:
        """Tiles on the rack now: the pending rack, or the leftover between rounds."""
        return self._pending.rack.tiles if self._pending else self.leftover

    @property
    def record(self) -> GameRecord:
        """The game so far as a ``GameRecord`` (a snapshot)."""
        return GameRecord(
            seed=self.seed,
            lexicon_hash=self.lexicon.content_hash,
            lexicon_words=self.lexicon.word_count,
            agreed_rounds=self.rounds,
            rounds=self.records,
            total=self.total_score,
            end_reason=self._end,
            alphabet=self.alphabet.name,
        )

    # --- a round --------------------------------------------------------------------
    def draw(self) -> PendingRound | None:
        """Complete the rack from the bag (III.17, III.19) and rank the top moves.

        Returns the pending round (the same one if a rack is already set), or None
        when the game is over — possibly just now, because no valid rack can be
        formed or the redraw limit was hit.
        """
        if self._end is not None:
            return None
        if self._pending is not None:
            return self._pending
        rule = self._rule()
        try:
            completion = complete_rack(self.leftover, self.bag, rule)
        except NoValidRackError as error:
            self._finish(EndCode.NO_VALID_RACK, str(error))
            return None
        except RedrawLimitError as error:
            self._finish(EndCode.REDRAW_LIMIT, str(error))
            return None
        return self._open(completion.rack, completion.redraws, rule, arbiter_rack=False)

    def set_rack(self, text: str, *, redraw: bool = False) -> PendingRound:
        """Use a rack typed by the arbiter instead of drawing one (III.17, III.19).

        ``text``: the rack (``CASA?OL``; see ``duplicate.rules.rack.parse_rack_text``). It
        must hold the leftover tiles — unless ``redraw`` is true, when they go back
        to the bag first (a "cambio de fichas", recorded) — its other tiles must be
        in the bag, it must be full and valid under III.12. A rack already drawn
        for this round is put back first.

        Raises ``RackError`` saying what is wrong (the game is then unchanged) and
        ``GameError`` when the game is over.
        """
        rack, rule = self._checked_rack(text, redraw)
        self._undo_pending()
        redraws: tuple[Redraw, ...] = ()
        if redraw and self.leftover:
            redraws = (Redraw(rack_text(self.leftover, self.alphabet), "cambio de fichas indicado por el juez árbitro (III.19)"),)
            self.bag.put_back(self.leftover)
        self.bag.remove(rack.drawn)
        return self._open(rack, redraws, rule, arbiter_rack=True)

    def check_rack(self, text: str, *, redraw: bool = False) -> Rack:
        """The rack ``set_rack(text, redraw=redraw)`` would use — replacing the rack in
        play, if any — checked the same way (leftover, bag, III.12) without changing the
        game. Raises ``RackError`` saying what is wrong and ``GameError`` when the game
        is over."""
        switched = self.one_and_one_from
        try:
            return self._checked_rack(text, redraw)[0]
        finally:
            self.one_and_one_from = switched

    def _checked_rack(self, text: str, redraw: bool) -> tuple[Rack, RackRule]:
        if self._end is not None:
            raise GameError(f"la partida ha terminado: {self._end.text}")
        in_bag = Counter(self.bag.tiles)
        if self._pending is not None:
            in_bag += Counter(self._pending.rack.tiles)
            in_bag -= Counter(self.leftover)
        rule = self._rule()
        if redraw:
            rack = check_arbiter_rack(text, self.alphabet, (), list((in_bag + Counter(self.leftover)).elements()), rule)
        else:
            rack = check_arbiter_rack(text, self.alphabet, self.leftover, list(in_bag.elements()), rule)
        return rack, rule

    def play(self, choice: int | Move = 0) -> RoundRecord:
        """Place the master move of the pending round and record the round.

        ``choice``: the index in ``pending.ranked`` (0, the default, is the III.15
        choice) or a ``Move`` that must be one of the top moves (the arbiter's choice).
        Raises ``GameError`` when the game is over, no rack is set, the rack has no
        legal move, or ``choice`` is not one of the top moves.
        """
        if self._end is not None:
            raise GameError(f"la partida ha terminado: {self._end.text}")
        pending = self._pending
        if pending is None:
            raise GameError("no hay atril en juego: primero hay que sacar las fichas o introducir el atril")
        if not pending.ranked:
            raise GameError(f"con el atril {pending.rack.shown} no hay ninguna jugada válida")
        index = self._choice_index(pending, choice)
        chosen = pending.ranked[index]
        if index == 0:
            reason = chosen.reason
        else:
            reason = f"elegida por el juez árbitro entre las {len(pending.ranked)} jugadas de máxima puntuación"
        return self._place(pending, chosen.move, chosen.leave, chosen.score, chosen.tiles_placed,
                           rank=index, reason=reason, equal_tops=len(pending.ranked))

    def play_recorded(self, master: str, *, score: int, rank: int, equal_tops: int | None, reason: str) -> RoundRecord:
        """Place a master move taken from a game's history (III.15: it was the top move
        when it was chosen) without generating the rack's moves again.

        ``master``: canonical notation; ``score`` (points), ``rank`` (its place among
        the ``equal_tops`` moves of top score) and ``reason`` as recorded. The move is
        still checked: it must fit the board, use the rack's tiles, form words of the
        lexicon and score ``score``. When ``equal_tops`` is None (a history written
        before it was recorded) the moves are generated and ranked as ``play`` does.
        Raises ``GameError`` when it is not so, or for the reasons ``play`` does.
        """
        if self._end is not None:
            raise GameError(f"la partida ha terminado: {self._end.text}")
        pending = self._pending
        if pending is None:
            raise GameError("no hay atril en juego: primero hay que sacar las fichas o introducir el atril")
        if equal_tops is None or pending.generated:
            record = self.play(parse_move(master, self.alphabet))
            if record.score != score or record.master_rank != rank:
                raise GameError(f"la jugada maestra {master} da {record.score} puntos y el puesto {record.master_rank}, "
                                f"no los {score} puntos y el puesto {rank} registrados")
            return record
        try:
            placement = check_move(self.board, pending.rack.tiles, master, self.lexicon, oriented=False)
        except SlipError as error:
            raise GameError(f"la jugada maestra registrada {master} no es válida: {error}") from None
        if placement.score != score:
            raise GameError(f"la jugada maestra registrada {master} da {placement.score} puntos, no {score}")
        return self._place(pending, placement.move, leave_after(self.board, pending.rack.tiles, placement.move),
                           placement.score, len(placement.placed), rank=rank, reason=reason, equal_tops=equal_tops)

    def _place(self, pending: PendingRound, move: Move, leave: tuple[int, ...], score: int, tiles_placed: int, *,
               rank: int, reason: str, equal_tops: int) -> RoundRecord:
        """Put the master on the board, keep its leave and record the round."""
        self._before.append((pending, self.board.copy(), self.leftover, self.one_and_one_from))
        self.board.place(placed_tiles(self.board, move))
        self.leftover = leave
        record = RoundRecord(
            number=pending.number,
            rack=pending.rack.text,
            leftover=rack_text(pending.rack.leftover, self.alphabet),
            redraws=pending.redraws,
            rule=pending.rule,
            arbiter_rack=pending.arbiter_rack,
            master=format_move(move, self.alphabet),
            move=move,
            master_rank=rank,
            reason=reason,
            score=score,
            cumulative=self.total_score + score,
            equal_tops=equal_tops,
            tiles_placed=tiles_placed,
            bag_after=len(self.bag),
        )
        self._records.append(record)
        self._pending = None
        self._check_end()
        return record

    def undo_master(self) -> PendingRound:
        """Take back the last master move (the judge placed the wrong one, before the next
        rack is drawn): the board, the leftover and the round's rack are as before it, and
        the round waits again for its master. An end the master brought about (the agreed
        rounds played, no valid rack left, III.22) is undone with it. Returns the pending
        round. Raises ``GameError`` when no master can be taken back: none placed, the
        next rack already set, or the game ended otherwise."""
        if not self._records:
            raise GameError("no hay ninguna jugada maestra que deshacer")
        if self._pending is not None:
            raise GameError(f"ya hay atril en la ronda {self._pending.number}: la maestra anterior no se deshace")
        if self._end is not None and self._end.code not in (EndCode.ROUNDS_PLAYED, EndCode.NO_VALID_RACK):
            raise GameError(f"la partida ha terminado: {self._end.text}")
        pending, board, leftover, one_and_one_from = self._before.pop()
        self._records.pop()
        self.board, self.leftover, self.one_and_one_from = board, leftover, one_and_one_from
        self._end = None
        self._pending = pending
        return pending

    def withdraw_rack(self) -> None:
        """Put the pending rack back (III.29: nobody can play it and the judge proposes
        another rack): the bag and the leftover are as before the draw. Raises
        ``GameError`` when no rack is pending."""
        if self._pending is None:
            raise GameError("no hay atril en juego que retirar")
        self._undo_pending()

    def end(self, text: str | None = None) -> EndReason:
        """The arbiter ends the game (III.22); ``text`` replaces the default Spanish reason.

        A rack already drawn stays on the rack. Returns the end reason (the earlier
        one if the game was already over).
        """
        if self._end is None:
            self._finish(EndCode.ARBITER, text or "el juez árbitro da por terminada la partida (III.22)")
        assert self._end is not None
        return self._end

    def play_round(self) -> RoundRecord | None:
        """Draw (unless a rack is set), choose the master by III.15 and play it.

        A rack with no legal move is not the end while other tiles remain (III.29): its
        tiles, leftovers included, go back to the bag and another rack is drawn, recorded
        among the round's redraws — up to ``NO_MOVE_REDRAWS`` times. Before the game ends
        for want of a move, when at most ``EXHAUSTIVE_TILES`` tiles remain (rack plus
        bag), every distinct rack of them valid under III.12 is tried: the first with a
        legal move is played as the rack the judge proposes (III.29, ``arbiter_rack``,
        recorded after the redraws); the game ends (III.22) only when none has one.
        Returns the round's record, or None when the game is over — including when it
        ends now because no valid rack can be formed (III.12) or no rack of the
        remaining tiles has a legal move (III.22).
        """
        pending = self.draw()
        tried: list[Redraw] = []
        while pending is not None and not pending.ranked:
            if not self.bag.tiles or len(tried) >= NO_MOVE_REDRAWS:
                checked, found = self._rack_with_a_move(pending)       # III.22: proven, when few tiles remain
                if found is None:
                    self._finish(EndCode.NO_MOVE, self._no_move_text(pending, len(tried), checked))
                    return None
                redraws = (*pending.redraws, Redraw(pending.rack.text, "ninguna jugada válida con este atril: "
                           "vuelve entero a la bolsa y, probados los atriles posibles con las fichas que "
                           "quedan, el juez propone uno que sí tiene jugada (III.29)"))
                self._undo_pending()
                self.bag.put_back(self.leftover)
                self.leftover = ()
                self.bag.remove(found)
                pending = self._open(Rack(self.alphabet, (), found), redraws, pending.rule, arbiter_rack=True)
                break
            tried.append(Redraw(pending.rack.text, "ninguna jugada válida con este atril: "
                                                   "vuelve entero a la bolsa y se saca otro (III.29)"))
            self._undo_pending()
            self.bag.put_back(self.leftover)
            self.leftover = ()
            pending = self.draw()
            if pending is not None:
                pending = replace(pending, redraws=(*tried, *pending.redraws))
                self._pending = pending
        if pending is None:
            return None
        return self.play()

    def _rack_with_a_move(self, pending: PendingRound) -> tuple[int | None, tuple[int, ...] | None]:
        """``(racks checked, the first with a legal move or None)`` among every distinct
        rack of the remaining tiles (``pending``'s rack plus the bag) valid under its
        III.12 rule; ``(None, None)`` — nothing checked — when more than
        ``EXHAUSTIVE_TILES`` tiles remain."""
        pool = [*pending.rack.tiles, *self.bag.tiles]
        if len(pool) > EXHAUSTIVE_TILES:
            return None, None
        from lexicon.movegen import count_moves

        checked = 0
        for tiles in racks_of(pool, min(RACK_SIZE, len(pool))):
            if not is_valid_rack(tiles, pending.rule, self.alphabet):
                continue
            checked += 1
            if count_moves(self.board, tiles, self.lexicon):
                return checked, tiles
        return checked, None

    def _no_move_text(self, pending: PendingRound, redrawn: int, checked: int | None) -> str:
        if checked is not None and self.bag.tiles:
            how = (f"ninguno de los {checked} atriles distintos que se pueden formar con las "
                   f"{len(pending.rack) + len(self.bag)} fichas que quedan tiene jugada")
        elif not self.bag.tiles:
            how = "ni es posible con las fichas que quedan"
        else:
            how = f"ni es posible tras {redrawn + 1} atriles sacados sin jugada"
        return f"con el atril {pending.rack.shown} no hay ninguna jugada válida, {how} (III.22, III.29)"

    def play_all(self) -> GameRecord:
        """Play rounds until the game is over; returns the record."""
        while self.play_round() is not None:
            pass
        return self.record

    # --- internals ------------------------------------------------------------------
    def _rule(self) -> RackRule:
        """The III.12 rule for the current round; notes when 1+1 starts before round 16."""
        number = self.round_number
        pool = [*self.leftover, *self.bag.tiles]
        rule = rule_for_round(number, pool, self.alphabet, switched=self.one_and_one_from is not None)
        if rule is RackRule.ONE_AND_ONE and number < FIRST_ONE_AND_ONE_ROUND and self.one_and_one_from is None:
            self.one_and_one_from = number
        return rule

    def _check_end(self) -> None:
        """End the game if the agreed rounds are played or no valid rack can be formed."""
        if self._end is not None:
            return
        if self.rounds is not None and len(self._records) >= self.rounds:
            self._finish(EndCode.ROUNDS_PLAYED, f"se han jugado las {self.rounds} rondas pactadas (III.22)")
            return
        reason = no_valid_rack_reason([*self.leftover, *self.bag.tiles], self._rule(), self.alphabet)
        if reason is not None:
            self._finish(EndCode.NO_VALID_RACK, reason)

    def _finish(self, code: EndCode, text: str) -> None:
        self._end = EndReason(code, text)

    def _open(self, rack: Rack, redraws: tuple[Redraw, ...], rule: RackRule, arbiter_rack: bool) -> PendingRound:
        board, tiles, lexicon = self.board.copy(), list(rack.tiles), self.lexicon

        def ranking() -> tuple[Sequence[RankedMove], int]:
            # The master's candidates from the top-moves walk (shadow bounds); the count from a
            # walk that writes no move.
            from lexicon.movegen import top_and_count

            top, count = top_and_count(board, tiles, lexicon)
            return rank_top_moves(board, tiles, top), count

        self._pending = PendingRound(self.round_number, rack, rule, redraws, arbiter_rack, ranking)
        return self._pending

    def _undo_pending(self) -> None:
        """Put a drawn rack back so that the bag is as at the start of the round."""
        if self._pending is None:
            return
        self.bag.put_back(self._pending.rack.tiles)
        self.bag.remove(self.leftover)
        self._pending = None

    def _choice_index(self, pending: PendingRound, choice: int | Move) -> int:
        if isinstance(choice, Move):
            for index, (move, _score) in enumerate(ranked_moves(pending.ranked)):
                if move == choice:
                    return index
            raise GameError(
                f"la jugada {format_move(choice, self.alphabet)} no está entre las "
                f"{counted(len(pending.ranked), 'jugada')} de máxima puntuación ({counted(pending.ranked[0].score, 'punto')})"
            )
        if isinstance(choice, int) and not isinstance(choice, bool) and 0 <= choice < len(pending.ranked):
            return choice
        raise GameError(f"elección {choice!r} no válida: hay {counted(len(pending.ranked), 'jugada')} de máxima puntuación")
