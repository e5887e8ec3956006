"""The event reducer: every operation type accepted and refused, disputes, documents."""

from __future__ import annotations

import json
import unittest
from typing import Any

from shared_rules.errors import RulesError
from shared_rules.run import load_event
from shared_rules.state import (
    OPERATION_TYPES,
    OperationRejected,
    apply,
    check,
    from_event_document,
    initial_state,
    replay,
    timer_remaining_ms,
    to_event_document,
)

T0 = 1_700_000_000_000


class Log:
    """Writes operations the way devices do: per-device sequence numbers, a ticking clock."""

    def __init__(self) -> None:
        self.seq: dict[str, int] = {}
        self.clock = T0

    def op(
        self,
        op_type: str,
        payload: dict[str, Any] | None = None,
        *,
        device: str = "desk",
        role: str = "organizer",
        player: str | None = None,
        at: int | None = None,
    ) -> dict[str, Any]:
        n = self.seq.get(device, 0) + 1
        self.seq[device] = n
        self.clock += 1000
        actor: dict[str, Any] = {"role": role}
        if player is not None:
            actor["player"] = player
        return {
            "type": op_type,
            "op_id": f"{device}:{n}",
            "device": device,
            "actor": actor,
            "at": self.clock if at is None else at,
            "payload": payload or {},
        }


class Event:
    """An event driven by operations, keeping its log."""

    def __init__(self, players: int = 4, ruleset: str = "custom", settings: dict[str, Any] | None = None) -> None:
        self.log = Log()
        self.state = initial_state()
        self.ops: list[dict[str, Any]] = []
        self.do("event.create", {"ruleset": ruleset, "name": "Cup", "seed": "seed-1", "settings": settings or {}})
        for i in range(1, players + 1):
            self.do("player.register", {"player": {"id": f"p{i}", "name": f"Player {i}"}}, role="scorekeeper")

    def do(self, op_type: str, payload: dict[str, Any] | None = None, **kw: Any) -> dict[str, Any]:
        op = self.log.op(op_type, payload, **kw)
        self.state = apply(self.state, op)
        self.ops.append(op)
        return self.state

    def why(self, op_type: str, payload: dict[str, Any] | None = None, **kw: Any) -> str | None:
        """The reason the operation would be refused (None if accepted); the state is unchanged."""
        return check(self.state, self.log.op(op_type, payload, **kw))

    def refusal_code(self, op_type: str, payload: dict[str, Any] | None = None, **kw: Any) -> str | None:
        """The stable ``code`` of the refusal (None if accepted); the state is unchanged."""
        try:
            apply(self.state, self.log.op(op_type, payload, **kw))
        except OperationRejected as exc:
            return exc.code
        return None

    def pair(self, number: int, tables: list[list[str]], **kw: Any) -> None:
        matches = [
            {"table": i + 1, "players": ps} if len(ps) > 1 else {"players": ps, "outcomes": ["bye"]}
            for i, ps in enumerate(tables)
        ]
        self.do("round.pair", {"number": number, "matches": matches, **kw})

    def play(self, number: int, tables: list[list[str]]) -> None:
        self.pair(number, tables)
        self.do("round.start", {"number": number, "duration_s": 3000}, role="scorekeeper")

    def report(self, number: int, table: int, outcomes: list[str], **kw: Any) -> dict[str, Any]:
        kw.setdefault("role", "scorekeeper")
        return self.do("result.report", {"round": number, "table": table, "outcomes": outcomes}, **kw)

    def match(self, number: int, table: int) -> dict[str, Any]:
        rnd = next(r for r in self.state["rounds"] if r["number"] == number)
        return next(m for m in rnd["matches"] if m["table"] == table)

    def round(self, number: int) -> dict[str, Any]:
        return next(r for r in self.state["rounds"] if r["number"] == number)

    def player(self, pid: str) -> dict[str, Any]:
        return next(p for p in self.state["players"] if p["id"] == pid)


def played_round_one(players: int = 4) -> Event:
    ev = Event(players)
    ev.play(1, [["p1", "p2"], ["p3", "p4"]])
    return ev


class EventOperationsTest(unittest.TestCase):
    def test_create_sets_ruleset_name_seed_and_settings(self) -> None:
        ev = Event(0, settings={"rounds": 3})
        self.assertEqual(
            ("custom", "Cup", "seed-1", {"rounds": 3}),
            (ev.state["ruleset"], ev.state["name"], ev.state["seed"], ev.state["settings"]),
        )
        self.assertEqual("desk", ev.state["created_by"])

    def test_create_twice_is_refused_naming_the_creator(self) -> None:
        ev = Event(0)
        self.assertEqual(
            "event.create: the event was already created by desk",
            ev.why("event.create", {"ruleset": "custom"}, device="tab-2"),
        )

    def test_create_refuses_unknown_ruleset_and_bad_settings(self) -> None:
        log = Log()
        self.assertIn("'chess' is not a ruleset", check(initial_state(), log.op("event.create", {"ruleset": "chess"})))
        reason = check(initial_state(), log.op("event.create", {"ruleset": "custom", "settings": {"points": []}}))
        self.assertIn("settings.points", reason)

    def test_nothing_before_create(self) -> None:
        reason = check(initial_state(), Log().op("player.register", {"player": {"id": "p1"}}))
        self.assertEqual("player.register: no event yet; the first operation must be event.create", reason)

    def test_configure_merges_settings_and_renames(self) -> None:
        ev = Event(0, settings={"rounds": 3, "cut": 8})
        ev.do("event.configure", {"name": "Regional", "settings": {"cut": None, "rounds": 4}})
        self.assertEqual("Regional", ev.state["name"])
        self.assertEqual({"rounds": 4}, ev.state["settings"])

    def test_configure_refuses_ruleset_change_once_round_one_is_paired(self) -> None:
        ev = Event(2)
        self.assertIsNone(ev.why("event.configure", {"ruleset": "custom"}))
        ev.pair(1, [["p1", "p2"]])
        self.assertEqual(
            "event.configure: the ruleset cannot change once round 1 is paired",
            ev.why("event.configure", {"ruleset": "doomtown"}),
        )

    def test_configure_refuses_settings_that_void_recorded_results(self) -> None:
        ev = played_round_one()
        ev.report(1, 1, ["tie", "tie"])
        reason = ev.why("event.configure", {"settings": {"points": {"win": 3, "loss": 0, "bye": 3}}})
        self.assertIn("'tie' is not an outcome of custom", reason)

    def test_close_needs_the_last_round_complete_then_refuses_everything(self) -> None:
        ev = played_round_one()
        self.assertIn("round 1 is not complete", ev.why("event.close"))
        ev.report(1, 1, ["win", "loss"])
        ev.report(1, 2, ["win", "loss"])
        ev.do("event.close")
        self.assertTrue(ev.state["closed"])
        self.assertEqual("player.check_in: the event is closed", ev.why("player.check_in", {"player": "p1"}))
        self.assertEqual(
            "event-closed", ev.refusal_code("result.correct", {"round": 1, "table": 1, "outcomes": ["loss", "win"]})
        )

    def test_a_closed_event_still_takes_its_tournament_report_details_and_nothing_else(self) -> None:
        ev = Event(4, ruleset="startrek-2e")
        ev.do("event.close")
        # Star Trek OP Guide 8: the report is submitted after the tournament's completion.
        ev.do("event.configure", {"settings": {"report": {"region": "Bajor", "league_event": False}}})
        self.assertEqual({"region": "Bajor", "league_event": False}, ev.state["settings"]["report"])
        self.assertTrue(ev.state["closed"])
        for payload in (
            {"settings": {"report": {"region": "Cardassia"}, "rounds": 9}},
            {"settings": {"report": {"region": "Cardassia"}}, "name": "Renamed"},
            {"settings": {"report": {"region": "Cardassia"}}, "ruleset": "startrek-2e"},
            {"settings": {"rounds": 9}},
            {"name": "Renamed"},
        ):
            with self.subTest(payload=payload):
                self.assertEqual("event.configure: the event is closed", ev.why("event.configure", payload))
        self.assertIn("may not", ev.why("event.configure", {"settings": {"report": {"region": "X"}}}, role="judge"))
        self.assertEqual({"region": "Bajor", "league_event": False}, ev.state["settings"]["report"])
        ev.do("event.configure", {"settings": {"report": None}})  # cleared, to be written again
        self.assertNotIn("report", ev.state["settings"])

    def test_a_closed_event_of_a_game_without_a_report_takes_nothing(self) -> None:
        ev = Event(4)  # custom: no tournament report
        ev.do("event.close")
        reason = ev.why("event.configure", {"settings": {"report": {"region": "Bajor"}}})
        self.assertEqual("event.configure: the event is closed", reason)

    def test_report_details_are_checked_open_or_closed(self) -> None:
        ev = Event(4, ruleset="tribbles")
        bad = (
            ("garbage", "settings.report: expected an object"),
            ({"bogus": 1}, "settings.report.bogus: not a report field"),
            ({"date": "20 Nov"}, "settings.report.date: expected a date YYYY-MM-DD"),
            ({"league_event": "yes"}, "settings.report.league_event: expected true or false"),
            ({"region": 7}, "settings.report.region: expected text"),
        )
        for closed in (False, True):
            if closed:
                ev.do("event.close")
            for report, problem in bad:
                with self.subTest(report=report, closed=closed):
                    self.assertIn(problem, ev.why("event.configure", {"settings": {"report": report}}))
        self.assertNotIn("report", ev.state["settings"])


