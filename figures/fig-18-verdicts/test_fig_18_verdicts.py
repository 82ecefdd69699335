"""FIG 18 · verdicts: one card per verdict, four answers each, where K3 keeps it, working section links,
facts from the facts file; what the narration says is the shipped line (every line it can say is read
against the verdicts in test_fig_18_data.py)."""

import json

import pytest
import yaml

from tests.browser.support import ROOT, assert_axe_clean_through, assert_shown_is_shipped, open_figure, shipped_data

pytestmark = pytest.mark.browser
FIG = "fig-18"
QUESTIONS = ["What changed", "Why", "What got better", "What got harder"]


@pytest.fixture(scope="module")
def verdicts():
    return yaml.safe_load((ROOT / "figures" / "fig-18-verdicts" / "figure.yaml").read_text(encoding="utf-8"))["params"][
        "verdicts"
    ]


def cards(fig):
    return fig.locator(".k3-disc-item")


def test_every_verdict_with_four_answers_and_working_links(watched, site_url, site_dir, verdicts):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    assert cards(fig).count() == len(verdicts) == len(shipped_data(site_dir, FIG)["verdicts"])
    facts = json.loads((site_dir / "manifest.json").read_text(encoding="utf-8"))["facts"]
    for i, v in enumerate(verdicts):
        card = cards(fig).nth(i)
        btn = card.locator(".k3-disc-btn")
        assert v["before"] in btn.inner_text() and v["after"] in btn.inner_text()
        if btn.get_attribute("aria-expanded") == "false":
            btn.click()
        body = card.locator(".k3-disc-body")
        assert body.is_visible()
        assert [t.strip() for t in body.locator("dt").all_text_contents()] == QUESTIONS
        answers = body.locator("dd")
        k3 = body.locator(".f18-k3")
        assert k3.locator(".f18-k3-label").inner_text().lower() == "in kimi k3"
        assert k3.locator(".fact").count() >= 1 and any(
            key.startswith("kimi_k3.") for key in k3.locator(".fact").evaluate_all("fs => fs.map(f => f.dataset.fact)")
        )
        assert answers.count() == 4 and all(len(t.strip()) > 15 for t in answers.all_inner_texts())
        for f in body.locator(".fact").all():  # every number inside is a cited fact, shown as the facts file says
            key = f.get_attribute("data-fact")
            assert f.locator(".fact-value").inner_text() == facts[key]["display"]
        links = body.locator(".f18-links a")
        assert [a.get_attribute("href") for a in links.all()] == ["#" + s for s in v["sections"]]
        for a, s in zip(links.all(), v["sections"], strict=True):
            heading = page.evaluate(
                "id => document.querySelector('section.section#' + id + ' h2').textContent.trim()", s
            )
            assert heading in a.inner_text()
        assert f"Verdict {i + 1} of {len(verdicts)}" in fig.locator(".fig-live").inner_text() or i == 0
    cards(fig).nth(len(verdicts) - 1).locator(".f18-links a").first.click()
    page.wait_for_function("id => location.hash.startsWith('#' + id)", arg=verdicts[-1]["sections"][0])


def said(fig) -> list:
    """The narration's template and the texts in its slots, in order."""
    live = fig.locator(".fig-live")
    return [json.loads(live.get_attribute("data-shows")), list(json.loads(live.get_attribute("data-slots")).values())]


