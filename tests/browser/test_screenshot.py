"""`k3explainer screenshot` captures any part of the page, not only a whole figure: it waits for the
figure the part sits in to be drawn."""

import struct
import subprocess
import sys

import pytest

from .pages import page_name

pytestmark = pytest.mark.browser


def test_a_part_of_a_figure_is_captured_once_the_figure_is_drawn(site_url, tmp_path):
    out = tmp_path / "table.png"  # run as an author runs it (its own browser, outside pytest's event loop)
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "k3explainer.screenshot",
            site_url + page_name("fig-16"),
            str(out),
            "390",
            "dark",
            "#fig-16 .f16-table",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0 and "console errors: none" in run.stdout, run.stdout + run.stderr
    png = out.read_bytes()
    width, height = struct.unpack(">II", png[16:24])  # the IHDR chunk
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and 300 <= width <= 390 and 100 < height < 400  # the table, not the screen
