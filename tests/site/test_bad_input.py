"""Bad input never costs data: each broken input stops the build with `path:line: message`,
exit code 1, and the previous output byte-identical."""

from __future__ import annotations

import pytest

from .project import scratch_project, tree_digest

SPEC = "figures/fig-02-attention-matrix/figure.yaml"
SECTION = "content/02-attention.md"
FACTS = "content/facts.yaml"
GOOD_FACT = "kimi_k3.total_params"


def _append(s, rel, text):
    """Append `text` (as its own paragraph in Markdown) and return the line it starts on."""
    lines = s.read(rel).rstrip("\n").splitlines()
    if rel.endswith(".md"):
        lines.append("")
    s.write(rel, "\n".join(lines) + "\n" + text + "\n")
    return len(lines) + 1


def _line_of(s, rel, prefix):
    return next(i for i, line in enumerate(s.read(rel).splitlines(), 1) if line.startswith(prefix))


def _new_section(s, name, front, body="Some text.\n"):
    s.write(f"content/{name}", f"---\n{front}---\n{body}")


FRONT = "id: extra\nnumber: 42\npart: synthesis\ntitle: An extra section\nstage: Extra\nsummary: A section added by a test.\n"


CASES = {}


def case(fn):
    """Register a breakage: fn(scratch) breaks one thing, returns ("path:line", expected message part)."""
    CASES[fn.__name__] = fn
    return fn


@case
def spec_misspelt_field(s):
    return f"{SPEC}:{s.replace(SPEC, 'caption:', 'captoin:')}", "captoin: Extra inputs are not permitted"


@case
def spec_missing_field(s):
    s.replace(SPEC, "how_to:", "#how_to:")
    return f"{SPEC}:1", "how_to: Field required"


@case
def spec_duplicate_key(s):
    return f"{SPEC}:{_append(s, SPEC, 'title: Another title')}", "duplicate key 'title'"


@case
def spec_yaml_syntax(s):
    return f"{SPEC}:{_append(s, SPEC, 'extra: a: b')}", "YAML syntax"


@case
def spec_height_not_a_number(s):
    line = s.replace(SPEC, "height:", "height: tall  # the mapping below is now another field\nformer_height:")
    return f"{SPEC}:{line}", "height: Value error, give a number of px"


@case
def spec_height_missing_width(s):
    s.replace(SPEC, "  800:", "  #800:")
    return (
        f"{SPEC}:{_line_of(s, SPEC, 'height:')}",
        "height: Value error, one height (px, 120–4000) per figure width 1100, 1000, 900, 800, 700, 600, 500, 400, 350, 320, 280; missing 800",
    )


@case
def spec_bool_as_string(s):
    return f"{SPEC}:{s.replace(SPEC, 'plotly: true', 'plotly: maybe')}", "plotly: Input should be a valid boolean"


@case
def spec_unknown_component(s):
    return f"{SPEC}:{_append(s, SPEC, 'component: fig-02-nothing-here')}", "unknown component 'fig-02-nothing-here'"


@case
def spec_unknown_builder(s):
    return f"{SPEC}:{_append(s, SPEC, 'builder: fig-02-missing')}", "unknown builder 'fig-02-missing'"


@case
def figure_folder_misnamed(s):
    s.write("figures/Attention/figure.yaml", s.read(SPEC))
    return "figures/Attention/figure.yaml:1:1", "name it <id>-<what it shows>, e.g. fig-06-delta-rule"


@case
def spec_unknown_fact(s):
    line = s.replace(SPEC, "    provenance: illustrative", "    provenance: source\n    fact: no.such_fact")
    return f"{SPEC}:{line + 1}", "unknown fact 'no.such_fact'"


@case
def spec_constant_badge_differs_from_its_fact(s):
    spec = "figures/fig-16-prefill-decode/figure.yaml"
    s.replace(
        spec,
        "    provenance: source\n    fact: kimi_linear.kda_flops",
        "    provenance: illustrative\n    fact: kimi_linear.kda_flops",
    )
    return (
        f"{spec}:{_line_of(s, spec, '    fact: kimi_linear.kda_flops') - 1}:5",
        "provenance 'illustrative', but fact 'kimi_linear.kda_flops' is 'source'",
    )


@case
def spec_constant_names_an_unknown_param(s):
    line = s.replace(SPEC, "d_k = {d_k}", "d_k = {dk}")
    col = s.read(SPEC).splitlines()[line - 1].index("{dk}") + 1
    return f"{SPEC}:{line}:{col}", "constants.0.name: {dk}: params has no 'dk'; did you mean 'd_k'?"


