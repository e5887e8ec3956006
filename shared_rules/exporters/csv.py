"""Standings and pairings as CSV, for spreadsheets and printing.

``standings_csv(event)``: Rank, Name, the player's game ID (headed by the
game's label: "Play! Pokémon ID", "trekcc.org forum handle", "Player ID"; empty
for a player without one: the app's own ids are not IDs), (Birth year,)
(Division,) Points, Record, one
column per tiebreaker the ruleset reports (headed by the metric's label, e.g.
"Strength of Schedule"; values as in the standings JSON, percentages as
fractions 0-1), Dropped. ``pairings_csv(event, round)``: Table, then a name
and a game ID column per seat (two, or as many as the round's largest Tribbles
pod), Result (the seats' outcomes, ``win / loss``; empty while pending),
Scores (when the round has any).

RFC 4180 text: ``,`` between cells, CRLF line ends, cells with a comma, quote
or line break quoted and quotes doubled. A text cell starting with ``=``,
``+``, ``-``, ``@``, a tab or a carriage return gets a leading ``'`` so a
spreadsheet shows it rather than running it as a formula (the CSV roster
importer reads it back without the apostrophe); numbers are written as they are.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..errors import RulesError

if TYPE_CHECKING:  # pragma: no cover
    from ..event.model import Event, Round

__all__ = ["standings_csv", "pairings_csv", "guard"]

_FORMULA = ("=", "+", "-", "@", "\t", "\r")


def guard(text: str) -> str:
    """A text cell a spreadsheet will not run as a formula.

    >>> guard("=HYPERLINK(1)"), guard("Ash, K.")
    ("'=HYPERLINK(1)", 'Ash, K.')
    """
    return "'" + text if text.startswith(_FORMULA) else text


def _number(value: Any) -> Any:
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def _write(rows: Sequence[Sequence[Any]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n", quoting=csv.QUOTE_MINIMAL)
    writer.writerows(rows)
    return out.getvalue()


def standings_csv(event: Event) -> str:
    """The event's standings as CSV.

    >>> from shared_rules.run import load_event
    >>> doc = {"ruleset": "doomtown", "seed": "s", "players": [{"id": "a", "name": "Holliday, Doc", "entry": 1},
    ...        {"id": "b", "name": "Kate", "entry": 2}], "rounds": [{"number": 1, "matches": [
    ...        {"players": ["a", "b"], "outcomes": ["win", "loss"]}]}]}
    >>> print(standings_csv(load_event(doc)).replace("\\r\\n", "\\n"), end="")
    Rank,Name,Player ID,Points,Record,Match-win %,Opponents' match-win %,Dropped
    1,"Holliday, Doc",,5,1-0-0,1,0.33,no
    2,Kate,,0,0-1-0,0.33,1,no
    """
    from ..games import get_ruleset
    from ..run import standings_json
    from ..standings import metric_labels

    rows = standings_json(event)["standings"]
    reported = get_ruleset(event.ruleset, event.settings).reported
    names = [name for name, _ in reported]
    labels = metric_labels([key for _, key in reported])
    headings = [labels[key] if labels[key] != key else name for name, key in reported]
    for row in rows:  # a ruleset's standings hook may report its own columns
        for name in row["tiebreakers"]:
            if name not in names:
                names.append(name)
                headings.append(name)
    divisions = any("division" in row for row in rows)
    born = any(p.birth_year is not None for p in event.players)
    header = (
        ["Rank", "Name", _id_label(event)]
        + (["Birth year"] if born else [])
        + (["Division"] if divisions else [])
        + ["Points", "Record"]
        + headings
        + ["Dropped"]
    )
    out: list[list[Any]] = [header]
    for row in rows:
        player = event.player(row["player"])
        line = [row["rank"], guard(player.name or player.id), guard(player.game_id or "")]
        if born:
            line.append(player.birth_year if player.birth_year is not None else "")
        if divisions:
            line.append(row.get("division", ""))
        line += [_number(row["points"]), row["record"]]
        line += [_number(row["tiebreakers"].get(name, "")) for name in names]
        line.append("yes" if row["dropped"] else "no")
        out.append(line)
    return _write(out)


def _id_label(event: Event) -> str:
    """The game ID's column heading: the game's own name for it ("Play! Pokémon ID")."""
    from ..games import game_of

    return game_of(event.ruleset).player_id.label


def _round(event: Event, number: int, stage: str | None) -> Round:
    if isinstance(number, bool) or not isinstance(number, int):
        raise RulesError(f"round: expected a whole number, got {number!r}")
    found = [r for r in event.rounds if r.number == number and (stage is None or r.stage == stage)]
    if not found:
        where = f" ({stage})" if stage else ""
        have = ", ".join(f"{r.number} ({r.stage})" for r in event.rounds) or "none yet"
        raise RulesError(f"round: no round {number}{where} in the event (rounds: {have})")
    if len(found) > 1:
        raise RulesError(f"round: round {number} is in stages {', '.join(r.stage for r in found)}: name the stage")
    return found[0]


def pairings_csv(event: Event, number: int, stage: str | None = None) -> str:
    """One round's pairings (and results so far) as CSV.

    >>> from shared_rules.run import load_event
    >>> doc = {"ruleset": "startrek-2e", "seed": "s", "players": [{"id": p, "name": p.upper(), "entry": i}
    ...        for i, p in enumerate("abc", 1)], "rounds": [{"number": 1, "matches": [
    ...        {"table": 1, "players": ["a", "b"], "outcomes": ["full-win", "full-loss"], "scores": [100, 35]},
    ...        {"players": ["c"], "outcomes": ["bye"]}]}]}
    >>> print(pairings_csv(load_event(doc), 1).replace("\\r\\n", "\\n"), end="")
    Table,Player 1,Player 1 trekcc.org forum handle,Player 2,Player 2 trekcc.org forum handle,Result,Scores
    1,A,,B,,full-win / full-loss,100 / 35
    ,C,,,,bye,
    """
    rnd = _round(event, number, stage)
    seats = max([2] + [len(m.players) for m in rnd.matches])
    scored = any(m.scores is not None for m in rnd.matches)
    header: list[Any] = ["Table"]
    for k in range(1, seats + 1):
        header += [f"Player {k}", f"Player {k} {_id_label(event).removeprefix('Player ')}"]
    header += ["Result"] + (["Scores"] if scored else [])
    out: list[list[Any]] = [header]
    for match in rnd.matches:
        line: list[Any] = [match.table if match.table is not None else ""]
        for k in range(seats):
            if k < len(match.players):
                player = event.player(match.players[k])
                line += [guard(player.name or player.id), guard(player.game_id or "")]
            else:
                line += ["", ""]
        line.append(" / ".join(match.outcomes) if match.outcomes is not None else "")
        if scored:
            line.append(" / ".join(str(_number(s)) for s in match.scores) if match.scores is not None else "")
        out.append(line)
    return _write(out)