class PlayerOperationsTest(unittest.TestCase):
    def test_register_numbers_entries_in_order_and_keeps_extra_fields(self) -> None:
        ev = Event(2)
        ev.do(
            "player.register",
            {"player": {"id": "p3", "name": "Brock", "birth_year": 2001, "pop_id": "123"}},
            role="scorekeeper",
        )
        self.assertEqual([1, 2, 3], [p["entry"] for p in ev.state["players"]])
        self.assertEqual({"pop_id": "123"}, ev.player("p3")["extra"])
        self.assertFalse(ev.player("p3")["late"])

    def test_register_refuses_duplicates_and_malformed_players(self) -> None:
        ev = Event(2)
        self.assertEqual(
            "player.register: player 'p1' is already registered", ev.why("player.register", {"player": {"id": "p1"}})
        )
        self.assertEqual(
            "player.register: payload.player.id: missing required field",
            ev.why("player.register", {"player": {"name": "X"}}),
        )
        self.assertEqual(
            "player.register: payload.player.birth_year: expected a whole number, got a string",
            ev.why("player.register", {"player": {"id": "p9", "birth_year": "2001"}}),
        )
        self.assertEqual(
            "player.register: payload.player.entry: entry 2 is already p2's",
            ev.why("player.register", {"player": {"id": "p9", "entry": 2}}),
        )
        self.assertEqual(
            "player.register: payload.player.dropped_after: use player.drop",
            ev.why("player.register", {"player": {"id": "p9", "dropped_after": 1}}),
        )

    def test_registering_after_round_one_started_flags_late(self) -> None:
        ev = played_round_one()
        ev.do("player.register", {"player": {"id": "p5"}}, role="scorekeeper")
        self.assertTrue(ev.player("p5")["late"])  # Pokémon TOP 3.1.3

    def test_late_player_gets_a_late_loss_where_the_ruleset_has_one(self) -> None:
        ev = Event(4, settings={"points": {"win": 3, "tie": 1, "loss": 0, "bye": 3, "late": 0}})
        ev.play(1, [["p1", "p2"], ["p3", "p4"]])
        ev.do("player.register", {"player": {"id": "p5"}}, role="scorekeeper")
        late = [m for m in ev.round(1)["matches"] if m["players"] == ["p5"]]
        self.assertEqual(1, len(late))
        self.assertEqual((["late"], "confirmed"), (late[0]["outcomes"], late[0]["status"]))

    def test_edit_changes_fields_and_refuses_unknown_player(self) -> None:
        ev = Event(2)
        ev.do("player.edit", {"player": "p1", "name": "Ash K.", "earned_byes": 1, "fields": {"deck": "Pikachu"}})
        self.assertEqual(
            ("Ash K.", 1, {"deck": "Pikachu"}),
            (ev.player("p1")["name"], ev.player("p1")["earned_byes"], ev.player("p1")["extra"]),
        )
        self.assertEqual("unknown player 'p9'", ev.why("player.edit", {"player": "p9", "name": "X"}))
        self.assertEqual(
            "player.edit: payload.fields.entry: not an extra field",
            ev.why("player.edit", {"player": "p1", "fields": {"entry": 5}}),
        )

    def test_check_in_and_undo(self) -> None:
        ev = Event(2)
        ev.do("player.check_in", {"player": "p1"}, role="player", player="p1")
        self.assertTrue(ev.player("p1")["checked_in"])
        ev.do("player.check_in", {"player": "p1", "checked_in": False}, role="judge")
        self.assertFalse(ev.player("p1")["checked_in"])
        self.assertEqual("unknown player 'p7'", ev.why("player.check_in", {"player": "p7"}))

    def test_drop_records_the_current_round_and_refuses_twice(self) -> None:
        ev = played_round_one()
        ev.do("player.drop", {"player": "p2"}, role="player", player="p2")
        self.assertEqual(1, ev.player("p2")["dropped_after"])
        self.assertEqual(
            "player.drop: player p2 already dropped after round 1", ev.why("player.drop", {"player": "p2"})
        )
        self.assertIn("round 3 has not started", ev.why("player.drop", {"player": "p3", "after": 3}))

    def test_drop_before_round_one_is_after_round_zero(self) -> None:
        ev = Event(2)
        ev.do("player.drop", {"player": "p1"}, role="scorekeeper")
        self.assertEqual(0, ev.player("p1")["dropped_after"])

    def test_reinstate_brings_a_dropped_player_back(self) -> None:
        ev = Event(2)
        self.assertEqual("player.reinstate: player p1 has not dropped", ev.why("player.reinstate", {"player": "p1"}))
        ev.do("player.drop", {"player": "p1"})
        ev.do("player.reinstate", {"player": "p1"}, role="head-judge")
        self.assertIsNone(ev.player("p1")["dropped_after"])

    def test_rejoining_player_takes_a_loss_for_each_missed_round_where_the_ruleset_has_one(self) -> None:
        ev = Event(5, settings={"points": {"win": 3, "loss": 0, "bye": 3, "missed-game": 0}})
        ev.do("player.drop", {"player": "p5"})
        ev.play(1, [["p1", "p2"], ["p3", "p4"]])
        ev.do("player.reinstate", {"player": "p5"})
        missed = [m for m in ev.round(1)["matches"] if m["players"] == ["p5"]]
        self.assertEqual([(["missed-game"], "confirmed")], [(m["outcomes"], m["status"]) for m in missed])
        self.assertIsNone(ev.player("p5")["dropped_after"])

    def test_no_reinstatement_after_the_cut(self) -> None:
        ev = played_round_one()
        ev.do("player.drop", {"player": "p4"})
        ev.report(1, 1, ["win", "loss"])
        ev.report(1, 2, ["win", "loss"])
        ev.do("cut.make", {"size": 2, "matches": [{"table": 1, "players": ["p1", "p3"]}]})
        self.assertIn("no re-entry after the cut", ev.why("player.reinstate", {"player": "p4"}))

    def test_remove_takes_a_mistyped_entry_off_the_roster(self) -> None:
        ev = Event(3)
        ev.do("player.register", {"player": {"id": "p9", "name": "Ahs Ketchum"}}, role="scorekeeper")
        ev.do("player.remove", {"player": "p9"}, role="scorekeeper")
        self.assertEqual(["p1", "p2", "p3"], [p["id"] for p in ev.state["players"]])
        ev.do("player.register", {"player": {"id": "p9", "name": "Ash Ketchum"}}, role="scorekeeper")
        self.assertEqual(
            ("Ash Ketchum", 4), (ev.player("p9")["name"], ev.player("p9")["entry"])
        )  # the id is free again
        ev.do("player.drop", {"player": "p3"})
        ev.do("player.remove", {"player": "p3"})  # dropped before round 1, in nothing: may go too
        self.assertEqual(["p1", "p2", "p9"], [p["id"] for p in ev.state["players"]])
        self.assertEqual(ev.state, replay(ev.ops))

    def test_remove_refuses_an_unknown_player_or_one_anything_refers_to(self) -> None:
        ev = Event(5)
        self.assertEqual("player.remove: unknown player 'p9'", ev.why("player.remove", {"player": "p9"}))
        self.assertEqual("player.remove: payload.player: missing required field", ev.why("player.remove", {}))
        ev.do("penalty.issue", {"player": "p5", "kind": "warning", "reason": "late deck list"})
        self.assertEqual(
            "player.remove: p5 has a penalty on record (warning): penalties stay on record; drop the "
            "player instead (player.drop)",
            ev.why("player.remove", {"player": "p5"}),
        )
        ev.pair(1, [["p1", "p2"], ["p3", "p4"]])
        self.assertEqual(
            "player.remove: p2 is paired in round 1, still a draft: pair the round again or discard "
            "the draft first (round.discard), or drop the player instead (player.drop)",
            ev.why("player.remove", {"player": "p2"}),
        )
        ev.do("round.start", {"number": 1})
        self.assertEqual(
            "player.remove: p3 is in round 1 table 2 (started): a player who was paired stays in the "
            "event's record; drop the player instead (player.drop)",
            ev.why("player.remove", {"player": "p3"}),
        )
        ev.report(1, 1, ["win", "loss"])
        ev.do("player.drop", {"player": "p1"})
        self.assertIn("p1 is in round 1 table 1 (started)", ev.why("player.remove", {"player": "p1"}))

    def test_remove_refuses_a_seeded_player(self) -> None:
        ev = Event(2, settings={"seeds": ["p2", "p1"]})
        self.assertEqual(
            "player.remove: p2 is in settings.seeds: take them out of the seeds first "
            "(event.configure), or drop the player instead (player.drop)",
            ev.why("player.remove", {"player": "p2"}),
        )

    def test_a_removed_player_s_own_device_can_do_nothing_more(self) -> None:
        ev = Event(3)
        ev.do("player.remove", {"player": "p3"})
        self.assertEqual(
            "player.check_in: 'p3' is not a player of this event",
            ev.why("player.check_in", {"player": "p3"}, role="player", player="p3"),
        )


