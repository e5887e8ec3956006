// The page's side of the rules worker.  Only JSON text crosses the boundary.

const WORKER_URL = new URL("./rules-worker.js", import.meta.url);

export class RulesError extends Error {}

let started = null;

/**
 * Start (once) the module worker that runs shared_rules in Pyodide.
 * Resolves with the worker's "ready" report: {worker, version, version_info, pyodide, boot_ms, call}.
 */
export function startRulesWorker() {
  if (started) return started;
  started = new Promise((resolve, reject) => {
    const created = performance.now();
    const worker = new Worker(WORKER_URL, { type: "module" });
    const waiting = new Map();
    let nextId = 1;
    const call = (fn, args = {}) =>
      new Promise((ok, fail) => {
        const id = nextId++;
        waiting.set(id, { ok, fail, fn });
        worker.postMessage(JSON.stringify({ id, fn, args }));
      });
    worker.addEventListener("message", (event) => {
      const message = JSON.parse(event.data);
      if (message.type === "reply") {
        const pending = waiting.get(message.id);
        waiting.delete(message.id);
        if (!pending) return;
        if (message.body.ok) pending.ok(message.body.result);
        else pending.fail(new RulesError(message.body.error));
      } else if (message.type === "ready") {
        const phases = { worker_created: created };
        for (const [name, at] of Object.entries(message.about.marks || {})) phases[name] = at - performance.timeOrigin;
        phases.ready = performance.now();
        resolve({ worker, call, ...message.about, phases });
      } else if (message.type === "error") {
        reject(new Error(message.message));
      }
    });
    worker.addEventListener("error", (event) => {
      reject(new Error(event.message || "the rules worker could not start"));
    });
  });
  return started;
}

/** Call a rules_api function in the worker: `rules("standings", {event_id})`. */
export async function rules(fn, args = {}) {
  const { call } = await startRulesWorker();
  return call(fn, args);
}