def test_keyboard_moves_between_verdicts_and_toggles(watched, site_url, site_dir, verdicts):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    shipped = shipped_data(site_dir, FIG)
    assert fig.locator(".k3-disc").get_attribute("aria-label") == shipped["text"]["list_label"]
    first = cards(fig).nth(0).locator(".k3-disc-btn")
    assert first.get_attribute("aria-expanded") == "true"  # the first verdict starts open
    first.focus()
    page.keyboard.press("Enter")
    assert first.get_attribute("aria-expanded") == "false"
    assert "collapsed" in fig.locator(".fig-live").inner_text()
    assert said(fig) == [["said", "joined", 1], [["said", "collapsed", 0], ["said", "open_count", 0]]]
    assert assert_shown_is_shipped(page, site_dir, FIG) == 1
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    assert page.evaluate("document.activeElement.dataset.id") == verdicts[2]["id"]
    page.keyboard.press(" ")
    assert cards(fig).nth(2).locator(".k3-disc-btn").get_attribute("aria-expanded") == "true"
    assert (
        f"Verdict 3 of {len(verdicts)}" in fig.locator(".fig-live").inner_text()
        and "4 answers" in fig.locator(".fig-live").inner_text()
    )
    assert said(fig) == [["said", "joined", 1], [["said", "expanded", 2], ["said", "open_count", 1]]]
    assert assert_shown_is_shipped(page, site_dir, FIG) == 1
    page.keyboard.press("End")
    assert page.evaluate("document.activeElement.dataset.id") == verdicts[-1]["id"]


def test_one_question_reads_down_all_cards(watched, site_url, site_dir, verdicts):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    fig.get_by_role("radio", name="What got harder").click()
    peeks = fig.locator(".f18-peek:visible .f18-answer:visible dd")
    assert peeks.count() == len(verdicts) - 1  # every collapsed card (the first is open and shows all four)
    assert f"{len(verdicts)} verdicts" in fig.locator(".fig-live").inner_text()
    assert said(fig) == [["said", "joined", 0], [["said", "show", "harder"]]]
    assert assert_shown_is_shipped(page, site_dir, FIG) == 1
    assert "fig-18.q=harder" in page.url
    page.keyboard.press("ArrowLeft")  # focus is on the chosen radio: move to "What got better"
    assert fig.locator("[role=radio][aria-checked=true]").inner_text() == "What got better"


def test_state_lives_in_the_url_and_history(watched, site_url, site_dir, verdicts):
    page, _ = watched
    ids = [v["id"] for v in verdicts]
    fig = open_figure(page, site_url, FIG, f"#fig-18.open={ids[3]},{ids[5]}&fig-18.q=why")
    assert [b.get_attribute("data-id") for b in fig.locator(".k3-disc-btn[aria-expanded=true]").all()] == [
        ids[3],
        ids[5],
    ]
    assert fig.locator("[role=radio][aria-checked=true]").get_attribute("data-value") == "why"
    cards(fig).nth(3).locator(".k3-disc-btn").click()
    assert "fig-18.open=" + ids[5] in page.url
    page.go_back()
    page.wait_for_function("() => document.querySelectorAll('#fig-18 .k3-disc-btn[aria-expanded=true]').length === 2")
    fig.get_by_role("button", name="Expand all").click()
    assert fig.locator(".k3-disc-btn[aria-expanded=true]").count() == len(verdicts)
    assert said(fig) == [["said", "joined", 0], [["said", "open", len(verdicts)]]]
    fig.get_by_role("button", name="Collapse all").click()
    assert fig.locator(".k3-disc-btn[aria-expanded=true]").count() == 0
    assert said(fig) == [["said", "joined", 0], [["said", "open", 0]]]
    assert assert_shown_is_shipped(page, site_dir, FIG) == 1
    assert "fig-18.open=-" in page.url
    page.reload()
    fig = open_figure(page, site_url, FIG, "#" + page.url.split("#")[1])
    assert fig.locator(".k3-disc-btn[aria-expanded=true]").count() == 0


def test_no_accessibility_violations_at_load_and_in_chosen_states(watched, site_url):
    """axe at load and in two states the load does not show: one question shown (its answer under
    every collapsed card), then every verdict expanded (their answers, facts and links)."""
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    assert_axe_clean_through(
        page,
        FIG,
        {
            "showing one question": lambda p: fig.get_by_role("radio", name="What got harder").click(),
            "expanding all": lambda p: fig.get_by_role("button", name="Expand all").click(),
        },
    )
