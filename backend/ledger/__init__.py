"""The event's operation log and what reads it, one job per module.

* :mod:`.log` — the log: folding it into state (cached), the event's write lock, a device's push;
* :mod:`.player_view` — what a player's phone pulls of the log (the staff pull it whole);
* :mod:`.claims` — players' claim codes and their access, made and revoked as the roster changes.

A push hands what it accepted to the hooks listed here, in order: inside its transaction the push
outbox (``backend/push``) and players' access; once committed (added by ``backend/view.py`` as the app loads it)
the shared parts of the players' rendered views. The players' log pull makes its view of an operation when first
asked for it.
"""

from __future__ import annotations

from typing import Any

from backend.ledger import log as _log
from backend.ledger.claims import CLAIM_READERS, claim_rows_for, create_claim, revoke_player_access, roster_access
from backend.ledger.log import (
    AFTER_ACCEPT,
    AFTER_COMMIT,
    MAX_CLOCK_AHEAD_MS,
    MAX_OP_BYTES,
    MAX_REJECTIONS_PER_PUSH,
    SERVER_DEVICE,
    SNAPSHOT_EVERY,
    Accepted,
    Verdict,
    append_server_op,
    cache_key,
    dumps,
    event_state,
    keep_summary,
    lock_event,
    push,
)
from backend.ledger.player_view import accepted_ops, pull_body, seed_is_secret
from backend.push import on_ops_accepted

__all__ = [
    "AFTER_ACCEPT",
    "AFTER_COMMIT",
    "CLAIM_READERS",
    "MAX_CLOCK_AHEAD_MS",
    "MAX_OP_BYTES",
    "MAX_REJECTIONS_PER_PUSH",
    "SERVER_DEVICE",
    "SNAPSHOT_EVERY",
    "Accepted",
    "Verdict",
    "accepted_ops",
    "append_server_op",
    "cache_key",
    "claim_rows_for",
    "create_claim",
    "dumps",
    "event_state",
    "keep_summary",
    "lock_event",
    "pull_body",
    "push",
    "revoke_player_access",
    "seed_is_secret",
]


def queue_notifications(accepted: Accepted) -> Any:
    """After-accept hook: the push outbox queues what the operations announce (backend/push)."""
    return on_ops_accepted(accepted.event.id, accepted.ops, accepted.state)


if not _log.AFTER_ACCEPT:  # once, however often the package is imported
    # Nothing after commit: players' pulls make the shared view of an operation when first asked for it
    # (backend/ledger/player_view.py), not on every push.
    _log.AFTER_ACCEPT.extend([queue_notifications, roster_access])
