"""marshmallow schemas of the Star Trek resources: leagues (backend/startrek/leagues.py), league backups and
ratings (backend/startrek/ratings.py); the league document's own fields are
checked by shared_rules.games.startrek.leagues.load_league, which names the field it refuses."""

from __future__ import annotations

from marshmallow import Schema, ValidationError, fields, validate, validates_schema

from backend.schemas.common import NO_NUL, _int
from shared_rules.games.startrek.ratings.rules import RULESETS as RATED_RULESETS

__all__ = [
    "CreateLeagueSchema",
    "UpdateLeagueSchema",
    "LeagueGrantSchema",
    "LeagueTokenInSchema",
    "AddLeagueEventSchema",
    "BonusInSchema",
    "LeagueEventInfoSchema",
    "LeagueSchema",
    "LeagueTableSchema",
    "LeagueProblemSchema",
    "SeasonInSchema",
    "LeagueBackupSchema",
    "LeagueRestoreResponseSchema",
    "RatingsQuerySchema",
    "RatingRowSchema",
    "RatingsListSchema",
]

#: Sprint ids of each schedule (Star Trek OP Guide 12.2), in season order, with their names.
SPRINTS = {
    "standard": (
        ("first-half", "regular", "First half"),
        ("second-half", "regular", "Second half"),
        ("playoffs", "playoff", "Playoffs"),
    ),
    "truncated": (("regular", "regular", "Regular season"), ("playoffs", "playoff", "Playoffs")),
}
ALL_SPRINTS = sorted({sid for sprints in SPRINTS.values() for sid, _, _ in sprints})
_TEXT = [validate.Length(1, 200), NO_NUL]


class DirectorSchema(Schema):
    name = fields.String(required=True, validate=_TEXT, metadata={"description": "the League Director (OP Guide 12.1)"})
    handle = fields.String(validate=_TEXT, metadata={"description": "their www.trekcc.org forum handle"})


class SeasonInSchema(Schema):
    name = fields.String(
        load_default="",
        validate=[validate.Length(0, 200), NO_NUL],
        metadata={"description": 'the season\'s name ("2026-27")'},
    )
    schedule = fields.String(
        load_default="standard",
        validate=validate.OneOf(list(SPRINTS)),
        metadata={
            "description": "standard: two regular halves and playoffs, four events "
            "each; truncated: four regular events and two playoff "
            "events (OP Guide 12.2)"
        },
    )


_QUALIFICATION = {
    "description": 'as announced before the season (OP Guide 12.2, 12.6): {"per_sprint": N} the '
    'top N of each regular sprint, or {"players": [person, ...]}'
}
_LIFETIME = {"description": "lifetime league points from earlier seasons, by person (added to this season's)"}
_NAMES = {"description": "display names by person id"}
_CHAMPIONS = {"description": 'Champions League (OP Guide 12.7): {"minimum": 100, "waived": [person, ...]}'}


class CreateLeagueSchema(Schema):
    name = fields.String(required=True, validate=_TEXT)
    director = fields.Nested(DirectorSchema, required=True)
    season = fields.Nested(SeasonInSchema, load_default=lambda: {"name": "", "schedule": "standard"})
    qualification = fields.Dict(keys=fields.String(), load_default=lambda: {"per_sprint": 4}, metadata=_QUALIFICATION)
    lifetime = fields.Dict(keys=fields.String(), values=_int(), load_default=dict, metadata=_LIFETIME)
    names = fields.Dict(keys=fields.String(), values=fields.String(), load_default=dict, metadata=_NAMES)
    champions_league = fields.Dict(keys=fields.String(), load_default=None, allow_none=True, metadata=_CHAMPIONS)
    label = fields.String(
        load_default="",
        validate=[validate.Length(0, 200), NO_NUL],
        metadata={"description": "a name for the director's token"},
    )


class UpdateLeagueSchema(Schema):
    name = fields.String(validate=_TEXT)
    director = fields.Nested(DirectorSchema)
    season = fields.Nested(SeasonInSchema)
    qualification = fields.Dict(keys=fields.String(), metadata=_QUALIFICATION)
    lifetime = fields.Dict(keys=fields.String(), values=_int(), metadata=_LIFETIME)
    names = fields.Dict(keys=fields.String(), values=fields.String(), metadata=_NAMES)
    champions_league = fields.Dict(keys=fields.String(), allow_none=True, metadata=_CHAMPIONS)

    @validates_schema
    def _something(self, data, **kwargs):
        if not data:
            raise ValidationError(
                "give at least one of name, director, season, qualification, lifetime, names, champions_league", "name"
            )


class LeagueGrantSchema(Schema):
    league_id = fields.String(required=True)
    token = fields.String(
        required=True,
        metadata={"description": "the league director's token, shown once: send as 'Authorization: Bearer <token>'"},
    )
    token_id = fields.String(required=True)
    role = fields.String(required=True, metadata={"description": "director"})
    name = fields.String(required=True)
    label = fields.String(metadata={"description": "the token's name (the device or co-director it is for)"})
    server_time = _int(required=True)


