"""What the screens read besides the state, as plain JSON from the folded state: one code for the rules worker
(``pwa/rules/rules_api.py``) and the server's player view (``player_view.py``), so both answer the same.

* :func:`ruleset_info`: what the result form, the timer and the Settings screen read for a ruleset;
* :func:`round_clocks`: every started round's clock at a moment (secret time only where it is known);
* :func:`decklist_sheet`: the deck-list screen (spec, settings, lock, each player's list with its problems);
* :func:`published_standings`: the standings the hall sees (``published.py``), with their headings;
* :func:`posted_bracket`: the elimination bracket as posted (no drafted cut round), with its players' names.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Mapping
from typing import Any

from ..errors import RulesError

__all__ = ["ruleset_info", "round_clocks", "decklist_sheet", "published_standings", "bracket_games", "posted_bracket"]


def bracket_games(ruleset: str, settings: Mapping[str, Any]) -> dict[str, int | None]:
    """An elimination match's best-of before the final and in it (None: the document leaves it open)."""
    from ..games import bracket_rules

    rules = bracket_rules(ruleset, dict(settings))
    return {"best_of": rules.best_of, "final_best_of": rules.final_best_of}


def ruleset_info(ruleset: str, settings: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """What a result form needs: outcomes (solo or not), the results one game can end in (``pairs``), endings,
    table sizes, time limits, and the game's UI descriptor (``ui``: result form, timer notes, round start,
    penalty form)."""
    from ..games import game_of

    game = game_of(ruleset)
    rs = game.ruleset(dict(settings or {}))
    return {
        "ui": game.ui(),
        "id": rs.id,
        "title": rs.title,
        "document": rs.document,
        "outcomes": [{"key": o.key, "points": o.points, "result": o.result, "solo": o.solo} for o in rs.outcomes],
        # The results one two-player game can end in, in the document's words (the form offers only these).
        "pairs": [{"outcomes": [p.first, p.second], "label": p.label, "quick": p.quick} for p in rs.result_pairs],
        "pairs_source": rs.pairs_source,
        "endings": list(rs.endings),
        "match_sizes": list(rs.match_sizes),
        "time_limits": {str(k): v for k, v in rs.time_limits.items()},
        # The Settings screen's sections of settings (shared_rules/games/settings.py), each game's own.
        "settings": game.settings_descriptor(),
        # How many games an elimination match is (the form offers games only where a match has more than one).
        "bracket": bracket_games(ruleset, settings or {}) if game.brackets is not None else None,
    }


def round_clocks(state: Mapping[str, Any], now_ms: int) -> list[dict[str, Any]]:
    """Every started round's clock at ``now_ms`` (the server's time).

    ``remaining_ms`` counts secret time where the state knows it (staff); ``announced_ms`` is what is left of
    the announced length; ``secret`` says the round has secret time (Doomtown's d6) and ``secret_s`` how much
    (None where it is withheld: a player's).
    """
    from .state import timer_remaining_ms

    out = []
    for rnd in state["rounds"]:
        if rnd["timer"] is not None and rnd["status"] in ("started", "complete"):
            t = rnd["timer"]
            remaining = timer_remaining_ms(t, now_ms)
            secret_s = t.get("secret_s")
            out.append(
                {
                    "round": rnd["number"],
                    "stage": rnd["stage"],
                    "status": rnd["status"],
                    "remaining_ms": remaining,
                    "paused": t["paused_at"] is not None,
                    "announced_ms": None if remaining is None else remaining - (secret_s or 0) * 1000,
                    "duration_s": t["duration_s"],
                    "extended_s": t["extended_s"],
                    "secret": "secret_s" in t,
                    "secret_s": secret_s,
                }
            )
    return out


#: (ruleset, settings, sections) as JSON -> the problems found: a list is checked once, not at every redraw.
_CHECKED: dict[str, list[dict[str, Any]]] = {}


def _checked(ruleset: str, settings: Mapping[str, Any], sections: dict[str, Any]) -> list[dict[str, Any]]:
    """The problems of one list, remembered (the staff screen asks again for every list after each sync)."""
    from ..decklists import check_list
    from ..games import game_of

    key = json.dumps([ruleset, settings.get("decklists"), sections], sort_keys=True)
    found = _CHECKED.get(key)
    if found is None:
        if len(_CHECKED) >= 16_384:
            _CHECKED.clear()
        found = _CHECKED[key] = check_list(game_of(ruleset).decklists, dict(settings), sections)
    return found


def _tables_now(state: Mapping[str, Any], only: Collection[str] | None = None) -> dict[str, int | None]:
    """Each player's table in the latest posted round (what a judge walks to); ``only`` those players'."""
    for rnd in reversed(state["rounds"]):
        if rnd["status"] != "draft":
            return {pid: m["table"] for m in rnd["matches"] for pid in m["players"] if only is None or pid in only}
    return {}


def decklist_sheet(state: Mapping[str, Any], now_ms: int, only: Collection[str] | None = None) -> dict[str, Any]:
    """The deck-list screen: the organizer's settings, the lock, and every player's list with its problems.

    ``status`` per player: ``submitted`` (no problem found), ``problems``, ``missing`` (none yet) or ``empty``
    (none, and the lists are locked: a warning, never a silent pass). ``only`` keeps those players' rows
    (a player's view: their own row); the counts are of the rows kept.
    """
    from ..decklists import is_empty, lock_at, settings_of
    from ..games import game_of

    spec = game_of(state["ruleset"]).decklists
    config = settings_of(state["settings"])
    lock = lock_at(state["settings"], state["rounds"])
    locked = lock is not None and now_ms >= lock
    tables = _tables_now(state, only)
    rows = []
    for p in state["players"]:
        if only is not None and p["id"] not in only:
            continue
        entry = state["decklists"].get(p["id"])
        sections = entry["sections"] if entry else {}
        problems = _checked(state["ruleset"], state["settings"], sections) if entry else []
        if entry is None or is_empty(sections):
            status = "empty" if locked else "missing"
        else:
            status = "problems" if problems else "submitted"
        rows.append(
            {
                "id": p["id"],
                "name": p["name"],
                "dropped": p["dropped_after"] is not None,
                "table": tables.get(p["id"]),
                "status": status,
                "sections": sections,
                "problems": problems,
                "changes": entry["changes"] if entry else [],
                "checks": [c for c in state["deckchecks"] if c["player"] == p["id"]],
            }
        )
    return {
        "spec": spec.to_json(),
        "settings": {
            "required": config.required,
            "deadline": config.deadline,
            "publish": config.publish,
            "min_cards": config.min_cards,
            "max_cards": config.max_cards,
            "copies": config.copies,
            "points": config.points,
        },
        "lock_at": lock,
        "locked": locked,
        "closed": state["closed"],
        "players": rows,
        "counts": {s: sum(1 for r in rows if r["status"] == s) for s in ("submitted", "problems", "missing", "empty")},
    }


def published_standings(state: Mapping[str, Any]) -> dict[str, Any]:
    """The standings the hall sees (``published.py``: when the organizer's standings policy shows them):
    ``{after, rows, labels, note}``; ``after`` None and ``rows`` empty while there are none to show, ``note``
    saying why in the players' words."""
    from ..games import get_ruleset
    from ..run import load_event, standings_json
    from ..standings import reported_labels
    from .published import published_round, published_state, unpublished_note
    from .state import to_event_document

    after = published_round(state)
    if state["ruleset"] is None or not state["rounds"] or after is None:
        return {"after": None, "rows": [], "labels": {}, "note": unpublished_note(state)}
    try:
        shown = published_state(state)
        event = load_event(to_event_document(shown, operational=False))
        rows = standings_json(event)["standings"]
        names = list(rows[0].get("tiebreakers") or {}) if rows else []
        labels = reported_labels(get_ruleset(event.ruleset, event.settings).reported, names)
        return {"after": after, "rows": rows, "labels": labels, "note": None}
    except RulesError as exc:
        return {"after": None, "rows": [], "labels": {}, "note": f"standings unavailable: {exc}"}


def posted_bracket(state: Mapping[str, Any]) -> dict[str, Any] | None:
    """The bracket as the hall sees it (``brackets.bracket_view``), None before a cut round is posted.

    A drafted elimination round is left out (its pairings are not posted yet); ``names`` gives each bracket
    player's name, for a device that holds only its own opponents.
    """
    posted = [r for r in state["rounds"] if r["status"] != "draft"]
    if not any(r["stage"] == "elimination" for r in posted):
        return None
    from ..run import bracket_view, load_event
    from .state import to_event_document

    view = bracket_view(load_event(to_event_document({**state, "rounds": posted}, operational=False)))
    names = {p["id"]: p["name"] for p in state["players"]}
    seated = {p["player"] for r in view["rounds"] for s in r["slots"] for p in s["players"]}
    if view.get("champion"):
        seated.add(view["champion"])
    return {**view, "names": {pid: names.get(pid, pid) for pid in sorted(seated)}}
