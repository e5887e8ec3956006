// pwa/app/player-store.js: a player's phone without the rules engine. It shows the server's player view, keeps it
// for an offline start, sends the view's ETag, queues actions as "waiting to send", shows the server's refusals,
// and counts the clock down from the server's time. app/device.js tells a player's phone from a staff device.
import assert from "node:assert/strict";
import { test } from "node:test";
import { newEventId } from "./support/app.mjs";

const { saveSession } = await import("../../pwa/data/db.js");
const { PlayerStore, clockAt } = await import("../../pwa/app/player-store.js");
const { deviceKind } = await import("../../pwa/app/device.js");

function viewBody(cursor, table) {
  return {
    version: 1, cursor, server_ms: 1_000_000, me: "p1",
    state: { name: "Phone Night", ruleset: "doomtown", settings: {}, closed: false,
      players: [{ id: "p1", name: "Annie" }, { id: "p2", name: "Bat" }],
      rounds: [{ number: 1, stage: "swiss", status: "started", matches: [{ table, players: ["p1", "p2"], reports: [], status: "pending", outcomes: null }] }],
      penalties: [] },
    info: { ui: { timer: { notes: [] } } },
    clock: [{ round: 1, stage: "swiss", status: "started", remaining_ms: 60_000, announced_ms: 60_000, paused: false }],
    standings: null, decklist: { players: [] }, calls: [],
  };
}

/** A fake server: ``view`` answers GET .../view (304 when the ETag matches), ``verdicts`` answer pushes. */
function fakeServer() {
  const server = { requests: [], etag: '"v1"', view: viewBody(5, 1), verdict: null, down: false };
  globalThis.fetch = async (url, options = {}) => {
    const path = String(url);
    server.requests.push({ path, method: options.method || "GET", headers: options.headers || {} });
    if (server.down) throw new TypeError("Failed to fetch");
    if (path.endsWith("/push")) {
      const sent = JSON.parse(options.body);
      const results = sent.ops.map((op) => server.verdict
        ? { seq: op.seq, status: "rejected", reason: server.verdict, error: "not-authorized" }
        : { seq: op.seq, status: "accepted", server_seq: server.view.cursor + 1 });
      if (!server.verdict) server.view = { ...viewBody(server.view.cursor + 1, 1) };
      server.etag = `"v${server.view.cursor}"`;
      return new Response(JSON.stringify({ results, server_time: 1_000_000 }), { status: 200 });
    }
    if (path.endsWith("/view")) {
      if (options.headers?.["If-None-Match"] === server.etag) return new Response(null, { status: 304 });
      return new Response(JSON.stringify(server.view), { status: 200, headers: { ETag: server.etag } });
    }
    return new Response(JSON.stringify({ error: "not-found", message: "no such path" }), { status: 404 });
  };
  return server;
}

async function playerSession() {
  const eventId = newEventId("phone");
  await saveSession({ event_id: eventId, token: "tc_player", role: "player", player: "p1", clock_offset: 0 });
  return eventId;
}

test("a phone shows the server's view and opens offline on the last one kept", async () => {
  const server = fakeServer();
  const eventId = await playerSession();
  const store = new PlayerStore(eventId);
  await store.reload();
  await store.syncNow();
  assert.equal(store.state.rounds[0].matches[0].table, 1);
  assert.equal((await store.ask("ruleset_info")).ui.timer.notes.length, 0);
  server.down = true;
  const offline = new PlayerStore(eventId);
  await offline.reload();  // a new page, no network: the kept view
  assert.equal(offline.state.name, "Phone Night");
  assert.equal(offline.view.cursor, 5);
});

test("an unchanged event costs a 304: the pull sends the view's ETag", async () => {
  const server = fakeServer();
  const eventId = await playerSession();
  const store = new PlayerStore(eventId);
  await store.syncNow();
  const revision = store.revision;
  await store.syncNow();
  const views = server.requests.filter((r) => r.path.endsWith("/view"));
  assert.equal(views.length, 2);
  assert.equal(views[1].headers["If-None-Match"], '"v1"');
  assert.equal(store.revision, revision);  // nothing changed: the screens do not redraw
  assert.equal(store.state.name, "Phone Night");
});

test("an action queued offline waits to send, then goes and leaves the outbox once the view has it", async () => {
  const server = fakeServer();
  const eventId = await playerSession();
  const store = new PlayerStore(eventId);
  await store.syncNow();
  server.down = true;
  const { refused } = await store.act("result.report", { round: 1, stage: "swiss", table: 1, outcomes: ["win", "loss"] });
  await store.syncing;
  assert.equal(refused, null);
  assert.equal(store.waiting().length, 1);
  assert.equal(store.status().waiting, 1);
  server.down = false;
  await store.syncNow();
  assert.equal(store.waiting().length, 0);
  assert.equal(store.view.cursor, 6);
  assert.deepEqual(store.problems(), []);
});

test("a refused action shows the server's reason where it happened", async () => {
  const server = fakeServer();
  const eventId = await playerSession();
  const store = new PlayerStore(eventId);
  await store.syncNow();
  server.verdict = "Only a player of this match may report its result.";
  await store.act("result.report", { round: 1, stage: "swiss", table: 2, outcomes: ["win", "loss"] });
  await store.syncing;
  await store.syncNow();
  const [problem] = store.problems();
  assert.equal(problem.reason, "Only a player of this match may report its result.");
  assert.equal(problem.op.payload.table, 2);
  await store.dismiss(problem.seq);
  assert.deepEqual(store.problems(), []);
});

test("the clock counts down from the server's time; a paused one stands still", () => {
  const view = viewBody(1, 1);
  view.clock.push({ round: 2, status: "started", remaining_ms: 30_000, announced_ms: 30_000, paused: true });
  const [running, paused] = clockAt(view, view.server_ms + 10_000);
  assert.equal(running.remaining_ms, 50_000);
  assert.equal(running.announced_ms, 50_000);
  assert.equal(paused.remaining_ms, 30_000);
});

test("a device is a player's phone only while it holds players' sessions alone", () => {
  assert.equal(deviceKind([{ role: "player" }], ""), "player");
  assert.equal(deviceKind([{ role: "player" }, { role: "judge" }], ""), "staff");
  assert.equal(deviceKind([], "#/"), "staff");  // the start page: an organizer to be
  assert.equal(deviceKind([], "#join=ABCD"), null);  // a code being redeemed: not known yet
  assert.equal(deviceKind([], "#/public/ev1"), "player");
});
