"""A player's view rendered from the folded state (issue 26): what a phone shows without folding the log,
with the privacy of the player's pull, for every ruleset."""

from __future__ import annotations

import json
import unittest
from typing import Any

from shared_rules.errors import RulesError
from shared_rules.games import RULESETS
from shared_rules.state import initial_state, replay
from shared_rules.state.answers import round_clocks, ruleset_info
from shared_rules.state.player_view import player_view, shared_parts

T0 = 1_800_000_000_000


class _Log:
    """Operations of one organizer device, numbered."""

    def __init__(self) -> None:
        self.ops: list[dict[str, Any]] = []

    def add(self, kind: str, payload: dict[str, Any], device: str = "desk", role: str = "organizer") -> None:
        actor: dict[str, Any] = {"role": role}
        self.ops.append(
            {
                "type": kind,
                "op_id": f"{device}:{len(self.ops) + 1}",
                "device": device,
                "actor": actor,
                "at": T0 + len(self.ops),
                "payload": payload,
            }
        )


def _size(ruleset: str) -> int:
    sizes = ruleset_info(ruleset, {})["match_sizes"]
    return 2 if sizes[0] <= 2 <= sizes[1] else sizes[0]


def _outcomes(ruleset: str, size: int) -> dict[str, Any]:
    """A result the ruleset's form would send: its first outcome pair, with the stats or scores it asks for."""
    info = ruleset_info(ruleset, {})
    form = info["ui"]["result"]
    outcomes = info["pairs"][0]["outcomes"] if info["pairs"] else ["win"] + ["loss"] * (size - 1)
    result: dict[str, Any] = {"outcomes": outcomes}
    if form["scores"] is not None:
        result["scores"] = [100] + [40] * (size - 1)
    if form["stats"] is not None:
        fields = [f["key"] for f in form["stats"]["fields"]]
        result["stats"] = [dict.fromkeys(fields, 3), dict.fromkeys(fields, 1)]
    return result


def _penalty(ruleset: str, player: str, reason: str) -> dict[str, Any]:
    """A warning in the ruleset's penalty system (a kind, or a Star Trek level)."""
    form = ruleset_info(ruleset, {})["ui"]["penalties"]
    if form["system"] == "levels":
        return {"player": player, "level": 1, "infraction": "slow play", "reason": reason}
    return {"player": player, "kind": form["floor"][0], "reason": reason}


