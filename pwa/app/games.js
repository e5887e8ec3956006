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
 * Which game id a ruleset's registration asks for: {label, field (the register op's), personField (the person's),
 * birthYear}, or null.
 */
export function gameIdFor(ruleset) {
  const reg = BY_ID.get(ruleset)?.registration;
  return reg ? { label: reg.label, field: reg.field, personField: reg.person_field, birthYear: reg.birth_year } : null;
}
