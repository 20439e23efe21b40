"""The independent checker of a tournament record (``duplicada verify``).

In the spirit of the free checkers FIDE demands for pairing programs (FIDE
handbook C.04.2): given a tournament record (``docs/tournament-record.md``,
format ``duplicada-tournament-1``) and a lexicon, recompute every derived value
from the raw parts — racks, master moves, slip texts, settings, seating — and
list every difference with the values stored in the record.

Public API:

* ``load_record(path) -> dict`` reads and checks the shape of a record file (at most
  ``RECORD_MAX_BYTES``, refused unread beyond; its ``format_version`` one this checker knows
  and its fields those of that version, ``duplicate.record.format_fields``; issue 36 §5);
  raises ``RecordError`` (Spanish message naming the file) — never a traceback.
* ``verify_record(record, lexicon) -> list[Difference]`` the differences, in
  record order (the lexicon hash first).
* ``run_verify(path, lexicon_path, out, head=None) -> int`` the command: prints a Spanish
  report to ``out`` and returns the exit code (0 no difference, 1 differences,
  2 unreadable record or lexicon).
* The reference computations, usable to *build* a consistent record (the
  benchmark does): ``RoundJudge`` (a slip's status and score, III.20, III.25,
  III.29), ``round_bonuses`` (III.24), ``game_standings`` (III.23, III.28),
  ``tournament_standings`` (IV.31).

The checker's modules, each read on its own:

* ``duplicate.record.reading``: the file, its JSON and its shape (``load_record``,
  ``check_shape``, ``RecordError``, the format's codes);
* ``duplicate.record.replay``: the record recomputed by the rules, round by round
  (``rule_differences``), with ``duplicate.record.slips`` (the slips re-judged:
  ``RoundJudge``, ``Verdict``) and ``duplicate.record.standings`` (bonuses and standings);
* ``duplicate.record.figures_check``: the stored figures against the record's own event log;
* ``duplicate.record.log_check``: the rest of the record (players, tournament, games, rounds)
  against the log, the log's order and its chain of hashes (``duplicate.record.chain``);
* ``duplicate.record.difference``: the ``Difference`` both checks report;
* this module: ``verify_record`` (both checks) and the command's report (``run_verify``).

Independence: none of them imports ``duplicate.rules.game_standings`` or ``duplicate.rules.slips`` (an
import-linter contract keeps it so); bonuses and standings are recomputed with small,
separate code. They do use the engine's board, scoring, notation checker (``check_move``,
the shared referee) and move generator.

What is checked (the record's semantics, ``docs/tournament-record.md``):

* the lexicon hash of the record against the lexicon given (one difference,
  reported first; the check goes on);
* boards: the first round's ``board_before`` is empty, each next one is the
  previous board with the previous master placed; the master is a legal move
  of ``rack`` on it scoring ``master_score``; ``top_score`` and ``top_moves``
  (the set of canonical texts) are what ``lexicon.movegen.generate_top`` gives;
  ``cumulative`` is the running sum of master scores;
* slips: every player seated in the game (``tables``) has exactly one slip a
  round, at his table; ``late``/``null``/``missing`` slips score 0; a slip is
  ``annulled`` (0 points) exactly when its round is annulled and its move is the
  master (III.29); any other slip is re-judged from its raw ``text`` with
  ``check_move`` (oriented notation per the setting) and its status, score and,
  for a valid slip, ``move`` must match;
* bonuses per round (III.24), game standings (III.23, III.28), tournament
  standings (IV.31); floats compared with a tolerance of ``TOLERANCE``.

Decisions where the rules or the record format leave room (reported, not guessed):

* **Derived values are recomputed from the raw parts, and the recomputed
  values feed what follows**: the next board is built from the recomputed board,
  ``cumulative`` sums the recomputed master scores, bonuses and standings use the
  re-judged slip scores. A tampered value thus gives one difference, at the place
  it was tampered, not a cascade. Only where a value cannot be recomputed (a rack
  or master that cannot be read, a master that does not fit the board) is the
  stored value used downstream, after reporting why.
* **Annulled round (III.29)**: its master is "an incorrect move" by definition,
  so it is not required to be legal; it must only fit the board, and its score
  is the I.2 score of the tiles it places (``score_move``). A slip "is the
  master" when the checker accepts it, or rejects it only for its words
  (``invalid_word``), and it places exactly the master's tiles (blanks included).
* ``late``, ``null`` and ``missing`` are the arbiter's verdicts, not derivable
  from the text: accepted as stored (score must be 0), even in an annulled round.
* The slip's ``move`` is checked only for ``valid`` slips (the same placement as
  the judged move; a different notation of the same placement is accepted).
* A bonus entry of 0 is the same as no entry.
* A seated player with no slip in a round is reported once and counts 0 points
  for that round; a second slip of the same player is reported and ignored.
* "Sole top scorer" (III.28, second tie-break) is the only seated player with
  the round's best score, provided it is above 0 (as for the bonus of III.24);
  "at the master" is a score ≥ ``master_score`` (above it only after a lower
  master, III.29); the gap is ``master_score − score``, the worst gap at least 0.
* The game places used by ``average_place`` are the places by total, shared by
  tied players (a game's III.28 tie-breaks decide that game's prizes, not the
  tournament's; issue 25 §5).
* A game with master total 0 has percentage 0.
* Tournament standings (IV.31) list every player seated in at least one game;
  every game of the record counts, whatever its ``status``; the III.28 tie-break
  over all rounds separates players equal on the criterion only when the
  ``tie_breaks`` setting is on ("en caso de que exista la necesidad": prizes that
  cannot be shared); otherwise they share the position.
* A slip with ``board`` (written on a paper board, II.8, format version 10) needs the
  ``board_notation`` setting, and its board form laid on the round's board must give
  its ``text`` (``duplicate.rules.board_notation``).
* ``average_percentage`` is a percentage (0–100), like every percentage of the
  format: 100 × mean over the rounds with ``master_score`` > 0 of score/master.
* The ``signature`` (format 14, ``duplicate.record.signature``): a block that does not
  hold for the record's content is a difference; the report names the key's
  fingerprint, or says the record is unsigned (every record before format 14 is).
* The ``events`` log is checked against the stored figures by
  ``duplicate.record.figures_check`` (issue 14 §5); game ``status``, ``planned_rounds`` and
  ``end_reason`` are not checked.
"""

