"""Pokémon TOM save files (.tdf) read into a ``topcut-event/1`` document.

TOM (Tournament Operations Manager, 1.86) writes plain XML; the layout is
described in ``tests/fixtures/tom/README.md``. Mapping decisions:

Document
    ``ruleset``: ``pokemon-tcg`` for gametype ``TRADING_CARD_GAME``,
    ``pokemon-vg`` for ``VIDEO_GAME``; anything else is refused.
    ``name``: ``<data><name>``.  ``seed``: ``"tom:" + <data><id>`` (the
    sanction id); without an id, ``"tom:" + name + "|" + startdate``. TOM's
    own pairings are already in the file, so the seed only drives draws the
    project makes after the import.
    ``source`` (project field): ``{"program": "TOM", "version", "sanction_id",
    "start_date" (ISO), "stage" (root stage: 1 new, 3 configured, 4 running,
    5 finalized)}``.

Settings
    ``season``: see "Season" below.  ``kind``: the root's ``type`` and
    ``mode`` as TOM wrote them, ``{"type": 3, "mode": "TCG1DAY"}`` (League
    Cup), ``{"type": 2, "mode": "LEAGUECHALLENGE"}`` (League Challenge); the
    exporter writes them back.  ``structure``: ``single-day`` (TOM runs
    League Cups and Challenges in one day).
    ``rounds``: the number of Swiss rounds in the file (the most of any pod);
    omitted while nothing is paired. TOM does not store the planned number,
    so for an unfinished save this is the rounds paired so far.
    ``rounds_by_pod`` (project field, more than one pod): Swiss rounds per pod.
    ``cut``: the chosen top-cut size of ``<finalsoptions>`` (0 = none) when
    every division has the same one; ``cut_by_division`` (project field,
    more than one division listed): division -> cut size.  Likewise
    ``playoff_3rd_4th`` / ``playoff_3rd_4th_by_division`` from
    ``<paired3rd4th>`` (Pokémon TOP 3.2.3, 3.3.6).

Players (in TOM's ``<players>`` roster order)
    ``id`` and ``game_id`` (the Play! Pokémon ID): the TOM userid.  ``name``: "First Last".  ``entry``: 1-based
    roster position; once round 1 is paired TOM writes the roster in a fixed
    shuffled order that is its last tiebreaker, so the order is kept.
    ``birth_year``: from ``<birthdate>`` (MM/DD/YYYY).
    ``late``: true when a ``<late>`` element is present (TOM writes it with
    ``<round>``/``<timestamp>``/``<forcedloss>`` children; a text ``false``
    counts as absent). None of the verified fixtures has one.
    ``dropped_after``: ``<dropped><round>`` when ``<status>`` is 1 (dropped)
    or 2 (disqualified, which also sets ``"disqualified": true``; status 0 is
    not a drop).  ``earned_byes``: ``<byes>`` when above 0.
    ``division`` (project field): ``junior``/``senior``/``masters``: the pod
    category (0/1/2) the player is paired in; in a combined pod (8, 9, 10)
    the category of TOM's finalized ``<standings>`` block that lists the
    player, else the birth year against ``season`` (Pokémon TOP 3.1.1),
    brought inside the pod's divisions; for a player in no pod, the birth
    year alone.  ``pod`` (project field): the id (see ``POD_IDS``: ``masters``,
    ``junior+senior``, ...) of the pod whose ``<subgroups>`` or matches name
    the player; absent before TOM has podded the event.

Rounds
    One entry per (round number, stage), sorted by number, Swiss before
    elimination: stage ``elimination`` for ``type="1"`` (top cut), ``swiss``
    otherwise. Each round number of every pod is merged into one round; each
    match carries ``"pod"``. TOM numbers tables across pods, so tables stay
    unique. Matches keep pod order, then file order. ``table`` is omitted for
    table 0 (byes, forced losses). Outcome codes: see ``OUTCOMES``; code 9
    (deleted) is skipped, code 4 (assigned bye) adds ``"earned": true``, code 0
    (not reported) leaves ``outcomes`` out: **an absent ``outcomes`` means the
    match is pending**. A round left with no match is dropped.

Season (Pokémon TOP 3.1.1; RULES.md Decision: Masters born <= season-16,
Seniors season-15..season-12, Juniors >= season-11, the document's example
being season 2019)
    ``season`` is the calendar year in which the July-June season began:
    Y for a start date in July-December of Y, Y-1 for January-June of Y.
    Checked on the fixtures (all dated September/October 2026): TOM paired a
    2010-born player in the Masters pod and a 2008-born one in a Masters-only
    pod, and ranked 2011-2014 births as Seniors and 2015-2016 births as
    Juniors in its standings, which is the Decision's formula with 2026 (with
    2027 a 2011-born Senior would read as Masters). Pokémon names that season
    "2027", so ``season`` here is one less than Pokémon's name for current
    seasons (and the fixtures cannot show whether the boundary is July 1).

Final standings
    ``tom_final_standings`` gives division -> userids in TOM's official
    finishing order (``type="finished"`` pods of ``<standings>``, sorted by
    ``place``); ``tom_dnf`` gives division -> the disqualified userids of the
    ``type="dnf"`` pods. Divisions without players are left out. Both raise
    ``DocumentError`` for a save that is not finalized (no ``<standings>``).

Malformed input raises ``DocumentError("tdf", ...)`` naming the element.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from typing import Any

from ....errors import DocumentError
from ..divisions import division_for, season_for
from ..ruleset import check_kind

__all__ = [
    "TomPod",
    "import_tdf",
    "tom_final_standings",
    "tom_dnf",
    "tom_pods",
    "division_for",
    "season_for",
    "OUTCOMES",
    "POD_IDS",
]

PATH = "tdf"

RULESETS: dict[str, str] = {
    "TRADING_CARD_GAME": "pokemon-tcg",
    "VIDEO_GAME": "pokemon-vg",
}

DIVISIONS: tuple[str, ...] = ("junior", "senior", "masters")  # youngest first

# TOM pod category -> the divisions paired together (README "<pods>")
POD_DIVISIONS: dict[int, tuple[str, ...]] = {
    0: ("junior",),
    1: ("senior",),
    2: ("masters",),
    8: ("junior", "senior"),
    9: ("senior", "masters"),
    10: ("junior", "senior", "masters"),
}

POD_IDS: dict[int, str] = {code: "+".join(divs) for code, divs in POD_DIVISIONS.items()}

# Division -> TOM category code (<standings> pods, <finalsoptions> keys)
DIVISION_CODES: dict[str, int] = {"junior": 0, "senior": 1, "masters": 2}
DIVISIONS_BY_CODE: dict[int, str] = {code: div for div, code in DIVISION_CODES.items()}


@dataclass(frozen=True)
class Outcome:
    """What one TOM outcome code becomes in the event document."""

    seats: int  # players the match names: 2 at a table, 1 for a bye or forced loss
    outcomes: tuple[str, ...] | None  # None: not reported yet (pending)
    earned: bool = False
    skip: bool = False


OUTCOMES: dict[int, Outcome] = {
    0: Outcome(2, None),  # not yet reported: outcomes left out (pending)
    1: Outcome(2, ("win", "loss")),  # player1 won
    2: Outcome(2, ("loss", "win")),  # player2 won
    3: Outcome(2, ("tie", "tie")),  # tie (Pokémon TOP 3.1: 1 point each)
    4: Outcome(1, ("bye",), earned=True),  # assigned bye: the player's earned bye
    5: Outcome(1, ("bye",)),  # bye for the odd player out (Pokémon TOP 3.1)
    6: Outcome(2, ("loss", "loss")),  # read as a double loss, like 10
    8: Outcome(1, ("late",)),  # forced loss of a late player (Pokémon TOP 3.1.3)
    9: Outcome(0, None, skip=True),  # deleted match
    10: Outcome(2, ("loss", "loss")),  # double loss
}

DROP_STATUSES: dict[int, bool | None] = {
    0: None,  # not dropped
    1: False,  # dropped
    2: True,  # disqualified
}

ELIMINATION_TYPE = "1"  # <round type="1">: single elimination; Swiss repeats the root type
STAGE_ORDER: dict[str, int] = {"swiss": 0, "elimination": 1}
DATE_RE = re.compile(r"^\s*(\d{1,2})/(\d{1,2})/(\d{4})\s*$")


@dataclass(frozen=True)
class TomPod:
    """One TOM pod: a group of divisions paired together."""

    id: str
    category: int
    divisions: tuple[str, ...]
    players: tuple[str, ...]
    swiss_rounds: int
    elimination_rounds: int
    playoff_3rd_4th: bool


# ---------- small readers ----------


def _fail(problem: str) -> DocumentError:
    """A DocumentError about the .tdf text."""
    return DocumentError(PATH, problem)


def _parse(text: str) -> ET.Element:
    """The <tournament> root, or a DocumentError."""
    if not isinstance(text, (str, bytes)):
        raise _fail(f"expected the file's text, got {type(text).__name__}")
    head = text[:2048] if isinstance(text, str) else text[:2048].decode("utf-8", "replace")
    if "<!DOCTYPE" in head.upper() or "<!ENTITY" in head.upper():
        raise _fail("a TOM file has no <!DOCTYPE> or <!ENTITY>")
    try:
        root = ET.fromstring(text)
    except ET.ParseError as error:
        raise _fail(f"not well-formed XML ({error})") from None
    if root.tag != "tournament":
        raise _fail(f"root element is <{root.tag}>, not <tournament>")
    for section in ("data", "players", "pods"):
        if root.find(section) is None:
            raise _fail(f"<tournament> has no <{section}>")
    return root


def _text(element: ET.Element | None, tag: str) -> str:
    """Stripped text of a child element, '' when absent."""
    if element is None:
        return ""
    child = element.find(tag)
    return (child.text or "").strip() if child is not None else ""


def _int(value: str | None, what: str) -> int:
    """An integer attribute or text, or a DocumentError naming it."""
    try:
        return int((value or "").strip())
    except ValueError:
        raise _fail(f"{what} is {value!r}, not a whole number") from None


def _year(value: str, what: str) -> int | None:
    """The year of TOM's MM/DD/YYYY, None when empty."""
    if not value:
        return None
    match = DATE_RE.match(value)
    if not match:
        raise _fail(f"{what} is {value!r}, not MM/DD/YYYY")
    return int(match.group(3))


