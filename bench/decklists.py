"""The Deck lists screen's data on a big event: ``rules_api.decklists`` (every player's list checked, without
a card database) for a 512- and a 2,048-player AGoT event where every player sent a 4-section list of about 40
lines, and ``deckcheck_pick`` (a seeded pick among the round's seated players), in CPython.

    .venv/bin/python -m bench.decklists [--players 512 2048] [--repeat 3]

``fold`` is the time to fold the whole log (create, register, pair, one ``decklist.submit`` per player);
``first screen`` the first call of ``decklists`` (every list checked), ``screen`` the best of ``--repeat``
later calls (the staff screen redraws with it after each sync; a list already checked is remembered);
``pick`` the best of ``--repeat`` picks of 4 players.
"""

from __future__ import annotations

import argparse
import importlib.util
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def _rules_api() -> Any:
    spec = importlib.util.spec_from_file_location("bench_rules_api", ROOT / "pwa" / "rules" / "rules_api.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _list(i: int) -> dict[str, str]:
    draw = "\n".join(f"{1 + (k % 3)} Card {i % 97}-{k}" for k in range(30))
    return {"faction": "House Stark", "agenda": "1 Banner of the Wolf", "plot": "7 A Noble Cause", "draw": draw}


def _ops(players: int) -> list[dict[str, Any]]:
    ops: list[dict[str, Any]] = []

    def op(kind: str, payload: dict[str, Any], device: str = "desk", role: str = "organizer") -> None:
        ops.append(
            {
                "type": kind,
                "op_id": f"{device}:{len(ops) + 1}",
                "device": device,
                "actor": {"role": role},
                "at": 1_000 + len(ops),
                "payload": payload,
            }
        )

    op("event.create", {"ruleset": "agot", "name": "Bench", "seed": "bench"})
    for i in range(players):
        op("player.register", {"player": {"id": f"p{i}", "name": f"Player {i}"}})
    matches = [{"table": t + 1, "players": [f"p{2 * t}", f"p{2 * t + 1}"]} for t in range(players // 2)]
    op("round.pair", {"number": 1, "matches": matches})
    for i in range(players):
        op("decklist.submit", {"player": f"p{i}", "sections": _list(i)})
    return ops


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, nargs="+", default=[512, 2048])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    api = _rules_api()
    from shared_rules.state import replay

    for players in args.players:
        ops = _ops(players)
        start = time.perf_counter()
        state = replay(ops)
        fold = time.perf_counter() - start
        api._EVENTS[f"bench-{players}"] = {"state": state}
        start = time.perf_counter()
        api.decklists(f"bench-{players}", 10_000_000)
        first = time.perf_counter() - start
        screen = pick = float("inf")
        for _ in range(args.repeat):
            start = time.perf_counter()
            view = api.decklists(f"bench-{players}", 10_000_000)
            screen = min(screen, time.perf_counter() - start)
            start = time.perf_counter()
            api.deckcheck_pick(f"bench-{players}", 1, 4)
            pick = min(pick, time.perf_counter() - start)
        assert view["counts"]["submitted"] + view["counts"]["problems"] == players
        print(
            f"{players:>5} players: fold {fold:.3f} s ({len(ops)} ops), first screen {first:.3f} s, "
            f"screen {screen:.3f} s, pick {pick:.4f} s"
        )


if __name__ == "__main__":
    main()