from __future__ import annotations

import gc
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from duplicate.plurals import counted
from duplicate.record.difference import Difference
from duplicate.record.figures_check import event_differences
from duplicate.record.log_check import chain_state, log_differences
from duplicate.record.prepared_check import prepared_differences
from duplicate.record.reading import RecordError, check_shape, load_record
from duplicate.record.replay import rule_differences
from duplicate.record.signature import SIGNED_SINCE, SignatureCheck, signature_check
from duplicate.texts import visible

if TYPE_CHECKING:   # the compiled lexicon loads numpy: annotations only (issue 38)
    from lexicon.lexicon import Lexicon

__all__ = ["run_verify", "signature_differences", "signature_line", "verify_record"]


def verify_record(record: dict[str, Any], lexicon: Lexicon, signature: SignatureCheck | None = None, *,
                  loaded: bool = False) -> list[Difference]:
    """Every difference between a tournament record and its recomputation.

    ``record``: a parsed ``duplicada-tournament-1`` record (``load_record``);
    ``lexicon``: the lexicon to judge with. Returns the differences in record
    order: the lexicon hash first, then game by game (rounds, slips, bonuses,
    game standings), then the tournament standings; empty when the record is
    consistent; then the stored figures against the record's own event log
    (``duplicate.record.figures_check``: racks, also drawn again from the seed, masters,
    slips, bonuses); then players, tournament, games and rounds against the log, the
    log's order and its chain (``duplicate.record.log_check``); then each game's prepared game
against the one its log loaded (``duplicate.record.prepared_check``); last, a signature
    that does not hold (``duplicate.record.signature``; an unsigned record is no difference;
    ``signature``: the record's ``signature_check`` when the caller has it already).
    Raises ``RecordError`` if the record lacks a key it needs or is of a format newer than
    this checker reads. ``loaded``: the record is as ``load_record`` returned it — its shape
    checked there, its values as ``json.loads`` gives them — so the shape is not checked
    again and the events are hashed without a trip through JSON (issue 38). See the module
    docstring for what is checked and the decisions taken.
    """
    if not loaded:
        check_shape(record)
    return (rule_differences(record, lexicon) + event_differences(record, lexicon)
            + log_differences(record, parsed=loaded)
            + prepared_differences(record)
            + signature_differences(signature if signature is not None else signature_check(record)))


