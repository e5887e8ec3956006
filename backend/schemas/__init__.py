"""marshmallow schemas of the event resources' bodies; people's are in :mod:`.people`, Star Trek's in
:mod:`backend.startrek.schemas` (backend/openapi.py lists all three as the description's components)."""

from __future__ import annotations

from marshmallow import EXCLUDE, Schema, ValidationError, fields, validate, validates_schema

from backend.schemas.common import NO_NUL, _int
from shared_rules.state.roles import role_table

MAX_SEQ = 2**53
DEVICE_ID = validate.Regexp(
    r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$",
    error="a device id is 1-64 letters, digits, '.', '_' or '-' (starting with a letter or digit)",
)
STAFF_INVITE_ROLES = tuple(role_table()["staff"])  # the shared role table, in its order


class ErrorSchema(Schema):
    error = fields.String(required=True, metadata={"description": "a short, stable code"})
    message = fields.String(required=True, metadata={"description": "one line naming the problem"})
    expected_seq = _int(metadata={"description": "sequence-gap only: the seq the device must push next"})
    retry_after_s = _int(metadata={"description": "rate-limited only: seconds until the limit resets"})


# ------------------------------------------------------------------ events


class CreateEventSchema(Schema):
    """Either ``ruleset`` (+ name, settings, seed) or a whole ``topcut-event/1`` ``document``."""

    ruleset = fields.String(validate=[validate.Length(1, 64), NO_NUL])
    name = fields.String(load_default="", validate=[validate.Length(0, 200), NO_NUL])
    settings = fields.Dict(keys=fields.String(), load_default=None, allow_none=True)
    seed = fields.String(load_default=None, allow_none=True, validate=[validate.Length(0, 200), NO_NUL])
    document = fields.Dict(
        keys=fields.String(),
        load_default=None,
        allow_none=True,
        metadata={"description": "a topcut-event/1 document to import"},
    )
    label = fields.String(
        load_default="",
        validate=[validate.Length(0, 200), NO_NUL],
        metadata={"description": "a name for the organizer's token"},
    )
    # An event made on a device while offline arrives with the ids the device gave it: sending the same
    # request again (its answer was lost) answers the same grant instead of making a second event.
    event_id = fields.String(
        load_default=None,
        allow_none=True,
        validate=validate.Regexp(r"^[A-Za-z0-9_-]{16,32}$", error="event_id: 16 to 32 letters, digits, '-' or '_'"),
        metadata={"description": "an id chosen by the device (an event made offline)"},
    )
    token = fields.String(
        load_default=None,
        allow_none=True,
        validate=validate.Regexp(
            r"^tc_[A-Za-z0-9_-]{43,86}$", error="token: 'tc_' and 43 to 86 letters, digits, '-' or '_'"
        ),
        metadata={"description": "the organizer token chosen by the device (with event_id)"},
    )

    @validates_schema
    def _own_ids(self, data, **kwargs):
        if (data.get("event_id") is None) != (data.get("token") is None):
            raise ValidationError("event_id and token come together (an event made on a device)", "token")

    @validates_schema
    def _one_source(self, data, **kwargs):
        if data.get("document") is None and not data.get("ruleset"):
            raise ValidationError("give a ruleset (new event) or a document (import)", "ruleset")
        if data.get("document") is not None and data.get("ruleset"):
            raise ValidationError("give a ruleset or a document, not both", "document")


class TokenGrantSchema(Schema):
    """A token, shown exactly once."""

    event_id = fields.String(required=True)
    token = fields.String(required=True, metadata={"description": "send as 'Authorization: Bearer <token>'"})
    token_id = fields.String(required=True, metadata={"description": "for listing and revoking"})
    role = fields.String(required=True)
    player = fields.String(allow_none=True)
    expires_in_s = _int(
        allow_none=True,
        load_default=None,
        metadata={
            "description": "seconds this token works unless rotated "
            "(POST /api/events/{event_id}/tokens/rotate); null: no expiry"
        },
    )
    server_time = _int(
        required=True,
        metadata={
            "description": "the server's clock (ms since the epoch) when it answered: devices stamp "
            "their operations with the server's time, not their own"
        },
    )
    name = fields.String(
        metadata={"description": "the event's name (so a device that joined by code lists it by name)"}
    )
    ruleset = fields.String(metadata={"description": "the event's ruleset id"})


