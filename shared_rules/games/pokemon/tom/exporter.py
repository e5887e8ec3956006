"""A Pokémon ``topcut-event/1`` document written as a TOM save file (.tdf).

``to_tdf(document)`` writes the XML layout of TOM 1.86 (Tournament
Operations Manager) as the saves in ``tests/fixtures/tom`` show it: the same
elements and attributes in the same order (``tests/fixtures/tom/README.md``
"XML layout"). It is the inverse of ``shared_rules.games.pokemon.tom.importer.import_tdf``:
for every document that ``import_tdf`` makes, ``import_tdf(to_tdf(doc)) ==
doc``, and so the standings are the same. Standard library only
(``xml.etree.ElementTree``), deterministic: the same document always gives
the same bytes (no clock, no randomness).

Only ``pokemon-tcg`` (gametype ``TRADING_CARD_GAME``) and ``pokemon-vg``
(``VIDEO_GAME``) documents are written; any other ruleset, a ``swiss-day2``
round (TOM runs one-day events) or a result TOM has no code for raises
``DocumentError`` naming the field.

A document that came from TOM (``source.program == "TOM"``) carries what the
importer recorded (``source``, ``settings.rounds_by_pod``, ``cut_by_division``,
players' ``division`` and ``pod``, matches' ``pod``); it is written back from
those. A document made in Topcut lacks some of what TOM needs; the table says
what is written then ("stand-in": deterministic, documented, not a fact).

Root ``<tournament>``
    ``gametype``: from ``ruleset``.  ``version``: ``source.version``, else
    ``1.86``.  ``stage``: ``source.stage``; without one, 5 (finalized) when
    every match is reported and the engine has nothing left to pair
    (``pairing.whole_event.next_round`` refuses), 4 (running) with rounds, 1
    (new) without.  ``type``/``mode``: ``settings.kind`` (``{"type",
    "mode"}``, TOM's own, kept by the importer; a League Cup without a top
    cut stays a League Cup); without it (stand-in: an event made here that
    names no kind) ``3``/``TCG1DAY`` (League Cup) when a division has a top
    cut or an elimination round exists, else ``2``/``LEAGUECHALLENGE``
    (League Challenges have no top cut). No video game save was available,
    so a ``pokemon-vg`` file uses the same codes.

``<data>``
    ``name``: ``name``.  ``id``: ``source.sanction_id``, else empty (TOM's
    sanction id comes from Play! Pokémon; re-imported, the document's seed
    becomes ``"tom:" + name + "|" + startdate``: **a Topcut seed is not
    kept**).  ``startdate``: ``source.start_date``; else (stand-in) July 1 of
    ``settings.season``, the first day of that season, so the season reads
    back the same; else empty.  ``city``, ``state``, ``country``,
    ``organizer popid/name``: empty (not in the document).  ``roundtime``
    30, ``finalsroundtime`` 50 with a top cut else 0 (stand-ins: the TOM
    defaults of the fixtures), ``lessswiss`` false, ``autotablenumber``
    false, ``overflowtablestart`` 0, ``<timeelapsed>`` 0 (TOM's new-file
    values).

``<players>`` (roster order = ``entry``, then document order)
    ``userid``: the player's Play! Pokémon ID ``game_id`` (older documents:
    ``pop_id``), else ``id`` (TOM itself wants Play! Pokémon ids, digits;
    ids are written as they are, an empty one, one with surrounding spaces
    or one two players share is refused). Every ``<player userid>`` and
    ``<standings>`` id below names the player the same way.  ``firstname``/``lastname``: ``name`` split at its last space
    ("Mary Jane Watson" -> "Mary Jane" / "Watson"); a one-word name is all
    first name. Names with doubled or surrounding spaces, or an empty name,
    do not read back identically (the importer joins the stripped parts with
    one space; an empty name becomes the id).  ``birthdate``:
    ``02/27/<birth_year>`` (stand-in: the document keeps the year only; 02/27
    is the day TOM's own saves carry), empty without ``birth_year``.
    ``starter`` true: the player has a round-1 row that is not a ``late``
    loss.  ``order``/``seed`` (players of a pod's first elimination round):
    ``order`` = bracket position (match index x 2 + seat, 1-based, in
    document order), ``seed`` = the player's place in their division after the
    Swiss rounds (the standings of the Swiss rounds alone) among the players
    who had not dropped by then: TOM's seeds in every fixture.
    ``byes``: ``earned_byes`` when above 0.  ``late`` (stand-in layout from
    the README: ``<round>``, ``<timestamp>``, ``<forcedloss>``): ``round`` =
    the first round in which the player has a row that is not a ``late``
    loss (else one past their last ``late`` loss, else 1), ``forcedloss``
    whether the document has a ``late`` loss for them.  ``dropped``:
    ``status`` 2 with ``"disqualified": true``, else 1; ``round`` =
    ``dropped_after``.  ``creationdate``/``lastmodifieddate`` and every other
    timestamp in the file: the start date at 00:00:00 (stand-in).
    Lost: any other player field (``entry`` becomes the roster position).

``<pods>`` (TOM pairs each pod on its own; category 0/1/2 one division, 8
    junior+senior, 9 senior+masters, 10 everyone)
    A player's pod: their ``pod`` field, else the ``pod`` of a match naming
    them, else the pod of the players they met, else (stand-in) a pod made
    for the divisions of the players who met each other: the smallest TOM
    category holding all of them (junior and masters together need 10),
    merging pods that would share a division. A player in no match and no
    pod is podded with their division's pod when there is one, else left out
    of every pod (TOM pods a player when round 1 is paired). A document from
    TOM keeps the pods ``settings.rounds_by_pod`` names, empty ones too, and
    a configured save (``source.stage`` 3) with no podded player gets one
    empty pod for its players' divisions. Pod order: ``rounds_by_pod``, then
    first appearance in the rounds. ``stage`` 1 once the pod has an
    elimination round, else 0. ``<poddata>``: ``startingtable`` 1,
    ``playoff3rd4th`` (whether any division of the pod plays the 3rd/4th
    playoff), ``subgroupcount`` 1, ``additionalrounds`` 0, empty
    ``blockedranges``. One ``<subgroup number="1">`` listing the pod's
    players in roster order.

``<rounds>`` (per pod: the document's rounds in which the pod has a match)
    ``number``; ``type`` 1 for ``elimination``, else the root ``type``;
    ``stage`` 2 while a match is pending, 8 for the pod's last Swiss round
    once it has an elimination round or the event is finalized and for its
    last elimination round of a finalized event, else 6. ``timeleft`` 1800
    (Swiss) or 3000 (top cut) seconds (stand-in: full round clocks);
    ``pairtime``; ``starttime`` empty while no result of a table is in
    (byes and forced losses are decided at pairing).
    A round without a match is not written (the importer drops it too).

``<match outcome>`` (see ``OUTCOME_CODES``)
    ``win``/``loss`` 1, ``loss``/``win`` 2, ``tie``/``tie`` 3, ``loss``/``loss``
    10, pending (no ``outcomes``) 0; one player: ``bye`` 5, or 4 with
    ``"earned": true``; ``late`` 8. Anything else (a one-player pending row,
    a one-player ``loss``) has no TOM code and is refused. Two players are
    ``<player1>``/``<player2>`` in document order, one is ``<player>`` at
    table 0. ``tablenumber``: ``table``, else 0. Lost: ``games``,
    ``scores`` and other match fields (bracket ``slot``/``seeds``/``playoff``).

``<standings>`` (finalized only)
    For divisions 2, 1, 0: a ``type="finished"`` pod with every player of the
    division who is not disqualified, ``place`` 1.. in the engine's standings
    order (``compute_standings``; equal to TOM's on every finalized fixture,
    ``tests/rules/games/pokemon/test_tom_parity.py``), and a ``type="dnf"`` pod with the
    disqualified ones. A player's division: their ``division`` field, else
    birth year and ``settings.season``, else masters.

``<finalsoptions>``
    ``settings.cut_by_division`` lists the divisions; else, with
    ``settings.cut``, every division present (masters when nobody is); no
    cut setting, no entry. ``cut``; ``playercount`` = the division's players;
    ``options`` (stand-in): 0, every power of two from 4 up to the top cut
    Pokémon TOP 3.3.5 gives the division's player count (``structures``;
    what TOM offered in every fixture), and the chosen cut; ``paired3rd4th`` from
    ``playoff_3rd_4th_by_division`` / ``playoff_3rd_4th``.

Settings other than ``season``, ``kind``, ``rounds``, ``rounds_by_pod``, ``cut`` and
``playoff_3rd_4th`` (and their ``_by_division``) are not written; on import
``rounds`` becomes the Swiss rounds paired and ``structure`` ``single-day``.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Mapping, Sequence
from typing import Any

from ....errors import DocumentError, RulesError
from ....event.document import dump_event, load_event
from ....event.model import Event
from ....pairing.whole_event import next_round
from ... import event_standings, game_of, get_ruleset, suggest_structure
from ..divisions import DivisionsUnknown, event_season_year, player_division
from .importer import DIVISION_CODES, DIVISIONS, POD_DIVISIONS, POD_IDS

__all__ = ["to_tdf", "GAMETYPES", "OUTCOME_CODES"]

GAMETYPES: dict[str, str] = {"pokemon-tcg": "TRADING_CARD_GAME", "pokemon-vg": "VIDEO_GAME"}

#: Document outcomes -> TOM outcome code (the inverse of the importer's ``OUTCOMES``).
OUTCOME_CODES: dict[tuple[str, ...], int] = {
    ("win", "loss"): 1,
    ("loss", "win"): 2,
    ("tie", "tie"): 3,
    ("loss", "loss"): 10,
    ("bye",): 5,
    ("late",): 8,
}
EARNED_BYE = 4
PENDING = 0

POD_CODES: dict[str, int] = {pod_id: code for code, pod_id in POD_IDS.items()}
VERSION = "1.86"
CUP = ("3", "TCG1DAY")
CHALLENGE = ("2", "LEAGUECHALLENGE")
ELIMINATION_TYPE = "1"
ROUND_PAIRED, ROUND_FINISHED, ROUND_LAST = "2", "6", "8"
FINALIZED = 5
SWISS_SECONDS, FINALS_SECONDS = 1800, 3000
ROUND_MINUTES, FINALS_MINUTES = 30, 50
BIRTH_DAY = "02/27"  # the day TOM's saves carry for every birth date
ISO_DATE = re.compile(r"^(\d{4})-(\d{2})-(\d{2})$")
NOT_XML = re.compile("[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
#: Containers TOM writes open and closed on two lines when empty.
CONTAINERS = frozenset(
    {
        "players",
        "pods",
        "subgroups",
        "rounds",
        "matches",
        "blockedranges",
        "finalsoptions",
        "standings",
        "pod",
        "options",
    }
)


# ---------- small helpers ----------


def _fail(path: str, problem: str) -> DocumentError:
    return DocumentError(path, problem)


def _sub(parent: ET.Element, tag: str, text: Any = None, **attrs: str) -> ET.Element:
    """A child element with optional text; attributes keep the given order."""
    child = ET.SubElement(parent, tag, attrs)
    if text is not None:
        child.text = str(text)
    return child


def _xml_text(value: str, path: str) -> str:
    """The value, refused when XML 1.0 cannot hold one of its characters."""
    if NOT_XML.search(value):
        raise _fail(path, "contains a character an XML file cannot hold")
    return value


def _int_setting(settings: Mapping[str, Any], key: str) -> int | None:
    value = settings.get(key)
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _tom_date(iso: str) -> str:
    year, month, day = ISO_DATE.match(iso).groups()  # type: ignore[union-attr]
    return f"{month}/{day}/{year}"


def _covering(divisions: set[str]) -> int:
    """The smallest TOM pod category pairing all these divisions."""
    fits = [code for code, held in POD_DIVISIONS.items() if divisions <= set(held)]
    return min(fits, key=lambda code: (len(POD_DIVISIONS[code]), code))


# ---------- the document, checked ----------


class _Doc:
    """The validated event plus what the writer derives from it."""

    def __init__(self, document: Any) -> None:
        self.event: Event = document if isinstance(document, Event) else load_event(document, get_ruleset)
        if self.event.ruleset not in GAMETYPES:
            raise _fail(
                "ruleset",
                f"'{self.event.ruleset}' cannot be written as a TOM file: TOM runs Pokémon "
                "events only (pokemon-tcg or pokemon-vg)",
            )
        self.doc = dump_event(self.event)
        source = self.doc.get("source")
        from_tom = isinstance(source, Mapping) and source.get("program") == "TOM"
        self.source: Mapping[str, Any] = source if from_tom and isinstance(source, Mapping) else {}
        self.settings: Mapping[str, Any] = self.event.settings
        self.season = _int_setting(self.settings, "season")
        for i, rnd in enumerate(self.event.rounds):
            if rnd.stage not in ("swiss", "elimination"):
                raise _fail(
                    f"rounds[{i}].stage",
                    f"'{rnd.stage}' cannot be written: TOM runs one-day events (swiss and elimination rounds only)",
                )
        self.players = sorted(self.event.players, key=lambda p: p.entry)  # stable: document order breaks ties
        # TOM names every player by their Play! Pokémon ID: the player's game ID, else (not typed) their id.
        self.userid: dict[str, str] = {}
        owner: dict[str, int] = {}
        for i, player in enumerate(self.event.players):
            userid, path = (
                (player.game_id, f"players[{i}].game_id") if player.game_id else (player.id, f"players[{i}].id")
            )
            if not userid or userid != userid.strip():
                raise _fail(path, f"'{userid}' cannot be a TOM userid (empty or surrounding spaces)")
            if userid in owner:
                raise _fail(path, f"'{userid}' is also players[{owner[userid]}]'s Play! Pokémon ID or id")
            owner[userid] = i
            _xml_text(userid, path)
            _xml_text(player.name, f"players[{i}].name")
            self.userid[player.id] = userid
        _xml_text(self.event.name, "name")
        self.division = {p.id: player_division(p, event_season_year(self.event)) for p in self.event.players}
        self.start_date = self._start_date()
        self.stamp = f"{_tom_date(self.start_date)} 00:00:00" if self.start_date else ""
        self.finals = self._finals()
        self.cup = any(cut > 0 for cut, _ in self.finals.values()) or any(
            r.stage == "elimination" for r in self.event.rounds
        )
        kind = self.settings.get("kind")
        if isinstance(kind, Mapping):  # TOM's own type and mode (the importer keeps them; checked by the ruleset)
            self.kind = (str(kind["type"]), str(kind["mode"]))
        else:
            self.kind = CUP if self.cup else CHALLENGE
        self.stage = self._stage()
        self.finalized = self.stage == FINALIZED

    def _start_date(self) -> str | None:
        given = self.source.get("start_date")
        if isinstance(given, str) and ISO_DATE.match(given):
            return given
        if given is not None:
            raise _fail("source.start_date", f"{given!r} is not a date YYYY-MM-DD")
        return f"{self.season:04d}-07-01" if self.season is not None else None

    def _stage(self) -> int:
        given = self.source.get("stage")
        if isinstance(given, int) and not isinstance(given, bool):
            return given
        if not self.event.rounds:
            return 1
        return FINALIZED if self._complete() else 4

    def _complete(self) -> bool:
        """Every match reported and the engine has nothing left to pair."""
        if any(not m.reported for r in self.event.rounds for m in r.matches):
            return False
        try:
            next_round(self.event, game_of(self.event.ruleset))
        except DivisionsUnknown:  # more rounds to come once the divisions are known: not finalized
            return False
        except RulesError:
            return True
        return False

    def _finals(self) -> dict[str, tuple[int, bool]]:
        """Division -> (cut, 3rd/4th playoff) for <finalsoptions>, masters first."""
        by_division = self.settings.get("cut_by_division")
        playoffs = self.settings.get("playoff_3rd_4th_by_division")
        playoffs = playoffs if isinstance(playoffs, Mapping) else {}
        playoff = self.settings.get("playoff_3rd_4th") is True
        cut = _int_setting(self.settings, "cut")
        if isinstance(by_division, Mapping):
            cuts = {}
            for division, value in by_division.items():
                if division not in DIVISION_CODES:
                    raise _fail(f"settings.cut_by_division.{division}", "not a division (junior, senior, masters)")
                if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                    raise _fail(f"settings.cut_by_division.{division}", "expected a whole number of at least 0")
                cuts[division] = value
        elif cut is not None:
            present = set(self.division.values()) or {"masters"}
            cuts = {division: cut for division in present}
        else:
            return {}
        return {d: (cuts[d], playoffs.get(d, playoff) is True) for d in reversed(DIVISIONS) if d in cuts}


# ---------- pods ----------


def _pods(doc: _Doc) -> list[tuple[int, list[str]]]:
    """(category, player ids in roster order) of every pod, in file order."""
    event = doc.event
    pod_of: dict[str, int] = {}
    for i, player in enumerate(event.players):
        given = player.extra.get("pod")
        if given is None:
            continue
        if given not in POD_CODES:
            raise _fail(f"players[{i}].pod", f"{given!r} is not a TOM pod ({', '.join(POD_CODES)})")
        pod_of[player.id] = POD_CODES[given]
    for i, rnd in enumerate(event.rounds):
        for j, match in enumerate(rnd.matches):
            given = match.extra.get("pod")
            if given is None:
                continue
            if given not in POD_CODES:
                raise _fail(f"rounds[{i}].matches[{j}].pod", f"{given!r} is not a TOM pod ({', '.join(POD_CODES)})")
            for pid in match.players:
                if pod_of.setdefault(pid, POD_CODES[given]) != POD_CODES[given]:
                    raise _fail(
                        f"rounds[{i}].matches[{j}].pod",
                        f"'{given}', but player '{pid}' is in pod '{POD_IDS[pod_of[pid]]}'",
                    )
    _pod_the_rest(doc, pod_of)
    order: list[int] = []
    if doc.source:
        by_pod = doc.settings.get("rounds_by_pod")
        order.extend(POD_CODES[k] for k in (by_pod if isinstance(by_pod, Mapping) else ()) if k in POD_CODES)
    for rnd in event.rounds:
        for match in rnd.matches:
            order.append(pod_of[match.players[0]])
    order.extend(pod_of[p.id] for p in doc.players if p.id in pod_of)
    if not order and doc.source and doc.stage >= 3:
        order.append(_covering(set(doc.division.values()) or {"masters"}))
    pods = list(dict.fromkeys(order))
    return [(code, [p.id for p in doc.players if pod_of.get(p.id) == code]) for code in pods]


def _pod_the_rest(doc: _Doc, pod_of: dict[str, int]) -> None:
    """Pods for players the document does not pod: by whom they met, else by division (module docstring)."""
    event = doc.event
    # Union-find over the players who met (every player of one match shares a pod).
    parent: dict[str, str] = {}

    def find(pid: str) -> str:
        while parent.setdefault(pid, pid) != pid:
            pid = parent[pid]
        return pid

    for rnd in event.rounds:
        for match in rnd.matches:
            head = find(match.players[0])
            for pid in match.players[1:]:
                parent[find(pid)] = head
    groups: dict[str, list[str]] = {}
    for pid in parent:
        groups.setdefault(find(pid), []).append(pid)
    # Each group: a fixed pod when one of its players has one, else a set of divisions to pod.
    fixed: dict[int, set[str]] = {code: set(POD_DIVISIONS[code]) for code in set(pod_of.values())}
    loose: list[tuple[set[str], list[str]]] = []
    for members in groups.values():
        codes = {pod_of[pid] for pid in members if pid in pod_of}
        if len(codes) > 1:
            names = ", ".join(sorted(POD_IDS[c] for c in codes))
            raise _fail("rounds", f"players of pods {names} meet in a match: TOM pairs each pod on its own")
        if codes:
            code = codes.pop()
            for pid in members:
                pod_of[pid] = code
        else:
            loose.append(({doc.division[pid] for pid in members}, members))
    # Merge the loose groups with each other and with fixed pods until no two pods share a division.
    sets: list[tuple[set[str], int | None, list[str]]] = [(d, None, m) for d, m in loose]
    sets += [(d, code, []) for code, d in fixed.items()]
    merged = True
    while merged:
        merged = False
        for a in range(len(sets)):
            for b in range(a + 1, len(sets)):
                da, ca, ma = sets[a]
                db, cb, mb = sets[b]
                cover_a = set(POD_DIVISIONS[ca]) if ca is not None else set(POD_DIVISIONS[_covering(da)])
                cover_b = set(POD_DIVISIONS[cb]) if cb is not None else set(POD_DIVISIONS[_covering(db)])
                if not cover_a & cover_b:
                    continue
                if ca is not None and cb is not None:
                    raise _fail("rounds", f"pods {POD_IDS[ca]} and {POD_IDS[cb]} would share a division")
                kept = ca if ca is not None else cb
                union = da | db
                if kept is not None and not union <= set(POD_DIVISIONS[kept]):
                    raise _fail(
                        "rounds",
                        f"players of divisions {', '.join(sorted(union))} cannot all be in pod {POD_IDS[kept]}",
                    )
                sets[a] = (union, kept, ma + mb)
                del sets[b]
                merged = True
                break
            if merged:
                break
    for divisions, known, members in sets:
        final = known if known is not None else _covering(divisions)
        for pid in members:
            pod_of[pid] = final
    # Players in no match: their division's pod, when there is one.
    for player in doc.players:
        if player.id not in pod_of:
            homes = [c for c in dict.fromkeys(pod_of.values()) if doc.division[player.id] in POD_DIVISIONS[c]]
            if homes:
                pod_of[player.id] = homes[0]


# ---------- writing ----------


def to_tdf(document: Any) -> str:
    """The TOM 1.86 save file (.tdf text) of a Pokémon event document."""
    doc = _Doc(document)
    root = ET.Element(
        "tournament",
        {
            "type": doc.kind[0],
            "stage": str(doc.stage),
            "version": str(doc.source.get("version") or VERSION),
            "gametype": GAMETYPES[doc.event.ruleset],
            "mode": doc.kind[1],
        },
    )
    _data(root, doc)
    _sub(root, "timeelapsed", 0)
    pods = _pods(doc)
    _players(root, doc, pods)
    _write_pods(root, doc, pods)
    if doc.finalized:
        _standings(root, doc)
    _finalsoptions(root, doc)
    _indent(root, 0)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def _data(root: ET.Element, doc: _Doc) -> None:
    data = _sub(root, "data")
    _sub(data, "name", doc.event.name)
    sanction = doc.source.get("sanction_id")
    _sub(data, "id", _xml_text(sanction, "source.sanction_id") if isinstance(sanction, str) else "")
    for tag in ("city", "state", "country"):
        _sub(data, tag, "")
    _sub(data, "roundtime", ROUND_MINUTES)
    _sub(data, "finalsroundtime", FINALS_MINUTES if doc.cup else 0)
    _sub(data, "organizer", popid="", name="")
    _sub(data, "startdate", _tom_date(doc.start_date) if doc.start_date else "")
    _sub(data, "lessswiss", "false")
    _sub(data, "autotablenumber", "false")
    _sub(data, "overflowtablestart", 0)


def _cut_positions(doc: _Doc, pods: list[tuple[int, list[str]]]) -> dict[str, tuple[int, int]]:
    """userid -> (order, seed) for the players of each pod's first elimination round."""
    first: dict[int, list[Sequence[str]]] = {}
    pod_of = {pid: code for code, members in pods for pid in members}
    for rnd in doc.event.rounds:
        if rnd.stage != "elimination":
            continue
        for code in {pod_of.get(m.players[0]) for m in rnd.matches} - set(first) - {None}:
            first[code] = [m.players for m in rnd.matches if pod_of.get(m.players[0]) == code]  # type: ignore[index]
    if not first:
        return {}
    swiss = dict(doc.doc, rounds=[r for r in doc.doc["rounds"] if r["stage"] != "elimination"])
    last = max((r["number"] for r in swiss["rounds"]), default=0)
    players = {p.id: p for p in doc.event.players}
    rank: dict[str, int] = {}
    counted: dict[str, int] = {}
    for row in event_standings(load_event(swiss, get_ruleset)):
        after = players[row.player].dropped_after
        if after is None or after > last:  # TOM seeds the players still in the event
            division = doc.division[row.player]
            counted[division] = rank[row.player] = counted.get(division, 0) + 1
    out = {}
    for matches in first.values():
        for index, seats in enumerate(matches):
            for seat, pid in enumerate(seats, start=1):
                out[pid] = (index * 2 + seat, rank.get(pid, 0))
    return out