class RoundOperationsTest(unittest.TestCase):
    def test_pair_creates_a_draft_round_with_byes_settled(self) -> None:
        ev = Event(3)
        ev.pair(1, [["p1", "p2"], ["p3"]])
        rnd = ev.round(1)
        self.assertEqual(("draft", "swiss"), (rnd["status"], rnd["stage"]))
        self.assertEqual({"device": "desk", "op_id": "desk:5", "at": T0 + 5000}, rnd["paired_by"])
        self.assertEqual(["pending", "confirmed"], [m["status"] for m in rnd["matches"]])
        self.assertEqual(["bye"], rnd["matches"][1]["outcomes"])

    def test_pair_refuses_unknown_dropped_and_repeated_players(self) -> None:
        ev = Event(4)
        ev.do("player.drop", {"player": "p4"})
        cases = {
            "round.pair: payload.matches[0].players[1]: unknown player 'p9'": [["p1", "p9"]],
            "round.pair: payload.matches[0].players[1]: player p4 has dropped": [["p1", "p4"]],
            "round.pair: payload.matches[1].players[0]: player p1 is already in matches[0]": [
                ["p1", "p2"],
                ["p1", "p3"],
            ],
            "round.pair: payload.matches[0].players: 3 players in a match; custom takes 1 or 2": [["p1", "p2", "p3"]],
        }
        for reason, tables in cases.items():
            with self.subTest(reason):
                self.assertEqual(
                    reason, ev.why("round.pair", {"number": 1, "matches": [{"players": t} for t in tables]})
                )
        self.assertEqual(
            "round.pair: payload.matches: a round needs at least one match",
            ev.why("round.pair", {"number": 1, "matches": []}),
        )
        self.assertIn(
            "results are reported, not paired",
            ev.why("round.pair", {"number": 1, "matches": [{"players": ["p1", "p2"], "outcomes": ["win", "loss"]}]}),
        )

    def test_pair_refuses_the_wrong_round_number(self) -> None:
        ev = Event(2)
        self.assertEqual(
            "round.pair: round 2 cannot be paired now; the next round is 1",
            ev.why("round.pair", {"number": 2, "matches": [{"players": ["p1", "p2"]}]}),
        )

    def test_pairing_is_refused_while_a_result_is_missing_or_disputed(self) -> None:
        ev = played_round_one()
        ev.report(1, 1, ["win", "loss"])
        self.assertEqual(
            "round.pair: pairing is refused: round 1 still has 1 result(s) missing or disputed",
            ev.why("round.pair", {"number": 2, "matches": [{"players": ["p1", "p3"]}]}),
        )
        ev.report(1, 2, ["win", "loss"], device="tab-1")
        ev.report(1, 2, ["loss", "win"], device="tab-2")
        self.assertEqual("disputed", ev.match(1, 2)["status"])
        self.assertEqual(
            "round.pair: resolve the dispute at round 1 table 2 before pairing round 2",
            ev.why("round.pair", {"number": 2, "matches": [{"players": ["p1", "p3"]}]}),
        )

    def test_pairing_is_refused_while_the_previous_round_has_not_been_played(self) -> None:
        ev = Event(4)
        ev.pair(1, [["p1", "p2"], ["p3", "p4"]])
        self.assertEqual(
            "round.pair: pairing is refused: round 1 has not been played yet",
            ev.why("round.pair", {"number": 2, "matches": [{"players": ["p1", "p3"]}]}),
        )

    def test_only_one_pairing_per_round_wins(self) -> None:
        ev = Event(4)
        ev.pair(1, [["p1", "p2"], ["p3", "p4"]])
        payload = {"number": 1, "matches": [{"players": ["p1", "p3"]}, {"players": ["p2", "p4"]}]}
        self.assertEqual(
            "round.pair: round 1 was already paired by desk; their pairing stands",
            ev.why("round.pair", payload, device="tab-2", role="head-judge"),
        )
        self.assertEqual("already-paired", ev.refusal_code("round.pair", payload, device="tab-2", role="head-judge"))
        ev.do("round.pair", dict(payload, replace=True), device="tab-2", role="head-judge")
        self.assertEqual(["p1", "p3"], ev.round(1)["matches"][0]["players"])
        self.assertEqual("tab-2", ev.round(1)["paired_by"]["device"])

    def test_re_pairing_is_refused_once_the_round_started(self) -> None:
        ev = played_round_one()
        payload = {"number": 1, "replace": True, "matches": [{"players": ["p1", "p3"]}, {"players": ["p2", "p4"]}]}
        self.assertIn("round 1 has started; its pairings can no longer change", ev.why("round.pair", payload))

    def test_swap_exchanges_players_between_matches_before_start(self) -> None:
        ev = Event(4)
        ev.pair(1, [["p1", "p2"], ["p3", "p4"]])
        ev.do("round.swap", {"number": 1, "a": "p2", "b": "p3"}, role="head-judge")
        self.assertEqual([["p1", "p3"], ["p2", "p4"]], [m["players"] for m in ev.round(1)["matches"]])
        self.assertEqual(
            "round.swap: p1 and p3 are already in the same match",
            ev.why("round.swap", {"number": 1, "a": "p1", "b": "p3"}),
        )
        self.assertEqual(
            "round.swap: player p9 is not in round 1", ev.why("round.swap", {"number": 1, "a": "p1", "b": "p9"})
        )
        ev.do("round.start", {"number": 1})
        self.assertIn("round 1 has started", ev.why("round.swap", {"number": 1, "a": "p2", "b": "p3"}))
        self.assertEqual("round 2 is not paired", ev.why("round.swap", {"number": 2, "a": "p2", "b": "p3"}))

    def test_publish_then_start(self) -> None:
        ev = Event(2)
        ev.pair(1, [["p1", "p2"]])
        ev.do("round.publish", {"number": 1}, role="scorekeeper")
        self.assertEqual("published", ev.round(1)["status"])
        self.assertIn(
            "round 1 is published already: only a round that is draft can be published",
            ev.why("round.publish", {"number": 1}),
        )
        ev.do("round.start", {"number": 1, "at": T0, "duration_s": 3600}, role="scorekeeper")
        self.assertEqual("started", ev.round(1)["status"])
        self.assertEqual(
            {"started_at": T0, "duration_s": 3600, "paused_at": None, "paused_ms": 0, "extended_s": 0},
            ev.round(1)["timer"],
        )
        self.assertIn("round 1 is started", ev.why("round.start", {"number": 1}))
        self.assertEqual("round 2 is not paired", ev.why("round.publish", {"number": 2}))

    def test_start_takes_the_round_length_from_settings(self) -> None:
        ev = Event(2, settings={"round_minutes": 50})
        ev.pair(1, [["p1", "p2"]])
        ev.do("round.start", {"number": 1})
        self.assertEqual(3000, ev.round(1)["timer"]["duration_s"])

    def test_a_round_of_byes_only_is_complete_at_start(self) -> None:
        ev = Event(1)
        ev.pair(1, [["p1"]])
        ev.do("round.start", {"number": 1})
        self.assertEqual("complete", ev.round(1)["status"])

    def test_cut_makes_the_first_elimination_round(self) -> None:
        ev = played_round_one()
        self.assertIn("pairing is refused", ev.why("cut.make", {"size": 2, "matches": [{"players": ["p1", "p3"]}]}))
        ev.report(1, 1, ["win", "loss"])
        ev.report(1, 2, ["win", "loss"])
        self.assertEqual(
            "cut.make: payload.matches: 2 players for a top 4",
            ev.why("cut.make", {"size": 4, "matches": [{"players": ["p1", "p3"]}]}),
        )
        ev.do("cut.make", {"size": 2, "matches": [{"table": 1, "players": ["p1", "p3"]}]}, role="head-judge")
        self.assertEqual((2, "elimination", "draft"), (ev.state["cut"], ev.round(2)["stage"], ev.round(2)["status"]))
        self.assertEqual(
            "cut.make: the cut was already made by desk; that cut stands",
            ev.why("cut.make", {"size": 2, "matches": [{"players": ["p3", "p1"]}]}),
        )
        self.assertEqual(
            "already-paired", ev.refusal_code("cut.make", {"size": 2, "matches": [{"players": ["p3", "p1"]}]})
        )
        ev.do("cut.make", {"size": 2, "replace": True, "matches": [{"table": 1, "players": ["p3", "p1"]}]})
        self.assertEqual(["p3", "p1"], ev.round(2)["matches"][0]["players"])

    def test_discard_throws_away_a_draft_and_the_round_pairs_again(self) -> None:
        ev = played_round_one(5)
        ev.report(1, 1, ["win", "loss"])
        ev.report(1, 2, ["win", "loss"])
        ev.pair(2, [["p1", "p3"], ["p2", "p4"]])
        ev.do("round.discard", {"number": 2, "stage": "swiss"}, role="head-judge")
        self.assertEqual([1], [r["number"] for r in ev.state["rounds"]])
        ev.pair(2, [["p1", "p3"], ["p2", "p5"], ["p4"]])  # round 2 again, with the late entry p5
        self.assertEqual(("draft", ["p4"]), (ev.round(2)["status"], ev.round(2)["matches"][2]["players"]))
        ev.do("round.discard", {"number": 2})
        ev.do("player.remove", {"player": "p5"})  # in no round any more: may go
        self.assertEqual(ev.state, replay(ev.ops))

    def test_discarding_the_cut_s_first_round_undoes_the_cut(self) -> None:
        ev = played_round_one()
        ev.report(1, 1, ["win", "loss"])
        ev.report(1, 2, ["win", "loss"])
        ev.do("cut.make", {"size": 2, "matches": [{"table": 1, "players": ["p1", "p3"]}]})
        ev.do("round.discard", {"number": 2, "stage": "elimination"})
        self.assertEqual((None, 1), (ev.state["cut"], len(ev.state["rounds"])))
        ev.do("cut.make", {"size": 2, "matches": [{"table": 1, "players": ["p3", "p1"]}]})  # made afresh
        self.assertEqual(2, ev.state["cut"])

    def test_discard_refuses_published_started_and_unknown_rounds(self) -> None:
        ev = Event(4)
        self.assertEqual("round.discard: round 1 is not paired", ev.why("round.discard", {"number": 1}))
        self.assertEqual(
            "round.discard: payload.number: must be at least 1, got 0", ev.why("round.discard", {"number": 0})
        )
        ev.pair(1, [["p1", "p2"], ["p3", "p4"]])
        self.assertEqual(
            "round.discard: round 1 (elimination) is not paired",
            ev.why("round.discard", {"number": 1, "stage": "elimination"}),
        )
        self.assertEqual(
            "round.discard: a scorekeeper may not do this (allowed: head-judge, organizer)",
            ev.why("round.discard", {"number": 1}, role="scorekeeper"),
        )
        ev.do("round.publish", {"number": 1})
        self.assertEqual(
            "round.discard: round 1 is published (players may have seen its pairings), so it can no longer be "
            "discarded; swap two players if a seat must change, then start it",
            ev.why("round.discard", {"number": 1}),
        )
        ev.do("round.start", {"number": 1})
        self.assertEqual(
            "round.discard: round 1 has started; its pairings and results stay (Pokémon TOP 4)",
            ev.why("round.discard", {"number": 1}),
        )
        self.assertEqual(1, len(ev.state["rounds"]))


