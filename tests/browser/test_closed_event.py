"""A closed event is closed everywhere (issue 22, item 7): on a judge tablet the banner says so, result cards
and the penalty form are closed, and a change is refused on the tablet itself with the reason (never queued
to be refused later), online or offline; the player's phone shows the final result."""

from __future__ import annotations

from tests.browser.helpers import shot
from tests.browser.test_penalty_rescind import goto, push, tablet
from tests.browser.test_player_phone import phone, setup_event


def test_a_closed_event_is_closed_on_the_judge_tablet_and_the_phone(browser, live_server) -> None:
    url = live_server.url
    eid, token, claims = setup_event(url)
    results = [
        {"type": "result.report", "payload": {"round": 1, "table": t, "outcomes": ["win", "loss"]}} for t in (1, 2)
    ]
    push(url, eid, token, "setup", [*results, {"type": "event.close", "payload": {}}], first=8)
    judge_ctx, judge = tablet(browser, url, eid, token)  # the head judge: every screen a judge has, and Rounds
    goto(judge, url, eid, "judge")
    judge.wait_for_selector("#closed-banner:has-text('This event is closed')")
    judge.wait_for_selector(".match-card[data-table='1'] .match-open[disabled]")
    judge.wait_for_selector("#penalty-closed")
    assert judge.locator("#penalty-reason").count() == 0
    shot(judge, "closed-01-judge-tablet")
    # a change is refused here, with the reason, and never queued
    refused = judge.evaluate(
        """(eid) => import('/pwa/app/store.js').then(async (m) => {
          const store = m.storeFor(eid);
          const answer = await store.act('result.correct', {round: 1, table: 1, outcomes: ['loss', 'win']});
          return [answer.refused, answer.code, store.rows.length];
        })""",
        eid,
    )
    assert refused[0].startswith("The event is closed") and refused[1] == "event-closed" and refused[2] == 0, refused
    judge.context.set_offline(True)  # offline too: the tablet itself refuses
    refused = judge.evaluate(
        "(eid) => import('/pwa/app/store.js').then((m) => m.storeFor(eid).act('penalty.issue', "
        "{player: 'p1', kind: 'warning', reason: 'x'})).then((a) => a.refused)",
        eid,
    )
    assert refused.startswith("The event is closed"), refused
    judge.context.set_offline(False)
    goto(judge, url, eid, "rounds")
    judge.wait_for_selector("#rounds-closed")
    assert judge.locator("#pair-next").count() == 0
    phone_ctx, annie = phone(browser, url, claims["p1"])
    annie.wait_for_selector("#closed-banner:not([hidden])", timeout=30_000)
    annie.wait_for_selector("#event-closed")
    assert "Result" in annie.text_content("#final-result")
    shot(annie, "closed-02-player-phone")
    assert judge.errors == []
    judge_ctx.close()
    phone_ctx.close()
