"""The benchmark's independent minimal Pokémon standings agree with the rules engine (issue #27)."""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

from bench.events import swiss_event
from bench.minimal_pokemon import standings, text
from shared_rules.run import compute_standings, load_event

ROOT = Path(__file__).resolve().parent.parent


def _engine_rows(doc: dict) -> dict[str, tuple]:
    return {
        s.player: (s.points, s.record, s.tiebreakers["owp"], s.tiebreakers["oowp"], s.dropped)
        for s in compute_standings(load_event(doc))
    }


def _minimal_rows(doc: dict) -> dict[str, tuple]:
    return {
        pid: (points, "{}-{}-{}".format(*record), owp / 10000, oowp / 10000, dropped)
        for pid, points, record, owp, oowp, _, _, dropped in standings(doc)
    }


class MinimalPokemonTest(unittest.TestCase):
    def test_every_player_gets_the_engines_points_record_owp_and_oowp_with_drops_late_and_disputes(self) -> None:
        for ruleset in ("pokemon-tcg", "pokemon-vg"):
            for players, rounds in ((97, 6), (300, 9)):
                doc = swiss_event(players, rounds, ruleset, drops=players // 10, late=players // 20, pending=3)
                with self.subTest(ruleset=ruleset, players=players):
                    self.assertEqual(_minimal_rows(doc), _engine_rows(doc))

    def test_the_frozen_owp_of_a_dropped_player_is_what_the_engine_prints(self) -> None:
        doc = swiss_event(64, 7, "pokemon-tcg", drops=20)
        dropped = {p["id"] for p in doc["players"] if "dropped_after" in p}
        mine, engine = _minimal_rows(doc), _engine_rows(doc)
        self.assertTrue(dropped)
        self.assertEqual({pid: mine[pid] for pid in dropped}, {pid: engine[pid] for pid in dropped})

    def test_the_command_prints_the_standings_shape(self) -> None:
        doc = swiss_event(40, 5, "pokemon-tcg", drops=4)
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "event.json"
            path.write_text(json.dumps(doc), encoding="utf-8")
            out = self._run(path)
        self.assertEqual(out, text(standings(doc)) + "\n")
        lines = json.loads(out)["standings"]
        self.assertEqual([line["rank"] for line in lines], list(range(1, 41)))
        self.assertEqual(set(lines[0]), {"rank", "player", "points", "record", "tiebreakers", "dropped"})

    def _run(self, path: Path) -> str:
        return subprocess.run(
            [sys.executable, str(ROOT / "bench" / "minimal_pokemon.py"), str(path)],
            capture_output=True,
            text=True,
            check=True,
        ).stdout


if __name__ == "__main__":
    unittest.main()
