"""Schemas of the people resources: players across events, their history and ratings (backend/people.py)."""

from __future__ import annotations

from marshmallow import Schema, ValidationError, fields, validate, validates

from backend.schemas.common import NO_NUL, _int

__all__ = [
    "PersonInSchema",
    "PersonSchema",
    "PeopleListSchema",
    "PeopleQuerySchema",
    "LinkRequestSchema",
    "LinkSchema",
    "UnlinkSchema",
    "EventPeopleSchema",
    "MergeRequestSchema",
    "MergeResponseSchema",
    "HistoryEntrySchema",
    "PersonHistorySchema",
]

PERSON_ID = validate.Regexp(r"^[A-Za-z0-9_-]{1,32}$", error="a person id is 1-32 letters, digits, '-' or '_'")
POKEMON_ID = validate.Regexp(r"^[0-9A-Za-z-]{1,32}$", error="a Play! Pokémon ID is 1-32 digits or letters")
TREKCC_ID = validate.Regexp(
    r"^[A-Za-z0-9._-]{1,64}$", error="a trekcc.org member id is 1-64 letters, digits, '.', '_' or '-'"
)
OTHER_KEY = validate.Regexp(
    r"^[a-z0-9][a-z0-9_-]{0,31}$", error="an id's name is 1-32 lowercase letters, digits, '_' or '-'"
)
MAX_OTHER_IDS = 16


def _not_blank(value: str) -> None:
    if not value.strip():
        raise ValidationError("must not be blank")


class PersonInSchema(Schema):
    """A new person: a name and whichever game ids are known."""

    name = fields.String(required=True, validate=[validate.Length(1, 200), NO_NUL, _not_blank])
    pokemon_id = fields.String(
        load_default=None,
        allow_none=True,
        validate=POKEMON_ID,
        metadata={"description": "Play! Pokémon ID (TOM's userid)"},
    )
    birth_year = _int(
        load_default=None,
        allow_none=True,
        validate=validate.Range(1900, 2100),
        metadata={"description": "goes with the Play! Pokémon ID (age divisions)"},
    )
    trekcc_handle = fields.String(
        load_default=None,
        allow_none=True,
        validate=[validate.Length(1, 64), NO_NUL, _not_blank],
        metadata={"description": "trekcc.org forum handle"},
    )
    trekcc_id = fields.String(
        load_default=None,
        allow_none=True,
        validate=TREKCC_ID,
        metadata={"description": "trekcc.org member id (a Star Trek rating_id)"},
    )
    other_ids = fields.Dict(
        keys=fields.String(validate=OTHER_KEY),
        values=fields.String(validate=[validate.Length(1, 64), NO_NUL, _not_blank]),
        load_default=dict,
        metadata={"description": "other games' ids, name -> id"},
    )

    @validates("other_ids")
    def _few(self, value, **kwargs):
        if len(value) > MAX_OTHER_IDS:
            raise ValidationError(f"at most {MAX_OTHER_IDS} ids")


class PersonSchema(Schema):
    id = fields.String(required=True)
    name = fields.String(required=True)
    pokemon_id = fields.String(allow_none=True, required=True)
    birth_year = _int(
        allow_none=True,
        required=True,
        metadata={"description": "search: only when the query is the person's Play! Pokémon ID"},
    )
    trekcc_handle = fields.String(allow_none=True, required=True)
    trekcc_id = fields.String(allow_none=True, required=True)
    other_ids = fields.Dict(keys=fields.String(), values=fields.String(), required=True)


class PeopleListSchema(Schema):
    people = fields.List(fields.Nested(PersonSchema), required=True)


class PeopleQuerySchema(Schema):
    q = fields.String(
        required=True,
        validate=[validate.Length(2, 100), NO_NUL, _not_blank],
        metadata={
            "description": "part of a name (2 characters at least), or a whole Play! Pokémon "
            "ID, trekcc.org member id or handle"
        },
    )


class LinkRequestSchema(Schema):
    person = fields.String(required=True, validate=PERSON_ID, metadata={"description": "the person's id"})
    code = fields.String(
        load_default=None,
        validate=validate.Length(max=40),
        metadata={"description": "the person's player record code (their phone shows it under My history)"},
    )
    proof_tokens = fields.List(
        fields.String(validate=validate.Length(max=200)),
        load_default=list,
        validate=validate.Length(max=20),
        metadata={
            "description": "tokens of other events held by this device: an organizer token of an event the person "
            "played in, or the player token of their entry there, proves their consent"
        },
    )


class LinkSchema(Schema):
    event_id = fields.String(required=True)
    player = fields.String(required=True)
    name = fields.String(required=True, metadata={"description": "the roster entry's name"})
    person = fields.Nested(PersonSchema, required=True)


class UnlinkSchema(Schema):
    event_id = fields.String(required=True)
    player = fields.String(required=True)
    unlinked = fields.Boolean(required=True, metadata={"description": "false: the entry was linked to nobody"})


class EventPeopleSchema(Schema):
    event_id = fields.String(required=True)
    links = fields.List(fields.Nested(LinkSchema), required=True)


class MergeRequestSchema(Schema):
    into = fields.String(required=True, validate=PERSON_ID, metadata={"description": "the person who remains"})


class MergeResponseSchema(Schema):
    merged = fields.String(required=True, metadata={"description": "the duplicate's id (now redirects)"})
    person = fields.Nested(PersonSchema, required=True, metadata={"description": "the person who remains"})
    links_moved = _int(required=True)


class HistoryEntrySchema(Schema):
    event_id = fields.String(required=True)
    name = fields.String(required=True, metadata={"description": "the event's name"})
    date = fields.String(
        required=True,
        metadata={"description": "YYYY-MM-DD: settings.date, settings.rating.date, else the day the event was made"},
    )
    ruleset = fields.String(required=True)
    player = fields.String(required=True, metadata={"description": "the roster entry's id"})
    player_name = fields.String(required=True)
    players = _int(required=True, metadata={"description": "how many played"})
    place = _int(allow_none=True, required=True, metadata={"description": "standings rank; null before round 1"})
    division = fields.String(allow_none=True, required=True)
    record = fields.String(allow_none=True, required=True)
    points = fields.Raw(allow_none=True, required=True)
    dropped = fields.Boolean(required=True)
    rating = fields.Dict(
        allow_none=True,
        required=True,
        metadata={"description": "Star Trek rated events: format, games and each rating's before, after and change"},
    )


class PersonHistorySchema(Schema):
    person = fields.Nested(PersonSchema, required=True)
    link_code = fields.String(
        load_default=None,
        metadata={"description": "GET /api/people/me only: the player record code that consents to a new link"},
    )
    merged = fields.List(fields.String(), required=True, metadata={"description": "ids merged into this person"})
    events = fields.List(fields.Nested(HistoryEntrySchema), required=True, metadata={"description": "oldest first"})
    ratings = fields.Dict(
        keys=fields.String(),
        values=fields.Dict(),
        required=True,
        metadata={"description": "Star Trek game -> constructed, sealed, overall, games"},
    )