class CreateEventResponseSchema(TokenGrantSchema):
    recovery_code = fields.String(
        allow_none=True,
        metadata={
            "description": "the event's recovery code (POST /api/recover gives a new device organizer access), "
            "shown only now; null when an organizer already said the code is kept"
        },
    )
    name = fields.String(required=True)
    ruleset = fields.String(required=True)
    cursor = _int(required=True, metadata={"description": "the event's last server sequence number"})
    claims = fields.List(
        fields.Nested(lambda: IssuedClaimSchema()),
        load_default=list,
        metadata={"description": "import: every player's claim code, shown only now"},
    )


class LeagueRefSchema(Schema):
    league_id = fields.String(required=True)
    name = fields.String(required=True)


class EventSummarySchema(Schema):
    event_id = fields.String(required=True)
    name = fields.String(required=True)
    ruleset = fields.String(required=True)
    cursor = _int(required=True)
    role = fields.String(required=True, metadata={"description": "the caller's role"})
    player = fields.String(allow_none=True)
    leagues = fields.List(
        fields.Nested(LeagueRefSchema),
        required=True,
        metadata={"description": "the WCT leagues of this server that count the event (docs/leagues.md)"},
    )


class StateResponseSchema(Schema):
    cursor = _int(required=True)
    state = fields.Dict(required=True, metadata={"description": "the folded topcut-state/1"})


class ExportResponseSchema(Schema):
    class Meta:
        unknown = EXCLUDE

    format = fields.String(required=True)
    ruleset = fields.String(required=True)
    name = fields.String()
    players = fields.List(fields.Dict(), required=True)
    rounds = fields.List(fields.Dict(), required=True)


# ------------------------------------------------------------------ sync


class OperationInSchema(Schema):
    """An operation as a device sends it; ``op_id``, ``device`` and ``actor`` are set by the server."""

    class Meta:
        unknown = EXCLUDE  # a device may send its whole local op; the server ignores actor, op_id, device

    type = fields.String(required=True, validate=[validate.Length(1, 64), NO_NUL])
    payload = fields.Dict(keys=fields.String(), load_default=None, allow_none=True)
    at = _int(
        load_default=None,
        allow_none=True,
        validate=validate.Range(0, MAX_SEQ),
        metadata={
            "description": "when the device made it, ms, in the server's time as the device "
            "measured it on its last sync (default: when the server received it); "
            "more than 2 minutes after the server received it is refused "
            "(clock-ahead)"
        },
    )


class PushItemSchema(Schema):
    seq = _int(required=True, validate=validate.Range(1, MAX_SEQ))
    op = fields.Nested(OperationInSchema, required=True)


class PushRequestSchema(Schema):
    device = fields.String(required=True, validate=DEVICE_ID)
    ops = fields.List(fields.Nested(PushItemSchema), required=True, validate=validate.Length(1, 500))

    @validates_schema
    def _consecutive(self, data, **kwargs):
        seqs = [item["seq"] for item in data.get("ops", [])]
        if any(b != a + 1 for a, b in zip(seqs, seqs[1:])):
            raise ValidationError("sequence numbers in one push must be consecutive and increasing", "ops")
        if data.get("device") == "server":
            raise ValidationError("'server' is reserved", "device")


class VerdictSchema(Schema):
    seq = _int(required=True)
    status = fields.String(required=True, validate=validate.OneOf(["accepted", "rejected"]))
    server_seq = _int(allow_none=True)
    reason = fields.String(allow_none=True, metadata={"description": "why it was rejected (show it)"})
    error = fields.String(allow_none=True)


