// A player's own game ID in the app: read from players[].game_id (older documents: pop_id, rating_id), declared
// per game by the engine (tables.json), and found by the roster search (pwa/views/players.js rowMatches).
import assert from "node:assert/strict";
import { test } from "node:test";
import "./support/app.mjs";

const { gameIdFor, gameIdOf, hasReport, writesTom } = await import("../../pwa/app/games.js");
const { rowMatches, searchKey } = await import("../../pwa/views/players.js");

test("the game ID is game_id, else an older document's pop_id or rating_id", () => {
  assert.equal(gameIdOf({ extra: { game_id: "1000925", pop_id: "1" } }), "1000925");
  assert.equal(gameIdOf({ extra: { pop_id: " 1000926 " } }), "1000926");
  assert.equal(gameIdOf({ extra: { rating_id: "jtkirk" } }), "jtkirk");
  assert.equal(gameIdOf({ extra: {} }), "");
});

test("every game names its ID; the engine says which games have a report or a TOM file", () => {
  assert.equal(gameIdFor("pokemon-tcg").label, "Play! Pokémon ID");
  assert.equal(gameIdFor("pokemon-tcg").field, "game_id");
  assert.equal(gameIdFor("startrek-2e").label, "trekcc.org forum handle");
  assert.equal(gameIdFor("doomtown").personField, null);
  assert.equal(hasReport("tribbles"), true);
  assert.equal(hasReport("pokemon-vg"), false);
  assert.equal(writesTom("pokemon-vg"), true);
  assert.equal(writesTom("agot"), false);
});

test("the roster search finds a Play! Pokémon ID whole, or from four digits on, and a handle by part", () => {
  const ash = { name: "Ash Ketchum", id: "p-qa3v5i", gameId: "1000925", tables: [3, null] };
  assert.ok(rowMatches(searchKey("1000925"), ash));
  assert.ok(rowMatches(searchKey("0925"), ash));
  assert.ok(!rowMatches(searchKey("925"), ash));  // short numbers are tables
  assert.ok(rowMatches(searchKey("3"), ash));
  const kirk = { name: "Kirk", id: "p-x", gameId: "JTKirk", tables: [null, null] };
  assert.ok(rowMatches(searchKey("jtk"), kirk));
  assert.ok(!rowMatches(searchKey("spock"), kirk));
});
