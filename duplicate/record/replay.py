"""The record recomputed from its raw parts by the rules, for ``duplicada verify``.

``rule_differences(record, lexicon)`` walks a tournament record game by game and round by
round: the boards rebuilt from the masters, each master's legality and score, the top
score and top moves from the move generator, every slip re-judged from its text
(``duplicate.record.slips``), the bonuses and standings recomputed
(``duplicate.record.standings``). Each stored value that differs is a ``Difference``. The
recomputed values feed what follows, so a tampered value gives one difference, where it
was tampered (``duplicate.record.verify`` lists what is checked and the decisions taken).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, cast

from data.rules import RACK_SIZE
from duplicate.rules.board_notation import BoardNotationError, board_slip_notation
from duplicate.rules.notation import SlipError, check_move, format_move, parse_move
from duplicate.rules.rack import RackError, beyond_tile_set, parse_rack_text
from duplicate.record.difference import Difference
from duplicate.record.reading import ARBITER_STATUSES, SLIP_STATUSES
from duplicate.record.slips import RoundJudge
from duplicate.record.standings import (
    TOLERANCE,
    GameStanding,
    RoundResult,
    TournamentStanding,
    game_standings,
    round_bonuses,
    tournament_standings,
)
from lexicon.board import Board, BoardError
from lexicon.move import Move, PlacementError, placed_tiles, score_move

if TYPE_CHECKING:   # the compiled lexicon (numpy): annotations only (issue 38)
    from lexicon.lexicon import Lexicon

__all__ = ["rule_differences"]


def rule_differences(record: dict[str, Any], lexicon: Lexicon) -> list[Difference]:
    """Every value of ``record`` (a record whose shape ``check_shape`` accepted) that differs
    from its recomputation with ``lexicon``: the lexicon hash first, then game by game
    (rounds, slips, bonuses, game standings), then the tournament standings; empty when
    the record is consistent."""
    return _RuleCheck(record, lexicon).run()


class _RuleCheck:
    """One run of the rule checks: walks the record, collecting ``differences``."""

    def __init__(self, record: dict[str, Any], lexicon: Lexicon) -> None:
        self.record = record
        self.lexicon = lexicon
        self.alphabet = lexicon.alphabet
        self.settings = record["tournament"]["settings"]
        self.differences: list[Difference] = []
        self.names = {player["id"]: str(player.get("name") or "") for player in record["players"]}

    def add(self, where: str, field: str, recorded: object, expected: object, message: str) -> None:
        self.differences.append(Difference(where, field, recorded, expected, message))

    def player_text(self, player: int) -> str:
        name = self.names.get(player)
        return f"jugador {player} ({name})" if name else f"jugador {player}"

    def run(self) -> list[Difference]:
        recorded_hash = self.record["tournament"]["lexicon_hash"]
        if recorded_hash != self.lexicon.content_hash:
            self.add("torneo", "lexicon_hash", recorded_hash, self.lexicon.content_hash,
                     f"el registro se hizo con otro léxico que el dado ({self.lexicon.name}); "
                     "las papeletas se juzgan con el dado")
        if self.settings["bonus_mode"] == "manual" and self.settings["bonus_value"] not in (5, 10):
            self.add("torneo", "bonus_value", self.settings["bonus_value"], "5 o 10",
                     "en gestión manual la bonificación es de 5 o 10 puntos (III.24); se aplica la registrada")
        ids = Counter(player["id"] for player in self.record["players"])
        for player, count in sorted(ids.items()):
            if count > 1:
                self.add("jugadores", "id", player, None, f"el id {player} aparece {count} veces en «players»")
        games = [self.check_game(game) for game in self.record["games"]]
        # A game with no round played yet classifies nobody (IV.31 counts played games).
        expected = tournament_standings([game for game in games if game[0]], self.settings["criterion"],
                                        self.settings["tie_breaks"])
        self.compare_standings("clasificación del torneo", self.record["standings"], expected,
                               ("position", "value", "total"),
                               "IV.31, III.28" if self.settings["tie_breaks"] else "IV.31")
        return self.differences

    # --- a game ---------------------------------------------------------------------------
    def check_game(self, game: dict[str, Any]) -> tuple[list[RoundResult], dict[int, GameStanding]]:
        number = game["number"]
        seated = {int(player): table for player, table in game["tables"].items()}
        for player in seated:
            if player not in self.names:
                self.add(f"partida {number}", "tables", player, None,
                         f"el jugador {player} está sentado en la partida pero no figura en «players»")
        for table, count in sorted(Counter(seated.values()).items()):
            if count > 1:
                self.add(f"partida {number}", "tables", table, None, f"{count} jugadores sentados en la mesa {table}")
        board: Board | None = Board(self.alphabet)
        results = []
        cumulative = 0
        for index, round_ in enumerate(game["rounds"]):
            where = f"partida {number}, ronda {round_['number']}"
            if round_["number"] != index + 1:
                self.add(where, "number", round_["number"], index + 1, "las rondas deben ir numeradas 1, 2, 3…")
            result, board = self.check_round(where, round_, board, seated)
            cumulative += result.master_score
            if round_["cumulative"] != cumulative:
                self.add(where, "cumulative", round_["cumulative"], cumulative,
                         "el acumulado debe ser la suma de las puntuaciones de las jugadas maestras hasta esta ronda")
            results.append(result)
        expected = game_standings(results, seated, self.settings["tie_breaks"])
        rule = "III.23, III.28" if self.settings["tie_breaks"] else "III.23"
        self.compare_standings(f"partida {number}, clasificación", game["standings"], expected,
                               ("position", "total", "bonus", "percentage"), rule)
        return results, expected

    # --- a round --------------------------------------------------------------------------
    def check_round(self, where: str, round_: dict[str, Any], board: Board | None,
                    seated: Mapping[int, int]) -> tuple[RoundResult, Board | None]:
        """Check one round against ``board`` (the recomputed board before it, None if the
        chain is broken); returns the round's result and the board after its master."""
        board = self.check_board(where, round_["board_before"], board)
        try:
            rack: list[int] | None = parse_rack_text(round_["rack"], self.alphabet)
        except RackError as error:
            self.add(where, "rack", round_["rack"], None, f"atril ilegible: {error}; las papeletas no se juzgan")
            rack = None
        if rack is not None:
            # A rack comes from the tile set (I.2, III.12): at most 7 tiles, 2 blanks, no more of a
            # letter than the set has, the board's tiles included — checked before any move is
            # generated (a forged 7-blank rack took over a minute).
            on_board = [tile for row in board.tiles for tile in row if tile is not None] if board is not None else []
            problem = (f"{len(rack)} fichas; un atril tiene como máximo {RACK_SIZE}" if len(rack) > RACK_SIZE
                       else beyond_tile_set(on_board + rack, self.alphabet))
            if problem is not None:
                self.add(where, "rack", round_["rack"], None,
                         f"el atril no sale de la bolsa: {problem} (I.2, III.12); las papeletas no se juzgan")
                rack = None
        try:
            master: Move | None = parse_move(round_["master"], self.alphabet, oriented=False)
        except SlipError as error:
            self.add(where, "master", round_["master"], None, f"jugada maestra ilegible: {error}")
            master = None
        master_score = self.check_master(where, round_, board, rack, master)
        top_score = self.check_top(where, round_, board, rack)
        judge = None
        if board is not None and rack is not None:
            judge = RoundJudge(board, rack, self.lexicon, oriented=self.settings["oriented_notation"],
                               master=master, annulled=round_["annulled"])
        scores = self.check_slips(where, round_, seated, judge)
        # Bonuses are awarded when the round is closed (III.24): none while slips may still come.
        bonuses = (round_bonuses(scores, top_score, self.settings["bonus_mode"], self.settings["bonus_value"])
                   if round_.get("closed", True) else {})
        self.check_bonuses(where, round_, seated, scores, top_score, bonuses)
        after = None
        if board is not None and master is not None:
            try:
                after = board.copy()
                after.place(placed_tiles(board, master))
            except (PlacementError, BoardError):
                after = None
        return RoundResult(master_score, top_score, scores, bonuses), after

    def check_board(self, where: str, text: str, expected: Board | None) -> Board | None:
        """Compare the stored board with the recomputed one; return the board to judge on."""
        problem = ""
        try:
            recorded: Board | None = Board.from_cgp(text, self.alphabet)
        except BoardError as error:
            recorded = None
            problem = f"tablero ilegible: {error}"
        if expected is None:
            if recorded is None:
                self.add(where, "board_before", text, None, problem + "; la ronda no se puede juzgar")
            return recorded
        if recorded is None or recorded.tiles != expected.tiles:
            detail = (problem if recorded is None
                      else "no coincide con el tablero de la ronda anterior más su jugada maestra")
            self.add(where, "board_before", text, expected.to_cgp(), detail)
        return expected

    def check_master(self, where: str, round_: dict[str, Any], board: Board | None, rack: list[int] | None,
                     master: Move | None) -> int:
        """Check the master's legality and score; return the master score to use downstream."""
        recorded = round_["master_score"]
        if board is None or master is None:
            return cast("int", recorded)
        if not round_["annulled"] and rack is not None:
            try:
                return self.compare_master_score(where, recorded, check_move(board, rack, master, self.lexicon).score)
            except SlipError as error:
                self.add(where, "master", round_["master"], None,
                         f"la jugada maestra no es legal con el atril {self.alphabet.display(rack)}: {error}")
        try:
            return self.compare_master_score(where, recorded, score_move(board, master))
        except PlacementError as error:
            self.add(where, "master", round_["master"], None, f"la jugada maestra no cabe en el tablero: {error}")
            return cast("int", recorded)

    def compare_master_score(self, where: str, recorded: int, expected: int) -> int:
        if recorded != expected:
            self.add(where, "master_score", recorded, expected, "la jugada maestra no vale lo registrado (I.2)")
        return expected

    def check_top(self, where: str, round_: dict[str, Any], board: Board | None, rack: list[int] | None) -> int:
        """Check ``top_score`` and ``top_moves`` with the move generator; return the top score."""
        if board is None or rack is None:
            return cast("int", round_["top_score"])
        from lexicon.movegen import generate_top   # here: only a replay that checks moves needs it (issue 38)

        moves = generate_top(board, rack, self.lexicon)
        if round_["top_score"] != moves.best_score:
            self.add(where, "top_score", round_["top_score"], moves.best_score,
                     "la mejor puntuación posible con este atril y tablero es otra")
        expected = sorted({format_move(scored.move, self.alphabet) for scored in moves.top()})
        recorded = sorted(set(round_["top_moves"]))
        if recorded != expected:
            missing = [move for move in expected if move not in recorded]
            extra = [move for move in recorded if move not in expected]
            parts = []
            if missing:
                parts.append(f"faltan {', '.join(missing[:5])}{'…' if len(missing) > 5 else ''}")
            if extra:
                parts.append(f"sobran {', '.join(extra[:5])}{'…' if len(extra) > 5 else ''}")
            self.add(where, "top_moves", recorded, expected,
                     f"las jugadas de máxima puntuación no son esas: {'; '.join(parts)}")
        return moves.best_score

    # --- slips ----------------------------------------------------------------------------
    def check_slips(self, where: str, round_: dict[str, Any], seated: Mapping[int, int],
                    judge: RoundJudge | None) -> dict[int, int]:
        """Check every slip of the round; return each seated player's round score."""
        scores: dict[int, int] = {}
        for slip in round_["slips"]:
            player, table = slip["player"], slip["table"]
            place = f"{where}, mesa {table}"
            if player not in seated:
                self.add(place, "player", player, None, f"papeleta del {self.player_text(player)}, "
                         "que no está sentado en esta partida")
                continue
            if player in scores:
                self.add(place, "slips", slip["text"], None,
                         f"segunda papeleta del {self.player_text(player)} en esta ronda; se ignora")
                continue
            if table != seated[player]:
                self.add(place, "table", table, seated[player],
                         f"el {self.player_text(player)} está sentado en la mesa {seated[player]}")
            scores[player] = self.check_slip(place, slip, judge)
        for player, table in seated.items():
            if player not in scores and round_.get("closed", True):
                # Closing a round marks every missing slip (III.23); an open round may still get them.
                self.add(f"{where}, mesa {table}", "slips", None, "una papeleta",
                         f"falta la papeleta del {self.player_text(player)}; cuenta 0 puntos")
                scores[player] = 0
        return scores

    def check_slip(self, place: str, slip: dict[str, Any], judge: RoundJudge | None) -> int:
        """Check one slip's status, score and move; return its recomputed score."""
        status, score, text = slip["status"], slip["score"], slip["text"]
        if status in ARBITER_STATUSES:
            if score != 0:
                self.add(place, "score", score, 0, f"una papeleta con estado «{status}» vale 0 puntos (III.25)")
            return 0
        if judge is None:
            return cast("int", score)
        if "board" in slip:
            self.check_board_slip(place, slip, judge)
        verdict = judge.judge(text or "")
        if verdict.status != status:
            known = "" if status in SLIP_STATUSES else f"«{status}» no es un estado de papeleta; "
            why = verdict.reason or f"el árbitro la da por válida ({verdict.score} puntos)"
            self.add(place, "status", status, verdict.status, f"{known}«{text}»: {why}")
        if verdict.score != score:
            self.add(place, "score", score, verdict.score, f"«{text}» vale {verdict.score} puntos")
        if verdict.status == "valid" == status:
            move = slip["move"]
            if move is None or judge.placed_of(move) != verdict.placed:
                self.add(place, "move", move, None, f"«{text}» no es la jugada registrada")
        return verdict.score

    def check_board_slip(self, place: str, slip: dict[str, Any], judge: RoundJudge) -> None:
        """A slip written on a paper board (II.8, III.20.1.c–d): the tournament admits the
        board notation, and the board form as typed (``board``) gives the slip's ``text``."""
        if not self.settings.get("board_notation", False):
            self.add(place, "board", slip["board"], None, "papeleta en notación de tablero, que el torneo no "
                     "admite (II.8: solo si el organizador lo decide, ajuste «board_notation»)")
        try:
            derived: str | None = board_slip_notation(judge.board, slip["board"])
            why = ""
        except BoardNotationError as error:
            derived, why = None, str(error)
        if derived != slip["text"]:
            self.add(place, "text", slip["text"], derived,
                     f"la papeleta en tablero «{slip['board']}» no da ese texto (III.20.1.c–d){': ' + why if why else ''}")

    def check_bonuses(self, where: str, round_: dict[str, Any], seated: Mapping[int, int],
                      scores: Mapping[int, int], top_score: int, expected: Mapping[int, int]) -> None:
        recorded = {int(player): points for player, points in round_["bonuses"].items() if points}
        mode = self.settings["bonus_mode"]
        for player in sorted(set(recorded) | set(expected)):
            if recorded.get(player) == expected.get(player):
                continue
            place = f"{where}, mesa {seated[player]}" if player in seated else where
            if player in expected:
                why = (f"único jugador con {scores[player]} puntos, la mejor puntuación de la ronda "
                       f"(la del programa: {top_score})")
            elif mode == "off":
                why = "el torneo no tiene bonificaciones"
            else:
                why = f"no es el único jugador con la puntuación que da bonificación (hizo {scores.get(player, 0)})"
            self.add(place, "bonuses", recorded.get(player), expected.get(player),
                     f"bonificación del {self.player_text(player)} (III.24, modo {mode}): {why}")

    # --- standings ------------------------------------------------------------------------
    def compare_standings(self, where: str, lines: list[dict[str, Any]],
                          expected: Mapping[int, GameStanding | TournamentStanding],
                          fields: Sequence[str], rule: str) -> None:
        seen: set[int] = set()
        for line in lines:
            player = line["player"]
            place = f"{where}, {self.player_text(player)}"
            if player in seen:
                self.add(place, "player", player, None, "el jugador aparece dos veces en la clasificación")
                continue
            seen.add(player)
            if player not in expected:
                self.add(place, "player", player, None, "el jugador no jugó: no debe figurar en la clasificación")
                continue
            want = expected[player]
            for field in fields:
                got, should = line[field], getattr(want, field)
                if isinstance(should, float) and abs(got - should) <= TOLERANCE:
                    continue
                if got != should:
                    self.add(place, field, got, should, f"recalculado según {rule}")
        for player in expected:
            if player not in seen:
                self.add(f"{where}, {self.player_text(player)}", "player", None, player,
                         "falta el jugador en la clasificación")
