// Players across events as the screens show them: which game id a ruleset's registration asks for, and a
// person in one line.

/** Which game id a ruleset's registration asks for, and the register op's field that carries it. */
export function gameIdFor(ruleset) {
  if (ruleset === "pokemon-tcg" || ruleset === "pokemon-vg") {
    return { label: "Play! Pokémon ID", field: "pop_id", personField: "pokemon_id", birthYear: true };
  }
  if (ruleset === "startrek-1e" || ruleset === "startrek-2e" || ruleset === "tribbles") {
    return { label: "trekcc.org member id", field: "rating_id", personField: "trekcc_id", birthYear: false };
  }
  return null;
}

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