def _players(root: ET.Element, doc: _Doc, pods: list[tuple[int, list[str]]]) -> None:
    players = _sub(root, "players")
    rows: dict[str, list[tuple[int, tuple[str, ...] | None]]] = {}
    for rnd in doc.event.rounds:
        for match in rnd.matches:
            for pid in match.players:
                rows.setdefault(pid, []).append((rnd.number, match.outcomes))
    cut = _cut_positions(doc, pods)
    for player in doc.players:
        element = _sub(players, "player", userid=doc.userid[player.id])
        first, _, last = player.name.rpartition(" ")
        if not first:
            first, last = last, ""
        _sub(element, "firstname", first)
        _sub(element, "lastname", last)
        _sub(element, "birthdate", f"{BIRTH_DAY}/{player.birth_year:04d}" if player.birth_year is not None else "")
        mine = rows.get(player.id, [])
        if any(number == 1 and outcomes != ("late",) for number, outcomes in mine):
            _sub(element, "starter", "true")
        if player.id in cut:
            _sub(element, "order", cut[player.id][0])
            _sub(element, "seed", cut[player.id][1])
        if player.earned_byes > 0:
            _sub(element, "byes", player.earned_byes)
        if player.late:
            late_rounds = [n for n, o in mine if o == ("late",)]
            played = [n for n, o in mine if o != ("late",)]
            arrived = min(played) if played else (max(late_rounds) + 1 if late_rounds else 1)
            late = _sub(element, "late")
            _sub(late, "round", arrived)
            _sub(late, "timestamp", doc.stamp)
            _sub(late, "forcedloss", "true" if late_rounds else "false")
        if player.dropped_after is not None:
            dropped = _sub(element, "dropped")
            _sub(dropped, "status", 2 if player.extra.get("disqualified") is True else 1)
            _sub(dropped, "round", player.dropped_after)
            _sub(dropped, "timestamp", doc.stamp)
        _sub(element, "creationdate", doc.stamp)
        _sub(element, "lastmodifieddate", doc.stamp)