@case
def spec_bad_provenance(s):
    return (
        f"{SPEC}:{s.replace(SPEC, 'provenance: illustrative', 'provenance: guessed')}",
        "provenance: Input should be 'source' or 'illustrative'",
    )


@case
def figure_id_twice(s):
    s.write("figures/fig-02-copy/figure.yaml", s.read(SPEC))
    return "figures/fig-02-copy/figure.yaml:1:1", "duplicate figure id 'fig-02' (also fig-02-attention-matrix/)"


@case
def spec_empty_file(s):
    s.write("figures/fig-99-new/figure.yaml", "\n")
    return "figures/fig-99-new/figure.yaml:1", "empty figure spec"


@case
def spec_not_a_mapping(s):
    s.write("figures/fig-99-new/figure.yaml", "- just\n- a list\n")
    return "figures/fig-99-new/figure.yaml:1", "must be a mapping"


@case
def spec_not_utf8(s):
    s.write("figures/fig-99-new/figure.yaml", b"title: caf\xe9\n")
    return "figures/fig-99-new/figure.yaml:1", "not valid UTF-8"


@case
def spec_never_placed(s):
    s.write("figures/fig-99-new/figure.yaml", s.read(SPEC).replace("FIG 02", "FIG 99"))
    return "figures/fig-99-new/figure.yaml:1:1", "'fig-99' is never placed"


@case
def builder_raises(s):
    spec = "figures/fig-03-attention-cost/figure.yaml"  # a valid int that is not one of the slider's values
    s.replace(spec, "  n_default: 4096", "  n_default: 4097")
    return f"{spec}:{s.line_of(spec, 'params:')}", "builder fig-03-attention-cost failed"


@case
def param_out_of_range(s):
    return f"{SPEC}:{s.replace(SPEC, 'd_k:', 'd_k: -3 #')}", "params.d_k: Input should be greater than or equal to 1"


@case
def figure_unknown(s):
    line = _append(s, SECTION, "::: figure fig-98\n:::")
    return f"{SECTION}:{line}", "unknown figure 'fig-98'"


@case
def figure_placed_twice(s):
    line = _append(s, SECTION, "::: figure fig-02\n:::")
    return f"{SECTION}:{line}", "'fig-02' is placed twice"


@case
def figure_bad_id(s):
    line = _append(s, SECTION, "::: figure banana\n:::")
    return f"{SECTION}:{line}", "needs a figure id"


@case
def front_matter_missing_field(s):
    s.replace(SECTION, "\ntitle:", "\n#title:")
    return f"{SECTION}:2", "title: Field required"


@case
def front_matter_unknown_field(s):
    return f"{SECTION}:{s.replace(SECTION, 'stage:', 'stagee:')}", "stagee: Extra inputs are not permitted"


@case
def front_matter_yaml_syntax(s):
    return f"{SECTION}:{s.replace(SECTION, 'stage:', 'stage: a: b #')}", "front matter: YAML syntax"


@case
def front_matter_missing(s):
    s.write("content/42-extra.md", "Just text.\n")
    return "content/42-extra.md:1", "starts with YAML front matter"


@case
def section_empty_file(s):
    s.write("content/42-extra.md", "")
    return "content/42-extra.md:1", "starts with YAML front matter"


@case
def section_not_utf8(s):
    s.write("content/42-extra.md", b"---\nid: x\n---\n\xff\xfe")
    return "content/42-extra.md:1", "not valid UTF-8"


@case
def section_unknown_part(s):
    _new_section(s, "42-extra.md", FRONT.replace("synthesis", "epilogue"))
    return "content/42-extra.md:4", "unknown part 'epilogue'"


@case
def section_duplicate_id(s):
    _new_section(s, "42-extra.md", FRONT.replace("id: extra", "id: attention"))
    return "content/42-extra.md:2", "duplicate section id 'attention'"


@case
def section_duplicate_number(s):
    _new_section(s, "42-extra.md", FRONT.replace("number: 42", "number: 2"))
    return "content/42-extra.md:3", "duplicate section number 2"


@case
def fact_unknown(s):
    return f"{SECTION}:{_append(s, SECTION, 'We cite {{no.such_fact}} here.')}", "unknown fact 'no.such_fact'"


@case
def fact_malformed_ref(s):
    return f"{SECTION}:{_append(s, SECTION, 'We cite {{kimi_k3.total_params here.')}", "malformed fact reference"


