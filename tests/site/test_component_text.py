"""No reader sentence is composed in a component: every sentence a figure shows is written in
Python by its builder and shipped with its data (site/readertext.py), where a Python test can read
it against the numbers in every state; components place text (ctx.show, ctx.text) and do not make
it. A component may still hold short fixed labels (a button's "Play", an axis's "N").

Read from each figure folder's scripts with esprima (a maintained ECMAScript parser in Python),
three shapes count as composed text: a string of four or more words; text joined to anything
with `+`; a template literal with words and a `${}`. A word is two or more letters that are
not part of an identifier, a class name, a selector or a CSS function or unit."""

from __future__ import annotations

import re

import esprima
import pytest

from k3explainer.site.specs import figure_folders, figure_id

from .project import ROOT

WORD = re.compile(r"(?<![\w\-#.$@/])[A-Za-z]{2,}(?![\w\-(])")
UNITS = {"px", "em", "rem", "ms", "deg", "vh", "vw", "fr", "ch"}
FOLDERS = figure_folders(ROOT / "figures")


def words(s: str) -> list[str]:
    return [w for w in WORD.findall(s) if w not in UNITS]


def is_text(s: str) -> bool:
    """Reader text, as opposed to an identifier, a data path or a class list: words with a space
    or a typographic character between them."""
    return bool(words(s)) and (" " in s.strip() or bool(re.search(r"[^\x00-\x7f]", s)))


def composed(source: str) -> list[tuple[int, str]]:
    """(line, text) of every composed reader text in a script."""
    found: dict[tuple[int, str], None] = {}

    def walk(node) -> None:
        if isinstance(node, list):
            for n in node:
                walk(n)
            return
        kind = getattr(node, "type", None)
        if kind is None:
            return
        if kind == "Literal" and isinstance(node.value, str) and len(words(node.value)) >= 4:
            found[(node.loc.start.line, node.value)] = None
        if kind == "BinaryExpression" and node.operator == "+":
            for side in (node.left, node.right):
                if side.type == "Literal" and isinstance(side.value, str) and is_text(side.value):
                    found[(side.loc.start.line, side.value)] = None
        if kind == "TemplateLiteral" and node.expressions:
            for q in node.quasis:
                if is_text(q.value.cooked):
                    found[(q.loc.start.line, q.value.cooked)] = None
        for key, value in vars(node).items():
            if key not in ("loc", "range", "type") and (isinstance(value, list) or hasattr(value, "type")):
                walk(value)

    walk(esprima.parseScript(source, {"loc": True}).body)
    return sorted(found)


def test_the_check_sees_each_shape_and_passes_labels_paths_and_classes():
    js = """
    a.textContent = "Decode step " + n;          // joined
    b.textContent = `cache holds ${n} elements`;  // template
    c.textContent = "the whole state, rewritten each step";  // four words
    d.textContent = "Play"; e.className = "f04-bar" + (on ? " is-now" : "");
    f.setAttribute("transform", "translate(" + x + "px)"); g = ["steps", i, "read"]; h = "#" + id + " .fig-mount";
    """
    assert [t for _, t in composed(js)] == ["Decode step ", "cache holds ", "the whole state, rewritten each step"]


@pytest.mark.parametrize("folder", FOLDERS, ids=[figure_id(f) for f in FOLDERS])
def test_a_component_composes_no_reader_text(folder):
    found = [
        f"{js.relative_to(ROOT)}:{line}: {text!r}"
        for js in sorted(folder.glob("*.js"))
        for line, text in composed(js.read_text(encoding="utf-8"))
    ]
    assert not found, "reader text made in JS (ship it from builder.py):\n" + "\n".join(found)
