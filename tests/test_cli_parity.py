"""The command line gives the same bytes under CPython and inside Pyodide.

Every golden event document is ranked, paired (whatever comes next: Swiss,
cut or elimination round), and asked for its bracket, day two and flights by
both runtimes in one Pyodide boot (error lines included); structures for every
ruleset, the time-called helpers and the error lines for bad documents are
compared too.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.pyodide_helper import run_in_cpython_cli, run_many_in_pyodide_cli

GOLDEN = Path(__file__).parent / "golden"

BAD_DOCUMENTS = {
    "not-json.json": '{"format": ',
    "unknown-outcome.json": json.dumps(
        {
            "format": "topcut-event/1",
            "ruleset": "custom",
            "seed": "s",
            "settings": {"points": {"win": 3, "loss": 0}},
            "players": [{"id": "a", "entry": 1}, {"id": "b", "entry": 2}],
            "rounds": [
                {"number": 1, "stage": "swiss", "matches": [{"players": ["a", "b"], "outcomes": ["draw", "loss"]}]}
            ],
        }
    ),
    "unknown-player.json": json.dumps(
        {
            "format": "topcut-event/1",
            "ruleset": "custom",
            "seed": "s",
            "players": [{"id": "a", "entry": 1}],
            "rounds": [
                {"number": 1, "stage": "swiss", "matches": [{"players": ["a", "zz"], "outcomes": ["win", "loss"]}]}
            ],
        }
    ),
}

STRUCTURES = [
    ["structure", "doomtown", "40", "--structure", "multi-day"],
    ["structure", "pokemon-tcg", "200", "--structure", "two-day"],
    ["structure", "pokemon-vg", "64"],
    ["structure", "shatterpoint", "70"],
    ["structure", "agot", "30", "--structure", "advanced"],
    ["structure", "startrek-1e", "20"],
    ["structure", "tribbles", "12"],
    ["structure", "custom", "9"],
    ["structure", "chess", "9"],
]


GAME_END = [
    ["game-end", "agot", '{"power": [11, 13]}'],
    ["game-end", "doomtown", '{"control": [3, 3], "influence": [5, 4], "bullets": [2, 2]}'],
    ["game-end", "shatterpoint", '{"struggle": [2, 2], "wounds": [5, 7]}'],
    ["game-end", "startrek-2e", '{"scores": [60, 35]}'],
    ["game-end", "agot", "{}"],
    ["game-end", "tribbles", "{}"],
]


def _golden_events() -> list[Path]:
    return sorted(
        p
        for p in GOLDEN.glob("*.json")
        if not p.name.endswith((".standings.json", ".expected.json")) and not p.name.startswith(("pair-", "bracket-"))
    )


def test_cpython_and_pyodide_agree_byte_for_byte() -> None:
    events = _golden_events()
    assert events, "no golden event documents found"
    invocations: list[tuple[list[str], dict]] = []
    for path in events:
        for command in ("standings", "pair", "bracket", "day-two", "flights"):
            invocations.append(([command, path.name], {path.name: path}))
    for name, text in BAD_DOCUMENTS.items():
        invocations.append((["standings", name], {name: text}))
    for args in STRUCTURES + GAME_END:
        invocations.append((args, {}))
    pyodide = run_many_in_pyodide_cli(invocations)
    mismatches = []
    for (args, files), in_pyodide in zip(invocations, pyodide):
        in_cpython = run_in_cpython_cli(args, files)
        if in_cpython != in_pyodide:
            mismatches.append((args, in_cpython, in_pyodide))
    assert not mismatches, mismatches[0]


@pytest.mark.parametrize("name", sorted(BAD_DOCUMENTS))
def test_bad_documents_give_one_line_on_stderr_and_a_failing_status(name: str) -> None:
    code, out, err = run_in_cpython_cli(["standings", name], {name: BAD_DOCUMENTS[name]})
    assert code != 0 and out == ""
    assert err.count("\n") == 1 and err.startswith("error: ") and "Traceback" not in err
