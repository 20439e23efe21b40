"""The stored EloDI ratings read back (rules V; ``elodi.md``): the versions of the rating
history (none is ever deleted; a recompute adds one), the rating list, a game's report and
a player's history — each as the current version or an older one left it — and finding a
player. Read only: a part of ``ranking.ratings.RatingService``."""

from __future__ import annotations

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from duplicate.service.context import ServiceContext
from duplicate.storage.models import GameRow, Player
from duplicate.storage.rating_models import RatedGame, Rating, RatingChange, RatingVersion
from duplicate.texts import shown
from ranking.elodi import EloDISettings
from ranking.rating_field import RatingField
from ranking.rating_views import (
    GameRef,
    HistoryLine,
    RatingError,
    RatingLine,
    ReportLine,
    VersionLine,
    current_version_in,
    game_refs,
)

__all__ = ["RatingHistory"]


class RatingHistory:
    """The rating history of one database, on ``context``; ``field`` says why a game was
    not rated; ``settings.start_rating`` is a new player's value before its first game."""

    def __init__(self, context: ServiceContext, settings: EloDISettings, field: RatingField) -> None:
        self.context = context
        self.settings = settings
        self.field = field

    def current_version(self) -> int | None:
        """The newest version of the rating history (``None`` before anything is rated)."""
        with self.context.read() as session:
            return current_version_in(session)

    def _version(self, session: Session, version: int | None) -> int | None:
        """``version`` checked (``RatingError`` if there is none such), or the current one."""
        if version is None:
            return current_version_in(session)
        if session.get(RatingVersion, version) is None:
            newest = current_version_in(session)
            raise RatingError(f"no existe la versión {version} del historial EloDI "
                              + (f"(hay de la 1 a la {newest})" if newest else "(aún no hay ninguna)"),
                              what="versión", value=version)
        return version

    def versions(self) -> list[VersionLine]:
        """Every version of the rating history, oldest first (none is ever deleted)."""
        with self.context.read() as session:
            counts = dict(session.execute(select(RatedGame.version, func.count()).group_by(RatedGame.version)).all())
            rows = list(session.scalars(select(RatingVersion).order_by(RatingVersion.number)))
            newest = rows[-1].number if rows else None
            return [VersionLine(row.number, row.kind, row.created_at, row.station, row.arbiter,
                                int(counts.get(row.number, 0)), row.number == newest) for row in rows]

    def rating_list(self, *, club: str | None = None, country: str | None = None,
                    include_new: bool = True, version: int | None = None) -> list[RatingLine]:
        """The rating list: rated players by rating (highest first, equal ratings share a
        position, then by name), then the new players by name («nuevo»). ``club`` /
        ``country`` filter (case-insensitive, exact); ``include_new=False`` drops new players.
        ``version``: the list as that version of the history left it (default: the current
        ratings); ``RatingError`` for a version that does not exist."""
        with self.context.read() as session:
            refs = game_refs(session)
            rows: list[tuple[Player, Rating | None]]
            if version is None:
                rows = [(player, rating) for player, rating in session.execute(
                    select(Player, Rating).outerjoin(Rating, Rating.player_id == Player.id))]
            else:
                held = self._ratings_in(session, self._version(session, version))
                rows = [(player, held.get(player.id)) for player in session.scalars(select(Player))]
        lines = []
        for player, rating in rows:
            if club is not None and player.club.casefold() != club.casefold():
                continue
            if country is not None and player.country.casefold() != country.casefold():
                continue
            if rating is None and not include_new:
                continue
            lines.append((player, rating))
        lines.sort(key=lambda item: (item[1] is None, -(item[1].rating if item[1] else 0), item[0].name.casefold(),
                                     item[0].id))
        result = []
        position = 0
        previous: int | None = None
        for index, (player, rating) in enumerate(lines, start=1):
            if rating is not None and rating.rating != previous:
                position, previous = index, rating.rating
            result.append(RatingLine(
                position=position if rating is not None else None, player_id=player.id, name=player.name,
                club=player.club, country=player.country, federation_id=player.federation_id,
                rating=rating.rating if rating else None, volatility=rating.volatility if rating else None,
                games=rating.games if rating else 0,
                last_game=refs.get(rating.last_game_id) if rating and rating.last_game_id else None))
        return result

    @staticmethod
    def _ratings_in(session: Session, version: int | None) -> dict[int, Rating]:
        """Each player's values at the end of ``version`` (its last rated game's), as
        unsaved ``Rating`` rows."""
        held: dict[int, Rating] = {}
        for change, game_id in session.execute(
                select(RatingChange, RatedGame.game_id).join(RatedGame, RatingChange.rated_game_id == RatedGame.id)
                .where(RatedGame.version == version).order_by(RatedGame.sequence)):
            if change.games_after != change.games_before:
                held[change.player_id] = Rating(player_id=change.player_id, rating=change.rating_after,
                                                volatility=change.volatility_after, games=change.games_after,
                                                last_game_id=game_id)
        return held

    def game_report(self, ref: GameRef, *, version: int | None = None) -> list[ReportLine]:
        """The per-game report (``elodi.md``): every rated player's line, by actual
        position in the game (total score, highest first), as ``version`` of the history
        rated it (default: the current one). Raises ``RatingError`` when the game has not
        been rated in it, or for a version that does not exist."""
        with self.context.read() as session:
            number = self._version(session, version)
            rated = session.scalar(select(RatedGame).where(RatedGame.game_id == ref.game_id,
                                                           RatedGame.version == number))
            if rated is None:
                reason = self.field.why_not(session, session.get(GameRow, ref.game_id))  # type: ignore[arg-type]
                raise RatingError(f"la partida {ref.label} no está valorada"
                                  + (f": {reason}" if reason else ": ejecute «duplicada elodi update»"),
                                  what="partida", value=ref.number)
            rows = session.execute(select(RatingChange, Player.name).join(Player, RatingChange.player_id == Player.id)
                                   .where(RatingChange.rated_game_id == rated.id)).all()
        start = self.settings.start_rating
        lines = [ReportLine(change.player_id, name, change.phase, change.total, change.rating_before,
                            change.volatility_before, change.target_position, change.actual_position,
                            change.rating_after - (change.rating_before if change.rating_before is not None else start)
                            if change.games_after != change.games_before else 0,
                            change.rating_after, change.volatility_after, change.games_after, change.cap_bound)
                 for change, name in rows]
        return sorted(lines, key=lambda line: (-line.total, line.name.casefold(), line.player_id))

    def player_history(self, player_id: int, *, version: int | None = None) -> list[HistoryLine]:
        """Every rated game of a player, in date order (``elodi.md``: history, peak), in
        ``version`` of the history (default: the current one; ``RatingError`` if none such)."""
        with self.context.read() as session:
            number = self._version(session, version)
            refs = game_refs(session)
            rows = session.execute(select(RatingChange, RatedGame.game_id)
                                   .join(RatedGame, RatingChange.rated_game_id == RatedGame.id)
                                   .where(RatingChange.player_id == player_id, RatedGame.version == number)).all()
        start = self.settings.start_rating
        lines = [HistoryLine(refs[game_id], change.rating_before, change.target_position, change.actual_position,
                             change.rating_after, change.volatility_after,
                             change.rating_after - (change.rating_before if change.rating_before is not None else start),
                             change.cap_bound)
                 for change, game_id in rows if change.games_after != change.games_before]
        return sorted(lines, key=lambda line: line.game)

    def find_player(self, text: str) -> tuple[int, str]:
        """A player by id, federation id or exact name (case-insensitive): ``(id, name)``."""
        with self.context.read() as session:
            players = list(session.scalars(select(Player)))
        for player in players:
            if str(player.id) == text or player.federation_id == text:     # never int(text): «²», 5,000 digits
                return player.id, player.name
        matches = [player for player in players if player.name.casefold() == text.casefold()]
        if len(matches) == 1:
            return matches[0].id, matches[0].name
        if matches:
            raise RatingError(f"hay {len(matches)} jugadores llamados {shown(text)}: indique el id",
                              what="jugador", value=text)
        raise RatingError(f"no hay ningún jugador {shown(text)} (se acepta el id, el número de federación o el nombre)",
                          what="jugador", value=text)