class IssuedClaimSchema(Schema):
    player = fields.String(required=True)
    code = fields.String(required=True, metadata={"description": "one-time claim code, shown only now"})


class PushResponseSchema(Schema):
    device = fields.String(required=True)
    results = fields.List(
        fields.Nested(VerdictSchema),
        required=True,
        metadata={
            "description": "one per processed seq; a push that meets too many rejections "
            "stops early (push the rest again from last_seq + 1)"
        },
    )
    claims = fields.List(
        fields.Nested(IssuedClaimSchema),
        load_default=list,
        metadata={
            "description": "claim codes of players this push registered (organizer, "
            "head judge, scorekeeper; shown once)"
        },
    )
    last_seq = _int(required=True, metadata={"description": "the device's last processed seq"})
    last_accepted = _int(required=True)
    cursor = _int(required=True, metadata={"description": "the event's last server seq"})
    server_time = _int(
        required=True,
        metadata={
            "description": "the server's clock (ms since the epoch) when it answered: devices stamp "
            "their operations with the server's time, not their own"
        },
    )


class PullQuerySchema(Schema):
    cursor = _int(load_default=0, validate=validate.Range(0, MAX_SEQ))
    limit = _int(load_default=50_000, validate=validate.Range(1, 50_000))
    device = fields.String(
        load_default=None, validate=DEVICE_ID, metadata={"description": "also list this device's rejected operations"}
    )


class ViewQuerySchema(Schema):
    player = fields.String(
        load_default=None,
        validate=[validate.Length(1, 128), NO_NUL],
        metadata={"description": "staff only: the player whose view to show (a player's token shows its own)"},
    )


class PlayerViewSchema(Schema):
    """A player's view (shared_rules/state/player_view.py), rendered on the server."""

    version = _int(required=True)
    cursor = _int(required=True, metadata={"description": "the log position the view is of"})
    server_ms = _int(required=True, metadata={"description": "the server's clock when the view was made"})
    me = fields.String(required=True)
    state = fields.Dict(required=True, metadata={"description": "the folded state cut to what the player sees"})
    info = fields.Dict(required=True, allow_none=True)
    clock = fields.List(fields.Dict(), required=True)
    standings = fields.Dict(required=True, allow_none=True)
    standings_note = fields.String(required=True, allow_none=True)
    decklist = fields.Dict(required=True, allow_none=True)
    calls = fields.List(fields.Dict(), required=True)
    bracket = fields.Dict(
        required=True,
        allow_none=True,
        metadata={"description": "the posted elimination bracket with its players' names; null before a cut round"},
    )


class LoggedOperationSchema(Schema):
    server_seq = _int(required=True)
    op = fields.Dict(required=True)


class DeviceProgressSchema(Schema):
    last_seq = _int(required=True)
    last_accepted = _int(required=True)


class RejectionSchema(Schema):
    seq = _int(required=True)
    reason = fields.String(allow_none=True)
    error = fields.String(allow_none=True)


class PullResponseSchema(Schema):
    event_id = fields.String(required=True)
    cursor = _int(required=True, metadata={"description": "pass back as ?cursor= next time"})
    more = fields.Boolean(required=True, metadata={"description": "true: pull again before trusting devices"})
    ops = fields.List(fields.Nested(LoggedOperationSchema), required=True)
    devices = fields.Dict(keys=fields.String(), values=fields.Nested(DeviceProgressSchema), required=True)
    staff = fields.Dict(
        keys=fields.String(),
        values=fields.String(),
        required=True,
        metadata={
            "description": "staff devices by the names the organizer gave their invitations (device -> name); "
            "empty for a player"
        },
    )
    rejections = fields.List(fields.Nested(RejectionSchema), required=True)
    base = fields.Dict(
        allow_none=True,
        required=True,
        metadata={"description": "cursor=0 only: the imported document the log starts from"},
    )
    server_time = _int(
        required=True,
        metadata={
            "description": "the server's clock (ms since the epoch) when it answered: devices stamp "
            "their operations with the server's time, not their own"
        },
    )


