"""The event's next step for the organizer's Rounds screen, decided in one place from the folded state.

The day's flow: register, pair round N (a draft), publish it, start the clock, wait for the results (or a
dispute), pair the next Swiss round; once the planned Swiss rounds are complete (``settings.rounds``, else
the document's structure table) make the cut (``settings.cut``, else the table's cut), then each
elimination round to the final, then name the champion and close the event. A game without a bracket
(Tribbles), or an event whose structure has no cut, closes after its Swiss rounds.

>>> from shared_rules.state import initial_state
>>> next_step(initial_state()).step
'create'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..errors import RulesError
from ..games import game_of
from ..run import bracket_view, day_one_rounds, load_event, swiss_rounds
from .state import SETTLED, to_event_document

__all__ = ["STEPS", "NextStep", "next_step"]

#: Every step, in the order a day goes through them.
STEPS = (
    "create",
    "register",
    "pair",
    "publish",
    "start",
    "results",
    "dispute",
    "cut",
    "elimination",
    "close",
    "closed",
)


@dataclass(frozen=True, slots=True, kw_only=True)
class NextStep:
    """What the organizer does next: ``step`` (one of :data:`STEPS`), the button's ``label``, and why."""

    step: str
    label: str
    reason: str
    #: The round the step is about (the one to pair, publish, start or wait for), or None.
    round: int | None = None
    stage: str | None = None
    #: The cut the step makes (``cut``), or None.
    cut: int | None = None
    #: Once the bracket is decided: the champion's id and name.
    champion: str | None = None
    champion_name: str | None = None
    #: Whether every planned Swiss round is complete (the cut may be made).
    swiss_complete: bool = False
    #: Planned Swiss rounds, or None when the structure gives none.
    swiss_rounds: int | None = None
    #: Whether a cut may be made now (the game has a bracket and the event no elimination round yet).
    can_cut: bool = False

    def to_json(self) -> dict[str, Any]:
        """The step as plain JSON for the screens."""
        return {
            "step": self.step,
            "label": self.label,
            "reason": self.reason,
            "round": self.round,
            "stage": self.stage,
            "cut": self.cut,
            "champion": self.champion,
            "champion_name": self.champion_name,
            "swiss_complete": self.swiss_complete,
            "swiss_rounds": self.swiss_rounds,
            "can_cut": self.can_cut,
        }


def _name(state: dict[str, Any], pid: str) -> str:
    return next((p["name"] or pid for p in state["players"] if p["id"] == pid), pid)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _planned(event: Any) -> int | None:
    try:
        return swiss_rounds(event)
    except RulesError:
        return None


def _cut(event: Any) -> tuple[int, str]:
    """The cut the event makes after its Swiss rounds (0: none) and why, from settings or the structure."""
    game = game_of(event.ruleset)
    if game.brackets is None:
        return 0, f"{game.ruleset(event.settings).title} has no elimination bracket"
    given = event.settings.get("cut")
    if isinstance(given, int) and not isinstance(given, bool):
        return (given, "the event's settings") if given >= 2 else (0, "the event's settings set no cut")
    starters = sum(1 for p in event.players if p.dropped_after is None or p.dropped_after >= 1)
    try:
        size = game.suggest_structure(starters, event.settings.get("structure")).cut
    except RulesError:
        return 0, "the structure table gives no cut"
    if size < 2:
        return 0, f"the document's structure has no cut for {starters} players"
    return size, f"the document's structure for {starters} players"


def _open_round(state: dict[str, Any], rnd: dict[str, Any]) -> NextStep | None:
    """The step a round not yet complete asks for: publish, start, or its results (or a dispute)."""
    n, stage = rnd["number"], rnd["stage"]
    where = dict(round=n, stage=stage)
    if rnd["status"] == "draft":
        return NextStep(
            step="publish",
            label=f"Publish round {n}",
            reason=f"Round {n} is a draft: check its warnings and swaps, then publish it so players see their tables.",
            **where,
        )
    if rnd["status"] == "published":
        return NextStep(
            step="start",
            label=f"Start round {n}",
            reason=f"Round {n} is published: start the clock once the players are seated.",
            **where,
        )
    if rnd["status"] == "started":
        dispute = _dispute(state)
        if dispute is not None:
            return dispute
        missing = [m for m in rnd["matches"] if m["status"] not in SETTLED]
        tables = [str(m["table"]) for m in missing if m["table"] is not None]
        return NextStep(
            step="results",
            label=f"Waiting for {_plural(len(missing), 'result')} of round {n}",
            reason=f"{len(rnd['matches']) - len(missing)} of {len(rnd['matches'])} results are in"
            + (f"; still playing: table{'s' if len(tables) > 1 else ''} {', '.join(tables[:12])}" if tables else "")
            + (", …" if len(tables) > 12 else "")
            + ". Enter them on the Judge screen.",
            **where,
        )
    return None


def _dispute(state: dict[str, Any]) -> NextStep | None:
    if not state["disputes"]:
        return None
    d = state["disputes"][0]
    table = d["table"] if d["table"] is not None else "—"
    return NextStep(
        step="dispute",
        label=f"Resolve the dispute at table {table} of round {d['round']}",
        reason=f"{_plural(len(state['disputes']), 'dispute')} open: the next round is paired once every dispute "
        "is resolved (Disputes screen).",
        round=d["round"],
        stage=d["stage"],
    )


