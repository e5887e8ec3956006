"""The pokemon game declarations (:class:`~shared_rules.games.base.Game`): what the registry hands out.

The section table is in the package docstring (``__init__.py``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from types import MappingProxyType

from ...brackets.rules import BracketRules
from ...pairing.policies import PairingPolicy
from ...structures._model import Structure
from ..base import Game, PlayerIdField, ResultForm, fixed_structure
from . import divisions as age
from . import ruleset, settings, structures
from .decklists import decklists_of
from .penalties import PENALTIES

__all__ = ["PAIRING", "BRACKETS", "GAMES"]

# Pokémon TOP 3.1 (round 1 random, brackets, bye random in the lowest bracket, never two byes),
# 3.1.1-3.1.2 (age divisions), 3.3.3 (flights), 4 (corrections).
PAIRING = PairingPolicy(
    ruleset="pokemon-tcg",
    bye_rule="random-lowest-bracket",
    divisions=True,
    source="Pokémon TOP 3.1, 3.1.1, 3.1.2, 3.3.3",
)
# Pokémon TOP 3.2 (random seeds, top seeds get byes; a drop or DQ is a loss; optional 3rd/4th
# playoff), 3.3 / 3.3.6 (seeded by Swiss rank). Best-of is not fixed by the document.
BRACKETS = BracketRules(
    ruleset="pokemon-tcg", best_of=None, final_best_of=None, drop="loss", source="Pokémon TOP 3.2, 3.3, 3.3.6"
)


#: The Play! Pokémon ID: TOM's ``userid`` (a .tdf save names every player by it), digits; checked at the desk
#: with the birth year (TOP 3.1.1 tells divisions by it). The TOP gives no form of its own: TOM's saves do.
PLAYER_ID = PlayerIdField(
    label="Play! Pokémon ID",
    pattern="[0-9]{1,12}",
    form="digits only",
    person="pokemon_id",
    birth_year=True,
    source="TOM .tdf <player userid>",
)


def _game(ruleset_id: str, names: tuple[str, ...]) -> Game:
    def build(n: int, name: str) -> Structure:
        return structures.structure(ruleset_id, n, name)

    def divisions(counts: Mapping[str, int], name: str) -> dict[str, Structure]:
        return structures.division_structures(ruleset_id, counts, name)

    return Game(
        id=ruleset_id,
        build=lambda settings: ruleset.build(ruleset_id, settings),
        pairing=replace(PAIRING, ruleset=ruleset_id),
        brackets=replace(BRACKETS, ruleset=ruleset_id),
        structure_names=names,
        structure=fixed_structure(ruleset_id, build),
        division_structures=divisions,
        day_two_qualifiers=structures.day_two_qualifiers,
        player_division=age.player_division,
        division_season=age.event_season_year,
        division_check=age.check_divisions,
        division_view=age.division_view,
        creation_settings=age.creation_settings,
        import_settings=age.import_settings,
        decklists=decklists_of(ruleset_id),
        settings_ui=settings.sections(ruleset_id),
        settings_warnings=settings.warnings,
        penalties=PENALTIES,
        # The TOP names no match format (best-of-one or best-of-three) for Swiss or single elimination, so
        # the result form offers games (best of three) in every round; the match result alone is enough.
        result_form=ResultForm(best_of_three="always"),
        player_id=PLAYER_ID,
    )


GAMES: Mapping[str, Game] = MappingProxyType(
    {
        "pokemon-tcg": _game("pokemon-tcg", structures.TCG_NAMES),
        "pokemon-vg": _game("pokemon-vg", structures.VG_NAMES),
    }
)
