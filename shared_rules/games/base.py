"""What a game is: one object per ruleset id holding everything its documents say.

A :class:`Game` bundles the ruleset builder (outcomes, points, tiebreakers,
policies), the Swiss pairing policy, the bracket rules, the structure table,
the time-called helper, the penalty system and the UI descriptor the PWA reads.
Generic code (pairing, standings, brackets, structures, the reducer, the CLI)
receives a game and never names one. Only light modules are imported here and
by the game packages' ``__init__``: heavy engines import the games, not the
other way round.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from ..decklists.model import GENERIC_DECKLISTS, DeckLists
from ..errors import RulesError

if TYPE_CHECKING:  # pragma: no cover
    from ..brackets.rules import BracketRules
    from ..event.model import Event, Player
    from ..game_end._result import GameEnd
    from ..pairing.policies import PairingPolicy
    from ..rulesets.base import Ruleset
    from ..structures._model import Structure
    from .settings import SettingsSection, SettingsWarnings

__all__ = [
    "Game",
    "GENERIC_PENALTIES",
    "GAME_LOSS_CONSEQUENCE",
    "DISQUALIFICATION_CONSEQUENCE",
    "PenaltySystem",
    "PlayerIdField",
    "ORGANIZER_ID",
    "ResultForm",
    "TimeCalled",
    "StructureBuilder",
    "fixed_structure",
]

#: ``(players, name, rounds, cut)`` → the structure; ``rounds``/``cut`` are overrides.
StructureBuilder = Callable[[int, str, "int | None", "int | None"], "Structure"]


def fixed_structure(ruleset_id: str, build: Callable[[int, str], Structure]) -> StructureBuilder:
    """A structure builder for a game whose document's table fixes rounds and cut (no overrides).

    >>> fixed_structure("x", lambda n, name: n)(8, "swiss", 3, None)
    Traceback (most recent call last):
    ...
    shared_rules.errors.RulesError: rounds/cut: x takes its rounds and cut from its document's table
    """

    def builder(players: int, name: str, rounds: int | None, cut: int | None) -> Structure:
        if rounds is not None or cut is not None:
            raise RulesError(f"rounds/cut: {ruleset_id} takes its rounds and cut from its document's table")
        return build(players, name)

    return builder


@dataclass(frozen=True, slots=True, kw_only=True)
class PenaltySystem:
    """A game's penalty system: Star Trek levels, or a list of kinds (with labels for the PWA).

    ``levels`` maps a level to ``(kind, effect, label)``; ``kinds`` maps a kind to
    ``(effect, label)``. ``ejection_warnings``: this many warnings eject the player.
    ``floor`` are the choices a floor judge may issue; ``hint`` is shown beside the form.
    ``consequences`` maps a choice (a kind, or a level as text) to what it does to the player and
    their match, in the document's words: the form asks to confirm these before issuing.
    ``infractions`` is the document's index of infractions, ``(code, name, level)``.
    """

    name: str
    kinds: Mapping[str, tuple[str | None, str]] = field(default_factory=lambda: MappingProxyType({}))
    levels: Mapping[int, tuple[str, str | None, str]] = field(default_factory=lambda: MappingProxyType({}))
    ejection_warnings: int | None = None
    floor: tuple[str, ...] = ()
    infraction_field: bool = False
    hint: str | None = None
    source: str = ""
    consequences: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    infractions: tuple[tuple[str, str, int], ...] = ()

    @property
    def uses_levels(self) -> bool:
        """Whether penalties are given as levels (Star Trek OP Guide Appendix B).

        >>> PenaltySystem(name="x", levels={0: ("verbal-warning", None, "Level 0")}).uses_levels
        True
        """
        return bool(self.levels)

    def ui(self) -> dict[str, Any]:
        """The penalty form's descriptor (choices, what a floor judge may pick, the hint)."""
        if self.uses_levels:
            choices = [[str(level), label] for level, (_, _, label) in sorted(self.levels.items())]
        else:
            choices = [[kind, label] for kind, (_, label) in self.kinds.items()]
        return {
            "system": "levels" if self.uses_levels else "kinds",
            "choices": choices,
            "floor": list(self.floor),
            "infraction_field": self.infraction_field,
            "hint": self.hint,
            "consequences": dict(self.consequences),
            "infractions": [[code, name, level] for code, name, level in self.infractions],
            "ejection_warnings": self.ejection_warnings,
            "source": self.source,
        }