def next_step(state: dict[str, Any]) -> NextStep:
    """The organizer's next step on this state (see the module's docstring)."""
    if state["ruleset"] is None:
        return NextStep(step="create", label="Create the event", reason="No event yet.")
    if state["closed"]:
        return NextStep(
            step="closed",
            label="The event is closed",
            reason="No more rounds are paired, started or changed.",
            **_champion(state),
        )
    active = [p for p in state["players"] if p["dropped_after"] is None and not p["ejected"]]
    rounds = state["rounds"]
    if not rounds and len(active) < 2:
        return NextStep(
            step="register",
            label="Register players",
            reason=f"{_plural(len(active), 'player')} registered: a round needs at least 2 (Players screen).",
        )
    if rounds:
        step = _open_round(state, rounds[-1])
        if step is not None:
            return step
    dispute = _dispute(state)
    if dispute is not None:
        return dispute
    event = load_event(to_event_document(state, operational=False))
    elimination = [r for r in rounds if r["stage"] == "elimination"]
    if elimination:
        return _after_elimination(state, event, rounds[-1]["number"])
    planned = _planned(event)
    bracket = game_of(event.ruleset).brackets is not None
    swiss = [r for r in rounds if r["stage"] != "elimination"]
    played = max((r["number"] for r in swiss), default=0)
    start = event.settings.get("seeds") is not None or event.settings.get("structure") == "single-elimination"
    if start and not rounds:
        return NextStep(
            step="elimination",
            label="Pair round 1 of the bracket",
            reason="This event is an elimination bracket from the start (its settings).",
            round=1,
            stage="elimination",
        )
    if planned is None or played < planned:
        of = f" of {planned}" if planned is not None else ""
        day_two = _day_two_words(event, played)
        return NextStep(
            step="pair",
            label=f"Pair round {played + 1}{day_two[0]}",
            reason=day_two[1]
            + (
                f"{_plural(len(active), 'player')} registered; the structure plans {_plural(planned, 'Swiss round')}."
                if not played and planned is not None
                else f"Round {played}{of} is complete."
                if played
                else f"{_plural(len(active), 'player')} registered."
            ),
            round=played + 1,
            stage="swiss-day2" if day_two[0] else "swiss",
            swiss_rounds=planned,
            can_cut=bracket and played > 0,
        )
    size, why = _cut(event)
    if size:
        return NextStep(
            step="cut",
            label=f"Swiss is over: make the top {size}",
            reason=f"All {_plural(planned, 'Swiss round')} are complete; the cut is the top {size} ({why}).",
            cut=size,
            swiss_complete=True,
            swiss_rounds=planned,
            can_cut=True,
        )
    return NextStep(
        step="close",
        label="Swiss is over: close the event",
        reason=f"All {_plural(planned, 'Swiss round')} are complete and there is no cut ({why}): "
        "the standings are final.",
        swiss_complete=True,
        swiss_rounds=planned,
        can_cut=bracket,
    )


def _day_two_words(event: Any, played: int) -> tuple[str, str]:
    """A two-day event's next Swiss round (the game's day two, e.g. Pokémon TOP 3.3.5): what the label and
    the reason add."""
    try:
        day_one = day_one_rounds(event)
    except RulesError:  # the divisions cannot be told yet: pairing says why
        return "", ""
    if day_one is None or played < day_one:
        return "", ""
    if played == day_one:
        return (
            ": day two begins",
            f"Day one's {day_one} rounds are complete: day two pairs only the players who qualified on day one. ",
        )
    return " (day two)", ""


def _champion(state: dict[str, Any]) -> dict[str, Any]:
    """``champion``/``champion_name`` of a decided bracket, else nothing."""
    if not any(r["stage"] == "elimination" for r in state["rounds"]):
        return {}
    try:
        winner = bracket_view(load_event(to_event_document(state, operational=False)))["champion"]
    except RulesError:
        return {}
    return {"champion": winner, "champion_name": _name(state, winner)} if winner else {}


def _after_elimination(state: dict[str, Any], event: Any, latest: int) -> NextStep:
    """A complete elimination round: the next one by its name, or the champion and the close."""
    view = bracket_view(event)
    winner = view["champion"]
    if winner:
        name = _name(state, winner)
        return NextStep(
            step="close",
            label="Close the event",
            reason=f"Champion: {name}. The bracket is decided: close the event to make the standings final.",
            swiss_complete=True,
            champion=winner,
            champion_name=name,
        )
    coming = next((r for r in view["rounds"] if r["number"] == latest + 1), None)
    if coming is None:
        return NextStep(
            step="close",
            label="Close the event",
            reason="The bracket is finished without a champion (double losses or drops): close the event.",
            swiss_complete=True,
        )
    title = coming["name"]
    label = f"Pair the {title[0].lower() + title[1:]}"
    return NextStep(
        step="elimination",
        label=label,
        reason=f"Round {latest} is complete: its winners go on.",
        round=latest + 1,
        stage="elimination",
        swiss_complete=True,
    )