class TimerOperationsTest(unittest.TestCase):
    def started(self) -> Event:
        ev = Event(2)
        ev.pair(1, [["p1", "p2"]])
        ev.do("round.start", {"number": 1, "at": T0, "duration_s": 600})
        return ev

    def test_pause_resume_and_extend_render_on_any_clock(self) -> None:
        ev = self.started()
        ev.do("timer.pause", {"at": T0 + 100_000}, role="judge")
        self.assertEqual(500_000, timer_remaining_ms(ev.round(1)["timer"], T0 + 999_999))
        ev.do("timer.resume", {"round": 1, "at": T0 + 160_000}, role="judge")
        ev.do("timer.extend", {"seconds": 120}, role="judge")
        self.assertEqual(60_000, ev.round(1)["timer"]["paused_ms"])
        self.assertEqual(600_000 + 120_000 + 60_000 - 200_000, timer_remaining_ms(ev.round(1)["timer"], T0 + 200_000))

    def test_timer_refusals(self) -> None:
        ev = Event(2)
        self.assertEqual("timer.pause: no round has started", ev.why("timer.pause"))
        ev = self.started()
        self.assertEqual("timer.resume: round 1's clock is not paused", ev.why("timer.resume"))
        ev.do("timer.pause")
        self.assertEqual("timer.pause: round 1's clock is already paused", ev.why("timer.pause"))
        self.assertEqual(
            "timer.extend: payload.seconds: must be at least 1, got 0", ev.why("timer.extend", {"seconds": 0})
        )
        self.assertEqual("round 4 is not paired", ev.why("timer.extend", {"seconds": 60, "round": 4}))

    def test_untimed_round_has_no_clock_to_pause(self) -> None:
        ev = Event(2)
        ev.pair(1, [["p1", "p2"]])
        ev.do("round.start", {"number": 1})
        self.assertIsNone(timer_remaining_ms(ev.round(1)["timer"], T0))
        self.assertEqual("timer.pause: round 1 is untimed", ev.why("timer.pause"))


class ResultOperationsTest(unittest.TestCase):
    def test_report_is_checked_against_the_ruleset_vocabulary(self) -> None:
        ev = played_round_one()
        cases = {
            'result.report: round 1 table 1: payload.outcomes: "draw" is not an outcome of custom': ["draw", "draw"],
            "result.report: round 1 table 1: payload.outcomes: expected 2 entries (one per player), got 1": ["win"],
            "result.report: round 1 table 1: win against win is not a result of one Custom (house rules) game; "
            "one game ends in win / loss, tie or double loss (the event's house rules)": [
                "win",
                "win",
            ],
            "result.report: round 1 table 1: 'bye' is for a one-player match, not a table of 2": [
                "bye",
                "loss",
            ],
        }
        for reason, outcomes in cases.items():
            with self.subTest(outcomes):
                self.assertEqual(reason, ev.why("result.report", {"round": 1, "table": 1, "outcomes": outcomes}))
        self.assertEqual(
            "result.report: round 1 table 1: payload.scores: expected 2 entries (one per player), got 1",
            ev.why("result.report", {"round": 1, "table": 1, "outcomes": ["win", "loss"], "scores": [3]}),
        )
        self.assertEqual(
            "result.report: payload.outcomes: missing required field", ev.why("result.report", {"round": 1, "table": 1})
        )
        self.assertEqual(
            "result.report: payload.colour: not a field of result.report",
            ev.why("result.report", {"round": 1, "table": 1, "outcomes": ["win", "loss"], "colour": 1}),
        )

    def test_report_refuses_unknown_rounds_and_matches_and_unstarted_rounds(self) -> None:
        ev = Event(4)
        ev.pair(1, [["p1", "p2"], ["p3", "p4"]])
        payload = {"round": 1, "table": 1, "outcomes": ["win", "loss"]}
        self.assertEqual("result.report: round 1 has not started", ev.why("result.report", payload))
        ev.do("round.start", {"number": 1})
        self.assertEqual("round 2 is not paired", ev.why("result.report", dict(payload, round=2)))
        self.assertEqual("round 1 has no table 9", ev.why("result.report", dict(payload, table=9)))
        self.assertEqual(
            "round 1 has no match 5 (it has 2)",
            ev.why("result.report", {"round": 1, "match": 5, "outcomes": ["win", "loss"]}),
        )
        self.assertIn(
            "name the match by table or by index", ev.why("result.report", {"round": 1, "outcomes": ["win", "loss"]})
        )

    def test_staff_report_confirms_and_completes_the_round(self) -> None:
        ev = played_round_one()
        ev.report(1, 1, ["win", "loss"], role="judge")
        self.assertEqual(("confirmed", ["win", "loss"]), (ev.match(1, 1)["status"], ev.match(1, 1)["outcomes"]))
        self.assertEqual("started", ev.round(1)["status"])
        ev.do(
            "result.report",
            {"round": 1, "match": 1, "outcomes": ["loss", "win"], "scores": [10, 12]},
            role="scorekeeper",
        )
        self.assertEqual("complete", ev.round(1)["status"])
        self.assertEqual([10, 12], ev.match(1, 2)["scores"])

    def test_self_report_waits_for_the_opponent_then_confirm(self) -> None:
        ev = played_round_one()
        ev.report(1, 1, ["win", "loss"], role="player", player="p1", device="phone-1")
        match = ev.match(1, 1)
        self.assertEqual(("reported", None), (match["status"], match["outcomes"]))
        self.assertEqual("phone-1:1", match["reports"][0]["op_id"])
        ev.do("result.confirm", {"round": 1, "table": 1}, role="player", player="p2", device="phone-2")
        self.assertEqual(("confirmed", ["win", "loss"]), (ev.match(1, 1)["status"], ev.match(1, 1)["outcomes"]))
        self.assertEqual("confirm", ev.match(1, 1)["reports"][-1]["kind"])

    def test_confirm_needs_a_report_to_confirm(self) -> None:
        ev = played_round_one()
        self.assertEqual(
            "result.confirm: round 1 table 1: no report is awaiting confirmation (pending)",
            ev.why("result.confirm", {"round": 1, "table": 1}, role="player", player="p2"),
        )
        self.assertEqual(
            "result.confirm: round 1 table 1: there is no report x:1 to confirm",
            ev.why("result.confirm", {"round": 1, "table": 1, "report": "x:1"}),
        )

    def test_correct_overrides_and_is_final_until_the_next_correction(self) -> None:
        ev = played_round_one()
        ev.report(1, 1, ["win", "loss"])
        ev.do(
            "result.correct",
            {"round": 1, "table": 1, "outcomes": ["loss", "win"], "reason": "slip error"},
            role="judge",
        )
        match = ev.match(1, 1)
        self.assertEqual(("resolved", ["loss", "win"]), (match["status"], match["outcomes"]))
        self.assertEqual("slip error", match["reports"][-1]["reason"])
        # An entry made before the correction (pushed late by a tablet that was offline) does not reopen it.
        ev.report(1, 1, ["win", "loss"], device="tab-9", at=match["reports"][-1]["at"] - 1)
        self.assertEqual(("resolved", ["loss", "win"]), (ev.match(1, 1)["status"], ev.match(1, 1)["outcomes"]))
        ev.report(1, 1, ["win", "loss"], device="tab-8")  # a staff entry after it: staff correct again instead
        self.assertEqual(("resolved", ["loss", "win"]), (ev.match(1, 1)["status"], ev.match(1, 1)["outcomes"]))
        # A player's report made after it with another result does not undo it either: it disputes it.
        ev.report(1, 1, ["win", "loss"], role="player", player="p1", device="phone-1")
        self.assertEqual(("disputed", None), (ev.match(1, 1)["status"], ev.match(1, 1)["outcomes"]))
        self.assertEqual([match["reports"][-1]["op_id"], "phone-1:1"], ev.state["disputes"][0]["reports"])
        ev.do(
            "result.correct", {"round": 1, "table": 1, "outcomes": ["loss", "win"], "reason": "checked"}, role="judge"
        )
        self.assertEqual(("resolved", ["loss", "win"]), (ev.match(1, 1)["status"], ev.match(1, 1)["outcomes"]))

    def test_record_is_frozen_once_the_second_following_round_is_paired(self) -> None:
        ev = Event(4)
        for number in (1, 2):
            ev.play(number, [["p1", "p2"], ["p3", "p4"]] if number == 1 else [["p1", "p3"], ["p2", "p4"]])
            ev.report(number, 1, ["win", "loss"])
            ev.report(number, 2, ["win", "loss"])
        fix = {"round": 1, "table": 1, "outcomes": ["loss", "win"]}
        self.assertIsNone(ev.why("result.correct", fix))
        ev.pair(3, [["p1", "p4"], ["p2", "p3"]])
        self.assertEqual(
            "result.correct: round 1's record cannot change after round 3 is paired (Pokémon TOP 4)",
            ev.why("result.correct", fix),
        )
        self.assertEqual("round-frozen", ev.refusal_code("result.correct", fix))
        self.assertIsNone(ev.why("result.correct", dict(fix, round=2)))


