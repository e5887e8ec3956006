"""The CLI's JSON writer gives exactly ``json.dumps(value, ensure_ascii=False, indent=1)``."""

from __future__ import annotations

import json
import unittest
from collections import OrderedDict
from types import MappingProxyType

from shared_rules._json import dumps_indented
from shared_rules.seeded import Rng

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


if __name__ == "__main__":
    unittest.main()
