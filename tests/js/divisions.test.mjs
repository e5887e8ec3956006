// pwa/views/players.js divisionHint / bandsLine: the division a typed birth year gives (Pokémon TOP 3.1.1),
// from the bands rules_api age_divisions sends (season 2019: the TOP's own table).
import assert from "node:assert/strict";
import { test } from "node:test";
import "./support/app.mjs";

const { divisionHint, bandsLine } = await import("../../pwa/views/players.js");

const ages = {
  season: { year: 2019, label: "2019-20", basis: "date" },
  bands: [
    { division: "masters", label: "Masters", from: null, to: 2003 },
    { division: "senior", label: "Senior", from: 2004, to: 2007 },
    { division: "junior", label: "Junior", from: 2008, to: 2020 },
  ],
};

test("a birth year shows the TOP's division for it", () => {
  assert.equal(divisionHint(ages, "2003"), "Born 2003: Masters division in the 2019-20 season.");
  assert.equal(divisionHint(ages, "2004"), "Born 2004: Senior division in the 2019-20 season.");
  assert.equal(divisionHint(ages, "2007"), "Born 2007: Senior division in the 2019-20 season.");
  assert.equal(divisionHint(ages, "2008"), "Born 2008: Junior division in the 2019-20 season.");
});

test("a year after the season, no season, or no year says so or nothing", () => {
  assert.match(divisionHint(ages, "2021"), /after the 2019-20 season, so in no division/);
  assert.match(divisionHint({ ...ages, season: null, bands: [] }, "2001"), /no season yet/);
  assert.equal(divisionHint(ages, ""), "");
  assert.equal(divisionHint(null, "2001"), "");
});

test("the bands read as one line", () => {
  assert.equal(bandsLine(ages.bands), "Masters born 2003 or earlier · Senior 2004–2007 · Junior 2008 or later");
});
