"""The façade of the tournament service: the one class the front ends use.

``TournamentService`` is built by composition: one object per task module (registration,
standings, seating, rounds, masters, slip entry, slip batches, corrections, results,
record, venues), all sharing one ``ServiceContext`` (session factory, credential,
station, lexicon, event log), and every public method hands the call to its module
(``_Delegate``, ``delegate.Delegate``), with the module's signature and docstring.
Classic events (``ranking.classic.service.ClassicService``, a façade of the same kind)
and EloDI (``ranking.ratings.RatingService``) are built on the same context
(``service.context``).
"""

from __future__ import annotations

from functools import cached_property
from typing import TYPE_CHECKING, Self

from duplicate.service.access import Action, Actor
from duplicate.service.context import OnContext, ServiceContext, ServiceHooks
from duplicate.service.delegate import Delegate as _Delegate
from duplicate.storage.database import Database

if TYPE_CHECKING:   # the compiled lexicon loads numpy: annotations only (issue 38)
    from duplicate.service.corrections import Corrections
    from duplicate.service.masters import Masters
    from duplicate.service.record import Record
    from duplicate.service.registration import Registration
    from duplicate.service.restore import Restore
    from duplicate.service.results import Results
    from duplicate.service.rounds import Rounds
    from duplicate.service.seating import Seating
    from duplicate.service.signing import Signing
    from duplicate.service.slip_batch import SlipBatch
    from duplicate.service.slip_entry import SlipEntry
    from duplicate.service.standings import Standings
    from duplicate.service.venues import Venues
    from duplicate.service.views import TournamentInfo
    from duplicate.storage.models import Tournament
    from lexicon.lexicon import Lexicon
else:               # each task module imported when first used (a read-only command loads few; issue 38)
    from duplicate.service.delegate import TaskClass

    Corrections = TaskClass("duplicate.service.corrections", "Corrections")
    Masters = TaskClass("duplicate.service.masters", "Masters")
    Record = TaskClass("duplicate.service.record", "Record")
    Registration = TaskClass("duplicate.service.registration", "Registration")
    Restore = TaskClass("duplicate.service.restore", "Restore")
    Results = TaskClass("duplicate.service.results", "Results")
    Rounds = TaskClass("duplicate.service.rounds", "Rounds")
    Seating = TaskClass("duplicate.service.seating", "Seating")
    Signing = TaskClass("duplicate.service.signing", "Signing")
    SlipBatch = TaskClass("duplicate.service.slip_batch", "SlipBatch")
    SlipEntry = TaskClass("duplicate.service.slip_entry", "SlipEntry")
    Standings = TaskClass("duplicate.service.standings", "Standings")
    Venues = TaskClass("duplicate.service.venues", "Venues")


class TaskModules:
    """The task modules of one service handle, all on the same context; each is built (and
    its module imported) when first used."""

    def __init__(self, context: ServiceContext) -> None:
        self.context = context

    @classmethod
    def on(cls, context: ServiceContext) -> TaskModules:
        return cls(context)

    @cached_property
    def registration(self) -> Registration:
        from duplicate.service.registration import Registration
        return Registration(self.context)

    @cached_property
    def standings(self) -> Standings:
        from duplicate.service.standings import Standings
        return Standings(self.context)

    @cached_property
    def seating(self) -> Seating:
        from duplicate.service.seating import Seating
        return Seating(self.context, self.standings)

    @cached_property
    def rounds(self) -> Rounds:
        from duplicate.service.rounds import Rounds
        return Rounds(self.context)

    @cached_property
    def masters(self) -> Masters:
        from duplicate.service.masters import Masters
        return Masters(self.context)

    @cached_property
    def slip_entry(self) -> SlipEntry:
        from duplicate.service.slip_entry import SlipEntry
        return SlipEntry(self.context)

    @cached_property
    def slip_batch(self) -> SlipBatch:
        from duplicate.service.slip_batch import SlipBatch
        return SlipBatch(self.context, self.slip_entry)

    @cached_property
    def corrections(self) -> Corrections:
        from duplicate.service.corrections import Corrections
        return Corrections(self.context, self.slip_entry, self.standings)

    @cached_property
    def results(self) -> Results:
        from duplicate.service.results import Results
        return Results(self.context, self.standings)

    @cached_property
    def record(self) -> Record:
        from duplicate.service.record import Record
        return Record(self.context, self.standings, self.signing)

    @cached_property
    def venues(self) -> Venues:
        from duplicate.service.venues import Venues
        return Venues(self.context, self.standings)

    @cached_property
    def restore(self) -> Restore:
        from duplicate.service.restore import Restore
        return Restore(self.context)

    @cached_property
    def signing(self) -> Signing:
        from duplicate.service.signing import Signing
        return Signing(self.context)