class DisputeTest(unittest.TestCase):
    """The dispute table of ``shared_rules.state.settle``, case by case."""

    def test_two_players_reporting_differently_dispute(self) -> None:
        ev = played_round_one()
        ev.report(1, 1, ["win", "loss"], role="player", player="p1", device="phone-1")
        ev.report(1, 1, ["loss", "win"], role="player", player="p2", device="phone-2")
        self.assertEqual("disputed", ev.match(1, 1)["status"])
        self.assertEqual(
            [
                {
                    "round": 1,
                    "stage": "swiss",
                    "match": 0,
                    "table": 1,
                    "players": ["p1", "p2"],
                    "reports": ["phone-1:1", "phone-2:1"],
                }
            ],
            ev.state["disputes"],
        )

    def test_the_same_result_twice_confirms_rather_than_disputes(self) -> None:
        ev = played_round_one()
        ev.report(1, 1, ["win", "loss"], role="player", player="p1", device="phone-1")
        ev.report(1, 1, ["win", "loss"], role="player", player="p2", device="phone-2")
        self.assertEqual("confirmed", ev.match(1, 1)["status"])
        ev.report(1, 2, ["win", "loss"], device="tab-1")
        ev.report(1, 2, ["win", "loss"], device="tab-2", role="judge")
        self.assertEqual("confirmed", ev.match(1, 2)["status"])
        self.assertEqual([], ev.state["disputes"])

    def test_two_staff_reports_that_differ_dispute(self) -> None:
        ev = played_round_one()
        ev.report(1, 1, ["win", "loss"], device="tab-1", role="judge")
        ev.report(1, 1, ["loss", "win"], device="tab-2", role="scorekeeper")
        self.assertEqual("disputed", ev.match(1, 1)["status"])
        self.assertNotIn("outcomes", to_event_document(ev.state)["rounds"][0]["matches"][0])

    def test_a_players_contrary_report_disputes_a_judges_entry_in_either_order(self) -> None:
        for judge_first in (False, True):
            with self.subTest(judge_first=judge_first):
                ev = played_round_one()
                steps = [
                    lambda: ev.report(1, 1, ["win", "loss"], role="player", player="p1", device="phone-1"),
                    lambda: ev.report(1, 1, ["loss", "win"], role="judge", device="tab-1"),
                ]
                for step in reversed(steps) if judge_first else steps:
                    step()
                match = ev.match(1, 1)
                self.assertEqual(("disputed", None), (match["status"], match["outcomes"]))
                queued = ev.state["disputes"][0]["reports"]
                self.assertEqual(["phone-1:1", "tab-1:1"], sorted(queued))  # both versions, for the head judge
                self.assertEqual("started", ev.round(1)["status"])  # a disputed match keeps its round open

    def test_a_player_agreeing_with_the_judge_or_taking_their_report_back_confirms(self) -> None:
        ev = played_round_one()
        ev.report(1, 1, ["loss", "win"], role="judge", device="tab-1")
        ev.report(1, 1, ["loss", "win"], role="player", player="p2", device="phone-2")
        self.assertEqual(("confirmed", ["loss", "win"]), (ev.match(1, 1)["status"], ev.match(1, 1)["outcomes"]))
        ev.report(1, 1, ["win", "loss"], role="player", player="p1", device="phone-1")
        self.assertEqual("disputed", ev.match(1, 1)["status"])
        ev.report(1, 1, ["loss", "win"], role="player", player="p1", device="phone-1")  # p1 reports again
        self.assertEqual(("confirmed", ["loss", "win"]), (ev.match(1, 1)["status"], ev.match(1, 1)["outcomes"]))

    def test_a_judges_correction_or_the_head_judges_resolution_ends_the_dispute(self) -> None:
        for settle_by in ("result.correct", "result.resolve"):
            with self.subTest(settle_by=settle_by):
                ev = played_round_one()
                ev.report(1, 1, ["loss", "win"], role="judge", device="tab-1")
                ev.report(1, 1, ["win", "loss"], role="player", player="p1", device="phone-1")
                result = {"outcomes": ["win", "loss"]}
                payload = {"round": 1, "table": 1, "reason": "asked both players"}
                payload.update(result if settle_by == "result.correct" else {"result": result})
                ev.do(settle_by, payload, role="head-judge", device="hj")
                self.assertEqual(("resolved", ["win", "loss"]), (ev.match(1, 1)["status"], ev.match(1, 1)["outcomes"]))
                self.assertEqual([], ev.state["disputes"])

    def test_a_report_after_a_resolution_never_reopens_it(self) -> None:
        ev = played_round_one()
        ev.report(1, 1, ["loss", "win"], role="judge", device="tab-1")
        ev.report(1, 1, ["win", "loss"], role="player", player="p1", device="phone-1")
        ev.do("result.resolve", {"round": 1, "table": 1, "result": {"outcomes": ["loss", "win"]}}, role="head-judge")
        ev.report(1, 1, ["win", "loss"], role="player", player="p1", device="phone-1")
        self.assertEqual(("resolved", ["loss", "win"]), (ev.match(1, 1)["status"], ev.match(1, 1)["outcomes"]))

    def test_a_players_report_made_after_a_correction_disputes_it_one_made_before_does_not(self) -> None:
        ev = played_round_one()
        ev.report(1, 1, ["win", "loss"], role="player", player="p1", device="phone-1")
        ev.do("result.correct", {"round": 1, "table": 1, "outcomes": ["loss", "win"]}, role="judge", device="tab-1")
        fixed_at = ev.match(1, 1)["reports"][-1]["at"]
        # p2's phone was offline: its report, made before the correction, reaches the log after it.
        ev.report(1, 1, ["win", "loss"], role="player", player="p2", device="phone-2", at=fixed_at - 500)
        self.assertEqual(("resolved", ["loss", "win"]), (ev.match(1, 1)["status"], ev.match(1, 1)["outcomes"]))
        # p2 sees the correction and reports against it: the judge hears about it.
        ev.report(1, 1, ["win", "loss"], role="player", player="p2", device="phone-2")
        self.assertEqual("disputed", ev.match(1, 1)["status"])
        self.assertEqual(["tab-1:1", "phone-2:2"], ev.state["disputes"][0]["reports"])

    def test_same_reporter_on_the_same_device_fixes_a_typo(self) -> None:
        ev = played_round_one()
        ev.report(1, 1, ["loss", "win"], role="player", player="p1", device="phone-1")
        ev.report(1, 1, ["win", "loss"], role="player", player="p1", device="phone-1")
        self.assertEqual("reported", ev.match(1, 1)["status"])

    def test_same_player_from_two_devices_with_different_results_disputes(self) -> None:
        ev = played_round_one()
        ev.report(1, 1, ["loss", "win"], role="player", player="p1", device="phone-1")
        ev.report(1, 1, ["win", "loss"], role="player", player="p1", device="tab-kiosk")
        self.assertEqual("disputed", ev.match(1, 1)["status"])

    def test_resolve_supersedes_every_report_and_clears_the_queue(self) -> None:
        ev = played_round_one()
        ev.report(1, 1, ["win", "loss"], role="player", player="p1", device="phone-1")
        ev.report(1, 1, ["loss", "win"], role="player", player="p2", device="phone-2")
        ev.report(1, 2, ["win", "loss"])
        ev.do(
            "result.resolve",
            {"round": 1, "match": 0, "result": {"outcomes": ["tie", "tie"]}, "reason": "replay"},
            role="head-judge",
        )
        self.assertEqual(("resolved", ["tie", "tie"]), (ev.match(1, 1)["status"], ev.match(1, 1)["outcomes"]))
        self.assertEqual([], ev.state["disputes"])
        self.assertEqual("complete", ev.round(1)["status"])

    def test_resolve_refuses_an_undisputed_match_and_a_bad_result(self) -> None:
        ev = played_round_one()
        self.assertEqual(
            "result.resolve: round 1 table 1: the match is not disputed (pending); use result.correct",
            ev.why("result.resolve", {"round": 1, "match": 0, "result": {"outcomes": ["win", "loss"]}}),
        )
        ev.report(1, 1, ["win", "loss"], device="tab-1")
        ev.report(1, 1, ["loss", "win"], device="tab-2")
        self.assertIn(
            "payload.result.winner: not a result field",
            ev.why("result.resolve", {"round": 1, "match": 0, "result": {"winner": "p1"}}),
        )
        self.assertIn(
            "result.payload.outcomes: expected 2 entries",
            ev.why("result.resolve", {"round": 1, "match": 0, "result": {"scores": [1, 2]}}),
        )

    def test_confirming_a_named_report_settles_a_dispute_from_the_confirmer_s_device(self) -> None:
        ev = played_round_one()
        ev.report(1, 1, ["win", "loss"], role="player", player="p1", device="phone-1")
        ev.report(1, 1, ["loss", "win"], role="player", player="p2", device="phone-2")
        ev.do(
            "result.confirm",
            {"round": 1, "table": 1, "report": "phone-1:1"},
            role="player",
            player="p2",
            device="phone-2",
        )
        self.assertEqual(("confirmed", ["win", "loss"]), (ev.match(1, 1)["status"], ev.match(1, 1)["outcomes"]))

    def test_disputed_match_is_exported_flagged_and_left_out_of_standings(self) -> None:
        from shared_rules.run import compute_standings

        ev = played_round_one()
        ev.report(1, 1, ["win", "loss"], device="tab-1")
        ev.report(1, 1, ["loss", "win"], device="tab-2")
        ev.report(1, 2, ["win", "loss"])
        doc = to_event_document(ev.state)
        self.assertTrue(doc["rounds"][0]["matches"][0]["disputed"])
        points = {s.player: s.points for s in compute_standings(load_event(doc))}
        self.assertEqual({"p1": 0, "p2": 0, "p3": 3, "p4": 0}, points)