def _match_code(match: Any, path: str) -> int:
    if match.outcomes is None:
        if len(match.players) != 2:
            raise _fail(
                f"{path}.outcomes",
                "a pending one-player row has no TOM code (byes and late losses are written with their result)",
            )
        return PENDING
    code = OUTCOME_CODES.get(tuple(match.outcomes))
    if code is None:
        raise _fail(f"{path}.outcomes", f"{list(match.outcomes)} has no TOM outcome code")
    if match.extra.get("earned") is True:
        return EARNED_BYE
    return code


def _write_pods(root: ET.Element, doc: _Doc, pods: list[tuple[int, list[str]]]) -> None:
    container = _sub(root, "pods")
    pod_of = {pid: code for code, members in pods for pid in members}
    for code, members in pods:
        mine = []  # (round index, round, [(match index, match)])
        for i, rnd in enumerate(doc.event.rounds):
            matches = [(j, m) for j, m in enumerate(rnd.matches) if pod_of.get(m.players[0]) == code]
            if matches:
                mine.append((i, rnd, matches))
        numbers = [rnd.number for _, rnd, _ in mine]
        if len(numbers) != len(set(numbers)):
            raise _fail(
                "rounds",
                f"pod {POD_IDS[code]} has two rounds with one number: TOM numbers a pod's "
                "rounds once (Swiss, then the top cut)",
            )
        has_cut = any(rnd.stage == "elimination" for _, rnd, _ in mine)
        pod = _sub(container, "pod", category=str(code), stage="1" if has_cut else "0")
        poddata = _sub(pod, "poddata")
        _sub(poddata, "startingtable", 1)
        playoff = any(doc.finals.get(d, (0, False))[1] for d in POD_DIVISIONS[code])
        _sub(poddata, "playoff3rd4th", "true" if playoff else "false")
        _sub(poddata, "subgroupcount", 1)
        _sub(poddata, "additionalrounds", 0)
        _sub(poddata, "blockedranges")
        subgroups = _sub(pod, "subgroups")
        if members:
            listed = _sub(_sub(subgroups, "subgroup", number="1"), "players")
            for pid in members:
                _sub(listed, "player", userid=doc.userid[pid])
        rounds = _sub(pod, "rounds")
        last = {
            stage: max((r.number for _, r, _ in mine if r.stage == stage), default=None)
            for stage in ("swiss", "elimination")
        }
        for i, rnd, matches in mine:
            _round(rounds, doc, i, rnd, matches, last, has_cut)


