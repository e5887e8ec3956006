"""The Star Trek tournament report: what the director enters at www.trekcc.org (OP Guide 5.1, Section 8, Appendix A).

``tournament_report(event)`` lists, in the order the site's forms ask for
them, everything Appendix A has the director enter for a ``startrek-1e``,
``startrek-2e`` or ``tribbles`` event; ``report_text(report)`` renders it as
a plain page to print or keep.

Per tournament entered at the site:

1. Event information ("Registering a Tournament"): Date & Time (with the time
   zone), Edition, Tournament Format, Card Pool, Rules Set, Scenario, Number
   of Rounds and whether there is a final confrontation, Pairing Style,
   League Event, Primary TD, Secondary TD.
2. Venue details: Region, Host (venue and address), Phone Number, Email Address.
3. Event details: Discussion thread, Entry fee, Special Rules.
4. Players ("Add / Remove Players"): name and forum handle as on the
   scorecards; seeds for an elimination pairing style.
5. Results round by round ("Switch to Round by Round Mode"): each table's
   players, result (FW, MW, TT, ML, FL, BYE, MG: 7.5.1), final scores,
   Victory Points and Differential (7.4, 7.4.1); Tribbles: each player's
   round score and who went out first (7.5.2). A player without a game in a
   round (dropped, late, or eliminated from match play) gets a Missed Game
   row (7.5.1; Appendix A "assign those players a Missed Game").
6. Final confrontation: who won it (Appendix A "Final Confrontation").
7. Final check: every player's Victory Point and Differential totals
   (Tribbles: total score and rounds won) to compare before submitting.

What the event document cannot know comes from ``settings.report`` (all
optional text: ``date``, ``time``, ``time_zone``, ``tournament_format``,
``card_pool``, ``rules_set``, ``primary_td``, ``secondary_td``, ``region``,
``host``, ``address``, ``phone``, ``email``, ``discussion_thread``,
``entry_fee``, ``special_rules``; ``league_event`` true/false; Special Rules say "Deck lists required."
when ``settings.decklists.required``, Appendix A's "if deck lists are required"); fields still
empty are listed in ``missing``, to fill in at the site. The event's date is
``settings.report.date``, else the document's ``date``, else
``settings.rating.date``; the format is ``settings.rating.format``, the
scenario ``settings.rating.scenario``, the rules set the Star Trek variant.

Readings (the project's): a Swiss event with a two-player cut is one
tournament with a final confrontation; a larger cut is entered as Appendix
A's elimination tournament after the Swiss one (Single Elimination, Modified
McIntyre, or Single Elimination with Play-in when the first bracket round has
byes), seeded as the bracket seeded them. A Tribbles event whose rounds have
more than one pod is entered as Appendix A's "Tribbles Events with Multiple
Tables": one tournament per table of round 1 for rounds 1-5, then a "Tribbles
Finals" for the later rounds with each player's table of round 6 as seed.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from ...errors import DocumentError, RulesError
from ...games import get_ruleset
from .. import event_standings
from .scoring import differential

if TYPE_CHECKING:  # pragma: no cover
    from ...event.model import Event, Match, Round

__all__ = [
    "REPORT_RULESETS",
    "RESULT_CODES",
    "REPORT_FIELDS",
    "tournament_report",
    "report_text",
    "check_report_details",
]

_DATE = re.compile(r"\d{4}-\d{2}-\d{2}\Z")

#: Star Trek OP Guide 8, Appendix A: the site takes First Edition, Second Edition and Tribbles events.
REPORT_RULESETS: Mapping[str, str] = {
    "startrek-1e": "First Edition",
    "startrek-2e": "Second Edition",
    "tribbles": "Tribbles",
}

#: Star Trek OP Guide 7.5.1: the results as the scorecards and the site write them.
RESULT_CODES: Mapping[str, str] = {
    "full-win": "FW",
    "modified-win": "MW",
    "true-tie": "TT",
    "modified-loss": "ML",
    "full-loss": "FL",
    "bye": "BYE",
    "earned-bye": "BYE",
    "missed-game": "MG",
}

#: ``settings.report`` fields: (key, label, section) in the order of Appendix A's forms.
REPORT_FIELDS: tuple[tuple[str, str, str], ...] = (
    ("date", "Date", "event"),
    ("time", "Time", "event"),
    ("time_zone", "Time zone", "event"),
    ("tournament_format", "Tournament Format", "event"),
    ("card_pool", "Card Pool", "event"),
    ("rules_set", "Rules Set", "event"),
    ("league_event", "League Event?", "event"),
    ("primary_td", "Primary TD", "event"),
    ("secondary_td", "Secondary TD", "event"),
    ("region", "Region", "venue"),
    ("host", "Host", "venue"),
    ("address", "Address", "venue"),
    ("phone", "Phone Number", "venue"),
    ("email", "Email Address", "venue"),
    ("discussion_thread", "Discussion thread", "details"),
    ("entry_fee", "Entry fee", "details"),
    ("special_rules", "Special Rules", "details"),
)
#: Fields the site lets the director leave empty (Appendix A: "(optional)", "(if applicable)").
_OPTIONAL = frozenset({"secondary_td", "discussion_thread", "entry_fee", "special_rules", "league_event", "scenario"})
_VARIANTS = {
    "standard": "Standard",
    "warp-speed": "Warp Speed",
    "slipstream": "Slipstream",
    "id-draft": "Infinite Diversity Draft",
}
_FORMATS = {"constructed": "Constructed", "sealed": "Sealed", "draft": "Draft"}
_SECTIONS = (("event", "Event information"), ("venue", "Venue details"), ("details", "Event details"))


def _settings_report(event: Event) -> dict[str, Any]:
    return check_report_details(event.settings.get("report", {}))


def check_report_details(raw: Any) -> dict[str, Any]:
    """``settings.report``, the details the organizer fills in, checked (DocumentError names the field).

    >>> check_report_details({"date": "2026-11-20", "league_event": True})
    {'date': '2026-11-20', 'league_event': True}
    >>> check_report_details({"date": "20 Nov"})
    Traceback (most recent call last):
    ...
    shared_rules.errors.DocumentError: settings.report.date: expected a date YYYY-MM-DD, got '20 Nov'
    """
    if raw is None:
        return {}
    if not isinstance(raw, Mapping):
        raise DocumentError("settings.report", "expected an object of the report's fields")
    known = {key for key, _, _ in REPORT_FIELDS}
    out: dict[str, Any] = {}
    for key, value in raw.items():
        if key not in known:
            raise DocumentError(f"settings.report.{key}", f"not a report field (use {', '.join(sorted(known))})")
        if key == "league_event":
            if not isinstance(value, bool):
                raise DocumentError("settings.report.league_event", f"expected true or false, got {value!r}")
        elif not isinstance(value, str):
            raise DocumentError(f"settings.report.{key}", f"expected text, got {value!r}")
        elif key == "date" and value and not _DATE.match(value):  # as the site's form and the league table read it
            raise DocumentError("settings.report.date", f"expected a date YYYY-MM-DD, got {value!r}")
        out[key] = value
    return out


def _date(event: Event, given: Mapping[str, Any]) -> str:
    given_date = given.get("date")
    if isinstance(given_date, str) and given_date:
        return given_date
    date = event.extra.get("date")
    rating = event.settings.get("rating")
    if date is None and isinstance(rating, Mapping):
        date = rating.get("date")
    return date if isinstance(date, str) else ""


def _name(event: Event, pid: str) -> str:
    player = event.player(pid)
    return player.name or player.id


def _handle(event: Event, pid: str) -> str:
    player = event.player(pid)
    handle = player.extra.get("handle")
    if isinstance(handle, str):
        return handle
    return player.game_id or ""


class _Scorer:
    """Victory Points and Differential of one seat (Star Trek OP Guide 7.4.1, 7.5.1)."""

    def __init__(self, event: Event) -> None:
        self.ruleset = get_ruleset(event.ruleset, event.settings)
        self.edition = "1e" if event.ruleset == "startrek-1e" else "2e"
        self.cap = int(self.ruleset.settings.get("differential_cap", 100))

    def seat(self, event: Event, match: Match, k: int, vp: bool) -> dict[str, Any]:
        pid = match.players[k]
        row: dict[str, Any] = {"player": pid, "name": _name(event, pid)}
        score = match.scores[k] if match.scores is not None else None
        if event.ruleset == "tribbles":
            row["score"] = score
            row["result"] = "pending" if match.outcomes is None else ("went out" if match.outcomes[k] == "win" else "")
            return row
        outcome = match.outcomes[k] if match.outcomes is not None else None
        row["result"] = (
            ("disputed" if match.extra.get("disputed") else "pending")
            if outcome is None
            else RESULT_CODES.get(outcome, outcome)
        )
        row["score"] = score
        if outcome is not None and vp:
            row["vp"] = self.ruleset.outcome(outcome).points
            other = 1 - k if len(match.players) == 2 else None
            row["differential"] = differential(
                outcome,
                score,
                match.scores[other] if other is not None and match.scores is not None else None,
                opponent_outcome=match.outcomes[other] if other is not None and match.outcomes is not None else None,
                ending=match.ending,
                edition=self.edition,
                cap=self.cap,
            )
        return row


def _number(value: Any) -> Any:
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def _rounds(
    event: Event, rounds: Sequence[Round], players: Sequence[str], scorer: _Scorer, vp: bool, first: int | None = None
) -> tuple[list[dict[str, Any]], list[str]]:
    """Round by round; ``first``: the number the site gives the first of them (else the event's numbers)."""
    out: list[dict[str, Any]] = []
    warnings: list[str] = []
    members = set(players)
    for i, rnd in enumerate(rounds, 1):
        tables: list[dict[str, Any]] = []
        seated: set[str] = set()
        for match in rnd.matches:
            if not members.intersection(match.players):
                continue
            seats = [scorer.seat(event, match, k, vp) for k in range(len(match.players))]
            for seat in seats:
                seat.update({key: _number(v) for key, v in seat.items() if key in ("score", "vp", "differential")})
            seated.update(match.players)
            tables.append({"table": match.table, "seats": seats})
            if match.outcomes is None:
                warnings.append(f"round {rnd.number}, table {match.table or '-'}: no result yet")
        for pid in players:
            if pid not in seated:
                why = _absence(event, pid, rnd)
                row: dict[str, Any] = {
                    "player": pid,
                    "name": _name(event, pid),
                    "result": "MG",
                    "score": None,
                    "note": why,
                }
                if vp and event.ruleset != "tribbles":
                    row.update(vp=0, differential=0)
                tables.append({"table": None, "seats": [row]})
        out.append(
            {
                "round": first + i - 1 if first is not None else rnd.number,
                "event_round": rnd.number,
                "stage": rnd.stage,
                "tables": tables,
            }
        )
    return out, warnings


def _absence(event: Event, pid: str, rnd: Round) -> str:
    player = event.player(pid)
    if rnd.stage == "elimination":
        return "eliminated"
    if player.dropped_after is not None and rnd.number > player.dropped_after:
        return f"dropped after round {player.dropped_after}"
    return "not in this round (late)"


def _fields(
    event: Event, given: Mapping[str, Any], values: Mapping[str, Any]
) -> tuple[list[dict[str, Any]], list[str]]:
    sections: list[dict[str, Any]] = []
    missing: list[str] = []
    for section, title in _SECTIONS:
        fields = []
        for key, label, where in _ORDER:
            if where != section:
                continue
            value = values.get(key, given.get(key, ""))
            if value in ("", None) and key not in _OPTIONAL:
                missing.append(label)
            fields.append({"key": key, "label": label, "value": value})
        sections.append({"id": section, "title": title, "fields": fields})
    return sections, missing


#: Every field of the three forms, in order: REPORT_FIELDS with what the event itself gives.
_ORDER: tuple[tuple[str, str, str], ...] = (
    ("date", "Date", "event"),
    ("time", "Time", "event"),
    ("time_zone", "Time zone", "event"),
    ("edition", "Edition", "event"),
    ("tournament_format", "Tournament Format", "event"),
    ("card_pool", "Card Pool", "event"),
    ("rules_set", "Rules Set", "event"),
    ("scenario", "Scenario", "event"),
    ("rounds", "Number of Rounds", "event"),
    ("final_confrontation", "Final confrontation", "event"),
    ("pairing_style", "Pairing Style", "event"),
    ("league_event", "League Event?", "event"),
    ("primary_td", "Primary TD", "event"),
    ("secondary_td", "Secondary TD", "event"),
) + tuple(f for f in REPORT_FIELDS if f[2] != "event")


def _base_values(event: Event, given: Mapping[str, Any]) -> dict[str, Any]:
    rating = event.settings.get("rating")
    rating = rating if isinstance(rating, Mapping) else {}
    variant = event.settings.get("variant", "standard")
    fmt = rating.get("format")
    values: dict[str, Any] = {
        "date": _date(event, given),
        "edition": REPORT_RULESETS[event.ruleset],
        "tournament_format": given.get("tournament_format") or (_FORMATS.get(fmt, "") if isinstance(fmt, str) else ""),
        "rules_set": given.get("rules_set")
        or (_VARIANTS.get(variant, str(variant)) if event.ruleset != "tribbles" else ""),
        "scenario": rating.get("scenario") or "",
        "league_event": ("yes" if given["league_event"] else "no") if "league_event" in given else "",
    }
    special = _special_rules(event, str(given.get("special_rules") or ""))
    if special:
        values["special_rules"] = special
    return values


def _special_rules(event: Event, given: str) -> str:
    """Appendix A "Special Rules if deck lists are required": the director's text, saying so when the event
    requires lists (``settings.decklists.required``) and the text does not already.

    >>> from shared_rules.run import load_event
    >>> ev = load_event({"ruleset": "startrek-2e", "players": [], "rounds": [],
    ...                  "settings": {"decklists": {"required": True}}})
    >>> _special_rules(ev, ""), _special_rules(ev, "Proxies allowed.")
    ('Deck lists required.', 'Deck lists required. Proxies allowed.')
    """
    lists = event.settings.get("decklists")
    required = isinstance(lists, Mapping) and lists.get("required") is True
    if not required or "deck list" in given.casefold():
        return given
    return f"Deck lists required. {given}".strip()


def _tournament(
    title: str,
    sections: list[dict[str, Any]],
    players: list[dict[str, Any]],
    rounds: list[dict[str, Any]],
    totals: list[dict[str, Any]],
    final: dict[str, Any] | None,
) -> dict[str, Any]:
    out: dict[str, Any] = {"title": title, "sections": sections, "players": players, "rounds": rounds, "totals": totals}
    if final is not None:
        out["final_confrontation"] = final
    return out


def _swiss_totals(
    event: Event, rounds: Sequence[Round], players: Sequence[str] | None = None, order: Sequence[str] | None = None
) -> list[dict[str, Any]]:
    sub = replace(event, rounds=tuple(rounds))
    lines = event_standings(sub)
    out = []
    keep = set(players) if players is not None else None
    for line in lines:
        if keep is not None and line.player not in keep:
            continue
        row: dict[str, Any] = {"player": line.player, "name": _name(event, line.player)}
        if event.ruleset == "tribbles":
            row.update(score=_number(line.points), rounds_won=_number(line.tiebreakers.get("rounds_won", 0)))
        else:
            row.update(
                vp=_number(line.points),
                differential=_number(line.tiebreakers.get("differential", 0)),
                record=line.record,
            )
        out.append(row)
    if order is not None:
        rank = {pid: i for i, pid in enumerate(order)}
        out.sort(key=lambda r: rank.get(r["player"], len(rank)))
    for i, row in enumerate(out, 1):
        row["rank"] = i
    return out


def tournament_report(event: Event) -> dict[str, Any]:
    """Everything the director enters at www.trekcc.org for the event (Star Trek OP Guide 8, Appendix A).

    >>> from shared_rules.run import load_event
    >>> doc = {"ruleset": "startrek-2e", "name": "Club night", "seed": "s", "date": "2026-11-20",
    ...        "settings": {"report": {"primary_td": "Quark"}},
    ...        "players": [{"id": p, "name": p.upper(), "entry": i} for i, p in enumerate("ab", 1)],
    ...        "rounds": [{"number": 1, "matches": [{"players": ["a", "b"], "outcomes": ["full-win", "full-loss"],
    ...                                              "scores": [100, 35]}]}]}
    >>> report = tournament_report(load_event(doc))
    >>> [(s["name"], s["result"], s["vp"], s["differential"]) for s in report["tournaments"][0]["rounds"][0]["tables"][0]["seats"]]
    [('A', 'FW', 4, 65), ('B', 'FL', 1, -65)]
    """
    if event.ruleset not in REPORT_RULESETS:
        raise RulesError(
            f"ruleset: '{event.ruleset}' is not a Star Trek CCG event; the tournament report is "
            f"entered at www.trekcc.org for {', '.join(REPORT_RULESETS)} (Star Trek OP Guide 8)"
        )
    given = _settings_report(event)
    base = _base_values(event, given)
    scorer = _Scorer(event)
    swiss = [r for r in event.rounds if r.stage != "elimination"]
    elimination = [r for r in event.rounds if r.stage == "elimination"]
    everyone = [p.id for p in event.players]
    warnings: list[str] = []
    tournaments: list[dict[str, Any]] = []
    missing: list[str] = []

    def sections_for(values: Mapping[str, Any]) -> list[dict[str, Any]]:
        found, lacking = _fields(event, given, {**base, **values})
        for label in lacking:
            if label not in missing:
                missing.append(label)
        return found

    def player_rows(ids: Sequence[str], seeds: Mapping[str, int] | None = None) -> list[dict[str, Any]]:
        rows = []
        for pid in ids:
            row: dict[str, Any] = {"player": pid, "name": _name(event, pid), "handle": _handle(event, pid)}
            if seeds is not None:
                row["seed"] = seeds.get(pid)
            rows.append(row)
        return rows

    if event.ruleset == "tribbles" and any(len(r.matches) > 1 for r in swiss):
        tournaments, more = _tribbles_tables(event, swiss, scorer, sections_for, player_rows)
        warnings += more
    else:
        final = None
        if len(elimination) == 1 and len(elimination[0].matches) == 1 and len(elimination[0].matches[0].players) == 2:
            final = _final(event, elimination[0].matches[0])
            elimination = []
        rounds, more = _rounds(event, swiss, everyone, scorer, vp=True)
        warnings += more
        values = {
            "rounds": str(len(swiss)),
            "final_confrontation": "yes" if final is not None else "no",
            "pairing_style": "Swiss",
        }
        totals = _swiss_totals(event, swiss)
        tournaments.append(
            _tournament(event.name or "Tournament", sections_for(values), player_rows(everyone), rounds, totals, final)
        )
        if elimination:
            tournaments.append(_elimination(event, elimination, swiss, scorer, sections_for, player_rows, warnings))
    if event.ruleset != "tribbles" and len(swiss) < 3:
        warnings.append(
            f"{len(swiss)} Swiss round(s): a First or Second Edition tournament needs at least "
            "three to be sanctioned (Star Trek OP Guide 3)"
        )
    if event.ruleset == "tribbles" and len(swiss) < 5:
        warnings.append(
            f"{len(swiss)} round(s): a Tribbles tournament needs at least five to be sanctioned (Star Trek OP Guide 3)"
        )
    complete = not any(w.endswith("no result yet") for w in warnings)
    return {
        "event": event.name,
        "edition": REPORT_RULESETS[event.ruleset],
        "complete": complete,
        "tournaments": tournaments,
        "missing": missing,
        "warnings": warnings,
    }


def _final(event: Event, match: Match) -> dict[str, Any]:
    winner = None
    if match.outcomes is not None:
        for pid, outcome in zip(match.players, match.outcomes):
            if outcome in ("full-win", "modified-win", "win"):
                winner = pid
    return {
        "players": [{"player": p, "name": _name(event, p)} for p in match.players],
        "winner": winner,
        "winner_name": _name(event, winner) if winner else None,
    }


def _elimination(
    event: Event,
    rounds: Sequence[Round],
    swiss: Sequence[Round],
    scorer: _Scorer,
    sections_for: Any,
    player_rows: Any,
    warnings: list[str],
) -> dict[str, Any]:
    first = rounds[0]
    seeds: dict[str, int] = {}
    for match in first.matches:
        given = match.extra.get("seeds")
        if isinstance(given, (list, tuple)) and len(given) == len(match.players):
            seeds.update(zip(match.players, given))
    ids = [pid for m in first.matches for pid in m.players]
    if len(seeds) != len(ids):
        order = [line["player"] for line in _swiss_totals(event, swiss)] if swiss else [p.id for p in event.players]
        seeds = {pid: order.index(pid) + 1 if pid in order else len(order) + 1 for pid in ids}
    ids.sort(key=lambda pid: seeds[pid])
    scheme = first.extra.get("bracket", {}).get("scheme") if isinstance(first.extra.get("bracket"), Mapping) else None
    if scheme == "mcintyre":
        style = "Modified McIntyre"
    elif any(len(m.players) == 1 for m in first.matches):
        style = "Single Elimination with Play-in"
    else:
        style = "Single Elimination"
    table, more = _rounds(event, rounds, ids, scorer, vp=False, first=1)
    warnings += more
    for rnd in table:  # Victory Points do not apply in match play (Star Trek OP Guide 10)
        for t in rnd["tables"]:
            for seat in t["seats"]:
                seat.pop("vp", None)
                seat.pop("differential", None)
    values = {"rounds": str(len(rounds)), "final_confrontation": "no", "pairing_style": style}
    winner = None
    last = rounds[-1]
    if len(last.matches) == 1 and last.matches[0].outcomes is not None:
        winner = _final(event, last.matches[0])["winner"]
    totals: list[dict[str, Any]] = [
        {
            "player": pid,
            "name": _name(event, pid),
            "seed": seeds[pid],
            "eliminated_in": _out_round(pid, rounds),
            "rank": None,
        }
        for pid in ids
    ]
    ranked = sorted(
        totals,
        key=lambda r: (
            -(r["eliminated_in"] or len(rounds) + 1) if r["player"] != winner else -(len(rounds) + 2),
            r["seed"],
        ),
    )
    for i, row in enumerate(ranked, 1):
        row["rank"] = i
    return _tournament(
        f"{event.name or 'Tournament'}: match play", sections_for(values), player_rows(ids, seeds), table, ranked, None
    )


def _out_round(pid: str, rounds: Sequence[Round]) -> int | None:
    for i, rnd in enumerate(rounds, 1):
        for match in rnd.matches:
            if pid in match.players and match.outcomes is not None:
                k = match.players.index(pid)
                if match.outcomes[k] not in ("full-win", "modified-win", "bye", "earned-bye", "win"):
                    return i
    return None


def _tribbles_tables(
    event: Event, swiss: Sequence[Round], scorer: _Scorer, sections_for: Any, player_rows: Any
) -> tuple[list[dict[str, Any]], list[str]]:
    # Star Trek OP Guide Appendix A, "Tribbles Events with Multiple Tables".
    warnings: list[str] = []
    heats, finals = list(swiss[:5]), list(swiss[5:])
    out = []
    for k, pod in enumerate(heats[0].matches, 1):
        table_no = pod.table if pod.table is not None else k
        members = list(pod.players)
        for rnd in heats[1:]:
            for match in rnd.matches:
                if set(match.players) & set(members) and not set(match.players) <= set(members):
                    warnings.append(
                        f"round {rnd.number}: table {table_no}'s players are not all in one pod "
                        "(Star Trek OP Guide 7.6: players stay in their pods for five rounds)"
                    )
        rounds, more = _rounds(event, heats, members, scorer, vp=False)
        warnings += more
        values = {"rounds": str(len(heats)), "final_confrontation": "no", "pairing_style": "Swiss"}
        out.append(
            _tournament(
                f"{event.name or 'Tournament'}: table {table_no} (rounds 1-{len(heats)})",
                sections_for(values),
                player_rows(members),
                rounds,
                _swiss_totals(event, heats, members),
                None,
            )
        )
    if finals:
        seeds = {}
        for k, pod in enumerate(finals[0].matches, 1):
            for pid in pod.players:
                seeds[pid] = pod.table if pod.table is not None else k
        ids = sorted(seeds, key=lambda pid: (seeds[pid], pid))
        rounds, more = _rounds(event, finals, ids, scorer, vp=False, first=len(heats) + 1)
        warnings += more
        values = {"rounds": str(len(finals)), "final_confrontation": "no", "pairing_style": "Tribbles Finals"}
        # Appendix A: the system ranks the finals by seed (table), then by points scored.
        totals = _swiss_totals(event, finals, ids)
        totals.sort(key=lambda r: (seeds[r["player"]], -(r["score"] or 0)))
        for i, row in enumerate(totals, 1):
            row.update(rank=i, seed=seeds[row["player"]])
        out.append(
            _tournament(
                f"{event.name or 'Tournament'}: Tribbles Finals",
                sections_for(values),
                player_rows(ids, seeds),
                rounds,
                totals,
                None,
            )
        )
    return out, warnings


def _cell(value: Any) -> str:
    if value is None or value == "":
        return "-"
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return str(_number(value))
    return str(value)


def _signed(value: Any) -> str:
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        value = _number(value)
        return f"+{value}" if value > 0 else str(value)
    return _cell(value)


def report_text(report: Mapping[str, Any]) -> str:
    """The report as a plain page (one tournament after the other, in the site's order)."""
    lines: list[str] = [
        f"Star Trek CCG tournament report: {report['event'] or 'Tournament'}",
        f"Edition: {report['edition']}",
        "",
    ]
    for t in report["tournaments"]:
        lines += [t["title"], "=" * len(t["title"]), ""]
        for section in t["sections"]:
            lines.append(section["title"])
            width = max(len(f["label"]) for f in section["fields"])
            for f in section["fields"]:
                lines.append(f"  {f['label'].ljust(width)}  {_cell(f['value'])}")
            lines.append("")
        lines.append("Players")
        for p in t["players"]:
            seed = f"#{p['seed']} " if p.get("seed") is not None else ""
            handle = f" ({p['handle']})" if p["handle"] else ""
            lines.append(f"  {seed}{p['name']}{handle}")
        lines.append("")
        for rnd in t["rounds"]:
            lines.append(f"Round {rnd['round']}")
            for table in rnd["tables"]:
                seats = []
                for s in table["seats"]:
                    parts = [s["result"] or "-", f"score {_cell(s.get('score'))}"]
                    if "vp" in s:
                        parts += [f"{_cell(s['vp'])} VP", f"diff {_signed(s['differential'])}"]
                    if s.get("note"):
                        parts.append(s["note"])
                    seats.append(f"{s['name']} ({', '.join(parts)})")
                where = f"Table {table['table']}" if table["table"] is not None else "No table"
                lines.append(f"  {where}: " + " vs ".join(seats))
            lines.append("")
        final = t.get("final_confrontation")
        if final is not None:
            lines += [
                "Final confrontation",
                f"  {' vs '.join(p['name'] for p in final['players'])}: "
                f"won by {final['winner_name'] or '(no result yet)'}",
                "",
            ]
        lines.append("Final check")
        for row in t["totals"]:
            if "vp" in row:
                detail = f"{_cell(row['vp'])} VP, differential {_signed(row['differential'])}, {row['record']}"
            elif "score" in row:
                detail = f"score {_cell(row['score'])}, rounds won {_cell(row['rounds_won'])}"
            else:
                detail = f"seed {row['seed']}, " + (
                    f"out in round {row['eliminated_in']}" if row["eliminated_in"] else "not eliminated"
                )
            lines.append(f"  {row['rank']}. {row['name']}: {detail}")
        lines.append("")
    if report["missing"]:
        lines += ["To fill in at www.trekcc.org: " + ", ".join(report["missing"]), ""]
    for warning in report["warnings"]:
        lines.append(f"Warning: {warning}")
    return "\n".join(lines).rstrip("\n") + "\n"