def _iso_date(value: str) -> str | None:
    """TOM's MM/DD/YYYY as YYYY-MM-DD, None when empty."""
    if not value:
        return None
    match = DATE_RE.match(value)
    if not match:
        raise _fail(f"<startdate> is {value!r}, not MM/DD/YYYY")
    month, day, year = (int(part) for part in match.groups())
    if not (1 <= month <= 12 and 1 <= day <= 31):
        raise _fail(f"<startdate> is {value!r}, not a date")
    return f"{year:04d}-{month:02d}-{day:02d}"


# ---------- seasons and divisions ----------


def _within(division: str, allowed: tuple[str, ...]) -> str:
    """The division, or the closest one in age that the pod pairs."""
    if division in allowed:
        return division
    rank = DIVISIONS.index(division)
    return min(allowed, key=lambda d: (abs(DIVISIONS.index(d) - rank), DIVISIONS.index(d)))


# ---------- pods ----------


def _category(pod: ET.Element, where: str) -> int:
    """A pod's category code, checked against the known ones."""
    code = _int(pod.get("category"), f"{where} category")
    if code not in POD_DIVISIONS:
        raise _fail(f"{where} has unknown category {code}")
    return code


def _pod_elements(root: ET.Element) -> list[tuple[int, ET.Element]]:
    """(category, element) of every <pods><pod>, refusing repeats."""
    seen: set[int] = set()
    pods = []
    for element in _section(root, "pods").findall("pod"):
        code = _category(element, "<pod>")
        if code in seen:
            raise _fail(f"<pod category={code}> appears twice")
        seen.add(code)
        pods.append((code, element))
    return pods


