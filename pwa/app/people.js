// @ts-check
// Players across events as the screens show them: a person in one line (which game id a ruleset's
// registration asks for is the engine's: app/games.js gameIdFor).
export { gameIdFor, gameIdOf } from "./games.js";

/** A person's game ids in one line ("" when none is on record). */
export function gameIdsLine(p) {
  return personLine(p).slice(p.name.length + 3);
}

/** A person in one line: name and game ids. */
export function personLine(p) {
  const ids = [];
  if (p.pokemon_id) ids.push(`Play! Pokémon ID ${p.pokemon_id}${p.birth_year ? ` (${p.birth_year})` : ""}`);
  if (p.trekcc_id) ids.push(`trekcc ${p.trekcc_id}`);
  if (p.trekcc_handle) ids.push(`@${p.trekcc_handle}`);
  for (const [k, v] of Object.entries(p.other_ids || {})) ids.push(`${k} ${v}`);
  return ids.length ? `${p.name} · ${ids.join(" · ")}` : p.name;
}