def _event(
    ruleset: str, policy: str | None = None, players: int = 12, last: str = "started"
) -> tuple[dict[str, Any], int]:
    """An event of ``ruleset``: round 1 complete, round 2 started with one result in (``last`` "draft": only
    drafted)."""
    log = _Log()
    settings = {"standings_policy": policy} if policy else {}
    log.add("event.create", {"name": "Cup", "ruleset": ruleset, "seed": "secret-seed-42", "settings": settings})
    for i in range(players):
        log.add("player.register", {"player": {"id": f"p{i}", "name": f"Player {i}", "birth_year": 1990 + i}})
    size = _size(ruleset)
    secret = ruleset_info(ruleset, {})["time_limits"].get("secret_d6_sides") is not None
    for number in (1, 2):
        ids = [f"p{(i + number - 1) % players}" for i in range(players)]
        matches = [{"table": t + 1, "players": ids[t * size : (t + 1) * size]} for t in range(players // size)]
        log.add("round.pair", {"number": number, "matches": matches})
        if number == 2 and last == "draft":
            break
        log.add("round.publish", {"number": number})
        log.add("round.start", {"number": number, "duration_s": 3000, **({"secret": True} if secret else {})})
        for table in range(1, len(matches) + 1 if number == 1 else 2):
            log.add("result.report", {"round": number, "table": table, **_outcomes(ruleset, size)})
    log.add("penalty.issue", _penalty(ruleset, "p0", "slow play"), "judge", "judge")
    log.add("penalty.issue", _penalty(ruleset, "p5", "marked sleeves"), "judge", "judge")
    return replay(log.ops, initial_state()), size


class PlayerViewTest(unittest.TestCase):
    def test_every_ruleset_renders_a_json_view_of_the_players_own_matches(self) -> None:
        for ruleset in RULESETS:
            with self.subTest(ruleset=ruleset):
                state, size = _event(ruleset)
                view = player_view(state, "p0", T0 + 60_000)
                drafted = player_view(_event(ruleset, last="draft")[0], "p0", T0 + 60_000)
                self.assertEqual([r["number"] for r in drafted["state"]["rounds"]], [1], "the draft is held back")
                self.assertEqual(json.loads(json.dumps(view)), view)
                self.assertEqual(view["version"], 1)
                self.assertEqual(view["me"], "p0")
                rounds = view["state"]["rounds"]
                self.assertEqual([r["number"] for r in rounds], [1, 2])
                for rnd in rounds:
                    self.assertEqual(len(rnd["matches"]), 1)
                    self.assertIn("p0", rnd["matches"][0]["players"])
                self.assertEqual(view["info"], ruleset_info(ruleset, state["settings"]))
                self.assertEqual([c["round"] for c in view["clock"]], [1, 2])

    def test_only_the_player_and_their_opponents_are_listed_without_private_fields(self) -> None:
        state, _ = _event("pokemon-tcg")
        view = player_view(state, "p0", T0)
        opponents = {p for r in view["state"]["rounds"] for m in r["matches"] for p in m["players"]}
        self.assertEqual({p["id"] for p in view["state"]["players"]}, opponents)
        for p in view["state"]["players"]:
            if p["id"] == "p0":
                self.assertEqual(p["birth_year"], 1990)
            else:
                self.assertIsNone(p["birth_year"], "no one else's birth year")
                self.assertEqual(p["extra"], {})

    def test_another_players_penalty_and_the_seed_are_not_in_the_view(self) -> None:
        state, _ = _event("pokemon-tcg")
        view = player_view(state, "p0", T0)
        self.assertEqual([p["player"] for p in view["state"]["penalties"]], ["p0"])
        text = json.dumps(view)
        self.assertNotIn("marked sleeves", text)
        self.assertNotIn("secret-seed-42", text)

    def test_doomtown_secret_time_is_withheld_from_the_state_and_the_clock(self) -> None:
        state, _ = _event("doomtown")
        now = T0 + 600_000
        staff_clock = round_clocks(state, now)
        self.assertTrue(all(c["secret_s"] for c in staff_clock), "the staff know the d6")
        view = player_view(state, "p0", now)
        for rnd in view["state"]["rounds"]:
            self.assertIsNone(rnd["timer"]["secret_s"])
        for mine, staff in zip(view["clock"], staff_clock):
            self.assertTrue(mine["secret"])
            self.assertIsNone(mine["secret_s"])
            self.assertEqual(mine["remaining_ms"], staff["announced_ms"], "the clock runs to the announced hour")

    def test_standings_are_those_after_the_last_complete_round_by_default(self) -> None:
        state, _ = _event("pokemon-tcg")
        view = player_view(state, "p0", T0)
        self.assertEqual(view["standings"]["after"], {"number": 1, "stage": "swiss"})
        rows = view["standings"]["rows"]
        self.assertEqual(len(rows), 12)
        self.assertEqual({"rank", "player", "name", "record", "points"} - set(rows[0]), set())
        self.assertIsNone(view["standings_note"])

    def test_live_standings_count_the_round_in_play(self) -> None:
        state, _ = _event("pokemon-tcg", "live")
        self.assertEqual(player_view(state, "p0", T0)["standings"]["after"], {"number": 2, "stage": "swiss"})

    def test_standings_only_at_the_end_show_none_with_the_reason(self) -> None:
        for policy in ("end", "after-swiss"):
            with self.subTest(policy=policy):
                state, _ = _event("pokemon-tcg", policy)
                view = player_view(state, "p0", T0)
                self.assertIsNone(view["standings"])
                self.assertIn("organizer posts standings", view["standings_note"])

    def test_the_deck_list_sheet_holds_only_the_players_own_row(self) -> None:
        state, _ = _event("startrek-2e")
        sheet = player_view(state, "p3", T0)["decklist"]
        self.assertEqual([row["id"] for row in sheet["players"]], ["p3"])
        self.assertIn("spec", sheet)

    def test_reports_name_other_devices_by_their_alias(self) -> None:
        state, _ = _event("pokemon-tcg")
        view = player_view(state, "p0", T0, alias=lambda device: "dev-x" if device == "desk" else device)
        report = view["state"]["rounds"][0]["matches"][0]["reports"][0]
        self.assertEqual(report["device"], "dev-x")
        self.assertTrue(report["op_id"].startswith("dev-x:"))

    def test_the_same_state_gives_the_same_view_with_or_without_shared_parts(self) -> None:
        state, _ = _event("agot")
        alone = player_view(state, "p2", T0)
        self.assertEqual(player_view(state, "p2", T0, shared=shared_parts(state)), alone)
        self.assertEqual(json.dumps(player_view(state, "p2", T0)), json.dumps(alone))

    def test_an_unknown_player_is_refused_by_name(self) -> None:
        state, _ = _event("pokemon-tcg")
        with self.assertRaisesRegex(RulesError, "no player 'nobody'"):
            player_view(state, "nobody", T0)


if __name__ == "__main__":
    unittest.main()


class PlayerViewBracketTest(unittest.TestCase):
    def _cut(self, *, publish: bool) -> dict[str, Any]:
        log = _Log()
        log.add("event.create", {"name": "Cup", "ruleset": "pokemon-tcg", "seed": "s"})
        for i in range(4):
            log.add("player.register", {"player": {"id": f"p{i}", "name": f"Player {i}"}})
        matches = [{"table": 1, "players": ["p0", "p1"]}, {"table": 2, "players": ["p2", "p3"]}]
        log.add("round.pair", {"number": 1, "matches": matches})
        log.add("round.publish", {"number": 1})
        log.add("round.start", {"number": 1, "duration_s": 3000})
        for table in (1, 2):
            log.add("result.report", {"round": 1, "table": table, "outcomes": ["win", "loss"]})
        log.add("cut.make", {"size": 2, "matches": [{"players": ["p0", "p2"]}]})
        if publish:
            log.add("round.publish", {"number": 2})
        return replay(log.ops, initial_state())

    def test_a_drafted_cut_shows_no_bracket(self) -> None:
        self.assertIsNone(player_view(self._cut(publish=False), "p0", T0)["bracket"])

    def test_a_posted_cut_shows_its_bracket_with_every_seated_players_name(self) -> None:
        state = self._cut(publish=True)
        for me in ("p0", "p1"):  # in the cut, and out of it
            with self.subTest(player=me):
                bracket = player_view(state, me, T0)["bracket"]
                self.assertIsNotNone(bracket)
                seated = [p["player"] for r in bracket["rounds"] for s in r["slots"] for p in s["players"]]
                self.assertEqual(sorted(seated), ["p0", "p2"])
                self.assertEqual(bracket["names"], {"p0": "Player 0", "p2": "Player 2"})