def _pod_players(pod: ET.Element, where: str) -> tuple[str, ...]:
    """The userids of a pod's subgroups, in file order."""
    ids = []
    for player in pod.findall("subgroups/subgroup/players/player"):
        userid = (player.get("userid") or "").strip()
        if not userid:
            raise _fail(f"a <player> of {where} has no userid")
        ids.append(userid)
    return tuple(ids)


def _stage(round_element: ET.Element) -> str:
    """'elimination' for a top-cut round, 'swiss' otherwise."""
    return "elimination" if round_element.get("type") == ELIMINATION_TYPE else "swiss"


def _pod_rounds(pod: ET.Element) -> list[ET.Element]:
    """A pod's <round> elements."""
    return pod.findall("rounds/round")


def tom_pods(text: str) -> list[TomPod]:
    """The pods of a .tdf in file order."""
    root = _parse(text)
    return [_tom_pod(code, element) for code, element in _pod_elements(root)]


def _tom_pod(code: int, element: ET.Element) -> TomPod:
    """One pod's summary."""
    stages = [_stage(r) for r in _pod_rounds(element)]
    return TomPod(
        id=POD_IDS[code],
        category=code,
        divisions=POD_DIVISIONS[code],
        players=_pod_players(element, f"<pod category={code}>"),
        swiss_rounds=stages.count("swiss"),
        elimination_rounds=stages.count("elimination"),
        playoff_3rd_4th=_text(element.find("poddata"), "playoff3rd4th") == "true",
    )