@case
def claim_unknown_fact(s):
    line = _append(s, SECTION, "::: claim no.such_fact\nBody.\n:::")
    return f"{SECTION}:{line}", "claim needs a fact key"


@case
def broken_cross_reference(s):
    return (
        f"{SECTION}:{_append(s, SECTION, 'See [nowhere](#no-such-section).')}",
        "broken cross-reference '#no-such-section'",
    )


@case
def relative_link(s):
    return f"{SECTION}:{_append(s, SECTION, 'See [a page](other.html).')}", "link 'other.html'"


@case
def bad_math(s):
    return (
        f"{SECTION}:{_append(s, SECTION, 'A formula $' + chr(92) + 'frac{a$ here.')}:12",
        "bad math",
    )  # the formula's column


@case
def math_rejected_command(s):
    return f"{SECTION}:{_append(s, SECTION, 'A formula $' + chr(92) + 'htmlClass{x}{y}$ here.')}", "bad math"


@case
def math_unknown_symbol(s):
    return f"{SECTION}:{_append(s, SECTION, 'A formula $' + chr(92) + 'sym{nope}{x}$ here.')}", "unknown symbol 'nope'"


@case
def math_unknown_symbol_in_a_display_formula(s):
    """At the \\sym's own line and column, not at the `$$` that opens the block."""
    line = _append(s, SECTION, "$$\ny = Wx\n  + \\sym{nope}{b}\n$$")
    return f"{SECTION}:{line + 2}:5", "unknown symbol 'nope'"


@case
def facts_duplicate_key(s):
    line = _append(
        s, FACTS, f"- key: {GOOD_FACT}\n  topic: c\n  value: 1\n  display: '1'\n  provenance: source\n  source: s"
    )
    return f"{FACTS}:{line}", "duplicate fact key"


@case
def facts_missing_display(s):
    line = _append(s, FACTS, "- key: test.no_display\n  topic: c\n  value: 1\n  provenance: source\n  source: s")
    return f"{FACTS}:{line}", "display: Field required"


@case
def directive_misspelt(s):
    line = _append(s, SECTION, "::: calout A title\nBody.\n:::")
    return (
        f"{SECTION}:{line}:5",
        "unknown directive 'calout' (directives: figure, claim, vs, side, callout); did you mean 'callout'?",
    )


@case
def figure_directive_misspelt(s):
    return f"{SECTION}:{_append(s, SECTION, '::: figur fig-02')}:5", "unknown directive 'figur'"


@case
def fact_unknown_suggests_and_points_at_its_column(s):
    line = _append(s, SECTION, "We cite {{kimi_k3.total_param}} here.")
    return (
        f"{SECTION}:{line}:11",
        "unknown fact 'kimi_k3.total_param' in {{kimi_k3.total_param}}; did you mean 'kimi_k3.total_params'?",
    )


@case
def figure_unknown_suggests(s):
    line = _append(s, SECTION, "::: figure fig-20\n:::")
    return f"{SECTION}:{line}:12", "did you mean"


@case
def cross_reference_suggests(s):
    return f"{SECTION}:{_append(s, SECTION, 'See [the start](#atention).')}:17", "did you mean 'attention'?"


@case
def section_with_unsupported_extension(s):
    s.write("content/42-extra.markdown", f"---\n{FRONT}---\nText.\n")
    return "content/42-extra.markdown:1:1", "unsupported content file: sections are .md files"


@case
def facts_file_missing(s):
    s.path(FACTS).unlink()
    return f"{FACTS}:1:1", "missing: every project has a facts file"


@case
def builder_does_not_import(s):
    """A project's builder with a broken import: its own file and line, not a traceback."""
    rel = "figures/fig-02-attention-matrix/builder.py"
    line = s.replace(rel, "import numpy as np", "import numpy as np\nfrom k3explainer.kernels import no_such_kernel")
    return f"{rel}:{line + 1}", "builder fig-02-attention-matrix does not load: ImportError"


@case
def derived_py_syntax_error(s):
    line = _append(s, "derived.py", "def broken(:")
    return f"derived.py:{line}", "derived.py does not load: SyntaxError"


@case
def derived_value_fails(s):
    line = s.replace("derived.py", "    nominal = ", "    nominal = 1 / 0 + ")
    return f"derived.py:{line}", "derived_facts failed: ZeroDivisionError"


@case
def builder_misspelt_suggests(s):
    return f"{SPEC}:{_append(s, SPEC, 'builder: fig-02-attention-matrx')}", "did you mean 'fig-02-attention-matrix'?"