# ------------------------------------------------------------------ invitations, tokens, players


class InvitationRequestSchema(Schema):
    role = fields.String(required=True, validate=validate.OneOf(STAFF_INVITE_ROLES))
    label = fields.String(
        load_default="",
        validate=[validate.Length(0, 200), NO_NUL],
        metadata={"description": 'who the device is for ("Judge Ada"); the redeemed token keeps it as its label'},
    )


class InvitationResponseSchema(Schema):
    invitation_id = fields.String(required=True)
    event_id = fields.String(required=True)
    role = fields.String(required=True)
    label = fields.String(required=True, metadata={"description": "the invitation's name for the device"})
    code = fields.String(required=True, metadata={"description": "one-time code"})
    link = fields.String(required=True)
    qr_svg = fields.String(required=True, metadata={"description": "the link as an SVG QR code"})


class InvitationInfoSchema(Schema):
    invitation_id = fields.String(required=True)
    role = fields.String(required=True)
    label = fields.String(required=True, metadata={"description": "the invitation's name for the device"})
    created_at = _int(required=True)
    used_at = _int(
        allow_none=True, metadata={"description": "when its code was used (ms since the epoch); null: not yet"}
    )
    used_by = fields.String(allow_none=True, metadata={"description": "the name of the device it gave access to"})
    revoked = fields.Boolean(required=True)


class InvitationListSchema(Schema):
    invitations = fields.List(fields.Nested(InvitationInfoSchema), required=True)


class RecoverRequestSchema(Schema):
    code = fields.String(
        required=True, validate=validate.Length(1, 64), metadata={"description": "the printed recovery code"}
    )
    label = fields.String(
        load_default="",
        validate=[validate.Length(0, 200), NO_NUL],
        metadata={"description": "the new device's name on the Staff screen"},
    )


class RecoveryStatusSchema(Schema):
    event_id = fields.String(required=True)
    issued = fields.Boolean(required=True, metadata={"description": "whether the event has a recovery code"})
    created_at = _int(allow_none=True, metadata={"description": "when the code was made (ms)"})
    acknowledged_at = _int(
        allow_none=True, metadata={"description": "when an organizer said it is printed or written down (ms)"}
    )


class RecoveryCodeSchema(RecoveryStatusSchema):
    code = fields.String(required=True, metadata={"description": "the recovery code, shown only now"})


class RedeemRequestSchema(Schema):
    code = fields.String(required=True, validate=validate.Length(1, 64))
    label = fields.String(load_default="", validate=[validate.Length(0, 200), NO_NUL])


class TokenInfoSchema(Schema):
    token_id = fields.String(required=True)
    role = fields.String(required=True)
    player = fields.String(allow_none=True)
    label = fields.String(required=True)
    created_at = _int(required=True)
    revoked = fields.Boolean(required=True)
    expires_at = _int(allow_none=True, metadata={"description": "ms since the epoch; null: no expiry"})
    expired = fields.Boolean(required=True)
    replaced_by = fields.String(allow_none=True, metadata={"description": "rotated into this token"})
    last_seen_at = _int(
        allow_none=True,
        metadata={
            "description": "staff tokens: when the device last synced "
            "(ms since the epoch, to the minute); null: not yet"
        },
    )
    this_device = fields.Boolean(required=True, metadata={"description": "the token that made this request"})


class TokenListSchema(Schema):
    tokens = fields.List(fields.Nested(TokenInfoSchema), required=True)


class TokenListQuerySchema(Schema):
    staff = fields.Boolean(
        load_default=False,
        metadata={"description": "true: only the staff devices' current tokens (no players', none rotated away)"},
    )


class DeleteEventSchema(Schema):
    confirm = fields.String(
        required=True,
        validate=[validate.Length(1, 200), NO_NUL],
        error_messages={"required": "required: the event's name or its id, to confirm the deletion"},
        metadata={"description": "the event's name or its id, typed by the organizer"},
    )