#: What a game loss does where the document says no more: the judge enters the lost game.
GAME_LOSS_CONSEQUENCE = (
    "The player loses the game in progress (between games: their next game). Enter that result at their "
    "table with Correct."
)
#: What a disqualification does where the document says no more.
DISQUALIFICATION_CONSEQUENCE = (
    "The player is dropped from the event at once and is not paired again unless the penalty is rescinded. "
    "Enter the result of their match with Correct."
)

#: The usual penalty system where a game's documents name no other: warning, game loss, disqualification.
GENERIC_PENALTIES = PenaltySystem(
    name="generic",
    kinds=MappingProxyType(
        {
            "warning": (None, "Warning"),
            "game-loss": ("game-loss", "Game loss"),
            "disqualification": ("disqualification", "Disqualification"),
        }
    ),
    floor=("warning",),
    source="generic",
    consequences=MappingProxyType(
        {"game-loss": GAME_LOSS_CONSEQUENCE, "disqualification": DISQUALIFICATION_CONSEQUENCE}
    ),
)


@dataclass(frozen=True, slots=True, kw_only=True)
class TimeCalled:
    """The time-called helper of a game and what the result form asks for it.

    ``inputs`` are the pair-valued numbers the form asks for; ``uses`` names the
    result-form section ("stats" or "scores") the helper also reads.
    """

    decide: Callable[[Mapping[str, Any]], GameEnd]
    inputs: tuple[str, ...] = ()
    uses: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class ResultForm:
    """What the result form shows for a game (the PWA builds the form from it)."""

    #: ``{"legend", "table_size", "fields": [{"key", "label", "max"}]}`` or None.
    stats: Mapping[str, Any] | None = None
    #: ``{"legend", "min"}`` or None.
    scores: Mapping[str, Any] | None = None
    #: Two-player tables: best-of-three games offered "always" or only in "elimination" rounds.
    best_of_three: str = "elimination"


@dataclass(frozen=True, slots=True, kw_only=True)
class PlayerIdField:
    """A player's own ID in a game's organized play (``players[].game_id``): what the desk asks and exports.

    ``pattern`` (a regular expression the whole ID must match) only where the ID's form is known; ``person``
    names the field a server's player record keeps it in (``pokemon_id``, ``trekcc_id``), or None.
    """

    label: str
    pattern: str | None = None
    #: How the ID is written, for a refusal ("digits only").
    form: str = ""
    person: str | None = None
    #: Whether a birth year goes with the ID at registration (a Play! Pokémon ID is checked with it).
    birth_year: bool = False
    source: str = ""

    def problem(self, value: object) -> str | None:
        """Why ``value`` is not such an ID, in words for the organizer, or None.

        >>> PlayerIdField(label="Play! Pokémon ID", pattern="[0-9]{1,10}", form="digits").problem("12a")
        "'12a' is not a Play! Pokémon ID (digits)"
        """
        import re

        if not isinstance(value, str) or not value.strip():
            return f"the {self.label} must be text, not {value!r}"
        if value != value.strip():
            return f"the {self.label} '{value}' has spaces around it"
        if len(value) > 64:
            return f"the {self.label} is {len(value)} characters long; the most allowed is 64"
        if self.pattern is not None and re.fullmatch(self.pattern, value) is None:
            return f"'{value}' is not a {self.label}" + (f" ({self.form})" if self.form else "")
        return None


#: Games whose documents name no player ID: the organizer's own (a store's or a pairing site's member id).
ORGANIZER_ID = PlayerIdField(label="Player ID", source="no player ID in the game's documents (project decision)")


