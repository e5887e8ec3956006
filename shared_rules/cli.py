"""The command line: ``python -m shared_rules COMMAND ...``, the whole event from registration to the final.

- ``standings EVENT``: ranked standings.
- ``pair EVENT``: whatever comes next: a Swiss round, the cut's first round,
  the next elimination round, or single elimination from the start.
- ``structure RULESET PLAYERS [--structure NAME]``: rounds and cut.
- ``bracket EVENT``: the elimination bracket as the UI shows it.
- ``flights EVENT``: Pokémon flights per age division (TOP 3.3.3).
- ``day-two EVENT``: Pokémon day-two qualifiers per age division (TOP 3.3.5).
- ``heats HEAT1 HEAT2 --cut N``: Star Trek two-heat match-play seeds (OP Guide 9).
- ``game-end RULESET NUMBERS``: who wins when time is called (NUMBERS is JSON).
- ``export-tdf EVENT [-o FILE]``: a Pokémon event as a TOM save file (.tdf).
- ``import-tdf FILE``: a TOM save file (.tdf) as an event document.
- ``ratings EVENT [EVENT ...]``: Star Trek ratings recomputed from the events,
  oldest first (OP Guide 8, 11).
- ``league LEAGUE EVENT ...``: a WCT league's tables (OP Guide 12).
- ``import-csv EVENT ROSTER [--map HEADING=FIELD ...]``: players to register from a CSV roster.
- ``export-csv standings EVENT`` / ``export-csv pairings EVENT --round N [--stage S]``: CSV text.
- ``report EVENT [--text]``: the Star Trek tournament report for www.trekcc.org (OP Guide 8, Appendix A).

Output is JSON on stdout (``export-csv`` prints CSV, ``report --text`` a plain page; ``export-tdf`` prints the .tdf XML itself, or with
``-o`` writes it and prints JSON naming the file); a bad document or argument prints one line on
stderr and exits with status 2. No traceback ever reaches a user.
"""

from __future__ import annotations

import gc
import json
import sys
from collections.abc import Sequence
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any, NoReturn

from ._json import dumps_indented
from .errors import DocumentError, RulesError

if TYPE_CHECKING:  # pragma: no cover
    import argparse

__all__ = ["main"]


#: Whether :func:`_read_event` froze the heap (``gc.freeze``) during this command.
_FROZEN = [False]


def _read_event(path: str) -> Any:
    from .run import parse_event_json

    try:
        if path == "-":
            text = sys.stdin.read()
        else:
            with open(path, encoding="utf-8") as fh:
                text = fh.read()
    except OSError as exc:
        raise RulesError(f"{path}: cannot read ({exc.strerror or exc})") from None
    except UnicodeDecodeError:
        raise RulesError(f"{path}: not UTF-8 text") from None
    # Decoding builds many small objects and no reference cycles: pause the cyclic garbage
    # collector, whose passes over the growing heap only cost time (load_event pauses it too).
    paused = gc.isenabled()
    if paused:
        gc.disable()
    try:
        event = parse_event_json(text)
    except RulesError as exc:
        raise RulesError(f"{path}: {exc}") from None
    finally:
        if paused:
            gc.enable()
    # The event lives until the command ends and holds no garbage: move it out of the collector's
    # generations, whose full passes would otherwise walk every one of its objects again (issue #27).
    gc.freeze()
    _FROZEN[0] = True
    return event


def _standings(args: argparse.Namespace) -> Any:
    from .run import standings_text

    return _Text(standings_text(_read_event(args.file)) + "\n")  # output_text(standings_json(...))


def _pair(args: argparse.Namespace) -> Any:
    from .run import next_round

    return next_round(_read_event(args.file))


def _structure(args: argparse.Namespace) -> Any:
    from .games import suggest_structure

    return suggest_structure(args.ruleset, _count(args.players, "PLAYERS"), args.structure).to_json()