class DeleteEventResponseSchema(Schema):
    event_id = fields.String(required=True)
    name = fields.String(required=True)
    deleted = fields.Dict(
        keys=fields.String(), values=fields.Integer(), required=True, metadata={"description": "rows removed, by table"}
    )


class RevokeResponseSchema(Schema):
    token_id = fields.String(required=True)
    revoked = fields.Boolean(required=True)


class ClaimSchema(Schema):
    player = fields.String(required=True)
    name = fields.String(required=True)
    code = fields.String(
        required=True,
        allow_none=True,
        metadata={"description": "the code while it can be used (null once used or revoked)"},
    )
    redeemed = fields.Boolean(required=True, metadata={"description": "the latest code was used to join"})
    revoked = fields.Boolean(required=True, metadata={"description": "the latest code was revoked"})
    status = fields.String(
        required=True, validate=validate.OneOf(["waiting", "joined", "revoked", "unreadable", "none"])
    )
    devices = _int(required=True, metadata={"description": "the player's phones signed in (tokens not revoked)"})
    link = fields.String(required=True, allow_none=True, metadata={"description": "the join link of the code"})
    qr_svg = fields.String(
        required=True, allow_none=True, metadata={"description": "the link as an SVG QR code (list: with ?qr=1)"}
    )


class ClaimListSchema(Schema):
    claims = fields.List(fields.Nested(ClaimSchema), required=True)


class ClaimQuerySchema(Schema):
    qr = fields.Boolean(load_default=False, metadata={"description": "include each usable code's QR code"})


class ReissueRequestSchema(Schema):
    revoke_devices = fields.Boolean(
        load_default=False, truthy={True}, falsy={False}, metadata={"description": "also sign out the player's phones"}
    )


class ClaimRevokedSchema(Schema):
    player = fields.String(required=True)
    name = fields.String(required=True)
    revoked = fields.Boolean(required=True)
    devices_revoked = _int(required=True, metadata={"description": "phones signed out"})


class MyMatchSchema(Schema):
    round = _int(required=True)
    stage = fields.String(required=True)
    match = _int(required=True)
    table = _int(allow_none=True)
    players = fields.List(fields.String(), required=True)
    status = fields.String(required=True)
    outcomes = fields.List(fields.String(), allow_none=True)
    reports = fields.List(fields.Dict(), required=True)


class MeSchema(Schema):
    event_id = fields.String(required=True)
    player = fields.String(required=True)
    name = fields.String(required=True)
    cursor = _int(required=True)
    matches = fields.List(fields.Nested(MyMatchSchema), required=True)


# ------------------------------------------------------------------ public


class PublicPlayerSchema(Schema):
    id = fields.String(required=True)
    name = fields.String(required=True)


class PublicMatchSchema(Schema):
    table = _int(allow_none=True)
    players = fields.List(fields.Nested(PublicPlayerSchema), required=True)
    status = fields.String(required=True)
    outcomes = fields.List(fields.String(), allow_none=True)


class PublicRoundSchema(Schema):
    number = _int(required=True)
    stage = fields.String(required=True)
    status = fields.String(required=True)
    matches = fields.List(fields.Nested(PublicMatchSchema), required=True)


class PairingsSchema(Schema):
    event_id = fields.String(required=True)
    name = fields.String(required=True)
    ruleset = fields.String(required=True)
    cursor = _int(required=True)
    rounds = fields.List(fields.Nested(PublicRoundSchema), required=True)


_STANDINGS_AFTER = {
    "description": "the round the published standings are after ({number, stage}): the last one with "
    "every result in; null before round 1 is complete (standings are never shown from a round in play)"
}

_TIEBREAKER_ORDER = {
    "description": "the tiebreaker keys in the ruleset's order, for columns "
    "(each row's tiebreakers object is sent with sorted keys)"
}


