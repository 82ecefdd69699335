"""One figure lifecycle for every figure: the same history rule, narration on user actions and
never on restore, playing stops off-screen, and the state types repair a hand-edited link.

Driven through K3.figure(id), the runtime's handle on a started figure, so the check is the same
for all twenty figures and does not depend on any one figure's controls."""

from __future__ import annotations

import pytest

# A valid value different from the current one, for any declared state type.
OTHER_VALUE_JS = """
(type, v) => {
  if (type.kind === "int") return v < type.max ? v + 1 : v - 1;
  if (type.kind === "num") return v + (type.max - type.min) / 8 <= type.max ? v + (type.max - type.min) / 8 : v - (type.max - type.min) / 8;
  if (type.kind === "bool") return !v;
  if (type.kind === "oneOf") return type.options.find(o => String(o) !== String(v));
  if (type.kind === "subset") return v.includes(type.options[0]) ? v.filter(o => o !== type.options[0]) : [type.options[0], ...v];
  return null;  // a pattern has no generic neighbour
}
"""

ACT_JS = (
    """
([id, how, times]) => {
  const f = K3.figure(id), live = document.querySelector('#' + id + ' .fig-live');
  const other = """
    + OTHER_VALUE_JS
    + """;
  const key = Object.keys(f.schema).find(k => other(f.schema[k], f.state()[k]) !== null);
  live.textContent = '';
  let pushes = 0;
  const push = history.pushState;
  history.pushState = function () { pushes++; return push.apply(history, arguments); };
  for (let i = 0; i < times; i++) f.set({[key]: other(f.schema[key], f.state()[key])}, how);
  history.pushState = push;
  return {key, added: pushes, said: live.textContent, value: JSON.stringify(f.state()[key])};
}
"""
)


@pytest.fixture
def all_started(watched_shared, site_url):
    """The article with every figure started, on the module's shared page: loaded and started once
    (~2 s), then reused by each test that drives the figures through the runtime (they leave every
    figure in a valid state, and each starts from whatever state the last one left)."""
    page, _ = watched_shared
    if page.url.split("#")[0] != site_url + "index.html":
        page.goto(site_url + "index.html")
        page.evaluate("K3.initAll()")
    page.wait_for_function(
        "() => [...document.querySelectorAll('figure[data-src]')].every(f => f.dataset.ready === 'true')", timeout=60000
    )
    ids = page.evaluate("() => [...document.querySelectorAll('figure[data-src]')].map(f => f.id)")
    return page, ids


def test_every_figure_declares_its_state(all_started):
    page, ids = all_started
    declared = page.evaluate("ids => ids.map(id => [id, K3.figure(id) && Object.keys(K3.figure(id).schema)])", ids)
    assert [fid for fid, keys in declared if not keys] == []


def test_one_history_rule_and_narration_on_user_actions_only(all_started):
    page, ids = all_started
    for fid in ids:
        click = page.evaluate(ACT_JS, [fid, "click", 1])
        assert click["added"] == 1 and click["said"].strip(), (fid, click)  # a discrete action: one entry, narrated
        drag = page.evaluate(ACT_JS, [fid, "drag", 3])
        assert drag["added"] == 1 and drag["said"].strip(), (fid, drag)  # a continuous gesture: one entry for all of it
        page.evaluate(
            "id => { K3._.hash.endGesture(); document.querySelector('#' + id + ' .fig-live').textContent = ''; }", fid
        )
        page.go_back()  # back to the state after the click, restored without a word
        restored = page.evaluate("([id, key]) => JSON.stringify(K3.figure(id).state()[key])", [fid, click["key"]])
        assert restored == click["value"], fid
        assert page.evaluate("id => document.querySelector('#' + id + ' .fig-live').textContent", fid) == "", fid


def test_widget_styles_come_before_every_figure_sheet(all_started):
    """A figure's own sheet refines the shared widgets' look (same specificity, so the later sheet
    wins): widgets.css, loaded with the first figure, must sit above every figure sheet."""
    page, ids = all_started
    sheets = page.eval_on_selector_all("link[rel=stylesheet]", "els => els.map(e => e.getAttribute('href'))")
    figure_sheets = [i for i, href in enumerate(sheets) if href.startswith("assets/figures/")]
    assert sheets.count("assets/widgets.css") == 1 and len(figure_sheets) >= 20
    assert sheets.index("assets/widgets.css") < min(figure_sheets)


def test_a_hand_edited_link_opens_a_valid_view(watched, site_url):
    page, _ = watched
    page.goto(site_url + "index.html#fig-06&fig-06.step=999&fig-06.rb=maybe")
    page.wait_for_selector("#fig-06[data-ready='true']")
    state = page.evaluate("() => K3.figure('fig-06').state()")
    top = page.evaluate("() => K3.figure('fig-06').schema.step.max")
    assert state == {"step": top, "rb": False}  # clamped, and an unreadable flag falls back to its default


def test_a_playing_stepper_stops_off_screen(watched, site_url):
    page, _ = watched
    page.goto(site_url + "index.html#fig-04")
    page.wait_for_selector("#fig-04[data-ready='true']")
    page.locator("#fig-04 button", has_text="Play").first.click()
    page.evaluate("() => window.scrollTo(0, 0)")
    page.wait_for_selector("#fig-04[data-visible='false']")
    step = page.evaluate("() => JSON.stringify(K3.figure('fig-04').state())")
    page.wait_for_timeout(2500)  # longer than two play intervals, reduced motion or not
    assert page.evaluate("() => JSON.stringify(K3.figure('fig-04').state())") == step


RESTART_JS = (
    """
async (ids) => {
  const other = """
    + OTHER_VALUE_JS
    + """;
  const out = {};
  for (const id of ids) {
    const f = K3.figure(id);
    const key = Object.keys(f.schema).find(k => other(f.schema[k], f.state()[k]) !== null);
    f.set({[key]: other(f.schema[key], f.state()[key])}, "click");
    const before = JSON.stringify(K3.figure(id).state());
    await K3._.restart(id);
    const fig = document.getElementById(id);
    out[id] = {same: JSON.stringify(K3.figure(id).state()) === before, ready: fig.dataset.ready === "true",
               fresh: K3.figure(id) !== f, drawn: fig.querySelector('.fig-mount').childElementCount > 0};
  }
  return out;
}
"""
)


def test_a_destroyed_figure_starts_again_in_the_state_it_was_in(all_started):
    """destroy() releases a figure (listeners, charts, timers) and a restart draws it again from the
    URL: what a colour-scheme change does to charts and what the browser tests do between tests.
    The watched page fails the test on any error a half-released figure would throw."""
    page, ids = all_started
    result = page.evaluate(RESTART_JS, ids)
    assert {fid: r for fid, r in result.items() if not all(r.values())} == {}