def _count(text: str, name: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise RulesError(f"{name}: expected a whole number, got '{text}'") from None


def _bracket(args: argparse.Namespace) -> Any:
    from .run import bracket_view

    event = _read_event(args.file)
    if not any(r.stage == "elimination" for r in event.rounds):
        raise RulesError(f"{args.file}: no elimination round yet (python -m shared_rules pair makes the cut)")
    return bracket_view(event)


def _flights(args: argparse.Namespace) -> Any:
    from .games import game_of
    from .pairing.divisions import assign_flights, divisions_of

    event = _read_event(args.file)
    if not game_of(event.ruleset).pairing.divisions:
        raise RulesError(f"{args.file}: ruleset {event.ruleset} has no flights (Pokémon TOP 3.3.3)")
    division_of = divisions_of(event, game_of(event.ruleset))
    by_division: dict[str, list[Any]] = {}
    for p in event.players:
        by_division.setdefault(division_of[p.id], []).append(p)
    out: dict[str, Any] = {}
    for division, members in sorted(by_division.items()):
        flights = assign_flights(event, division, members)
        out[division] = {
            str(f): sorted(pid for pid, g in flights.items() if g == f) for f in sorted(set(flights.values()))
        }
    return {"flights": out}


def _day_two(args: argparse.Namespace) -> Any:
    from .run import day_two_qualifiers

    return {"day_two": day_two_qualifiers(_read_event(args.file))}


def _heats(args: argparse.Namespace) -> Any:
    from .brackets import two_heat_seeds
    from .run import compute_standings

    cut = _count(args.cut, "--cut")
    if cut < 2 or cut % 2:
        raise RulesError(f"--cut: {cut} is not an even number of qualifiers of at least 2 (Star Trek OP Guide 9)")
    tops = []
    for path in (args.heat_one, args.heat_two):
        event = _read_event(path)
        tops.append([s.player for s in compute_standings(event) if not s.dropped][: cut // 2])
    return {"seeds": two_heat_seeds(*tops)}


def _ratings(args: argparse.Namespace) -> Any:
    from .games.startrek.ratings import compute_ratings

    return compute_ratings([_read_event(path) for path in args.files], labels=args.files)


def _read_json(path: str) -> Any:
    try:
        with open(path, encoding="utf-8") as fh:
            return json.load(fh)
    except OSError as exc:
        raise RulesError(f"{path}: cannot read ({exc.strerror or exc})") from None
    except UnicodeDecodeError:
        raise RulesError(f"{path}: not UTF-8 text") from None
    except ValueError as exc:
        raise RulesError(f"{path}: not valid JSON ({exc})") from None


def _league(args: argparse.Namespace) -> Any:
    from .games.startrek.leagues import league_table, load_league

    doc = _read_json(args.league)
    try:
        league = load_league(doc)
    except RulesError as exc:
        raise RulesError(f"{args.league}: {exc}") from None
    events = [_read_event(path) for path in args.files]
    try:
        return league_table(league, events)
    except DocumentError as exc:  # league_table names events[i].FIELD or league.FIELD: name the file instead
        head, _, rest = exc.path.partition("]")
        if head.startswith("events[") and head[7:].isdigit() and int(head[7:]) < len(args.files):
            raise RulesError(f"{args.files[int(head[7:])]}: {rest.lstrip('.') or 'event'}: {exc.problem}") from None
        raise RulesError(f"{args.league}: {exc.path.removeprefix('league.')}: {exc.problem}") from None


def _import_csv(args: argparse.Namespace) -> Any:
    from .importers.csv_roster import roster_from_csv

    event = _read_event(args.file)
    try:
        with open(args.roster, encoding="utf-8", newline="") as fh:
            text = fh.read()
    except OSError as exc:
        raise RulesError(f"{args.roster}: cannot read ({exc.strerror or exc})") from None
    except UnicodeDecodeError:
        raise RulesError(f"{args.roster}: not UTF-8 text (save the sheet as CSV UTF-8)") from None
    mapping = {}
    for item in args.map or ():
        heading, sep, field = item.rpartition("=")
        if not sep or not heading:
            raise RulesError(f"--map: expected HEADING=FIELD, got '{item}'")
        mapping[heading] = field
    try:
        return roster_from_csv(event, text, mapping)
    except RulesError as exc:
        raise RulesError(f"{args.roster}: {exc}") from None


def _export_csv(args: argparse.Namespace) -> Any:
    from .exporters.csv import pairings_csv, standings_csv

    event = _read_event(args.file)
    if args.what == "standings":
        if args.round is not None or args.stage is not None:
            raise RulesError("usage: export-csv standings takes no --round or --stage")
        return _Text(standings_csv(event))
    if args.round is None:
        raise RulesError("usage: export-csv pairings needs --round N")
    return _Text(pairings_csv(event, _count(args.round, "--round"), args.stage))


def _report(args: argparse.Namespace) -> Any:
    from .games.startrek.report import report_text, tournament_report

    event = _read_event(args.file)
    try:
        report = tournament_report(event)
    except RulesError as exc:
        raise RulesError(f"{args.file}: {exc}") from None
    return _Text(report_text(report)) if args.text else report


def _game_end(args: argparse.Namespace) -> Any:
    from .games import time_called

    try:
        numbers = json.loads(sys.stdin.read() if args.numbers == "-" else args.numbers)
    except ValueError as exc:
        raise RulesError(f"NUMBERS: not valid JSON ({exc})") from None
    if not isinstance(numbers, dict):
        raise RulesError("NUMBERS: expected a JSON object such as '{\"power\": [11, 13]}'")
    return time_called(args.ruleset, numbers).to_json()


class _Text(str):
    """A command's output printed as it is, not as JSON."""


def _export_tdf(args: argparse.Namespace) -> Any:
    from .games.pokemon.tom import to_tdf

    event = _read_event(args.file)
    try:
        text = to_tdf(event)
    except RulesError as exc:
        raise RulesError(f"{args.file}: {exc}") from None
    if args.output is None:
        return _Text(text)
    try:
        with open(args.output, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(text)
    except OSError as exc:
        raise RulesError(f"{args.output}: cannot write ({exc.strerror or exc})") from None
    return {"written": args.output, "format": "tdf", "players": len(event.players), "rounds": len(event.rounds)}


def _import_tdf(args: argparse.Namespace) -> Any:
    from .games.pokemon.tom import import_tdf

    try:
        with open(args.file, encoding="utf-8") as fh:
            text = fh.read()
    except OSError as exc:
        raise RulesError(f"{args.file}: cannot read ({exc.strerror or exc})") from None
    except UnicodeDecodeError:
        raise RulesError(f"{args.file}: not UTF-8 text (is it a TOM .tdf file?)") from None
    try:
        return import_tdf(text)
    except RulesError as exc:
        raise RulesError(f"{args.file}: {exc}") from None


_EVENT_COMMANDS = (
    ("standings", "ranked standings of an event document", _standings),
    ("pair", "the event's next round: Swiss, the cut, the next elimination round", _pair),
    ("bracket", "the elimination bracket of an event document", _bracket),
    ("flights", "Pokémon flights per age division (TOP 3.3.3)", _flights),
    ("day-two", "Pokémon day-two qualifiers per age division (TOP 3.3.5)", _day_two),
)


def _parser() -> argparse.ArgumentParser:
    import argparse  # late: a plain ``COMMAND FILE`` call does without it (see _plain_call)

    class _Parser(argparse.ArgumentParser):
        def error(self, message: str) -> NoReturn:  # one line, not argparse's usage block
            raise RulesError(f"usage: {message} (see python -m shared_rules --help)")

    parser = _Parser(prog="python -m shared_rules", description="Topcut rules engine")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    for name, text, run in _EVENT_COMMANDS:
        p = sub.add_parser(name, help=text)
        p.add_argument("file", help="event document (topcut-event/1 JSON), or - for stdin")
        p.set_defaults(run=run)
    p = sub.add_parser("structure", help="rounds and cut for a player count")
    p.add_argument("ruleset")
    p.add_argument("players")
    p.add_argument("--structure", default=None)
    p.set_defaults(run=_structure)
    p = sub.add_parser("heats", help="Star Trek match-play seeds from two heats (OP Guide 9)")
    p.add_argument("heat_one", help="heat one's event document")
    p.add_argument("heat_two", help="heat two's event document")
    p.add_argument("--cut", required=True, help="qualifiers in all (half from each heat)")
    p.set_defaults(run=_heats)
    p = sub.add_parser("export-tdf", help="a Pokémon event as a TOM save file (.tdf)")
    p.add_argument("file", help="event document (topcut-event/1 JSON), or - for stdin")
    p.add_argument("-o", "--output", default=None, help="write the .tdf to this file instead of stdout")
    p.set_defaults(run=_export_tdf)
    p = sub.add_parser("import-tdf", help="a TOM save file (.tdf) as an event document")
    p.add_argument("file", help="the .tdf file TOM saved")
    p.set_defaults(run=_import_tdf)
    p = sub.add_parser("ratings", help="Star Trek ratings from events, oldest first (OP Guide 8, 11)")
    p.add_argument("files", nargs="+", help="event documents (topcut-event/1 JSON), oldest first")
    p.set_defaults(run=_ratings)
    p = sub.add_parser("league", help="a WCT league's tables (OP Guide 12)")
    p.add_argument("league", help="league document (topcut-league/1 JSON)")
    p.add_argument("files", nargs="*", help="the league's event documents (topcut-event/1 JSON)")
    p.set_defaults(run=_league)
    p = sub.add_parser("import-csv", help="players to register from a CSV roster")
    p.add_argument("file", help="event document (topcut-event/1 JSON), or - for stdin")
    p.add_argument("roster", help="CSV file (, or ; between cells, UTF-8)")
    p.add_argument("--map", action="append", metavar="HEADING=FIELD", help="read a column as a field")
    p.set_defaults(run=_import_csv)
    p = sub.add_parser("export-csv", help="standings or one round's pairings as CSV")
    p.add_argument("what", choices=("standings", "pairings"))
    p.add_argument("file", help="event document (topcut-event/1 JSON), or - for stdin")
    p.add_argument("--round", default=None, help="the round (pairings)")
    p.add_argument("--stage", default=None, help="the round's stage when two share its number")
    p.set_defaults(run=_export_csv)
    p = sub.add_parser("report", help="the Star Trek tournament report (OP Guide 8, Appendix A)")
    p.add_argument("file", help="event document (topcut-event/1 JSON), or - for stdin")
    p.add_argument("--text", action="store_true", help="a plain page instead of JSON")
    p.set_defaults(run=_report)
    p = sub.add_parser("game-end", help="who wins when time is called")
    p.add_argument("ruleset")
    p.add_argument("numbers", help="JSON object of both players' numbers, or - for stdin")
    p.set_defaults(run=_game_end)
    return parser


def output_text(result: Any) -> str:
    """What a command prints for its result: indented JSON (``json.dumps(..., indent=1)``) and a newline."""
    return dumps_indented(result) + "\n"


def _plain_call(argv: Sequence[str] | None) -> Any:
    """The parsed arguments of ``COMMAND FILE`` for an event command, as argparse would give them
    (FILE not an option: ``-`` or not starting with ``-``), without building the parser; else None."""
    if argv is None:
        argv = sys.argv[1:]
    if len(argv) != 2:
        return None
    command, file = argv
    if file != "-" and file.startswith("-"):
        return None
    for name, _, run in _EVENT_COMMANDS:
        if name == command:
            return SimpleNamespace(command=name, file=file, run=run)
    return None


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    try:
        return _main(argv)
    finally:
        if _FROZEN[0]:  # a caller running several commands in one process gets its heap collected again
            _FROZEN[0] = False
            gc.unfreeze()


def _main(argv: Sequence[str] | None) -> int:
    """:func:`main` itself: parse, run, print."""
    try:
        args = _plain_call(argv) or _parser().parse_args(argv)
        result = args.run(args)
    except RulesError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except RecursionError:
        print("error: document is nested too deeply", file=sys.stderr)
        return 2
    except Exception as exc:  # never a traceback for a user
        print(f"error: internal error ({type(exc).__name__}: {exc})", file=sys.stderr)
        return 70
    try:
        text = result if isinstance(result, _Text) else output_text(result)
        sys.stdout.write(text)
        sys.stdout.flush()
    except BrokenPipeError:  # e.g. piped into `head`
        return 0
    return 0
