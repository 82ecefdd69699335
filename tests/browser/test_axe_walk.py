"""axe limited to a figure (support.axe_violations with a selector, what every figure's
accessibility walk runs) still finds what is wrong inside it."""

import pytest

from .support import axe_violations, open_figure


@pytest.mark.browser
def test_axe_limited_to_a_figure_still_sees_inside_it_and_leaves_the_page_as_it_was(page, site_url):
    """The run on a figure takes the rest of the page out of axe's sight (support._AXE_ON_ONE):
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