class PenaltyTest(unittest.TestCase):
    def test_generic_penalties_and_disqualification_ejects(self) -> None:
        ev = played_round_one()
        ev.do("penalty.issue", {"player": "p1", "kind": "warning", "reason": "slow play"}, role="judge")
        ev.do("penalty.issue", {"player": "p2", "kind": "disqualification", "reason": "cheating"}, role="head-judge")
        self.assertEqual(["warning", "disqualification"], [p["kind"] for p in ev.state["penalties"]])
        self.assertEqual((1, True), (ev.player("p2")["dropped_after"], ev.player("p2")["ejected"]))
        self.assertEqual(
            "player.reinstate: player p2 was removed from the event by a penalty (disqualification, desk:9): "
            "rescind that penalty first (Penalties screen), then reinstate",
            ev.why("player.reinstate", {"player": "p2"}),
        )
        ev.report(1, 1, ["win", "loss"])
        ev.report(1, 2, ["win", "loss"])
        self.assertIn("player p2 has dropped", ev.why("round.pair", {"number": 2, "matches": [{"players": ["p2"]}]}))

    def test_a_rescinded_disqualification_lets_the_player_be_reinstated_and_paired_again(self) -> None:
        ev = played_round_one()
        ev.do(
            "penalty.issue", {"player": "p2", "kind": "disqualification", "reason": "marked cards"}, role="head-judge"
        )
        dq = ev.state["penalties"][-1]["op_id"]
        ev.do("result.correct", {"round": 1, "table": 1, "outcomes": ["win", "loss"], "reason": "DQ"}, role="judge")
        ev.report(1, 2, ["win", "loss"])
        ev.do("penalty.rescind", {"penalty": dq, "reason": "appeal: the sleeves were the venue's"}, role="head-judge")
        entry = ev.state["penalties"][-1]
        self.assertEqual("appeal: the sleeves were the venue's", entry["rescinded"]["reason"])
        self.assertEqual({"role": "head-judge"}, entry["rescinded"]["by"])
        self.assertEqual("disqualification", entry["kind"])  # it stays on record
        self.assertEqual((1, False), (ev.player("p2")["dropped_after"], ev.player("p2")["ejected"]))
        self.assertIn("player p2 has dropped", ev.why("round.pair", {"number": 2, "matches": [{"players": ["p2"]}]}))
        ev.do("player.reinstate", {"player": "p2"}, role="head-judge")
        ev.pair(2, [["p1", "p2"], ["p3", "p4"]])
        self.assertEqual(["p1", "p2"], ev.round(2)["matches"][0]["players"])

    def test_rescinding_is_for_the_head_judge_and_organizer_with_a_reason(self) -> None:
        ev = played_round_one()
        ev.do("penalty.issue", {"player": "p1", "kind": "game-loss", "reason": "slow play"}, role="head-judge")
        issued = ev.state["penalties"][-1]["op_id"]
        self.assertIn(
            "a judge may not do this", ev.why("penalty.rescind", {"penalty": issued, "reason": "x"}, role="judge")
        )
        self.assertIn(
            "a scorekeeper may not do this",
            ev.why("penalty.rescind", {"penalty": issued, "reason": "x"}, role="scorekeeper"),
        )
        self.assertEqual(
            "penalty.rescind: payload.reason: missing required field",
            ev.why("penalty.rescind", {"penalty": issued}, role="head-judge"),
        )
        self.assertEqual(
            "penalty.rescind: payload.reason: must not be empty",
            ev.why("penalty.rescind", {"penalty": issued, "reason": "  "}, role="head-judge"),
        )
        self.assertEqual(
            "penalty.rescind: payload.penalty: there is no penalty tab-9:4 on record",
            ev.why("penalty.rescind", {"penalty": "tab-9:4", "reason": "x"}, role="organizer"),
        )
        ev.do("penalty.rescind", {"penalty": issued, "reason": "wrong table"}, role="organizer")
        self.assertEqual(
            f"penalty.rescind: the game-loss of p1 ({issued}) was already rescinded by the organizer: wrong table",
            ev.why("penalty.rescind", {"penalty": issued, "reason": "again"}, role="head-judge"),
        )
        self.assertIn("the event is closed", self._closed_rescind())

    def _closed_rescind(self) -> str:
        ev = played_round_one()
        ev.do("penalty.issue", {"player": "p1", "kind": "warning", "reason": "slow play"}, role="judge")
        warning = ev.state["penalties"][-1]["op_id"]
        ev.report(1, 1, ["win", "loss"])
        ev.report(1, 2, ["win", "loss"])
        ev.do("event.close")
        return ev.why("penalty.rescind", {"penalty": warning, "reason": "x"}) or ""

    def test_a_rescinded_penalty_no_longer_counts_for_repeats_or_warnings(self) -> None:
        trek = Event(4, ruleset="startrek-2e")
        trek.do("penalty.issue", {"player": "p1", "level": 2, "infraction": "C3", "reason": "stalling"})
        first = trek.state["penalties"][-1]["op_id"]
        trek.do("penalty.rescind", {"penalty": first, "reason": "it was a judge call"})
        trek.do("penalty.issue", {"player": "p1", "level": 2, "infraction": "C3", "reason": "stalling"})
        self.assertEqual("turn-loss", trek.state["penalties"][-1]["kind"])  # not upgraded to a game loss
        sp = Event(4, ruleset="shatterpoint")
        for _ in range(2):
            sp.do("penalty.issue", {"player": "p1", "kind": "warning", "reason": "slow"}, role="judge")
        sp.do("penalty.rescind", {"penalty": sp.state["penalties"][0]["op_id"], "reason": "misheard"})
        sp.do("penalty.issue", {"player": "p1", "kind": "warning", "reason": "slow"}, role="judge")
        self.assertEqual(None, sp.state["penalties"][-1]["effect"])  # two standing warnings: no ejection
        self.assertFalse(sp.player("p1")["ejected"])
        sp.do("penalty.issue", {"player": "p1", "kind": "warning", "reason": "slow"}, role="judge")
        self.assertEqual(("ejection", True), (sp.state["penalties"][-1]["effect"], sp.player("p1")["ejected"]))

    def test_an_ejected_player_stays_ejected_while_another_removing_penalty_stands(self) -> None:
        ev = played_round_one()
        for why in ("marked cards", "threats"):
            ev.do("penalty.issue", {"player": "p3", "kind": "disqualification", "reason": why}, role="head-judge")
        ev.do("penalty.rescind", {"penalty": ev.state["penalties"][0]["op_id"], "reason": "appeal"})
        self.assertTrue(ev.player("p3")["ejected"])
        self.assertIn("rescind that penalty first", ev.why("player.reinstate", {"player": "p3"}))

    def test_penalty_refusals_name_the_field(self) -> None:
        ev = Event(2)
        self.assertEqual(
            "penalty.issue: payload.kind: 'turn-loss' is not a penalty of custom "
            "(use warning, game-loss, disqualification)",
            ev.why("penalty.issue", {"player": "p1", "kind": "turn-loss", "reason": "x"}),
        )
        self.assertIn(
            "custom has no penalty levels", ev.why("penalty.issue", {"player": "p1", "level": 2, "reason": "x"})
        )
        self.assertEqual(
            "penalty.issue: payload.reason: missing required field",
            ev.why("penalty.issue", {"player": "p1", "kind": "warning"}),
        )
        self.assertEqual(
            "unknown player 'p9'", ev.why("penalty.issue", {"player": "p9", "kind": "warning", "reason": "x"})
        )

    def test_decisions_for_star_trek_levels_and_shatterpoint_warnings(self) -> None:
        # The reducer calls penalties.decide with the event's ruleset id; those rulesets may not be
        # installed on this checkout yet, so their tables are tested directly.
        from shared_rules.state.penalties import decide

        history: list[dict[str, Any]] = []
        kinds = []
        for _ in range(4):
            given = decide("startrek-2e", history, "p1", None, 2, "C3", "stalling")
            history.append({"player": "p1", "infraction": "C3", "reason": "stalling", **given})
            kinds.append(given["kind"])
        self.assertEqual(["turn-loss", "game-loss", "disqualification", "disqualification"], kinds)
        self.assertEqual("verbal-warning", decide("startrek-1e", history, "p1", None, 0, "D3", "x")["kind"])
        self.assertFalse(decide("startrek-1e", [], "p1", None, 0, "D3", "x")["scorecard"])
        warned: list[dict[str, Any]] = []
        for _ in range(3):
            given = decide("shatterpoint", warned, "p1", "warning", None, None, "x")
            warned.append({"player": "p1", "infraction": None, "reason": "x", **given})
        self.assertEqual([None, None, "ejection"], [w["effect"] for w in warned])


