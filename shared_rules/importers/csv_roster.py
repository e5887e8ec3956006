"""Registration from a spreadsheet: a CSV roster turned into ``player.register`` payloads, with per-row errors.

``roster_from_csv(event, text, mapping)`` reads CSV text as spreadsheets export
it (``,`` or ``;`` between cells, an optional UTF-8 byte-order mark, quoted
cells), finds each column's field from its heading (``HEADER_ALIASES``,
case and spacing ignored) or from an explicit ``{heading: field}`` mapping,
and returns the players to register and one error per problem found in a
row. A row with an error is not imported; every other row is. Blank rows are
skipped. Problems with the file as a whole (no heading row, no name column, a
mapping naming an unknown field or heading) raise ``RulesError``.

Fields: ``name`` (or ``first_name`` and ``last_name``, joined by a space),
``game_id`` (the player's own ID in the game's organized play, as the game
declares it: a Play! Pokémon ID, a Star Trek trekcc.org forum handle; headed
"Player ID", "POP ID", "trekcc", the game's own label…; checked as the
register operation checks it),
``birth_year`` (a year, or a date of birth whose year is taken: ``2009-05-14``,
``14/05/2009``, ``14.05.2009``), ``division`` (Pokémon ``junior``, ``senior``,
``masters``; also "Juniors", "Masters division"…), ``earned_byes``;
``ignore`` skips a column. Other headings are ignored and listed in
``ignored``. A mapping may still name ``id`` or ``rating_id``: both are
read as ``game_id``.

Ids: the player id stays the app's own opaque id, never a column's: every row
gets ``p-`` and six characters of the alphabet the
app draws its ids from (pwa/db.js ``randomId``), derived from the event's seed,
the row's number and name (so the same file gives the same ids), and drawn
again on a collision with the event's ids or the file's. ``entry`` is left to
the reducer, which numbers players in registration order (file order).
A cell written as ``'=...`` (the guard ``exporters/csv.py`` writes) is read
without its apostrophe.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ..errors import RulesError
from ..games import game_of
from ..games.base import ORGANIZER_ID

if TYPE_CHECKING:  # pragma: no cover
    from ..event.model import Event

__all__ = ["FIELDS", "HEADER_ALIASES", "DIVISIONS", "roster_from_csv", "header_key"]

#: Every field a column may fill (``ignore``: a column read and left out).
FIELDS = ("name", "first_name", "last_name", "game_id", "birth_year", "division", "earned_byes", "ignore")
#: Field names of older mappings, read as today's.
_OLD_FIELDS: Mapping[str, str] = {"id": "game_id", "rating_id": "game_id"}

#: Headings known without a mapping (compared after ``header_key``).
HEADER_ALIASES: Mapping[str, str] = {
    "name": "name",
    "player": "name",
    "player name": "name",
    "full name": "name",
    "nom": "name",
    "first name": "first_name",
    "firstname": "first_name",
    "given name": "first_name",
    "last name": "last_name",
    "lastname": "last_name",
    "surname": "last_name",
    "family name": "last_name",
    "id": "game_id",
    "player id": "game_id",
    "playerid": "game_id",
    "pop id": "game_id",
    "popid": "game_id",
    "pokemon id": "game_id",
    "userid": "game_id",
    "user id": "game_id",
    "birth year": "birth_year",
    "birthyear": "birth_year",
    "year of birth": "birth_year",
    "born": "birth_year",
    "dob": "birth_year",
    "date of birth": "birth_year",
    "birth date": "birth_year",
    "birthdate": "birth_year",
    "division": "division",
    "age division": "division",
    "trekcc": "game_id",
    "trekcc id": "game_id",
    "trekcc.org": "game_id",
    "rating id": "game_id",
    "ratingid": "game_id",
    "member id": "game_id",
    "play pokemon id": "game_id",
    "play! pokémon id": "game_id",
    "forum handle": "game_id",
    "trekcc handle": "game_id",
    "trekcc.org forum handle": "game_id",
    "game id": "game_id",
    "earned byes": "earned_byes",
    "byes": "earned_byes",
}

#: Pokémon age divisions (TOP 3.1.1) and the spellings a roster may use.
DIVISIONS: Mapping[str, str] = {
    "junior": "junior",
    "juniors": "junior",
    "jr": "junior",
    "senior": "senior",
    "seniors": "senior",
    "sr": "senior",
    "masters": "masters",
    "master": "masters",
    "ma": "masters",
}

_ALPHABET = "abcdefghijkmnpqrstuvwxyz23456789"  # pwa/db.js randomId
_PLAYER_BYTES = 4_096  # state/operations.py: a player.register payload's player object
_YEAR = re.compile(r"(?<!\d)(\d{4})(?!\d)")
_DATE_FORMS = (
    re.compile(r"\d{4}\Z"),
    re.compile(r"\d{4}-\d{1,2}-\d{1,2}\Z"),
    re.compile(r"\d{1,2}[./-]\d{1,2}[./-]\d{4}\Z"),
    re.compile(r"\d{4}/\d{1,2}/\d{1,2}\Z"),
)
_GUARDED = re.compile(r"'[=+\-@\t\r]")


def header_key(text: str) -> str:
    """A heading as compared with ``HEADER_ALIASES``: lower case, ``_``/``-`` as spaces, spaces collapsed.

    >>> header_key("  Player_ID ")
    'player id'
    """
    return " ".join(text.replace("_", " ").replace("-", " ").lower().split())


def _rows(text: str) -> list[list[str]]:
    if not isinstance(text, str):
        raise RulesError("CSV: expected text")
    text = text.removeprefix("\ufeff")
    first = next((line for line in text.splitlines() if line.strip()), "")
    delimiter = ";" if first.count(";") > first.count(",") else ","
    try:
        return list(csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True))
    except csv.Error as exc:
        raise RulesError(f"CSV: cannot read the file ({exc})") from None


def _columns(header: list[str], mapping: Mapping[str, str] | None, id_label: str) -> tuple[dict[int, str], list[str]]:
    by_heading: dict[str, int] = {}
    for i, heading in enumerate(header):
        by_heading.setdefault(heading.strip(), i)
    columns: dict[int, str] = {}
    for i, heading in enumerate(header):
        key = header_key(heading)
        field = "game_id" if key == header_key(id_label) else HEADER_ALIASES.get(key)
        if field is not None:
            columns[i] = field
    for heading, field in (mapping or {}).items():
        if not isinstance(heading, str) or not isinstance(field, str):
            raise RulesError("mapping: expected {column heading: field} with text on both sides")
        field = _OLD_FIELDS.get(field, field)
        if field not in FIELDS:
            raise RulesError(f"mapping: '{heading}': unknown field '{field}' (use {', '.join(FIELDS)})")
        if heading.strip() not in by_heading:
            raise RulesError(
                f"mapping: no column '{heading}' in the file (columns: {', '.join(h.strip() for h in header)})"
            )
        columns[by_heading[heading.strip()]] = field
    seen: dict[str, int] = {}
    for i in sorted(columns):
        field = columns[i]
        if field == "ignore":
            continue
        if field in seen:
            raise RulesError(
                f"columns '{header[seen[field]].strip()}' and '{header[i].strip()}' are both "
                f"{field}: map one of them to another field or to ignore"
            )
        seen[field] = i
    if "name" not in seen and "first_name" not in seen and "last_name" not in seen:
        raise RulesError("CSV: no name column (a heading such as Name or Player, or --map HEADING=name)")
    if "name" in seen and ("first_name" in seen or "last_name" in seen):
        raise RulesError("CSV: both a name column and first/last name columns: map one of them to ignore")
    ignored = [header[i].strip() for i in range(len(header)) if i not in columns and header[i].strip()]
    return {i: f for i, f in columns.items() if f != "ignore"}, ignored


def _cell(text: str) -> str:
    text = text.strip()
    return text[1:] if _GUARDED.match(text) else text


def _birth_year(text: str) -> int | None:
    if not any(form.match(text) for form in _DATE_FORMS):
        return None
    year = int(_YEAR.search(text).group(1))  # type: ignore[union-attr]
    return year if year >= 1900 else None


def _new_id(seed: str, row: int, name: str, taken: set[str]) -> str:
    attempt = 0
    while True:
        digest = hashlib.sha256(f"{seed}\x1fcsv-roster\x1f{row}\x1f{name}\x1f{attempt}".encode()).digest()
        pid = "p-" + "".join(_ALPHABET[b % 32] for b in digest[:6])
        if pid not in taken:
            return pid
        attempt += 1


def roster_from_csv(event: Event, text: str, mapping: Mapping[str, str] | None = None) -> dict[str, Any]:
    """``{"players": [player.register payloads' player], "errors": [{row, column, problem}], "columns", "ignored"}``.

    ``row`` is the spreadsheet's row number (the heading row is 1).

    >>> from shared_rules.run import load_event
    >>> event = load_event({"ruleset": "pokemon-tcg", "seed": "s", "players": [
    ...     {"id": "p-1", "name": "Ash", "entry": 1, "game_id": "1001"}]})
    >>> out = roster_from_csv(event, "Name;POP ID;DOB\\nAsh K.;1001;2001\\nMisty W.;1002;14/05/2009\\n")
    >>> [(p["name"], p["game_id"], p["birth_year"]) for p in out["players"]]
    [('Misty W.', '1002', 2009)]
    >>> out["errors"]
    [{'row': 2, 'column': 'POP ID', 'problem': 'Play! Pokémon ID 1001 is already registered (Ash)'}]
    """
    if mapping is not None and not isinstance(mapping, Mapping):
        raise RulesError("mapping: expected {column heading: field}")
    rows = _rows(text)
    start = next((i for i, r in enumerate(rows) if any(c.strip() for c in r)), None)
    if start is None:
        raise RulesError("CSV: the file is empty (expected a heading row, then one row per player)")
    header = rows[start]
    declared = game_of(event.ruleset).player_id if event.ruleset is not None else ORGANIZER_ID
    columns, ignored = _columns(header, mapping, declared.label)
    heading = {i: header[i].strip() for i in columns}
    column_of = {f: heading[i] for i, f in columns.items()}
    divisions = event.ruleset is not None and game_of(event.ruleset).player_division is not None  # age divisions
    warnings: list[str] = []
    if "division" in column_of and not divisions:
        warnings.append(f"column '{column_of['division']}' left out: {event.ruleset} has no age divisions")
    existing_ids = {p.id for p in event.players}
    existing_game: dict[str, str] = {p.game_id: p.name or p.id for p in event.players if p.game_id}
    file_game: dict[str, int] = {}
    players: list[dict[str, Any]] = []
    errors: list[dict[str, Any]] = []
    pending_ids: list[tuple[int, dict[str, Any]]] = []
    for offset, raw in enumerate(rows[start + 1 :], start=start + 2):
        if not any(c.strip() for c in raw):
            continue
        problems: list[tuple[str | None, str]] = []
        if len(raw) > len(header) and any(c.strip() for c in raw[len(header) :]):
            problems.append((None, f"{len(raw)} cells, but the heading row has {len(header)}"))
        values = {f: _cell(raw[i]) if i < len(raw) else "" for i, f in columns.items()}
        player: dict[str, Any] = {}
        name = values.get("name") or " ".join(v for v in (values.get("first_name"), values.get("last_name")) if v)
        if not name:
            problems.append(
                (column_of.get("name") or column_of.get("first_name") or column_of.get("last_name"), "missing name")
            )
        if name:
            player["name"] = name
        year_text = values.get("birth_year", "")
        if year_text:
            year = _birth_year(year_text)
            if year is None:
                problems.append(
                    (column_of["birth_year"], f"'{year_text}' is not a birth year (e.g. 2009 or 2009-05-14)")
                )
            else:
                player["birth_year"] = year
        division = values.get("division", "")
        if division and divisions:
            key = header_key(division).removesuffix(" division")
            if key not in DIVISIONS:
                problems.append((column_of["division"], f"unknown division '{division}' (junior, senior or masters)"))
            else:
                player["division"] = DIVISIONS[key]
        game_id = values.get("game_id", "")
        if game_id:
            column, wrong = column_of["game_id"], declared.problem(game_id)
            if wrong is not None:
                problems.append((column, wrong))
            elif game_id in existing_game:
                problems.append(
                    (column, f"{declared.label} {game_id} is already registered ({existing_game[game_id]})")
                )
            elif game_id in file_game:
                problems.append((column, f"{declared.label} {game_id} is also row {file_game[game_id]}"))
            else:
                file_game[game_id] = offset
                player["game_id"] = game_id
        byes = values.get("earned_byes", "")
        if byes:
            if not byes.isdigit():
                problems.append((column_of["earned_byes"], f"'{byes}' is not a whole number of earned byes"))
            else:
                player["earned_byes"] = int(byes)
        if not problems:
            size = len(json.dumps({"id": "p-xxxxxx", **player}, ensure_ascii=False).encode("utf-8"))
            if size > _PLAYER_BYTES:
                problems.append(
                    (None, f"the player's fields are {size:,} bytes; the most allowed is {_PLAYER_BYTES:,}")
                )
        if problems:
            errors.extend({"row": offset, "column": column, "problem": problem} for column, problem in problems)
            continue
        pending_ids.append((offset, player))
    taken = set(existing_ids)
    for offset, player in pending_ids:
        pid = _new_id(event.seed, offset, player["name"], taken)
        taken.add(pid)
        players.append({"id": pid, **player})
    return {
        "players": players,
        "errors": errors,
        "columns": {heading[i]: f for i, f in sorted(columns.items())},
        "ignored": ignored,
        "warnings": warnings,
    }