class TournamentService(OnContext):
    """All actions on the tournaments of one database, as one station with one credential.

    ``station``: the name of this terminal (recorded with every event); ``lexicon``: the
    lexicon to judge with (default: each tournament's own, else the built-in default);
    ``pin``: the station's credential (the judge's or an assistant's PIN), ``None`` for a
    read-only station; ``hooks``: what higher layers do after a decision (EloDI,
    ``ServiceHooks``); ``source``: where its sign-in attempts come from (wrong PINs are
    counted against it, ``lockout``; default: the station's name). Methods take a
    tournament id where it matters (``None``: the most recently created one) and game
    numbers within it; each is its task module's (see the
    module docstring). Every method that changes the record checks first what the
    credential may do and refuses with ``NotAuthorised`` or ``CredentialRefused``,
    changing nothing.
    """

    def __init__(self, database: Database, *, station: str = "principal", lexicon: Lexicon | None = None,
                 pin: str | None = None, hooks: ServiceHooks | None = None, source: str | None = None) -> None:
        self.context = ServiceContext(database, station=station, lexicon=lexicon, pin=pin, hooks=hooks,
                                      source=source)
        self.modules = TaskModules.on(self.context)

    @classmethod
    def on(cls, context: ServiceContext) -> Self:
        """The service acting through ``context`` (its database, station, credential, caches)."""
        service = cls.__new__(cls)
        service.context = context
        service.modules = TaskModules.on(context)
        return service

    def with_pin(self, pin: str | None) -> Self:
        """The same service (database, station, caches, hooks) acting with ``pin``."""
        return self.on(self.context.with_pin(pin))

    @property
    def has_credential(self) -> bool:
        """True when this handle carries a PIN (it may still be refused)."""
        return self.context.has_credential

    def sign_in(self, tournament_id: int | None = None) -> Actor:
        """Check this handle's PIN against the tournament's credentials and return who it
        is; raises ``CredentialRefused`` (wrong PIN, or locked after too many wrong tries,
        with the seconds to wait). The anonymous handle signs in as ``VIEWER``."""
        return self.context.sign_in(tournament_id)

    def may(self, action: Action | str, table: int | None = None, *, tournament_id: int | None = None,
            game_number: int | None = None) -> bool:
        """Whether this handle may do ``action`` (an ``Action`` or its code name; for
        ``table`` when it is a table's action, II.4.c) in the tournament (``None``: the
        newest); a venue's credential (issue 27 §2) only for its venue's tables of the game
        ``game_number`` (default: the newest). Screens and commands ask it instead of
        repeating the permission table."""
        return self.context.may(action, table, tournament_id=tournament_id, game_number=game_number)

    @property
    def database_folder(self) -> str:
        """A folder name of this service's database alone (``storage.database.folder_name``:
        the file's name and a digest of its location), for what the front ends keep per
        database, such as the app's publications."""
        return self.context.db.folder_name

    def lexicon_for(self, tournament: Tournament | TournamentInfo) -> Lexicon:
        """The lexicon of ``tournament`` (``ServiceContext.lexicon_for``); ``TournamentError``
        when none available has its hash."""
        return self.context.lexicon_for(tournament)

    # --- registration (players, assistants, credentials, settings) ---------------------------
    create_tournament = _Delegate("registration", Registration.create_tournament)
    tournaments = _Delegate("registration", Registration.tournaments)
    tournament = _Delegate("registration", Registration.tournament)
    settings = _Delegate("registration", Registration.settings)
    change_settings = _Delegate("registration", Registration.change_settings)
    set_pin = _Delegate("registration", Registration.set_pin)
    assistant_without_tables = _Delegate("registration", Registration.assistant_without_tables)
    credentials = _Delegate("registration", Registration.credentials)
    bonus_warnings = _Delegate("registration", Registration.bonus_warnings)
    add_player = _Delegate("registration", Registration.add_player)
    import_players = _Delegate("registration", Registration.import_players)
    entries = _Delegate("registration", Registration.entries)
    entry_names = _Delegate("registration", Registration.entry_names)
    set_entry_status = _Delegate("registration", Registration.set_entry_status)
    set_assistant_range = _Delegate("registration", Registration.set_assistant_range)
    assistant_ranges = _Delegate("registration", Registration.assistant_ranges)
    update_player = _Delegate("registration", Registration.update_player)

    # --- standings (III.23, III.24, III.28, IV.31) ---------------------------------------------
    # Read from the whole field (``Venues``: with venues, every venue's players and bonuses; in one
    # room, the room's), the one source of every screen, command and publication (issue 35 §1).
    game_standings = _Delegate("venues", Venues.game_standings)
    tournament_standings = _Delegate("venues", Venues.tournament_standings)
    round_results = _Delegate("venues", Venues.round_results)
    partial_standings = _Delegate("venues", Venues.partial_standings)

    # --- seating (II.6) ------------------------------------------------------------------------
    create_game = _Delegate("seating", Seating.create_game)
    assign_tables = _Delegate("seating", Seating.assign_tables)
    seats = _Delegate("seating", Seating.seats)
    current_game = _Delegate("seating", Seating.current_game)

    # --- rounds (racks, master, clock) -----------------------------------------------------------
    engine = _Delegate("rounds", Rounds.engine)
    draw_rack = _Delegate("rounds", Rounds.draw_rack)
    set_rack = _Delegate("rounds", Rounds.set_rack)
    replace_rack = _Delegate("rounds", Rounds.replace_rack)
    check_rack = _Delegate("rounds", Rounds.check_rack)
    pending_round = _Delegate("rounds", Rounds.pending_round)
    choose_master = _Delegate("masters", Masters.choose_master)
    undo_master = _Delegate("masters", Masters.undo_master)
    end_game = _Delegate("rounds", Rounds.end_game)
    record_timer = _Delegate("rounds", Rounds.record_timer)
    timer_state = _Delegate("rounds", Rounds.timer_state)
    clock_view = _Delegate("rounds", Rounds.clock_view)
    rounds = _Delegate("rounds", Rounds.rounds)
    game_view = _Delegate("rounds", Rounds.game_view)
    next_scores = _Delegate("rounds", Rounds.next_scores)
    warm_up = _Delegate("rounds", Rounds.warm_up)

    # --- slip entry (enter, double entry, conflicts) ------------------------------------------
    enter_slip = _Delegate("slip_entry", SlipEntry.enter_slip)
    mark_slip = _Delegate("slip_entry", SlipEntry.mark_slip)
    enter_master_slips = _Delegate("slip_entry", SlipEntry.enter_master_slips)
    enter_slips = _Delegate("slip_batch", SlipBatch.enter_slips)
    import_slips = _Delegate("slip_batch", SlipBatch.import_slips)
    double_check = _Delegate("slip_entry", SlipEntry.double_check)
    conflicts = _Delegate("slip_entry", SlipEntry.conflicts)
    slips = _Delegate("slip_entry", SlipEntry.slips)
    set_aside_slips = _Delegate("slip_entry", SlipEntry.set_aside_slips)

    # --- corrections (III.27 claims, III.29 annulments) -------------------------------------
    resolve_conflict = _Delegate("corrections", Corrections.resolve_conflict)
    correct_slip = _Delegate("corrections", Corrections.correct_slip)
    annul_master = _Delegate("corrections", Corrections.annul_master)
    file_claim = _Delegate("corrections", Corrections.file_claim)
    resolve_claim = _Delegate("corrections", Corrections.resolve_claim)
    claims = _Delegate("corrections", Corrections.claims)

    # --- results (close, publish, reopen; IV.32) -----------------------------------------------
    close_round = _Delegate("results", Results.close_round)
    round_status = _Delegate("results", Results.round_status)
    publish = _Delegate("results", Results.publish)
    reopen = _Delegate("results", Results.reopen)

    # --- the record and the event log ---------------------------------------------------------
    export = _Delegate("record", Record.export)
    write_export = _Delegate("record", Record.write_export)
    history = _Delegate("record", Record.history)
    restore = _Delegate("restore", Restore.restore)
    last_event_id = _Delegate("record", Record.last_event_id)
    last_event_ids = _Delegate("record", Record.last_event_ids)
    changes_after = _Delegate("record", Record.changes_after)
    tournament_key = _Delegate("signing", Signing.tournament_key)

    # --- offline venues (issue 27 §2: one event, several rooms, prepared games) -----------------
    import_venue = _Delegate("venues", Venues.import_venue)
    import_venue_file = _Delegate("venues", Venues.import_venue_file)
    venue_record_players = _Delegate("venues", Venues.venue_record_players)
    venues = _Delegate("venues", Venues.venues)
    venue_field = _Delegate("venues", Venues.venue_field)
    field_standings = _Delegate("venues", Venues.field_standings)
    venue_field_names = _Delegate("venues", Venues.venue_field_names)
    venue_game_standings = _Delegate("venues", Venues.venue_game_standings)
    venue_tournament_standings = _Delegate("venues", Venues.venue_tournament_standings)
    register_venue_key = _Delegate("venues", Venues.register_venue_key)
    register_venue_key_file = _Delegate("venues", Venues.register_venue_key_file)
    venue_keys = _Delegate("venues", Venues.venue_keys)

    # --- online venues (issue 27 §2: every room's stations on this database) --------------------
    add_venue = _Delegate("venues", Venues.add_venue)
    online_venues = _Delegate("venues", Venues.online_venues)
    venue_stations = _Delegate("venues", Venues.venue_stations)
