"""The accessibility walk (support.assert_axe_clean_through) skips what axe has already passed:
these pin which subtrees it still sends to axe after an interaction; and axe limited to a figure
still finds what is wrong inside it."""

import pytest

from .support import _changed_roots, _in_context, _lost_parents, _needs_check, axe_violations, open_figure

MEDIA = "false,false,1280,900"
LOADED = {
    "": "FIGURE[class=fig]",
    "/0": "UL[role=list]",
    "/0/0": "LI+[class=cell style=background:#fff]",
    "/0/1": "LI+[class=cell style=background:#eee]",
}


def to_check(before: dict[str, str], after: dict[str, str], checked_states: list[dict[str, str]]) -> list[str]:
    checked = {k for state in checked_states for k in _in_context(MEDIA, state).values()}
    keys, lost = _in_context(MEDIA, after), _lost_parents(before, after)
    return [r for r in _changed_roots(before, after, lost) if _needs_check(r, keys, checked, lost)]


def test_a_new_colour_is_checked():
    after = {**LOADED, "/0/1": "LI+[class=cell style=background:#123]"}
    assert to_check(LOADED, after, [LOADED]) == ["/0/1"]


def test_an_element_passed_before_in_the_same_place_is_not_checked_again():
    swapped = {**LOADED, "/0/0": LOADED["/0/1"], "/0/1": LOADED["/0/0"]}  # the two cells trade colours
    assert to_check(LOADED, swapped, [LOADED]) == []


def test_the_same_element_under_other_ancestors_is_checked():
    moved = {"": "FIGURE[class=fig]", "/0": "OL[role=list]", "/0/0": LOADED["/0/0"], "/0/1": LOADED["/0/1"]}
    assert to_check(LOADED, moved, [LOADED]) == ["/0"]


def test_a_parent_that_lost_a_child_is_checked():
    shrunk = {k: v for k, v in LOADED.items() if k != "/0/1"}
    assert to_check(LOADED, shrunk, [LOADED]) == ["/0"]


def test_focus_makes_an_element_new():
    focused = {**LOADED, "/0/0": LOADED["/0/0"] + "*"}
    assert to_check(LOADED, focused, [LOADED]) == ["/0/0"]


def test_another_colour_scheme_is_another_context():
    assert _in_context(MEDIA, LOADED)["/0/0"] != _in_context("true,false,1280,900", LOADED)["/0/0"]


@pytest.mark.browser
def test_axe_limited_to_a_figure_still_sees_inside_it_and_leaves_the_page_as_it_was(page, site_url):
    """The run on a figure takes the rest of the page out of axe's sight (support._AXE_ON_PATHS):
    grey-on-grey text deep inside the figure is still reported, the same text outside is not, and
    afterwards the page's tree walker and visibility are its own again."""
    open_figure(page, site_url, "fig-13")
    assert axe_violations(page, "#fig-13") == []
    page.evaluate("""() => { const faint = () => Object.assign(document.createElement('span'),
        {textContent: 'barely there', style: 'color: #bbb; background: #ccc'});
        document.querySelector('#fig-13 .fig-caption').after(faint());
        document.querySelector('#fig-13').before(faint()); }""")
    found = axe_violations(page, "#fig-13")
    assert [v["id"] for v in found] == ["color-contrast"] and len(found[0]["nodes"]) == 1
    assert page.evaluate("() => document.createTreeWalker === Document.prototype.createTreeWalker")
    assert page.evaluate("() => getComputedStyle(document.querySelector('h1')).visibility") == "visible"
