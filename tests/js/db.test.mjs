// pwa/data/db.js opening a database that a newer version of the app has already upgraded (a rollback).
import assert from "node:assert/strict";
import { test } from "node:test";
import "./support/app.mjs";

/** Create the "topcut" database at ``version`` with ``stores`` (as a newer app would), then close it. */
function createAt(version, stores) {
  return new Promise((resolve, reject) => {
    const request = globalThis.indexedDB.open("topcut", version);
    request.onupgradeneeded = () => {
      for (const name of stores) request.result.createObjectStore(name, { keyPath: "event_id" });
    };
    request.onsuccess = () => { request.result.close(); resolve(); };
    request.onerror = () => reject(request.error);
  });
}

function removed() {
  return new Promise((resolve, reject) => {
    const request = globalThis.indexedDB.deleteDatabase("topcut");
    request.onsuccess = () => resolve();
    request.onerror = () => reject(request.error);
  });
}

test("a database a newer app upgraded is opened as it is, and its rows are read", async () => {
  await createAt(3, ["sessions", "log", "outbox", "snapshots", "drafts"]);
  const { db, getSession, saveSession, DB_VERSION } = await import("../../pwa/data/db.js");
  assert.equal(DB_VERSION, 2);
  await saveSession({ event_id: "e1", token: "tc_x", role: "judge", clock_offset: 0 });
  assert.equal((await getSession("e1")).role, "judge");
  assert.equal((await db()).version, 3);
  (await db()).close();
  await removed();
});

test("one without a store this app uses is refused with what to do, and the next call tries again", async () => {
  await createAt(5, ["sessions", "log", "outbox"]);
  const { db } = await import("../../pwa/data/db.js?without-snapshots");  // a module of its own: nothing opened yet
  await assert.rejects(db(), /another version of Topcut \(version 5, without snapshots\): reload the page/);
  await assert.rejects(db(), /without snapshots/);
  await removed();
});

test("a newer database deleted between the version check and the open leaves no empty one behind", async () => {
  // Another tab of the newer app forgets everything at that moment: the open without a version makes an empty
  // database at version 1, which the next call must upgrade with every store, not only those after version 1.
  await createAt(4, ["sessions", "log", "outbox", "snapshots"]);
  const realOpen = globalThis.indexedDB.open.bind(globalThis.indexedDB);
  globalThis.indexedDB.open = (name, version) => {
    if (version !== undefined) return realOpen(name, version);
    globalThis.indexedDB.open = realOpen;
    const gone = globalThis.indexedDB.deleteDatabase(name);  // queued before the open: it runs first
    gone.onerror = () => {};
    return realOpen(name);
  };
  try {
    const { db, getSession, saveSession } = await import("../../pwa/data/db.js?deleted-meanwhile");
    await assert.rejects(db(), /another version of Topcut \(version 1, without sessions, log, outbox, snapshots\)/);
    await saveSession({ event_id: "e1", token: "tc_x", role: "judge", clock_offset: 0 });
    assert.equal((await getSession("e1")).role, "judge");
    assert.deepEqual([...(await db()).objectStoreNames].sort(), ["log", "outbox", "sessions", "snapshots"]);
    (await db()).close();
  } finally {
    globalThis.indexedDB.open = realOpen;
    await removed();
  }
});