class LeagueTokenInSchema(Schema):
    label = fields.String(
        load_default="",
        validate=[validate.Length(0, 200), NO_NUL],
        metadata={"description": 'who or which device the new director token is for ("Tablet", "Co-director Kira")'},
    )


class AddLeagueEventSchema(Schema):
    event_id = fields.String(required=True, validate=[validate.Length(1, 64), NO_NUL])
    sprint = fields.String(
        required=True,
        validate=validate.OneOf(ALL_SPRINTS),
        metadata={
            "description": "standard season: first-half, second-half or playoffs; truncated: regular or playoffs"
        },
    )
    organizer_token = fields.String(
        required=True,
        validate=[validate.Length(1, 200), NO_NUL],
        metadata={"description": "the event's organizer token: its organizer's consent to flag it as a league event"},
    )


class BonusInSchema(Schema):
    event_id = fields.String(required=True, validate=[validate.Length(1, 64), NO_NUL])
    person = fields.String(
        required=True, validate=_TEXT, metadata={"description": "the player as the league table names them"}
    )
    points = _int(required=True, validate=validate.Range(-1000, 1000))
    scheme = fields.String(
        load_default="",
        validate=[validate.Length(0, 200), NO_NUL],
        metadata={"description": "headquarters, participation, new-mission (OP Guide 12.5.1-3) or the league's own"},
    )
    note = fields.String(load_default="", validate=[validate.Length(0, 500), NO_NUL])


class LeagueEventInfoSchema(Schema):
    event_id = fields.String(required=True)
    sprint = fields.String(required=True)
    present = fields.Boolean(
        required=True, metadata={"description": "false: the event is not on this server (deleted, or not restored yet)"}
    )
    name = fields.String(allow_none=True, required=True)
    ruleset = fields.String(allow_none=True, required=True)
    cursor = _int(allow_none=True, required=True)


class LeagueSchema(Schema):
    league_id = fields.String(required=True)
    name = fields.String(required=True)
    version = _int(required=True, metadata={"description": "bumped by every change"})
    document = fields.Dict(required=True, metadata={"description": "the topcut-league/1 document"})
    events = fields.List(fields.Nested(LeagueEventInfoSchema), required=True)


class LeagueProblemSchema(Schema):
    event_id = fields.String(required=True)
    problem = fields.String(required=True)


class LeagueTableSchema(Schema):
    league_id = fields.String(required=True)
    version = _int(required=True)
    table = fields.Dict(required=True, metadata={"description": "shared_rules.games.startrek.leagues.league_table"})
    events = fields.List(fields.Nested(LeagueEventInfoSchema), required=True)
    problems = fields.List(
        fields.Nested(LeagueProblemSchema),
        required=True,
        metadata={"description": "league events left out of the table, and why"},
    )


# ------------------------------------------------------------------ league backups (backend/startrek/league_backups.py)


class LeagueBackupSchema(Schema):
    """``topcut-league-backup/1``: the league as the server holds it (backend/startrek/league_backups.py checks each
    field and names the one it refuses)."""

    format = fields.String(required=True, metadata={"description": "topcut-league-backup/1"})
    league_id = fields.String(required=True, validate=[validate.Length(1, 32), NO_NUL])
    league = fields.Dict(
        keys=fields.String(),
        required=True,
        metadata={"description": "the league row: name, document (JSON text, without its events), created_at, version"},
    )
    league_events = fields.List(
        fields.Dict(keys=fields.String()),
        required=True,
        metadata={"description": "the league's events: event_id, sprint, position, added_at, proved_by"},
    )
    tokens = fields.List(
        fields.Dict(keys=fields.String()),
        required=True,
        metadata={
            "description": "the director tokens as stored (sha256 hashes, never secrets): id, token_hash, role, "
            "label, created_at, revoked_at, expires_at, replaced_by"
        },
    )


class LeagueRestoreResponseSchema(Schema):
    league_id = fields.String(required=True)
    name = fields.String(required=True)
    version = _int(required=True, metadata={"description": "the league's version, as backed up"})
    events = _int(required=True, metadata={"description": "league events restored"})
    missing_events = fields.List(
        fields.String(),
        required=True,
        metadata={
            "description": "league events not on this server (yet): reported as absent in the table until their "
            "backups are restored"
        },
    )
    tokens = _int(required=True, metadata={"description": "director tokens restored (revoked and rotated ones too)"})


# ------------------------------------------------------------------ ratings (OP Guide 8, 11)


class RatingsQuerySchema(Schema):
    game = fields.String(required=True, validate=validate.OneOf(RATED_RULESETS))


class RatingRowSchema(Schema):
    name = fields.String(required=True)
    constructed = _int(required=True)
    sealed = _int(required=True)
    overall = _int(required=True)
    games = _int(required=True)


class RatingsListSchema(Schema):
    game = fields.String(required=True)
    ratings = fields.List(fields.Nested(RatingRowSchema), required=True, metadata={"description": "best overall first"})