@dataclass(frozen=True, slots=True, kw_only=True)
class Game:
    """Everything one ruleset id's documents say, as the engine and the PWA need it."""

    id: str
    #: settings → the configured ruleset (outcomes, points, tiebreakers, policies).
    build: Callable[[Mapping[str, Any]], Ruleset]
    #: How a Swiss round is paired.
    pairing: PairingPolicy
    #: How elimination rounds run, or None (with ``no_bracket`` saying why).
    brackets: BracketRules | None
    no_bracket: str = ""
    #: ``settings.bracket`` names this game accepts (name → bracket scheme).
    bracket_names: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    #: Structure names (the first is the default) and the builder of the document's table.
    structure_names: tuple[str, ...]
    structure: StructureBuilder
    #: Per age-division structures (Pokémon TOP 3.3.5) or None.
    division_structures: Callable[[Mapping[str, int], str], dict[str, Structure]] | None = None
    #: Day-two qualifiers from points and Swiss rank (Pokémon TOP 3.3.5) or None.
    day_two_qualifiers: Callable[[Mapping[str, int], Sequence[str]], list[str]] | None = None
    #: Who wins when time is called, or None.
    time_called: TimeCalled | None = None
    penalties: PenaltySystem
    result_form: ResultForm = field(default_factory=ResultForm)
    #: Timer notes: (remaining ms at or below which, text).
    timer_notes: tuple[tuple[int, str], ...] = ()
    #: Attack dice rolled at the start of a round (Shatterpoint).
    attack_dice: int = 0
    #: (event seed, die sides) → the event's secret round time in minutes (Doomtown), or None.
    secret_time: Callable[[str, int], int] | None = None
    #: (player, season or None) → the player's age division (Pokémon TOP 3.1.1), or None: no divisions.
    player_division: Callable[[Player, int | None], str] | None = None
    #: event → the season its age divisions are told in (settings, else the event's date), or None.
    division_season: Callable[[Event], int | None] | None = None
    #: (event, present ids, round number) → raises RulesError when the divisions cannot be told (pairing).
    division_check: Callable[[Event, Sequence[str], int], None] | None = None
    #: event → what the Players screen shows of the age divisions (season, birth years, each player's), or None.
    division_view: Callable[[Event], dict[str, Any]] | None = None
    #: (settings, the event.create operation's ``at`` in ms) → the settings the event starts with.
    creation_settings: Callable[[Mapping[str, Any], int], dict[str, Any]] | None = None
    #: (event, import time in ms) → the settings an imported event starts with, or None to keep its own.
    import_settings: Callable[[Event, int], dict[str, Any] | None] | None = None
    #: The event settings the Settings screen offers, in sections (rules_api ``ruleset_info()["settings"]``);
    #: the reducer checks each declared key of ``event.configure`` against them.
    settings_ui: tuple[SettingsSection, ...] = ()
    #: The documents' sanctioning warnings and notes for the settings in hand, or None.
    settings_warnings: SettingsWarnings | None = None
    #: (event, round number, present ids, ranking, rounds per pod) → the round's pods (Tribbles), or None.
    form_pods: Callable[[Event, int, Sequence[str], Sequence[str], int], list[list[str]]] | None = None
    #: Checks ``settings.report``, the tournament report's details the organizer fills in (raises DocumentError);
    #: None: the game has no tournament report (Star Trek OP Guide 8 has one, written after the event).
    report_details: Callable[[Any], object] | None = None
    #: The game's deck lists: sections and the checks its documents cite (a generic deck where they say nothing).
    decklists: DeckLists = GENERIC_DECKLISTS
    #: The player's own ID in the game's organized play (``players[].game_id``): label, form, where it is kept.
    player_id: PlayerIdField = ORGANIZER_ID

    def ruleset(self, settings: Mapping[str, Any] | None = None) -> Ruleset:
        """The ruleset configured by an event's settings."""
        return self.build(dict(settings or {}))

    def structure_name(self, structure: str | None) -> str:
        """A valid structure name of this game (the first when none is named); RulesError otherwise."""
        names = self.structure_names
        if structure is None:
            return names[0]
        if structure not in names:
            raise RulesError(f"structure: {structure!r} is not a structure of {self.id} (valid: {', '.join(names)})")
        return structure

    def suggest_structure(
        self, players: int, structure: str | None = None, *, rounds: int | None = None, cut: int | None = None
    ) -> Structure:
        """The document's rounds and cut for ``players`` (``rounds``/``cut`` overrides: ``custom`` only)."""
        return self.structure(players, self.structure_name(structure), rounds, cut)

    def pairing_policy(self, settings: Mapping[str, Any] | None = None) -> PairingPolicy:
        """The Swiss pairing policy (house rules may leave the bye out of ``settings.points``)."""
        policy = self.pairing
        if policy.bye_from_points:
            points = (settings or {}).get("points")
            if isinstance(points, dict) and "bye" not in points:
                policy = replace(policy, bye_outcome=None)
        return policy

    def bracket_rules(self, settings: Mapping[str, Any] | None = None) -> BracketRules:
        """The bracket rules with the event's settings applied (``best_of``, ``final_best_of``,
        ``playoff_3rd_4th``, ``bracket``); RulesError for a game without a bracket."""
        settings = settings or {}
        if self.brackets is None:
            raise RulesError(f"ruleset: {self.id} has no elimination bracket ({self.no_bracket})")
        rules = self.brackets
        if "best_of" in settings:
            best = _best_of(settings["best_of"], "best_of")
            rules = replace(rules, best_of=best, final_best_of=best)
        if "final_best_of" in settings:
            rules = replace(rules, final_best_of=_best_of(settings["final_best_of"], "final_best_of"))
        if settings.get("playoff_3rd_4th"):
            rules = replace(rules, third_place=True)
        if "bracket" in settings:
            name = settings["bracket"]
            names = self.bracket_names
            if name not in names:
                raise RulesError(
                    f"settings.bracket: {name!r} is not a bracket of {self.id}"
                    + (f" ({', '.join(names)})" if names else "")
                )
            rules = replace(rules, scheme=names[name])
        return rules

    def deciding_bracket(self, settings: Mapping[str, Any] | None = None) -> BracketRules | None:
        """The bracket rules that decide elimination matches in the standings; None without a bracket
        or with settings the rules refuse (no match is then decided)."""
        try:
            return self.bracket_rules(settings)
        except RulesError:
            return None

    def __post_init__(self) -> None:
        from .settings import GENERIC_SECTIONS

        # The settings every game offers (the standings policy) after the game's own, once.
        if not any(section in self.settings_ui for section in GENERIC_SECTIONS):
            object.__setattr__(self, "settings_ui", (*self.settings_ui, *GENERIC_SECTIONS))

    def settings_descriptor(self) -> dict[str, Any]:
        """The settings a screen may offer for this game (plain JSON)."""
        from .settings import descriptor

        return descriptor(self.settings_ui)

    def ui(self) -> dict[str, Any]:
        """The UI descriptor: the PWA builds its result form, timer, round start and penalty form from it."""
        time_called = None
        if self.time_called is not None:
            time_called = {"inputs": list(self.time_called.inputs), "uses": self.time_called.uses}
        form = self.result_form
        return {
            "result": {
                "stats": _plain(form.stats),
                "scores": _plain(form.scores),
                "best_of_three": form.best_of_three,
                "time_called": time_called,
            },
            "timer": {"notes": [{"at_or_below_ms": at, "text": text} for at, text in self.timer_notes]},
            "round_start": {"attack_dice": self.attack_dice},
            "penalties": self.penalties.ui(),
            "decklists": self.decklists.to_json(),
        }


def _best_of(value: Any, key: str) -> int:
    if value not in (1, 3) or isinstance(value, bool):
        raise RulesError(f"settings.{key}: {value!r} is not 1 or 3")
    return int(value)


def _plain(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value