# ---------- standings ----------


def _standings_pods(root: ET.Element, kind: str) -> dict[str, list[str]]:
    """Division -> userids of the <standings> pods of one type, by place."""
    standings = root.find("standings")
    if standings is None:
        raise _fail("no <standings>: the event is not finalized")
    result: dict[str, list[str]] = {}
    for pod in standings.findall("pod"):
        if pod.get("type") != kind:
            continue
        code = _int(pod.get("category"), "<standings><pod> category")
        if code not in DIVISIONS_BY_CODE:
            raise _fail(f"<standings><pod> has category {code}, not a division")
        placed = [_placed(player, code, index) for index, player in enumerate(pod.findall("player"))]
        if placed:
            division = DIVISIONS_BY_CODE[code]
            result[division] = result.get(division, []) + [userid for _, _, userid in sorted(placed)]
    return result


def _placed(player: ET.Element, code: int, index: int) -> tuple[int, int, str]:
    """(place, file position, userid) of one <standings> entry."""
    userid = (player.get("id") or "").strip()
    if not userid:
        raise _fail(f"a <player> of <standings> category {code} has no id")
    place = player.get("place")
    return (_int(place, f"<standings> place of {userid}") if place is not None else index + 1, index, userid)


def tom_final_standings(text: str) -> dict[str, list[str]]:
    """Division -> userids in TOM's official final order (finalized saves only)."""
    return _standings_pods(_parse(text), "finished")


def tom_dnf(text: str) -> dict[str, list[str]]:
    """Division -> userids TOM lists as DNF (disqualified) in a finalized save."""
    return _standings_pods(_parse(text), "dnf")


# ---------- players ----------


def _section(root: ET.Element, tag: str) -> ET.Element:
    """A top-level section the file must have (checked when the file is first read)."""
    found = root.find(tag)
    if found is None:
        raise _fail(f"the file has no <{tag}> section")
    return found


def _roster(root: ET.Element) -> list[ET.Element]:
    """<players><player> elements, refusing missing or repeated userids."""
    seen: set[str] = set()
    players = _section(root, "players").findall("player")
    for position, player in enumerate(players, start=1):
        userid = (player.get("userid") or "").strip()
        if not userid:
            raise _fail(f"<player> {position} of <players> has no userid")
        if userid in seen:
            raise _fail(f"<player userid={userid}> appears twice in <players>")
        seen.add(userid)
    return players