@case
def component_registers_another_name(s):
    js = "figures/fig-02-attention-matrix/component.js"
    line = s.replace(js, 'K3.register("fig-02-attention-matrix"', 'K3.register("fig-02-attention-matrics"')
    return (
        f"{js}:{line}",
        "registers 'fig-02-attention-matrics', but its spec names the component 'fig-02-attention-matrix'",
    )


@case
def param_misspelt(s):
    spec = "figures/fig-12-attention-residuals/figure.yaml"
    line = s.replace(spec, "  n_queries:", "  n_querys:")
    return f"{spec}:{line}:3", "params.n_querys: Extra inputs are not permitted; did you mean 'n_queries'?"


@case
def builder_without_params_model(s):
    s.replace("figures/fig-02-attention-matrix/builder.py", "class Params(BaseModel):", "class Options(BaseModel):")
    return "figures/fig-02-attention-matrix/builder.py:1", "declares no `Params` model"


@case
def param_wrong_type(s):
    spec = "figures/fig-15-complexity/figure.yaml"
    line = s.replace(spec, "  d_h: 128", "  d_h: wide")
    return f"{spec}:{line}", "params.d_h: Input should be a valid integer"


@case
def spec_field_misspelt_suggests(s):
    return f"{SPEC}:{s.replace(SPEC, 'how_to:', 'how_too:')}", "did you mean 'how_to'?"


@case
def symbols_bad_entry(s):
    return f"content/symbols.yaml:{_append(s, 'content/symbols.yaml', 'Bad Name: x')}", "lowercase name"


@pytest.fixture(scope="module")
def previous(tmp_path_factory):
    """A real earlier build that every failing build must leave untouched."""
    tmp = tmp_path_factory.mktemp("previous")
    s = scratch_project(tmp)
    from k3explainer.site.pipeline import Project, build

    out = tmp / "_site"
    build(Project(s.root), out)
    return out


@pytest.mark.parametrize("case", sorted(CASES))
def test_bad_input_stops_build_with_location(case, tmp_path, capsys, previous):
    s = scratch_project(tmp_path)
    out = tmp_path / "_site"
    import shutil

    shutil.copytree(previous, out)
    before = tree_digest(out)
    where, what = CASES[case](s)
    code, output = s.build(out, capsys)
    assert code == 1, output
    matching = [line for line in output.splitlines() if line.startswith(where + ":")]
    assert any(what in line for line in matching), f"expected {where}: …{what}… in\n{output}"
    assert "Traceback" not in output
    assert tree_digest(out) == before, "a failed build changed the previous output"


def test_a_misspelt_param_is_reported_at_its_own_line_and_never_offered_as_a_fix(tmp_path, capsys):
    """`beta` → `betta` in fig-06: the error is the misspelt param at its own line; the constant whose
    `{beta}` no longer resolves is not reported on top of it with the typo as its suggestion."""
    s = scratch_project(tmp_path)
    spec = "figures/fig-06-delta-rule/figure.yaml"
    line = s.replace(spec, "  beta: 0.85", "  betta: 0.85")
    code, output = s.build(tmp_path / "_site", capsys)
    problems = [row for row in output.splitlines() if row.startswith(("content/", "figures/"))]
    assert code == 1 and problems == [
        f"{spec}:{line}:3: params.betta: Extra inputs are not permitted; did you mean 'beta'?"
    ]


def test_corpus_is_large_enough():
    assert len(CASES) >= 30


# A settings file that cannot be read is one problem, reported at its own line: the references to
# what it would have defined are not each called unknown on top of it (a broken facts.yaml used to
# print one line per {{fact}} in the article, ~190, with the real problem among them).
WHOLE_FILE_BREAKS = {
    "symbols_yaml_syntax": ("content/symbols.yaml", "ar-query: the learned pseudo-query w", "ar-query: the query: w"),
    "facts_yaml_syntax": (FACTS, '  topic: "GPT-2 small parameter count (original vocabulary)"', "  topic: x: y"),
    "facts_field_missing": (FACTS, "  display: 124,439,808\n", ""),
}


@pytest.mark.parametrize("name", sorted(WHOLE_FILE_BREAKS))
def test_a_settings_file_that_does_not_load_is_the_only_problem(name, tmp_path, capsys):
    s = scratch_project(tmp_path)
    rel, old, new = WHOLE_FILE_BREAKS[name]
    s.replace(rel, old, new)
    code, output = s.build(tmp_path / "_site", capsys)
    problems = [p for p in output.splitlines() if p.startswith("content/")]
    assert code == 1 and problems, output
    assert all(p.startswith(f"{rel}:") for p in problems), output