class EnvelopeTest(unittest.TestCase):
    def test_malformed_envelopes_name_the_field(self) -> None:
        s = Event(2).state
        good = Log().op("player.check_in", {"player": "p1"}, device="tab-9")
        cases = {
            'type: "player.fly" is not an operation type': dict(good, type="player.fly"),
            "player.check_in: op_id: 'tab-1:1' is not 'tab-9:<sequence>'": dict(good, op_id="tab-1:1"),
            "player.check_in: at: expected a timestamp in milliseconds, got a string": dict(good, at="now"),
            'player.check_in: actor.role: "admin" is not a role (use organizer, head-judge, judge, scorekeeper, player)': dict(
                good, actor={"role": "admin"}
            ),
            "player.check_in: actor.player: a player actor must name their player id": dict(
                good, actor={"role": "player"}
            ),
            "player.check_in: payload: expected an object, got a list": dict(good, payload=[]),
            "operation: expected an object, got a string": "player.check_in",
        }
        for reason, op in cases.items():
            with self.subTest(reason):
                self.assertEqual(reason, check(s, op))

    def test_an_operation_is_applied_once(self) -> None:
        ev = Event(2)
        op = ev.log.op("player.check_in", {"player": "p1"}, device="tab-3")
        once = apply(ev.state, op)
        with self.assertRaises(OperationRejected) as caught:
            apply(once, op)
        self.assertEqual("player.check_in: tab-3:1 was already applied (device tab-3 is at 1)", str(caught.exception))

    def test_apply_never_changes_its_input(self) -> None:
        ev = played_round_one()
        before = json.dumps(ev.state, sort_keys=True)
        for op in (
            ev.log.op("result.report", {"round": 1, "table": 1, "outcomes": ["win", "loss"]}),
            ev.log.op("player.drop", {"player": "p1"}),
            ev.log.op("timer.extend", {"seconds": 30}),
        ):
            apply(ev.state, op)
        self.assertEqual(before, json.dumps(ev.state, sort_keys=True))

    def test_replay_skipping_refusals_never_changes_its_input_and_folds_the_rest(self) -> None:
        ev = played_round_one()
        before = json.dumps(ev.state, sort_keys=True)
        bad = ev.log.op("round.pair", {"number": 2, "matches": [{"players": ["p1", "p3"]}]})
        drop = ev.log.op("player.drop", {"player": "p4"})
        also_bad = ev.log.op("player.drop", {"player": "nobody"})
        extend = ev.log.op("timer.extend", {"seconds": 30})
        folded = replay([bad, drop, also_bad, extend], ev.state, skip_rejected=True)
        self.assertEqual(before, json.dumps(ev.state, sort_keys=True))
        self.assertEqual(replay([drop, extend], ev.state), folded)
        self.assertIsNone(check(replay([drop], ev.state), extend))  # both count: the fold is not the input
        self.assertNotEqual(ev.state, folded)

    def test_a_refused_operation_leaves_no_trace_in_replay(self) -> None:
        ev = played_round_one()
        bad = ev.log.op("round.pair", {"number": 2, "matches": [{"players": ["p1", "p3"]}]})
        self.assertEqual(ev.state, replay(ev.ops + [bad], skip_rejected=True))
        with self.assertRaises(OperationRejected):
            replay(ev.ops + [bad])


class DocumentTest(unittest.TestCase):
    def test_export_is_a_valid_event_document(self) -> None:
        ev = played_round_one()
        ev.report(1, 1, ["win", "loss"], role="player", player="p1", device="phone-1")
        ev.report(1, 2, ["tie", "tie"])
        ev.do("player.drop", {"player": "p4"})
        for operational in (True, False):
            doc = to_event_document(ev.state, operational=operational)
            event = load_event(doc)
            self.assertEqual(4, len(event.players))
            self.assertIsNone(event.rounds[0].matches[0].outcomes)  # awaiting confirmation
            self.assertEqual(("tie", "tie"), event.rounds[0].matches[1].outcomes)
            self.assertEqual(1, event.player("p4").dropped_after)
        self.assertNotIn("state", to_event_document(ev.state, operational=False))

    def test_round_trip_through_the_document_restores_the_state(self) -> None:
        ev = played_round_one()
        ev.do("player.check_in", {"player": "p1"})
        ev.report(1, 1, ["win", "loss"], device="tab-1")
        ev.report(1, 1, ["loss", "win"], device="tab-2")
        ev.report(1, 2, ["win", "loss"], role="player", player="p3", device="phone-3")
        ev.do("timer.pause")
        ev.do("penalty.issue", {"player": "p4", "kind": "warning", "reason": "late"}, role="judge")
        doc = json.loads(json.dumps(to_event_document(ev.state)))
        self.assertEqual(json.dumps(ev.state, sort_keys=True), json.dumps(from_event_document(doc), sort_keys=True))

    def test_import_of_a_plain_document_infers_round_status_and_disputes(self) -> None:
        doc = {
            "format": "topcut-event/1",
            "ruleset": "custom",
            "seed": "x",
            "players": [{"id": f"p{i}", "name": f"P{i}", "entry": i} for i in range(1, 6)],
            "rounds": [
                {
                    "number": 1,
                    "stage": "swiss",
                    "matches": [
                        {"table": 1, "players": ["p1", "p2"], "outcomes": ["win", "loss"]},
                        {"table": 2, "players": ["p3", "p4"], "outcomes": ["win", "loss"], "disputed": True},
                        {"players": ["p5"], "outcomes": ["bye"]},
                    ],
                },
                {"number": 2, "stage": "swiss", "matches": [{"table": 1, "players": ["p1", "p3"]}]},
            ],
        }
        state = from_event_document(doc)
        self.assertEqual(["started", "published"], [r["status"] for r in state["rounds"]])
        self.assertEqual(["confirmed", "disputed", "confirmed"], [m["status"] for m in state["rounds"][0]["matches"]])
        self.assertEqual(1, len(state["disputes"]))
        log = Log()
        state = apply(
            state, log.op("result.resolve", {"round": 1, "table": 2, "result": {"outcomes": ["loss", "win"]}})
        )
        self.assertEqual("complete", state["rounds"][0]["status"])
        self.assertEqual(load_event(doc).players, load_event(to_event_document(state)).players)

    def test_import_refuses_a_bad_document_naming_the_field(self) -> None:
        from shared_rules.errors import RulesError

        with self.assertRaises(RulesError) as caught:
            from_event_document({"ruleset": "custom", "players": [{"id": "p1"}]})
        self.assertEqual("players[0]: missing required field 'entry'", str(caught.exception))

    def test_import_refuses_malformed_operational_fields(self) -> None:
        from shared_rules.errors import RulesError

        doc = to_event_document(played_round_one().state)
        doc["rounds"][0]["matches"][0]["state"] = {"status": "pending", "reports": [{"kind": "report"}]}
        with self.assertRaises(RulesError) as caught:
            from_event_document(doc)
        self.assertEqual(
            "state: the operational fields are malformed; import the document without them", str(caught.exception)
        )


