"""The shared role table (shared_rules/state/roles.py): one list of roles and powers for server and app."""

from __future__ import annotations

import json
import unittest

from shared_rules.state.authorize import ALLOWED
from shared_rules.state.roles import POWERS, ROLES, holders, role_table


class RoleTableTest(unittest.TestCase):
    def test_the_registration_desk_is_who_may_drop_a_player(self) -> None:
        desk = ALLOWED["player.drop"] - {"player"}
        for power in ("claim-codes", "link-people", "staff-push"):
            self.assertEqual(holders(power), desk, power)
        self.assertEqual(sorted(desk), ["head-judge", "organizer", "scorekeeper"])

    def test_only_the_organizer_manages_the_event_and_staff_is_everyone_but_players(self) -> None:
        self.assertEqual(holders("manage-event"), {"organizer"})
        self.assertEqual(holders("staff"), set(ROLES) - {"player"})
        self.assertEqual(holders("vouch"), {"organizer", "player"})

    def test_every_power_is_held_by_known_roles(self) -> None:
        for power, roles in POWERS.items():
            self.assertTrue(roles, power)
            self.assertLessEqual(roles, set(ROLES), power)

    def test_the_app_gets_the_table_as_json_in_role_order(self) -> None:
        table = json.loads(json.dumps(role_table()))
        self.assertEqual(table["roles"], ["organizer", "head-judge", "judge", "scorekeeper", "player"])
        self.assertEqual(table["staff"], ["organizer", "head-judge", "judge", "scorekeeper"])
        self.assertEqual(set(table["operations"]), set(ALLOWED))
        self.assertEqual(table["operations"]["penalty.rescind"], ["organizer", "head-judge"])
        self.assertEqual(table["powers"]["claim-codes"], ["organizer", "head-judge", "scorekeeper"])


if __name__ == "__main__":
    unittest.main()
