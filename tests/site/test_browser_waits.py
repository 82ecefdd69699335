"""Browser tests wait with a function, never a bare expression: Playwright polls a bare expression
with eval, which the site's Content-Security-Policy forbids, so such a wait passes when its first
check succeeds and fails only on a slow machine, where it has to poll."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BROWSER_TESTS = sorted([*(ROOT / "tests" / "browser").glob("*.py"), *(ROOT / "figures").glob("*/test_*.py")])
BARE = re.compile(r"""wait_for_function\(\s*f?(["'])(?!\1|\s*(\(|\w+\s*=>|async\b|function\b))""")


def test_every_wait_for_function_is_given_a_function():
    bare = [
        f"{p.name}:{text[: m.start()].count(chr(10)) + 1}"
        for p in BROWSER_TESTS
        for text in [p.read_text(encoding="utf-8")]
        for m in BARE.finditer(text)
    ]
    assert BROWSER_TESTS and bare == []
