// @ts-check
// The app's one door to data: what the screens and the app's own modules may ask of this device's database,
// the outbox, sync, the server's HTTP API, the rules worker and push. Nothing under views/ or ui/ imports
// data/, rules/ or sw/ (eslint.config.js enforces it), so what a screen can reach is listed here.
export {
  ApiError, addPushSubscription, claims, createEvent, deleteEvent, eventBase, eventSummary, hallInfo, invite,
  makeTransfer, publicView, publishedLists, pushStatus, redeem, reissueClaim, removePushSubscription, revokeClaim, revokeToken, staffDevices,
  staffInvitations, vapidPublicKey,
} from "../data/api.js";
export {
  allSessions, dropSnapshot, forgetEvent, getSession, getSnapshot, logAfter, putSnapshot, randomId, saveSession,
  serverNow,
} from "../data/db.js";
export * as outbox from "../data/outbox.js";
export { BACKGROUND_SYNC_TAG, syncEvent } from "../data/sync.js";
export { savedView } from "../data/player-view.js";
export { createLocalEvent, importLocalEvent } from "../data/local-events.js";
export { acknowledgeRecoveryCode, newRecoveryCode, pendingRecoveryCode, recover, recoveryStatus } from "../data/recovery-api.js";
export {
  createPerson, dropLink, eventPeople, flushLinks, linkPlayer, myHistory, pendingLinks, personHistory, queueLink,
  searchPeople, unlinkPlayer,
} from "../data/people-api.js";
export {
  addBonus, addDirectorToken, addEvent, createLeague, directorTokens, forgetHeld, getLeague, heldLeagues, keepLeague,
  leagueTable, patchLeague, removeBonus, removeEvent, renameHeld, revokeDirectorToken, rotateDirectorToken,
} from "../data/leagues.js";
export { onRulesRestart, rules, rulesBuild, startRulesWorker } from "../rules/rules-client.js";
export { subscribeToPush } from "../sw/push.js";
export { default as engineTables } from "../rules/tables.json" with { type: "json" };
