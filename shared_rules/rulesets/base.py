"""What a ruleset is: declarative data (points table, outcome vocabulary,
tiebreaker keys, policies, time limits) plus a few optional hooks."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from ..errors import DocumentError

if TYPE_CHECKING:  # pragma: no cover
    from ..event.model import Event

__all__ = ["Outcome", "Policy", "ResultPair", "Ruleset", "pairs_text"]


@dataclass(frozen=True, slots=True)
class Outcome:
    """One word of a ruleset's outcome vocabulary and what it is worth.

    ``result`` is how the outcome counts on a W-L-T record; ``solo`` marks an
    outcome reported for a one-player match (a bye, a late loss, a missed game).

    >>> Outcome("win", 3, "win").points
    3
    """

    key: str
    points: float
    result: str
    solo: bool = False
    paired: bool = True


@dataclass(frozen=True, slots=True)
class Policy:
    """A rule stated as data: which option applies and where the document says so."""

    rule: str
    source: str


@dataclass(frozen=True, slots=True)
class ResultPair:
    """One way a two-player game can end: the first seat's outcome, its opponent's, and the document's words.

    ``quick``: the result form offers it as a one-tap button. The reverse seat order is allowed too.

    >>> ResultPair("win", "loss", "win / loss", quick=True).seats(1)
    ('loss', 'win')
    """

    first: str
    second: str
    label: str
    quick: bool = False

    def seats(self, winner: int) -> tuple[str, str]:
        """The outcomes per seat when seat ``winner`` (0 or 1) takes ``first``."""
        return (self.first, self.second) if winner == 0 else (self.second, self.first)


def pairs_text(pairs: tuple[ResultPair, ...]) -> str:
    """The declared results in words, for a refusal.

    >>> pairs_text((ResultPair("win", "loss", "win / loss"), ResultPair("draw", "draw", "draw")))
    'win / loss or draw'
    """
    words = [p.label for p in pairs]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def _words(key: str) -> str:
    return key.replace("-", " ")


def _no_event_check(event: Event) -> None:
    return None


@dataclass(frozen=True, slots=True)
class Ruleset:
    """A game's organized-play rules as the engine needs them."""

    id: str
    title: str
    document: str
    outcomes: tuple[Outcome, ...]
    tiebreakers: tuple[str, ...]
    match_sizes: tuple[int, int] = (2, 2)
    endings: tuple[str, ...] = ()
    policies: Mapping[str, Policy] = field(default_factory=lambda: MappingProxyType({}))
    time_limits: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))
    #: Optional: replaces the generic ranking (e.g. Pokémon divisions and top cut).
    standings_hook: Callable[..., Any] | None = None
    #: Optional: extra whole-event validation; raises DocumentError.
    event_check: Callable[[Event], None] = _no_event_check
    #: Optional: after each tiebreaker step, a key re-applied when exactly two remain tied.
    two_tied_key: str | None = None
    #: What standings output prints under ``tiebreakers``: (output name, metric key) pairs in order.
    #: Output names follow EVENT-FORMAT.md (``sos`` is Star Trek's ``startrek-sos`` metric, say).
    reported: tuple[tuple[str, str], ...] = ()
    settings: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    #: The results one two-player game can end in (either seat order), in the document's words; empty: the
    #: generic check (no win against a win or a tie, no tie against a loss). ``pairs_source`` cites them.
    result_pairs: tuple[ResultPair, ...] = ()
    pairs_source: str = ""
    #: Derived: outcome key → Outcome, for fast look-ups.
    outcome_map: Mapping[str, Outcome] = field(init=False, repr=False, compare=False)
    #: Derived: the vocabulary.
    outcome_keys: frozenset[str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "outcome_map", MappingProxyType({o.key: o for o in self.outcomes}))
        object.__setattr__(self, "outcome_keys", frozenset(self.outcome_map))

    def outcome(self, key: str) -> Outcome:
        """The outcome with that key.

        >>> Ruleset("x", "X", "doc", (Outcome("win", 3, "win"),), ()).outcome("win").points
        3
        """
        return self.outcome_map[key]

    def points(self, key: str) -> float:
        """Points for one outcome."""
        return self.outcome(key).points

    @property
    def max_points(self) -> float:
        """The most points one round can give (a clean win)."""
        return max(o.points for o in self.outcomes)

    def check_outcomes(self, players: tuple[str, ...], outcomes: tuple[str, ...], path: str) -> None:
        """Reject outcome combinations that cannot happen at one table.

        The verdict may depend only on the number of players and the outcomes:
        the document loader asks once per combination (``path`` only names where).
        """
        omap = self.outcome_map
        solo = [o for o in outcomes if omap[o].solo]
        if len(players) == 1:
            if not solo:
                raise DocumentError(
                    path,
                    f"'{outcomes[0]}' needs an opponent; a one-player match takes "
                    + ", ".join(sorted(o.key for o in self.outcomes if o.solo)),
                )
            return
        if solo:
            raise DocumentError(path, f"'{solo[0]}' is for a one-player match, not a table of {len(players)}")
        if len(players) == 2 and self.result_pairs:
            if not self.allows_pair(outcomes[0], outcomes[1]):
                raise DocumentError(path, self.pair_refusal(outcomes[0], outcomes[1]))
            return
        if len(players) == 2:
            a, b = omap[outcomes[0]].result, omap[outcomes[1]].result
            if (a, b) in {("win", "win"), ("tie", "win"), ("win", "tie"), ("tie", "loss"), ("loss", "tie")}:
                raise DocumentError(path, f"{list(outcomes)} cannot both be the result of one game")

    def allows_pair(self, first: str, second: str) -> bool:
        """Whether one two-player game can give these two outcomes (in either seat order).

        >>> rs = Ruleset("x", "X", "doc", (Outcome("win", 3, "win"), Outcome("loss", 0, "loss")), (),
        ...              result_pairs=(ResultPair("win", "loss", "win / loss"),))
        >>> rs.allows_pair("loss", "win"), rs.allows_pair("win", "win")
        (True, False)
        """
        return any((p.first, p.second) in ((first, second), (second, first)) for p in self.result_pairs)

    def pair_refusal(self, first: str, second: str) -> str:
        """Why two outcomes cannot be one game's result, in words a judge reads."""
        cite = f" ({self.pairs_source})" if self.pairs_source else ""
        return (
            f"{_words(first)} against {_words(second)} is not a result of one {self.title} game; "
            f"one game ends in {pairs_text(self.result_pairs)}{cite}"
        )

    def check_event(self, event: Event) -> None:
        """Whole-event validation beyond the shape of each match."""
        self.event_check(event)
