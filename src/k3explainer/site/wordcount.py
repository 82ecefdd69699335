"""Words of prose a reader reads, per section: the measure behind the article's length budget.

Counted from each section's rendered HTML (figures are slots there, so their words are not in it),
as a reader meets the text: formulas, tooltips that open on hover and text only a screen reader
hears are left out; claim boxes, callouts and sidenotes are prose and count.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

SKIPPED_ELEMENTS = {"math", "script", "style"}
SKIPPED_CLASSES = {"fact-cite", "visually-hidden"}
VOID = {"br", "hr", "img", "input", "meta", "link", "wbr", "source", "col", "area", "embed", "track"}
WORD = re.compile(r"\w(?:[\w’'.−-]*\w)?")  # it’s, 2.3, KV-cache: one word each


class _Words(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack: list[bool] = []  # per open element: is its text skipped?
        self.count = 0

    def handle_starttag(self, tag, attrs):
        if tag in VOID:
            return
        classes = set((dict(attrs).get("class") or "").split())
        skipped = tag in SKIPPED_ELEMENTS or bool(classes & SKIPPED_CLASSES)
        self.stack.append(skipped or (bool(self.stack) and self.stack[-1]))

    def handle_endtag(self, tag):
        if tag not in VOID and self.stack:
            self.stack.pop()

    def handle_data(self, data):
        if not (self.stack and self.stack[-1]):
            self.count += len(WORD.findall(data))


def words(html: str) -> int:
    """The number of words a reader reads in `html`."""
    parser = _Words()
    parser.feed(html)
    parser.close()
    return parser.count
