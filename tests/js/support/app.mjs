// What every JS unit test needs before it imports the app's modules (import this first, then the app's
// modules with `await import(...)`: static imports would be resolved before the hooks are registered):
// the vendored files' URLs mapped to node_modules, and IndexedDB (fake-indexeddb, in memory).
import { register } from "node:module";
import "fake-indexeddb/auto";

register("./hooks.mjs", import.meta.url);

/** A promise with its resolve and reject at hand (for calls a test answers when it chooses). */
export function deferred() {
  let resolve;
  let reject;
  const promise = new Promise((ok, fail) => { resolve = ok; reject = fail; });
  return { promise, resolve, reject };
}

let events = 0;

/** A fresh event id, so every test has IndexedDB rows of its own. */
export function newEventId(prefix = "ev") {
  events += 1;
  return `${prefix}-${events}`;
}

/** Wait until the queued tasks and microtasks have run. */
export const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