def _round(
    parent: ET.Element,
    doc: _Doc,
    i: int,
    rnd: Any,
    matches: list[tuple[int, Any]],
    last: dict[str, int | None],
    has_cut: bool,
) -> None:
    elimination = rnd.stage == "elimination"
    pending = any(not m.reported for _, m in matches)
    if pending:
        stage = ROUND_PAIRED
    elif rnd.number == last[rnd.stage] and (doc.finalized or (has_cut and not elimination)):
        stage = ROUND_LAST
    else:
        stage = ROUND_FINISHED
    element = _sub(
        parent, "round", number=str(rnd.number), type=ELIMINATION_TYPE if elimination else doc.kind[0], stage=stage
    )
    _sub(element, "timeleft", FINALS_SECONDS if elimination else SWISS_SECONDS)
    _sub(element, "pairtime", doc.stamp)
    started = any(m.reported and len(m.players) == 2 for _, m in matches)
    _sub(element, "starttime", doc.stamp if started else "")
    container = _sub(element, "matches")
    for j, match in matches:
        code = _match_code(match, f"rounds[{i}].matches[{j}]")
        row = _sub(container, "match", outcome=str(code))
        if len(match.players) == 1:
            _sub(row, "player", userid=doc.userid[match.players[0]])
        else:
            _sub(row, "player1", userid=doc.userid[match.players[0]])
            _sub(row, "player2", userid=doc.userid[match.players[1]])
        _sub(row, "timestamp", doc.stamp)
        _sub(row, "tablenumber", match.table if match.table is not None and len(match.players) == 2 else 0)