def _is_late(player: ET.Element) -> bool:
    """True when TOM marked the player late (Pokémon TOP 3.1.3)."""
    late = player.find("late")
    if late is None:
        return False
    return len(late) > 0 or (late.text or "").strip().lower() not in ("", "false", "0")


def _drop(player: ET.Element, userid: str) -> dict[str, Any]:
    """dropped_after / disqualified fields from <dropped>."""
    dropped = player.find("dropped")
    if dropped is None:
        return {}
    status = _int(_text(dropped, "status") or "1", f"<dropped><status> of player {userid}")
    if status not in DROP_STATUSES:
        raise _fail(f"<dropped><status> of player {userid} is {status}, not 0, 1 or 2")
    disqualified = DROP_STATUSES[status]
    if disqualified is None:
        return {}
    after = _int(_text(dropped, "round"), f"<dropped><round> of player {userid}")
    if after < 0:
        raise _fail(f"<dropped><round> of player {userid} is {after}")
    return {"dropped_after": after, **({"disqualified": True} if disqualified else {})}


def _player(
    element: ET.Element,
    entry: int,
    pod_of: dict[str, int],
    tom_division: dict[str, str],
    season: int | None,
) -> dict[str, Any]:
    """One player of the document."""
    userid = (element.get("userid") or "").strip()
    name = " ".join(part for part in (_text(element, "firstname"), _text(element, "lastname")) if part)
    birth_year = _year(_text(element, "birthdate"), f"<birthdate> of player {userid}")
    player: dict[str, Any] = {"id": userid, "name": name or userid, "entry": entry, "game_id": userid}
    if birth_year is not None:
        player["birth_year"] = birth_year
    if _is_late(element):
        player["late"] = True
    player.update(_drop(element, userid))
    byes = _text(element, "byes")
    if byes and _int(byes, f"<byes> of player {userid}") > 0:
        player["earned_byes"] = int(byes)
    division = _division(userid, birth_year, pod_of.get(userid), tom_division, season)
    if division:
        player["division"] = division
    if userid in pod_of:
        player["pod"] = POD_IDS[pod_of[userid]]
    return player


def _division(
    userid: str, birth_year: int | None, pod: int | None, tom_division: dict[str, str], season: int | None
) -> str | None:
    """Pod category, else TOM's standings, else birth year (see module docstring)."""
    allowed = POD_DIVISIONS[pod] if pod is not None else DIVISIONS
    if len(allowed) == 1:
        return allowed[0]
    if userid in tom_division:
        return _within(tom_division[userid], allowed)
    if birth_year is None or season is None:
        return None
    return _within(division_for(birth_year, season), allowed)


def _tom_divisions(root: ET.Element) -> dict[str, str]:
    """userid -> division as TOM's finalized <standings> lists it; empty otherwise."""
    if root.find("standings") is None:
        return {}
    divisions: dict[str, str] = {}
    for kind in ("finished", "dnf"):
        for division, ids in _standings_pods(root, kind).items():
            divisions.update((userid, division) for userid in ids)
    return divisions


def _pod_membership(pods: list[tuple[int, ET.Element]], roster: set[str]) -> dict[str, int]:
    """userid -> pod category (its subgroups, then its matches), refusing players in two pods."""
    pod_of: dict[str, int] = {}
    for code, element in pods:
        seated = [
            seat.get("userid", "").strip()
            for seat in element.iterfind("rounds/round/matches/match/*")
            if seat.tag in ("player", "player1", "player2")
        ]
        for userid in _pod_players(element, f"<pod category={code}>") + tuple(u for u in seated if u):
            if userid not in roster:
                raise _fail(f"<pod category={code}> names player {userid}, who is not in <players>")
            if pod_of.get(userid, code) != code:
                raise _fail(f"player {userid} is in pods {pod_of[userid]} and {code}")
            pod_of[userid] = code
    return pod_of


# ---------- rounds ----------


