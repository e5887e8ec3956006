// @ts-check
// WCT leagues (Star Trek OP Guide 12) as the screens use them: the grant this device holds for a league,
// and adopting a director token someone gave this device (checked against the server first).
import { getLeague, heldLeagues, keepLeague } from "./services.js";

/** This device's grant for a league, or null. */
export const grantOf = (leagueId) => heldLeagues().find((l) => l.league_id === leagueId) || null;

/** A 401 answer: this device's director token no longer opens the league (revoked, replaced, unknown). */
export const lostAccess = (err) => err?.status === 401;
const LEAGUE_ID = /^[A-Za-z0-9_-]{1,32}$/;

/**
 * Check a director token someone gave this device against the server, then keep it: the league's grant.
 * Throws an Error whose message says plainly what is wrong (revoked, another league's, not a token, offline).
 */
export async function adoptToken(leagueId, token) {
  const id = leagueId.trim();
  const secret = token.trim();
  if (!LEAGUE_ID.test(id)) throw new Error("League id: letters, digits, - and _ only, as the director's page shows it.");
  if (!secret) throw new Error("Director token: paste the token (it starts with tl_).");
  let league;
  try {
    league = await getLeague({ league_id: id, token: secret });
  } catch (err) {
    if (err.code === "token-revoked") throw new Error("This director token was revoked: ask a league director for a new one.", { cause: err });
    if (err.code === "token-expired") throw new Error("This director token was replaced by a newer one: ask for the new token.", { cause: err });
    if (err.code === "unknown-league") throw new Error(`There is no league '${id}' on this server.`, { cause: err });
    if (err.status === 401) throw new Error("This is not a director token of this server: check that it was pasted whole.", { cause: err });
    if (err.status === 403) throw new Error(`This token does not direct league '${id}': ${err.message}`, { cause: err });
    throw err;
  }
  const grant = { league_id: league.league_id, token: secret, name: league.name };
  keepLeague(grant);
  return grant;
}