class StandingsSchema(Schema):
    event_id = fields.String(required=True)
    cursor = _int(required=True)
    standings = fields.List(fields.Dict(), required=True)
    tiebreakers = fields.List(fields.String(), required=True, metadata=_TIEBREAKER_ORDER)
    note = fields.String(allow_none=True, metadata={"description": "why standings are empty, if they are"})
    standings_after = fields.Dict(allow_none=True, required=True, metadata=_STANDINGS_AFTER)


class PublicSchema(PairingsSchema):
    standings = fields.List(fields.Dict(), required=True)
    tiebreakers = fields.List(fields.String(), required=True, metadata=_TIEBREAKER_ORDER)
    tiebreaker_labels = fields.Dict(
        keys=fields.String(),
        values=fields.String(),
        required=True,
        metadata={"description": "each tiebreaker's column heading (its document's name)"},
    )
    note = fields.String(allow_none=True)
    standings_after = fields.Dict(allow_none=True, required=True, metadata=_STANDINGS_AFTER)


class PublishedListSchema(Schema):
    player = fields.String(required=True)
    name = fields.String(required=True)
    sections = fields.Dict(
        keys=fields.String(), values=fields.String(), required=True, metadata={"description": "section -> lines"}
    )


class PublishedListsSchema(Schema):
    """The deck lists published after the event, as the organizer chose (``settings.decklists.publish``)."""

    event_id = fields.String(required=True)
    name = fields.String(required=True)
    ruleset = fields.String(required=True)
    lists = fields.List(fields.Nested(PublishedListSchema), required=True)
    note = fields.String(required=True, metadata={"description": "whose lists are published, or why none"})


# ------------------------------------------------------------------ backups


class BackupSchema(Schema):
    """``topcut-backup/1``: the event as the server holds it (backend/backups.py checks each row)."""

    format = fields.String(required=True, metadata={"description": "topcut-backup/1"})
    event_id = fields.String(required=True, validate=[validate.Length(1, 32), NO_NUL])
    event = fields.Dict(keys=fields.String(), required=True)
    operations = fields.List(fields.Dict(keys=fields.String()), required=True)
    devices = fields.List(fields.Dict(keys=fields.String()), required=True)
    tokens = fields.List(fields.Dict(keys=fields.String()), required=True)
    invitations = fields.List(fields.Dict(keys=fields.String()), required=True)
    push_subscriptions = fields.List(fields.Dict(keys=fields.String()), required=True)
    # Optional (a backup made before players across events restores without them); checked row by row in
    # backend/backups.py, whose invalid-backup error names the field.
    roster_links = fields.Raw(
        allow_none=True,
        metadata={
            "type": "array",
            "items": {"type": "object"},
            "description": "the event's roster entries linked to people: player_id, person_id, created_at",
        },
    )
    people = fields.Raw(
        allow_none=True,
        metadata={
            "type": "array",
            "items": {"type": "object"},
            "description": "the linked people's records: id, name, pokemon_id, birth_year, trekcc_handle, trekcc_id, "
            "other_ids, created_at",
        },
    )
    recovery_codes = fields.List(
        fields.Dict(keys=fields.String()),
        load_default=list,
        metadata={"description": "the event's recovery code as its keyed hash (optional: absent from older backups)"},
    )


class RestoreResponseSchema(Schema):
    event_id = fields.String(required=True)
    name = fields.String(required=True)
    ruleset = fields.String(required=True)
    cursor = _int(required=True, metadata={"description": "the restored log's last server sequence number"})
    operations = _int(required=True, metadata={"description": "operations restored (rejected ones included)"})
    links = _int(required=True, metadata={"description": "roster entries linked to people again"})
    people_created = _int(required=True, metadata={"description": "people this server did not know, created"})
    notes = fields.List(
        fields.String(),
        required=True,
        metadata={
            "description": "game ids left off a created person because another person here "
            "holds them (merge them if they are one player)"
        },
    )