def _match_players(match: ET.Element, where: str) -> list[str]:
    """The userids a <match> names: <player>, or <player1> and <player2>."""
    tags = ("player",) if match.find("player") is not None else ("player1", "player2")
    ids = []
    for tag in tags:
        seat = match.find(tag)
        userid = (seat.get("userid") or "").strip() if seat is not None else ""
        if userid:
            ids.append(userid)
        elif tag != "player2":
            raise _fail(f"{where} has no <{tag}> userid")
    return ids


def _match(match: ET.Element, where: str, pod: int, roster: set[str]) -> dict[str, Any] | None:
    """One match of the document, None for a deleted one."""
    raw = match.get("outcome")
    code = _int(raw, f"{where} outcome") if raw is not None and raw.strip().isdigit() else None
    if code not in OUTCOMES:
        raise _fail(f"{where} has outcome {raw!r}")
    meaning = OUTCOMES[code]
    if meaning.skip:
        return None
    players = _match_players(match, where)
    if len(players) != meaning.seats:
        raise _fail(f"{where} has outcome {code} but names {len(players)} player(s), not {meaning.seats}")
    for userid in players:
        if userid not in roster:
            raise _fail(f"{where} names player {userid}, who is not in <players>")
    if len(set(players)) != len(players):
        raise _fail(f"{where} pairs player {players[0]} with themself")
    result: dict[str, Any] = {}
    table = _text(match, "tablenumber")
    if table and _int(table, f"{where} <tablenumber>") > 0:
        result["table"] = int(table)
    result["players"] = players
    if meaning.outcomes is not None:
        result["outcomes"] = list(meaning.outcomes)
    if meaning.earned:
        result["earned"] = True
    result["pod"] = POD_IDS[pod]
    return result


def _rounds(pods: list[tuple[int, ET.Element]], roster: set[str]) -> list[dict[str, Any]]:
    """Rounds merged across pods by (number, stage)."""
    merged: dict[tuple[int, str], list[dict[str, Any]]] = {}
    for code, pod in pods:
        seen: set[int] = set()
        for round_element in _pod_rounds(pod):
            number = _int(round_element.get("number"), f"<round> number in pod {POD_IDS[code]}")
            if number < 1 or number in seen:
                raise _fail(f"<round number={number}> in pod {POD_IDS[code]} is repeated or below 1")
            seen.add(number)
            matches = merged.setdefault((number, _stage(round_element)), [])
            matches.extend(_round_matches(round_element, number, code, roster))
    rounds = []
    for (number, stage), matches in sorted(merged.items(), key=lambda item: (item[0][0], STAGE_ORDER[item[0][1]])):
        if matches:
            _check_once(matches, number)
            rounds.append({"number": number, "stage": stage, "matches": matches})
    return rounds


def _round_matches(round_element: ET.Element, number: int, pod: int, roster: set[str]) -> list[dict[str, Any]]:
    """The kept matches of one pod's round."""
    matches = []
    for index, element in enumerate(round_element.findall("matches/match"), start=1):
        where = f"<match> {index} in round {number} of pod {POD_IDS[pod]}"
        match = _match(element, where, pod, roster)
        if match is not None:
            matches.append(match)
    return matches


def _check_once(matches: list[dict[str, Any]], number: int) -> None:
    """Refuse a round that names a player twice."""
    seen: set[str] = set()
    for match in matches:
        for userid in match["players"]:
            if userid in seen:
                raise _fail(f"player {userid} is in two matches of round {number}")
            seen.add(userid)


# ---------- settings ----------


def _finals(root: ET.Element) -> dict[str, tuple[int, bool]]:
    """Division -> (chosen cut, paired 3rd/4th) from <finalsoptions>."""
    finals: dict[str, tuple[int, bool]] = {}
    options = root.find("finalsoptions")
    for entry in options.findall("categorycut") if options is not None else []:
        key = _int(entry.get("key"), "<categorycut> key")
        if key not in DIVISIONS_BY_CODE:
            raise _fail(f"<categorycut key={key}> is not a division")
        cut = _int(_text(entry, "cut") or "0", f"<categorycut key={key}> <cut>")
        if cut < 0:
            raise _fail(f"<categorycut key={key}> <cut> is {cut}")
        finals[DIVISIONS_BY_CODE[key]] = (cut, _text(entry, "paired3rd4th") == "true")
    return finals