class DeckListOperationsTest(unittest.TestCase):
    """decklist.submit and deckcheck.record: the lock at the deadline, who may change a list, deck checks."""

    LIST = {"deck": "4 Pikachu\n56 Basic Lightning Energy"}

    def test_a_player_submits_their_own_list_before_round_one_starts(self) -> None:
        ev = Event(4)
        ev.do("decklist.submit", {"player": "p1", "sections": self.LIST}, device="phone-1", role="player", player="p1")
        entry = ev.state["decklists"]["p1"]
        self.assertEqual(self.LIST, entry["sections"])
        self.assertEqual({"role": "player", "player": "p1"}, entry["changes"][0]["by"])
        self.assertFalse(entry["changes"][0]["locked"])

    def test_a_player_may_not_submit_another_players_list(self) -> None:
        ev = Event(4)
        op = {"player": "p2", "sections": self.LIST}
        self.assertEqual("not-authorized", ev.refusal_code("decklist.submit", op, role="player", player="p1"))

    def test_the_lists_lock_when_round_one_starts_and_a_player_is_told_to_ask_a_judge(self) -> None:
        ev = played_round_one()
        op = {"player": "p1", "sections": self.LIST}
        self.assertEqual("list-locked", ev.refusal_code("decklist.submit", op, role="player", player="p1"))
        self.assertEqual(
            "decklist.submit: deck lists locked when round 1 started; only a judge or the organizer can change "
            "yours now: ask one",
            ev.why("decklist.submit", op, role="player", player="p1"),
        )
        self.assertNotIn("p1", ev.state["decklists"])

    def test_a_list_made_offline_before_the_lock_is_accepted_when_it_arrives_after(self) -> None:
        ev = Event(4)
        made = ev.log.op(
            "decklist.submit", {"player": "p1", "sections": self.LIST}, device="phone-1", role="player", player="p1"
        )
        ev.play(1, [["p1", "p2"], ["p3", "p4"]])
        ev.state = apply(ev.state, made)
        self.assertEqual(self.LIST, ev.state["decklists"]["p1"]["sections"])

    def test_the_organizers_deadline_locks_the_lists_before_round_one(self) -> None:
        ev = Event(4, settings={"decklists": {"required": True, "deadline": T0 + 10_000}})
        op = {"player": "p1", "sections": self.LIST}
        self.assertIsNone(ev.why("decklist.submit", op, role="player", player="p1", at=T0 + 9_999))
        self.assertIn(
            "locked at the organizer's deadline",
            ev.why("decklist.submit", op, role="player", player="p1", at=T0 + 10_000) or "",
        )

    def test_staff_change_a_locked_list_only_with_a_reason_and_the_change_is_kept_with_who_and_why(self) -> None:
        ev = played_round_one()
        op = {"player": "p1", "sections": self.LIST}
        self.assertIn("a change now needs the reason", ev.why("decklist.submit", op, role="judge") or "")
        ev.do("decklist.submit", dict(op, reason="paper list typed at the desk"), device="judge-1", role="judge")
        change = ev.state["decklists"]["p1"]["changes"][-1]
        self.assertEqual(
            ({"role": "judge"}, "paper list typed at the desk", True),
            (change["by"], change["reason"], change["locked"]),
        )

    def test_a_section_the_game_does_not_have_is_refused_naming_the_sections(self) -> None:
        ev = Event(4, ruleset="agot")
        why = ev.why("decklist.submit", {"player": "p1", "sections": {"deck": "60 Hedge Knight"}})
        self.assertIn("payload.sections.deck: not a section of this game (use faction (Faction)", why or "")

    def test_unreadable_deck_list_settings_are_refused(self) -> None:
        ev = Event(4)
        why = ev.why("event.configure", {"settings": {"decklists": {"publish": "tomorrow"}}})
        self.assertEqual(
            "event.configure: settings.decklists.publish: 'tomorrow' is not one of never, top-cut, all", why
        )

    def test_a_deck_check_is_recorded_with_its_penalty(self) -> None:
        ev = Event(4, ruleset="startrek-2e")
        ev.play(1, [["p1", "p2"], ["p3", "p4"]])
        ev.do(
            "penalty.issue",
            {"player": "p1", "level": 2, "infraction": "D2", "reason": "list says 3, deck has 4"},
            device="hj",
            role="head-judge",
        )
        ev.do(
            "deckcheck.record",
            {"player": "p1", "outcome": "problem", "table": 1, "note": "4 copies", "penalty": "hj:1"},
            device="hj",
            role="head-judge",
        )
        check_row = ev.state["deckchecks"][0]
        self.assertEqual(
            (1, 1, "problem", "hj:1"),
            (check_row["round"], check_row["table"], check_row["outcome"], check_row["penalty"]),
        )
        bad = {"player": "p2", "outcome": "problem", "penalty": "hj:1"}
        self.assertIn("there is no penalty hj:1 of p2", ev.why("deckcheck.record", bad, role="judge") or "")

    def test_lists_and_deck_checks_survive_export_and_import(self) -> None:
        ev = played_round_one()
        ev.do("decklist.submit", {"player": "p1", "sections": self.LIST, "reason": "typed from paper"})
        ev.do("deckcheck.record", {"player": "p1", "outcome": "ok", "table": 1}, role="judge")
        doc = to_event_document(ev.state)
        self.assertEqual(self.LIST, doc["decklists"]["p1"]["sections"])
        back = from_event_document(json.loads(json.dumps(doc)))
        self.assertEqual(ev.state["decklists"], back["decklists"])
        self.assertEqual(ev.state["deckchecks"], back["deckchecks"])
        self.assertEqual(to_event_document(back), doc)


class DeckListImportTest(unittest.TestCase):
    def test_a_document_with_a_list_for_no_player_or_a_list_not_as_text_is_refused_naming_it(self) -> None:
        ev = Event(2)
        doc = to_event_document(ev.state)
        for lists, where in (
            ({"p9": {"sections": {"deck": "1 Data"}}}, "decklists.p9: not a player of this event"),
            ({"p1": {"sections": {"deck": ["1 Data"]}}}, "decklists.p1.sections: each section is its lines as text"),
        ):
            with self.subTest(where), self.assertRaises(RulesError) as caught:
                from_event_document(dict(doc, decklists=lists))
            self.assertEqual(where, str(caught.exception))


class CallOperationsTest(unittest.TestCase):
    def test_calls_are_kept_in_the_state_until_answered(self) -> None:
        ev = played_round_one()
        ev.do("call.judge", {"table": 1, "reason": "Rules question"}, role="player", player="p1", device="phone")
        ev.do("call.player", {"player": "p3", "where": "table", "table": 2}, role="judge")
        ev.do("call.answer", {"call": "phone:1"}, role="judge")
        self.assertEqual(
            [("judge", "p1", True), ("player", "p3", False)],
            [(c["kind"], c["player"], c["answered_at"] is not None) for c in ev.state["calls"]],
        )


class VocabularyTest(unittest.TestCase):
    def test_every_operation_type_is_exercised_by_these_tests(self) -> None:
        import inspect

        source = inspect.getsource(inspect.getmodule(VocabularyTest))
        missing = [t for t in OPERATION_TYPES if f'"{t}"' not in source]
        self.assertEqual([], missing)


if __name__ == "__main__":
    unittest.main()


class LateDisputeTest(unittest.TestCase):
    """A tablet offline for an hour reports an old round differently: the dispute can always be settled."""

    def _two_rounds_with_a_late_conflict(self) -> Event:
        ev = Event(4)
        ev.play(1, [["p1", "p2"], ["p3", "p4"]])
        ev.report(1, 1, ["win", "loss"])
        ev.report(1, 2, ["win", "loss"])
        ev.play(2, [["p1", "p3"], ["p2", "p4"]])
        ev.report(2, 1, ["win", "loss"])
        ev.report(2, 2, ["win", "loss"])
        # The offline tablet's report of round 1 table 2 arrives now, the other way round.
        ev.report(1, 2, ["loss", "win"], device="tab-offline", role="judge")
        self.assertEqual("disputed", ev.match(1, 2)["status"])
        return ev

    def test_pairing_past_an_open_dispute_is_refused_with_its_code_naming_round_and_table(self) -> None:
        from shared_rules.state.operations import OpenDispute

        ev = self._two_rounds_with_a_late_conflict()
        op = ev.log.op(
            "round.pair",
            {"number": 3, "matches": [{"table": 1, "players": ["p1", "p4"]}, {"table": 2, "players": ["p2", "p3"]}]},
        )
        with self.assertRaises(OpenDispute) as caught:
            apply(ev.state, op)
        self.assertEqual("open-dispute", caught.exception.code)
        self.assertIn("round 1 table 2", str(caught.exception))

    def test_close_checks_every_round(self) -> None:
        ev = self._two_rounds_with_a_late_conflict()
        self.assertIn("resolve the dispute at round 1 table 2", ev.why("event.close"))

    def test_resolving_then_pairing_goes_on_and_standings_use_the_resolution(self) -> None:
        ev = self._two_rounds_with_a_late_conflict()
        ev.do(
            "result.resolve",
            {"round": 1, "table": 2, "result": {"outcomes": ["loss", "win"]}, "reason": "scoresheet"},
            role="head-judge",
        )
        self.assertEqual("resolved", ev.match(1, 2)["status"])
        ev.play(3, [["p1", "p4"], ["p2", "p3"]])
        self.assertEqual("started", ev.round(3)["status"])

    def test_a_disputed_match_can_be_resolved_after_later_rounds_were_paired(self) -> None:
        # A dispute that reached a frozen round (e.g. from an imported document) is still settled.
        ev = self._two_rounds_with_a_late_conflict()
        rnd = ev.state["rounds"][0]
        state = dict(ev.state, rounds=ev.state["rounds"] + [dict(ev.state["rounds"][1], number=3, status="draft")])
        op = ev.log.op(
            "result.resolve",
            {"round": rnd["number"], "table": 2, "result": {"outcomes": ["win", "loss"]}, "reason": "judge call"},
            role="head-judge",
        )
        after = apply(state, op)
        self.assertEqual("resolved", after["rounds"][0]["matches"][1]["status"])
        report = ev.log.op("result.report", {"round": 1, "table": 1, "outcomes": ["loss", "win"]}, role="judge")
        self.assertIn("record cannot change", check(state, report))


class DeviceVoidTest(unittest.TestCase):
    def test_a_void_changes_nothing_but_the_device_sequence(self) -> None:
        ev = played_round_one()
        before = {k: v for k, v in ev.state.items() if k != "devices"}
        ev.do("device.void", {"dismissed": "timer.resume"}, device="tab-9", role="judge")
        self.assertEqual(before, {k: v for k, v in ev.state.items() if k != "devices"})
        self.assertEqual(1, ev.state["devices"]["tab-9"])

    def test_any_role_may_void_its_own_slot(self) -> None:
        ev = played_round_one()
        ev.do("device.void", {}, device="phone-1", role="player", player="p1")
        self.assertEqual(1, ev.state["devices"]["phone-1"])
