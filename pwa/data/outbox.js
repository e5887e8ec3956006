// @ts-check
// The outbox: this device's operations, applied at once on the device and kept
// until the server's log holds them (or refused them). Sequence numbers are
// gapless per device: the next one is taken in the same transaction that stores
// the operation.
import { db, eventRange, getSession, serverNow } from "./db.js";

/** Store an operation; resolves with its row (seq assigned). */
export async function enqueue(eventId, type, payload) {
  const tx = (await db()).transaction(["sessions", "outbox"], "readwrite");
  const sessions = tx.objectStore("sessions");
  const session = await sessions.get(eventId);
  if (!session) throw new Error(`this device has not joined event ${eventId}`);
  const row = {
    event_id: eventId,
    seq: session.next_seq,
    op: { type, payload, at: serverNow(session) },  // the server's time: a wrong device clock must not start a round in the future
    status: "pending",
    server_seq: null,
    reason: null,
    error: null,
    created_at: Date.now(),
  };
  session.next_seq += 1;
  await tx.objectStore("outbox").add(row);
  await sessions.put(session);
  await tx.done;
  return row;
}

/**
 * Store several operations in one transaction (a pasted or imported roster): consecutive seqs, in order.
 * Resolves with their rows. ``ops``: ``[{type, payload}]``.
 */
export async function enqueueMany(eventId, ops) {
  const tx = (await db()).transaction(["sessions", "outbox"], "readwrite");
  const sessions = tx.objectStore("sessions");
  const session = await sessions.get(eventId);
  if (!session) throw new Error(`this device has not joined event ${eventId}`);
  const at = serverNow(session);
  const store = tx.objectStore("outbox");
  const made = ops.map(({ type, payload }, i) => ({
    event_id: eventId, seq: session.next_seq + i, op: { type, payload, at }, status: "pending",
    server_seq: null, reason: null, error: null, created_at: Date.now(),
  }));
  session.next_seq += made.length;
  // The adds are queued at once (no await between them): one transaction, written together.
  await Promise.all([...made.map((row) => store.add(row)), sessions.put(session)]);
  await tx.done;
  return made;
}

export async function rows(eventId) {
  return (await db()).getAll("outbox", eventRange(eventId));
}

/** Not yet pushed (or pushed without an answer): what the next push sends, in order. */
export async function unsent(eventId) {
  return (await rows(eventId)).filter((r) => r.status === "pending");
}

/** What the device folds on top of the confirmed log: everything not refused. */
export async function waiting(eventId) {
  return (await rows(eventId)).filter((r) => r.status !== "rejected");
}

export async function rejected(eventId) {
  return (await rows(eventId)).filter((r) => r.status === "rejected");
}

/** Apply a push's verdicts: accepted -> sent (until the pull brings it back), rejected -> rejected. */
export async function applyVerdicts(eventId, results) {
  const tx = (await db()).transaction("outbox", "readwrite");
  for (const verdict of results) {
    const row = await tx.store.get([eventId, verdict.seq]);
    if (!row) continue;
    if (verdict.status === "accepted") {
      row.status = "sent";
      row.server_seq = verdict.server_seq;
    } else {
      row.status = "rejected";
      row.reason = verdict.reason;
      row.error = verdict.error;
    }
    await tx.store.put(row);
  }
  await tx.done;
}

/**
 * After a complete pull: every operation the server has processed (seq <= lastSeq)
 * is either in the log (drop it) or refused (keep it, marked, to show where it happened).
 */
export async function settle(eventId, lastSeq, rejections) {
  const refused = new Map(rejections.map((r) => [r.seq, r]));
  const tx = (await db()).transaction("outbox", "readwrite");
  let cursor = await tx.store.openCursor(eventRange(eventId));
  while (cursor) {
    const row = cursor.value;
    if (row.seq <= lastSeq) {
      const why = refused.get(row.seq);
      if (why) {
        if (row.status !== "rejected") {
          await cursor.update({ ...row, status: "rejected", reason: why.reason, error: why.error });
        }
      } else if (row.status !== "rejected") {
        await cursor.delete();
      }
    }
    cursor = await cursor.continue();
  }
  await tx.done;
}

/**
 * A player's phone (which pulls the player view, not the log): drop every operation the server accepted at or
 * before ``cursor``, the view's log head; refused ones stay, marked, to show where they happened.
 */
export async function settleSent(eventId, cursor) {
  const tx = (await db()).transaction("outbox", "readwrite");
  let row = await tx.store.openCursor(eventRange(eventId));
  while (row) {
    if (row.value.status === "sent" && Number.isInteger(row.value.server_seq) && row.value.server_seq <= cursor) {
      await row.delete();
    }
    row = await row.continue();
  }
  await tx.done;
}

/** A no-op in a sequence slot: the server accepts it and the device's sequence stays gapless. */
function voidOp(dismissed, at) {
  return { type: "device.void", payload: dismissed ? { dismissed } : {}, at };
}

/**
 * The user has read a refusal: forget it. A change the server has not processed yet keeps its
 * sequence slot as a void operation, so every later change can still be sent (never a hole).
 */
export async function dismiss(eventId, seq) {
  const at = serverNow(await getSession(eventId));
  const tx = (await db()).transaction("outbox", "readwrite");
  const row = await tx.store.get([eventId, seq]);
  if (row && row.status === "pending") {
    await tx.store.put({ ...row, op: voidOp(row.op.type, at), reason: null, error: null });
  } else if (row) {
    await tx.store.delete([eventId, seq]);  // the server has processed this slot already
  }
  await tx.done;
}

/**
 * Repair a device whose outbox lost sequence numbers (a hole made by an older version, or storage
 * trouble): fill every missing slot from ``expected`` up to the first unsent row with a void operation.
 * Resolves with how many slots were filled.
 */
export async function fillGap(eventId, expected) {
  const at = serverNow(await getSession(eventId));
  const tx = (await db()).transaction("outbox", "readwrite");
  const all = await tx.store.getAll(eventRange(eventId));
  const have = new Set(all.map((r) => r.seq));
  const next = all.filter((r) => r.status === "pending").map((r) => r.seq).sort((a, b) => a - b)[0];
  let filled = 0;
  for (let seq = expected; next !== undefined && seq < next; seq += 1) {
    if (have.has(seq)) continue;
    await tx.store.add({ event_id: eventId, seq, op: voidOp(null, at), status: "pending", server_seq: null,
                         reason: null, error: null, created_at: Date.now() });
    filled += 1;
  }
  await tx.done;
  return filled;
}
