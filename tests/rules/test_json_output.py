"""The CLI's JSON writers give exactly ``json.dumps(value, ensure_ascii=False, indent=1)``."""

from __future__ import annotations

import glob
import json
import os
import unittest
from collections import OrderedDict
from fractions import Fraction
from types import MappingProxyType

from shared_rules._json import dumps_indented
from shared_rules.run import load_event, standings_json, standings_text
from shared_rules.seeded import Rng
from shared_rules.standings.engine import lines_text, standing_line

from .helpers import GOLDEN

_SCALARS = [
    0,
    -1,
    2**70,
    1.5,
    -0.0,
    1e300,
    1e-7,
    float("nan"),
    float("inf"),
    float("-inf"),
    True,
    False,
    None,
    "",
    "plain",
    "é ü ☃ 🎴",
    'quote " backslash \\ tab \t newline \n nul \x00 del \x7f',
    "\u2028",
]


def _value(rng: Rng, depth: int):
    pick = rng.below(10)
    if depth > 4 or pick < 5:
        return _SCALARS[rng.below(len(_SCALARS))]
    if pick < 7:
        return [_value(rng, depth + 1) for _ in range(rng.below(4))]
    if pick == 7:
        return tuple(_value(rng, depth + 1) for _ in range(rng.below(3)))
    return {
        f"k{rng.below(50)}{_SCALARS[rng.below(len(_SCALARS))]}": _value(rng, depth + 1) for _ in range(rng.below(5))
    }


def _same(value) -> bool:
    try:
        expected = json.dumps(value, ensure_ascii=False, indent=1)
    except Exception as exc:  # noqa: BLE001 - the same error is expected
        try:
            dumps_indented(value)
        except Exception as got:  # noqa: BLE001
            return type(got) is type(exc) and str(got) == str(exc)
        return False
    return dumps_indented(value) == expected


class DumpsIndentedTest(unittest.TestCase):
    def test_random_documents(self) -> None:
        rng = Rng("json-output")
        for i in range(2000):
            value = _value(rng, 0)
            self.assertTrue(_same(value), (i, value))

    def test_standings_shape(self) -> None:
        rows = [
            {
                "rank": i,
                "player": f"p{i}",
                "points": 3 * i,
                "record": "1-2-0",
                "tiebreakers": {"owp": i / 7, "oowp": 0.25},
                "dropped": i % 2 == 0,
            }
            for i in range(1, 50)
        ]
        self.assertTrue(_same({"standings": rows}))
        self.assertTrue(_same({"standings": []}))

    def test_unusual_values_fall_back(self) -> None:
        class Text(str):
            pass

        class Number(int):
            pass

        for value in (
            {1: "a", 2.5: "b", False: None, None: 0},
            {"a": Text("x")},
            [Number(3)],
            OrderedDict(a=1),
            {"a": MappingProxyType({})},
            {"a": {1, 2}},
            {(1, 2): 3},
            {"a": object()},
        ):
            self.assertTrue(_same(value), value)

    def test_circular_and_deep(self) -> None:
        loop: list = []
        loop.append(loop)
        self.assertTrue(_same(loop))
        deep: list = []
        for _ in range(200):  # (far deeper overflows the C stack inside Pyodide, in json.dumps itself)
            deep = [1, {"a": deep}]
        self.assertTrue(_same(deep))


def _expected(lines) -> str:
    return json.dumps({"standings": [line.to_json() for line in lines]}, ensure_ascii=False, indent=1)


class StandingsTextTest(unittest.TestCase):
    """The command line writes standings line by line: the same text as json.dumps of the standings."""

    def test_every_golden_event_writes_the_text_of_its_standings(self) -> None:
        paths = [p for p in sorted(glob.glob(os.path.join(GOLDEN, "*.json"))) if os.path.basename(p).count(".") == 1]
        checked = 0
        for path in paths:
            with open(path, encoding="utf-8") as fh:
                doc = json.load(fh)
            if not isinstance(doc, dict) or doc.get("format") != "topcut-event/1":
                continue
            with self.subTest(path=os.path.basename(path)):
                event = load_event(doc)
                expected = json.dumps(standings_json(event), ensure_ascii=False, indent=1)
                self.assertEqual(standings_text(event), expected)
                checked += 1
        self.assertGreaterEqual(checked, 10)

    def test_no_lines_write_an_empty_list(self) -> None:
        self.assertEqual(lines_text([]), _expected([]))
        self.assertEqual(lines_text([]), '{\n "standings": []\n}')

    def test_numbers_print_as_the_standings_json_prints_them(self) -> None:
        lines = [
            standing_line(1, 'é "q"', 3.0, "1-0-0", {"owp": 0.5, "oowp": 1.0, "big": 2**60, "neg": -0.0}, False),
            standing_line(2, "p2", 1.5, "0-1-0", {"inf": float("inf"), "nan": float("nan")}, True),
            standing_line(3, "p3", 0, "0-0-0", {}, False),
        ]
        self.assertEqual(lines_text(lines), _expected(lines))

    def test_unusual_lines_fall_back_to_the_general_writer(self) -> None:
        for line in (
            standing_line(1, "p1", 3, "1-0-0", {"owp": 0.5}, False, {"division": "masters", "pod": [1, 2]}),
            standing_line(1, "p1", 3, "1-0-0", {"owp": None}, False),
            standing_line(1, "p1", 3, "1-0-0", {"owp": True}, False),
            standing_line(1, "p1", Fraction(1, 3), "1-0-0", {}, False),
            standing_line(1, "p1", 3, "1-0-0", {"owp": Fraction(1, 2)}, False),
            standing_line(1, "p1", 3, "1-0-0", {"owp": {1, 2}}, False),
        ):
            lines = [standing_line(2, "p0", 1, "0-1-0", {"owp": 0.25}, False), line]
            with self.subTest(line=line):
                try:
                    expected = _expected(lines)
                except TypeError as exc:  # what json.dumps cannot write, the writer refuses the same way
                    with self.assertRaises(type(exc)):
                        lines_text(lines)
                    continue
                self.assertEqual(lines_text(lines), expected)


if __name__ == "__main__":
    unittest.main()
