"""site/readertext.py: the lookup and fill every figure's text goes through (the runtime's
ctx.text does the same in the browser; each figure's browser tests hold the two equal through
assert_shown_is_shipped), and the number forms builders write into their sentences."""

import numpy as np
import pytest

from k3explainer.site.readertext import at, fill, fixed, integer, sci, si

DATA = {"steps": [{"read": "Token {t} reads {n} numbers."}, {"read": "done"}], "t": ["1", "2"], "n": 12, "x": 1.5}


def test_a_template_takes_its_slots_from_other_paths():
    assert fill(DATA, ["steps", 0, "read"], {"t": ["t", 1], "n": ["n"]}) == "Token 2 reads 12 numbers."
    assert fill(DATA, ["steps", 1, "read"]) == "done" and at(DATA, ["t", 0]) == "1"


@pytest.mark.parametrize(
    "path, slots, message",
    [
        (["steps", 0, "read"], {"t": ["t", 0]}, "are not the ones given"),  # a slot without a value
        (["steps", 1, "read"], {"t": ["t", 0]}, "are not the ones given"),  # a value without a slot
        (["steps", 0, "read"], {"t": ["t", 0], "n": ["x"]}, "is a float, not text"),
        (["n"], None, "no text at"),
    ],
)
def test_a_template_and_slots_that_do_not_match_are_an_error(path, slots, message):
    with pytest.raises(ValueError, match=message):
        fill(DATA, path, slots)


def test_numbers_as_the_page_writes_them():
    assert integer(1234567.4) == "1,234,567" and integer(-3) == "−3" and integer(2.5) == "3"
    assert integer(np.int64(2**60)) == f"{2**60:,}" and fixed(np.float64(0.5), 1) == "0.5"  # numpy's own, exactly
    assert fixed(-1.23456, 2) == "−1.23" and fixed(-0.0001) == "0.000" and fixed(2) == "2.000"
    assert fixed(4.625, 2) == "4.63" and fixed(-4.625, 2) == "−4.63" and fixed(0.125, 2) == "0.13"  # ties as toFixed
    assert si(999) == "999" and si(1200, "FLOP") == "1.20 KFLOP" and si(999_999) == "1.00 M" and si(512, "B") == "512 B"
    assert si(3.52e13, "FLOP") == "35.2 TFLOP" and si(-5e6) == "−5.00 M"
    assert sci(1.1e-16) == "1.1e−16" and sci(0) == "0" and sci(2.5e3, 2) == "2.50e3"
