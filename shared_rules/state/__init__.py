"""Event state as the fold of its operations: the reducer every device and the server share.

>>> from shared_rules.state import replay, OPERATION_TYPES
>>> "result.report" in OPERATION_TYPES
True
"""

from .authorize import ALLOWED, allowed_roles, authorize
from .operations import (
    OPERATION_TYPES,
    PAYLOADS,
    ROLES,
    STAFF_ROLES,
    Actor,
    AlreadyPaired,
    EventClosed,
    NotAuthorized,
    Operation,
    OperationRejected,
    RoundFrozen,
    cap_problem,
    parse_operation,
    parse_payload,
)
from .reducer import HANDLERS, apply, apply_in_place, check, folding, replay, secret_minutes, secret_time_sides
from .state import (
    MATCH_STATUSES,
    ROUND_STATUSES,
    SETTLED,
    STATE_FORMAT,
    WITHHELD_PREFIX,
    from_event_document,
    initial_state,
    is_withheld,
    settle,
    timer_remaining_ms,
    to_event_document,
)

__all__ = [
    "ALLOWED",
    "HANDLERS",
    "apply_in_place",
    "MATCH_STATUSES",
    "OPERATION_TYPES",
    "PAYLOADS",
    "ROLES",
    "ROUND_STATUSES",
    "SETTLED",
    "STAFF_ROLES",
    "STATE_FORMAT",
    "WITHHELD_PREFIX",
    "Actor",
    "NotAuthorized",
    "Operation",
    "OperationRejected",
    "AlreadyPaired",
    "EventClosed",
    "RoundFrozen",
    "allowed_roles",
    "apply",
    "authorize",
    "cap_problem",
    "check",
    "folding",
    "from_event_document",
    "initial_state",
    "is_withheld",
    "secret_minutes",
    "secret_time_sides",
    "parse_operation",
    "parse_payload",
    "replay",
    "settle",
    "timer_remaining_ms",
    "to_event_document",
]
