"""Short bracketed expressions in plain text the page shows stay on one line."""

from k3explainer.site.typography import NBSP, keep_short_brackets


def test_a_short_bracket_keeps_its_spaces_from_breaking():
    text = "DeepSeek-V2 report Table 1 (MLA row: (d_c + d_h^R) l ~ 9/2 d_h l)"
    assert keep_short_brackets(text) == f"DeepSeek-V2 report Table 1 (MLA row: (d_c{NBSP}+{NBSP}d_h^R) l ~ 9/2 d_h l)"


def test_square_brackets_too_and_a_long_clause_still_wraps():
    assert keep_short_brackets("shape [C, d_k]") == f"shape [C,{NBSP}d_k]"
    clause = "(a clause far longer than twenty characters)"
    assert keep_short_brackets(clause) == clause


def test_the_built_page_keeps_the_mla_row_together(site_dir):
    html = (site_dir / "index.html").read_text(encoding="utf-8")
    assert f"(d_c{NBSP}+{NBSP}d_h^R)" in html and "(d_c + d_h^R)" not in html
