// @ts-check
// The rulesets as the engine lists them (rules_api.app_tables, written to rules/tables.json by the build):
// titles, which ones a WCT league counts, and the game id a player record carries. No screen names a ruleset.
import { engineTables } from "./services.js";

const BY_ID = new Map(engineTables.rulesets.map((r) => [r.id, r]));

/** A ruleset's title ("Star Trek CCG First Edition"), or the id itself for one this build does not know. */
export const rulesetTitle = (id) => BY_ID.get(id)?.title || id;

/** Whether a WCT league counts events of this ruleset (Star Trek OP Guide 12). */
export const countsInLeagues = (id) => BY_ID.get(id)?.league === true;

/** The rulesets a league counts, by title, for a sentence ("Star Trek CCG First Edition, …"). */
export const leagueRulesetTitles = () => engineTables.rulesets.filter((r) => r.league).map((r) => r.title);

/**
 * Which game id a ruleset's registration asks for (every game's: a Play! Pokémon ID, a trekcc.org forum handle, a
 * "Player ID"): {label, field (the register op's, ``game_id``), personField (the person's, or null), birthYear,
 * form (how it is written, for a hint)}, or null for a ruleset this build does not know.
 */
export function gameIdFor(ruleset) {
  const reg = BY_ID.get(ruleset)?.registration;
  return reg ? { label: reg.label, field: reg.field, personField: reg.person_field, birthYear: reg.birth_year, form: reg.form || "" } : null;
}

/** A player's game ID (``game_id``; documents written before it: ``pop_id`` or ``rating_id``), or "". */
export function gameIdOf(player) {
  const extra = player?.extra || {};
  for (const key of ["game_id", "pop_id", "rating_id"]) {
    const value = extra[key];
    if (typeof value === "string" && value.trim()) return value.trim();
  }
  return "";
}

/** Whether the game has a tournament report to file after the event (Star Trek OP Guide 8). */
export const hasReport = (id) => BY_ID.get(id)?.report === true;

/** Whether the game's events are written as TOM save files (.tdf). */
export const writesTom = (id) => BY_ID.get(id)?.tom === true;