def _kind(root: ET.Element) -> dict[str, Any] | None:
    """TOM's event type and mode (``settings.kind``), None when the root names neither."""
    kind_type, mode = root.get("type"), root.get("mode")
    if kind_type is None and mode is None:
        return None
    kind = {"type": _int(kind_type, "<tournament> type"), "mode": (mode or "").strip()}
    try:
        check_kind(kind)
    except DocumentError as error:
        raise _fail(f"<tournament type={kind_type!r} mode={mode!r}>: {error.problem}") from None
    return kind


def _settings(root: ET.Element, pods: list[TomPod], season: int | None) -> dict[str, Any]:
    """The document's settings."""
    settings: dict[str, Any] = {}
    if season is not None:
        settings["season"] = season
    kind = _kind(root)
    if kind is not None:
        settings["kind"] = kind
    settings["structure"] = "single-day"
    rounds = max((pod.swiss_rounds for pod in pods), default=0)
    if rounds:
        settings["rounds"] = rounds
    if len(pods) > 1:
        settings["rounds_by_pod"] = {pod.id: pod.swiss_rounds for pod in pods}
    finals = _finals(root)
    _by_division(settings, "cut", {d: cut for d, (cut, _) in finals.items()})
    _by_division(settings, "playoff_3rd_4th", {d: paired for d, (_, paired) in finals.items()})
    return settings


def _by_division(settings: dict[str, Any], key: str, values: dict[str, Any]) -> None:
    """Set ``key`` when all divisions agree, ``key_by_division`` for several divisions."""
    if len(set(values.values())) == 1:
        settings[key] = next(iter(values.values()))
    if len(values) > 1:
        settings[f"{key}_by_division"] = {d: values[d] for d in reversed(DIVISIONS) if d in values}


# ---------- the document ----------


def import_tdf(text: str) -> dict[str, Any]:
    """A ``topcut-event/1`` document from the text of a TOM .tdf save."""
    root = _parse(text)
    data = root.find("data")
    gametype = (root.get("gametype") or "").strip()
    if gametype not in RULESETS:
        raise _fail(f"<tournament> gametype is {gametype!r}, not TRADING_CARD_GAME or VIDEO_GAME")
    name = _text(data, "name")
    sanction_id = _text(data, "id")
    start_date = _iso_date(_text(data, "startdate"))
    season = season_for(start_date) if start_date else None
    pod_elements = _pod_elements(root)
    pods = [_tom_pod(code, element) for code, element in pod_elements]
    roster_elements = _roster(root)
    roster = {(element.get("userid") or "").strip() for element in roster_elements}
    pod_of = _pod_membership(pod_elements, roster)
    tom_division = _tom_divisions(root)
    seed = f"tom:{sanction_id}" if sanction_id else f"tom:{name}|{_text(data, 'startdate')}"
    return {
        "format": "topcut-event/1",
        "ruleset": RULESETS[gametype],
        "name": name,
        "seed": seed,
        "source": _source(root, sanction_id, start_date),
        "settings": _settings(root, pods, season),
        "players": [
            _player(element, entry, pod_of, tom_division, season)
            for entry, element in enumerate(roster_elements, start=1)
        ],
        "rounds": _rounds(pod_elements, roster),
    }


def _source(root: ET.Element, sanction_id: str, start_date: str | None) -> dict[str, Any]:
    """Where the document came from (project field)."""
    source: dict[str, Any] = {"program": "TOM", "version": root.get("version") or ""}
    if sanction_id:
        source["sanction_id"] = sanction_id
    if start_date:
        source["start_date"] = start_date
    stage = root.get("stage")
    if stage is not None:
        source["stage"] = _int(stage, "<tournament> stage")
    return source
