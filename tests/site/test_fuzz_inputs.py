"""Random front matter and spec YAML: the loaders answer with a clean diagnostic or a value,
never a traceback."""

from __future__ import annotations

from pathlib import Path

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from k3explainer.site.content import load_sections
from k3explainer.site.errors import Diagnostics
from k3explainer.site.markdown import make_parser
from k3explainer.site.specs import load_specs

FIELDS = [
    "id",
    "number",
    "part",
    "title",
    "stage",
    "summary",
    "label",
    "caption",
    "takeaway",
    "hint",
    "how_to",
    "alt",
    "component",
    "builder",
    "pending",
    "plotly",
    "height",
    "params",
    "constants",
    "extra",
]
scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**6), 10**6),
    st.floats(allow_nan=True),
    st.text(max_size=20),
    st.sampled_from(["fig-02", "fig_02_x", "synthesis", "yes", "on", "1e3"]),
)
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=6,
)
documents = st.dictionaries(st.sampled_from(FIELDS), values, max_size=10)
raw_text = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=200)

SETTINGS = settings(
    max_examples=60,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)


def _ok_or_clean(diags: Diagnostics) -> None:
    for d in diags.items:
        assert d.line >= 1 and d.message and "Traceback" not in d.message


@SETTINGS
@given(doc=documents | raw_text)
def test_random_figure_specs_never_crash(tmp_path_factory, doc):
    folder = tmp_path_factory.mktemp("specs")
    text = doc if isinstance(doc, str) else yaml.safe_dump(doc, allow_unicode=True)
    (folder / "fig-42.yaml").write_text(text, encoding="utf-8")
    diags = Diagnostics(folder)
    load_specs(folder, diags)
    _ok_or_clean(diags)


@SETTINGS
@given(doc=documents | raw_text, body=raw_text)
def test_random_front_matter_never_crashes(tmp_path_factory, doc, body):
    folder = tmp_path_factory.mktemp("sections")
    front = doc if isinstance(doc, str) else yaml.safe_dump(doc, allow_unicode=True)
    (folder / "01-x.md").write_text(f"---\n{front}\n---\n{body}\n", encoding="utf-8")
    diags = Diagnostics(Path(folder))
    load_sections(folder, make_parser(), None, diags)
    _ok_or_clean(diags)
