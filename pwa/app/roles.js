// @ts-check
// Who may do what, as the engine's permission table says (shared_rules/state/authorize.py ALLOWED, written to
// rules/tables.json by the build): screens ask here instead of typing role lists, and a device has the table
// before the rules worker is up (a player's phone shows its screen at once).
import { engineTables } from "./services.js";

const { roles } = engineTables;

/** Whether ``role`` may perform an operation type (players and judges are narrowed further by ownership). */
export const may = (role, opType) => (roles.may[opType] || []).includes(role);

/**
 * The roles of a group: ``everyone``, ``staff``, ``players``, ``desk`` (publishes rounds), ``lead`` (pairs,
 * rules on disputes), ``registrar`` (registers players), ``organizer`` (configures the event).
 */
export function rolesOf(group) {
  const list = roles.groups[group];
  if (!list) throw new Error(`no role group '${group}' in the engine's tables`);
  return list;
}

/** Whether ``role`` is in a group of roles. */
export const isIn = (role, group) => rolesOf(group).includes(role);

/** A role as the screens name it ("Head judge"). */
export const roleTitle = (role) => roles.words[role]?.title || role;

/** The roles the Staff screen invites, as [value, label] options (the first, the default, gives the least). */
export const inviteOptions = () => roles.invite.map((r) => [r, roles.words[r].invite]);

/** The screen a device of ``role`` opens first. */
export const homeScreen = (role) => roles.words[role]?.home;
