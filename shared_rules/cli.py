"""The command line: ``python -m shared_rules standings|pair|structure ...``.

Output is JSON on stdout; a bad document or argument prints one line on
stderr and exits with status 2. No traceback ever reaches a user.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, Sequence

from .errors import RulesError

__all__ = ["main"]


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one line, not argparse's usage block
        raise RulesError(f"usage: {message} (see python -m shared_rules --help)")


def _read_event(path: str) -> Any:
    from .event import parse_event_json

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
    try:
        return parse_event_json(text)
    except RulesError as exc:
        raise RulesError(f"{path}: {exc}") from None


def _standings(args: argparse.Namespace) -> Any:
    from .standings import standings_json

    return standings_json(_read_event(args.file))


def _pair(args: argparse.Namespace) -> Any:
    from .pairing.next_round import pair_next_round_json

    return pair_next_round_json(_read_event(args.file))


def _structure(args: argparse.Namespace) -> Any:
    from .structures import suggest_structure

    try:
        players = int(args.players)
    except ValueError:
        raise RulesError(f"PLAYERS: expected a whole number, got '{args.players}'") from None
    return suggest_structure(args.ruleset, players, args.structure).to_json()


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="python -m shared_rules", description="Topcut rules engine")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    p = sub.add_parser("standings", help="ranked standings of an event document")
    p.add_argument("file", help="event document (topcut-event/1 JSON), or - for stdin")
    p.set_defaults(run=_standings)
    p = sub.add_parser("pair", help="the next round's pairings of an event document")
    p.add_argument("file", help="event document (topcut-event/1 JSON), or - for stdin")
    p.set_defaults(run=_pair)
    p = sub.add_parser("structure", help="rounds and cut for a player count")
    p.add_argument("ruleset")
    p.add_argument("players")
    p.add_argument("--structure", default=None)
    p.set_defaults(run=_structure)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    try:
        args = _parser().parse_args(argv)
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
        sys.stdout.write(json.dumps(result, ensure_ascii=False, indent=1) + "\n")
        sys.stdout.flush()
    except BrokenPipeError:  # e.g. piped into `head`
        return 0
    return 0