def signature_differences(check: SignatureCheck) -> list[Difference]:
    """The difference of a signature that does not hold (none for a valid or absent one)."""
    if check.state != "invalid":
        return []
    return [Difference("firma", "signature", check.fingerprint, None,
                       f"firma no válida: {check.problem}; no se acepta este registro")]


def signature_line(check: SignatureCheck, version: object) -> str:
    """The report's line on the signature (Spanish): valid with its key's fingerprint,
    unsigned, or not valid."""
    if check.state == "valid":
        return f"firma Ed25519 válida, clave del torneo con huella {check.fingerprint}"
    if check.state == "unsigned":
        older = isinstance(version, int) and version < SIGNED_SINCE
        return (f"sin firmar (formato {version}, anterior a la firma)" if older
                else "sin firmar (exportado sin el PIN del juez árbitro)")
    return f"FIRMA NO VÁLIDA ({check.problem})"


def run_verify(path: Path, lexicon_path: Path | None, out: TextIO, *, head: str | None = None) -> int:
    """``duplicada verify``: check the record at ``path`` with the lexicon at
    ``lexicon_path`` (None: the default lexicon, ``lexicon.default``) and print a
    Spanish report to ``out``. ``head``: the head of the chain of events noted when the
    record was exported (``duplicada export`` prints it); the record must end in it
    (``--head``; any other value, or a record without a chain, is a difference).

    Returns the exit code: 0 no difference, 1 differences found, 2 the record
    (or the lexicon) cannot be read — the message says why; never a traceback.
    """
    # The record's tens of thousands of objects hold no cycles: the cyclic collector would
    # only walk them again and again while they are built and read (issue 38; ≈ a fifth of
    # the time of a large record). Enabled again on the way out.
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _verify_file(path, lexicon_path, out, head)
    finally:
        if collecting:
            gc.enable()


def _verify_file(path: Path, lexicon_path: Path | None, out: TextIO, head: str | None) -> int:
    try:
        record = load_record(path)
    except RecordError as error:
        print(f"Error: {error}", file=out)
        return 2
    from lexicon.lexicon import Lexicon, LexiconError   # here: it loads numpy (issue 38)

    try:
        if lexicon_path is None:   # the shipped default the record was made with, current or earlier (issue 15)
            from lexicon.default import default_lexicon_path, earlier_default_path

            def announce(message: str) -> None:
                print(message, file=sys.stderr)

            lexicon_path = (earlier_default_path(str(record["tournament"]["lexicon_hash"]), announce)
                            or default_lexicon_path(announce))
        lexicon = Lexicon.load(lexicon_path)
    except LexiconError as error:
        print(f"Error: {error}", file=out)
        return 2
    signature = signature_check(record)
    differences = verify_record(record, lexicon, signature, loaded=True)
    if head is not None and record.get("events_head") != head.strip().lower():
        differences.append(Difference("historial", "events_head", record.get("events_head"), head.strip().lower(),
                                      "el registro no acaba en la cabeza de la cadena anotada (--head): no es el "
                                      "historial que se exportó, o se reescribió desde algún evento"))
    return _report(path, record, lexicon.name, differences, signature, out)


def _report(path: Path, record: dict[str, Any], lexicon_name: str, differences: list[Difference],
            signature: SignatureCheck, out: TextIO) -> int:
    """Print the report of ``run_verify`` and return its exit code (0 or 1)."""
    games = record["games"]
    rounds = sum(len(game["rounds"]) for game in games)
    slips = sum(len(round_["slips"]) for game in games for round_ in game["rounds"])
    counts = f"{counted(len(games), 'partida')}, {counted(rounds, 'ronda')}, {counted(slips, 'papeleta comprobada')}"
    if chain_state(record) == "chained":
        counts += f"; cadena de {counted(len(record.get('events') or []), 'evento')}, cabeza {str(record.get('events_head'))[:16]}…"
    else:
        counts += (f"; sin cadena de eventos (formato {record.get('format_version', 1)}, anterior a la cadena: "
                   "no se puede saber si se quitó o cambió un evento)")
    counts += f"; {signature_line(signature, record.get('format_version', 1))}"
    if not differences:
        print(f"{path}: sin diferencias: {counts}", file=out)
        return 0
    print(f"{path}: {len(differences)} diferencia{'s' if len(differences) != 1 else ''} "
          f"({counts}; léxico {lexicon_name}):", file=out)
    for difference in differences:
        print(visible(f"- {difference}"), file=out)        # texts of the record as text, never terminal codes
    return 1