def _standings(root: ET.Element, doc: _Doc) -> None:
    order = [row.player for row in event_standings(doc.event)]
    disqualified = {p.id for p in doc.event.players if p.extra.get("disqualified") is True}
    standings = _sub(root, "standings")
    for division in reversed(DIVISIONS):
        code = str(DIVISION_CODES[division])
        finished = _sub(standings, "pod", category=code, type="finished")
        ids = [pid for pid in order if doc.division[pid] == division and pid not in disqualified]
        for place, pid in enumerate(ids, start=1):
            _sub(finished, "player", id=doc.userid[pid], place=str(place))
        dnf = _sub(standings, "pod", category=code, type="dnf")
        for player in doc.players:
            if player.id in disqualified and doc.division[player.id] == division:
                _sub(dnf, "player", id=doc.userid[player.id])


def _finalsoptions(root: ET.Element, doc: _Doc) -> None:
    options = _sub(root, "finalsoptions")
    for division, (cut, playoff) in doc.finals.items():
        count = sum(1 for d in doc.division.values() if d == division)
        entry = _sub(options, "categorycut", key=str(DIVISION_CODES[division]))
        offered = _sub(entry, "options")
        sizes = [0] + [2**k for k in range(2, 12) if 2**k <= _table_cut(doc.event.ruleset, count)]
        for size in sorted(set(sizes + [cut])):
            _sub(offered, "value", size)
        _sub(entry, "cut", cut)
        _sub(entry, "playercount", count)
        _sub(entry, "paired3rd4th", "true" if playoff else "false")


def _table_cut(ruleset: str, players: int) -> int:
    """The single-day top cut of Pokémon TOP 3.3.5 for a division of that size (0 below its minimum)."""
    try:
        return suggest_structure(ruleset, players).cut
    except RulesError:
        return 0


def _indent(element: ET.Element, depth: int) -> None:
    """TOM's layout: one element a line, tab-indented; empty containers open and close on two lines."""
    if len(element):
        element.text = "\n" + "\t" * (depth + 1)
        for child in element:
            _indent(child, depth + 1)
            child.tail = "\n" + "\t" * (depth + 1)
        element[-1].tail = "\n" + "\t" * depth
    elif element.tag in CONTAINERS:
        element.text = "\n" + "\t" * depth
