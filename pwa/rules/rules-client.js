// The page's side of the rules worker.  Only JSON text crosses the boundary.
//
// The worker can die after it started (a crash in the interpreter, the browser
// reclaiming it, a call that never returns). Nothing may then hang: a call
// unanswered for CALL_TIMEOUT_MS, or an uncaught error in the worker, retires
// it; a new worker boots, every registered recovery (the open event stores
// fold their event again) runs on it, and the calls that were waiting are sent
// once more. A call that fails twice that way is refused with a message.

const WORKER_URL = new URL("./rules-worker.js", import.meta.url);

/** The functions rules_api answers (pwa/rules/rules_api.py FUNCTIONS; a test keeps both lists equal). */
export const RULES_FUNCTIONS = Object.freeze([
  "fold", "prepare", "state", "confirmed", "check_op", "standings", "pair_draft", "round_warnings", "swap_warnings", "structure", "rulesets",
  "ruleset_info", "settings_review", "age_divisions", "timer", "secret_time", "round_length", "time_called", "round_minutes", "cut", "next_elimination", "next_step", "bracket", "export",
  "new_event_document",
  "league", "csv_roster", "csv_standings", "csv_pairings", "startrek_report", "tdf_export", "tdf_import",
  "decklist_check", "decklists", "deckcheck_pick",
]);

// How long a call may go unanswered once the worker is up before the worker is taken for dead (tests shorten it).
const CALL_TIMEOUT_MS = Number(globalThis.localStorage?.getItem("topcut.rulesTimeoutMs")) || 30_000;
const MAX_ATTEMPTS = 2;

export class RulesError extends Error {}

let started = null;      // Promise of the current worker's "ready" report
let generation = 0;      // which worker the calls went to
let restarts = 0;
const waiting = new Map();  // id -> {fn, args, ok, fail, attempts, sentAt, generation}
const recoveries = new Set();
let nextId = 1;
let watchdog = null;

/**
 * Run ``fn(call)`` (async) after each restart of the worker, before the waiting calls are sent again;
 * ``call(fn, args)`` reaches the new worker at once (``rules`` waits until every recovery is done).
 */
export function onRulesRestart(fn) {
  recoveries.add(fn);
  return () => recoveries.delete(fn);
}

/** How many times the worker was restarted on this page. */
export const rulesRestarts = () => restarts;

function post(worker, id, entry) {
  entry.sentAt = performance.now();
  entry.generation = generation;
  entry.attempts += 1;
  worker.postMessage(JSON.stringify({ id, fn: entry.fn, args: entry.args }));
}

function spawn() {
  const mine = ++generation;
  const created = performance.now();
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER_URL, { type: "module" });
    let ready = false;
    worker.addEventListener("message", (event) => {
      if (mine !== generation) return;  // a retired worker's late words
      const message = JSON.parse(event.data);
      if (message.type === "reply") {
        const pending = waiting.get(message.id);
        waiting.delete(message.id);
        if (!pending) return;
        if (message.body.ok) pending.ok(message.body.result);
        else pending.fail(new RulesError(message.body.error));
      } else if (message.type === "ready") {
        ready = true;
        const phases = { worker_created: created };
        for (const [name, at] of Object.entries(message.about.marks || {})) phases[name] = at - performance.timeOrigin;
        phases.ready = performance.now();
        for (const entry of waiting.values()) entry.sentAt = performance.now();  // the clock starts once it is up
        resolve({ worker, call, ...message.about, phases });
      } else if (message.type === "error") {
        started = null;  // a later call tries to boot again (the network may be back)
        worker.terminate();
        reject(new Error(message.message));
      }
    });
    worker.addEventListener("error", (event) => {
      event.preventDefault();
      if (mine !== generation) return;
      if (!ready) {
        started = null;
        worker.terminate();
        reject(new Error(event.message || "the rules worker could not start"));
      } else {
        restart(`the rules worker failed: ${event.message || "uncaught error"}`);
      }
    });
  });
}

function call(fn, args = {}) {
  return new Promise((ok, fail) => {
    const id = nextId++;
    const entry = { fn, args, ok, fail, attempts: 0, sentAt: performance.now(), generation };
    waiting.set(id, entry);
    startRulesWorker().then(({ worker }) => {
      if (waiting.get(id) === entry && entry.attempts === 0) post(worker, id, entry);
    }, (error) => {
      waiting.delete(id);
      fail(error);
    });
  });
}

let restarting = null;

/** Retire the current worker, boot a new one, let the stores fold again, and resend what was waiting. */
function restart(reason) {
  if (restarting) return restarting;
  restarts += 1;
  console.warn(`Topcut: ${reason}; restarting the rules engine`);
  const old = started;
  started = null;
  restarting = (async () => {
    try {
      old?.then(({ worker }) => worker.terminate(), () => {});
      const stuck = [...waiting.entries()];
      for (const [id] of stuck) waiting.delete(id);
      for (const [, entry] of stuck) {
        if (entry.attempts >= MAX_ATTEMPTS) {
          entry.fail(new RulesError(`the rules engine stopped twice on "${entry.fn}": reload the page; if it `
            + "happens again, tell the organizer (the changes made on this device are kept)"));
        }
      }
      const { worker } = await startRulesWorker();
      for (const recover of [...recoveries]) {
        try { await recover(checkedCall); } catch (error) { console.warn("Topcut: recovery after a rules restart failed", error); }
      }
      for (const [id, entry] of stuck) {
        if (entry.attempts < MAX_ATTEMPTS) {
          waiting.set(id, entry);
          post(worker, id, entry);
        }
      }
    } catch (error) {
      for (const entry of waiting.values()) entry.fail(error);
      waiting.clear();
    } finally {
      restarting = null;
    }
  })();
  return restarting;
}

function watch() {
  if (watchdog) return;
  watchdog = setInterval(() => {
    if (restarting || !started) return;
    const now = performance.now();
    for (const entry of waiting.values()) {
      if (entry.attempts > 0 && entry.generation === generation && now - entry.sentAt > CALL_TIMEOUT_MS) {
        restart(`the rules worker did not answer "${entry.fn}" in ${Math.round(CALL_TIMEOUT_MS / 1000)} s`);
        return;
      }
    }
  }, Math.min(1000, CALL_TIMEOUT_MS / 4));
}

/**
 * Start (once) the module worker that runs shared_rules in Pyodide.
 * Resolves with the worker's "ready" report: {worker, version, version_info, pyodide, boot_ms, call, phases,
 * rules_build}.
 */
export function startRulesWorker() {
  if (!started) {
    started = spawn();
    started.catch(() => {});
    watch();
  }
  return started;
}

function checkedCall(fn, args = {}) {
  if (!RULES_FUNCTIONS.includes(fn)) return Promise.reject(new RulesError(`unknown rules function ${JSON.stringify(fn)}`));
  return call(fn, args);
}

/** Which rules the worker runs (a digest of shared_rules.zip): a snapshot folded by other rules is not used. */
export async function rulesBuild() {
  return (await startRulesWorker()).rules_build;
}

/** Call a rules_api function in the worker: `rules("standings", {event_id})`. */
export async function rules(fn, args = {}) {
  while (restarting) await restarting.catch(() => {});  // after the stores have folded again on the new worker
  return checkedCall(fn, args);
}
