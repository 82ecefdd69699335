"""`build.py --serve`: only the output folder is served, edits rebuild and reload, errors keep the
last good site and reach the browser as an overlay event."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
import urllib.error
import urllib.request

import pytest

from k3explainer.site.serve import resolve_inside

from .project import scratch_project


@pytest.fixture
def out_dir(tmp_path):
    out = tmp_path / "out"
    (out / "assets").mkdir(parents=True)
    (out / "index.html").write_text("<p>hi</p></body>")
    (out / "assets" / "a.css").write_text("p{}")
    (tmp_path / "secret.txt").write_text("no")
    (out / "link").symlink_to(tmp_path / "secret.txt")
    return out


@pytest.mark.parametrize(
    "url",
    [
        "/../secret.txt",
        "/%2e%2e/secret.txt",
        "/assets/%2E%2E/%2e%2e/secret.txt",
        "/..%2fsecret.txt",
        "//etc/passwd",
        "/etc/passwd",
        "/link",
        "/assets/../../secret.txt",
    ],
)
def test_paths_outside_the_output_folder_are_refused(out_dir, url):
    assert resolve_inside(out_dir, url) is None


def test_paths_inside_are_served(out_dir):
    assert resolve_inside(out_dir, "/") == (out_dir / "index.html").resolve()
    assert resolve_inside(out_dir, "/assets/a.css?v=1") == (out_dir / "assets" / "a.css").resolve()


def _get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=10) as r:
            return r.status, r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, ""


def _wait(predicate, timeout=30.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = predicate()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError("timed out")


def test_serve_rebuilds_on_edit_and_survives_errors(tmp_path):
    s = scratch_project(tmp_path)
    log = tmp_path / "serve.log"
    with open(log, "w") as sink:
        proc = subprocess.Popen(
            [sys.executable, str(s.root / "build.py"), "--serve", "--port", "0", "--out", str(tmp_path / "_site")],
            stdout=sink,
            stderr=subprocess.STDOUT,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
    try:
        url = _wait(lambda: (m := re.search(r"at (http://127\.0\.0\.1:\d+/)", log.read_text())) and m.group(1))
        status, html = _get(url)
        assert status == 200 and '<script src="/__k3/live.js"></script></body>' in html
        assert _get(url + "../../etc/passwd")[0] == 404
        events = urllib.request.urlopen(url + "__k3/events", timeout=30)

        s.replace("content/01-gpt2.md", "stage:", "stage: Edited #")
        assert b"event: reload" in _read_event(events)
        assert "Edited" in _get(url)[1]

        s.replace("figures/fig-02-attention-matrix/figure.yaml", "how_to:", "how_too:")
        payload = _read_event(events)
        assert (
            b"event: error-report" in payload
            and b"fig-02-attention-matrix/figure.yaml" in payload
            and b"how_too" in payload
        )
        status, html = _get(url)
        assert status == 200 and "Edited" in html, "the last good build keeps being served"
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def _read_event(stream, timeout=60.0) -> bytes:
    """Read one server-sent event (up to its blank line), skipping keep-alive pings.

    Pings keep the socket's own read timeout from ever firing, so the wait has its own deadline;
    a closed stream (readline gives b"") fails at once instead of spinning."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        chunk = b""
        while not chunk.endswith(b"\n\n"):
            line = stream.readline()
            assert line, "the server closed the event stream"
            chunk += line
        if not chunk.startswith(b":"):
            return chunk
    raise AssertionError(f"no event within {timeout:.0f} s (only keep-alive pings)")


def test_a_prose_edit_keeps_the_imported_builders_a_python_edit_reimports_them(tmp_path):
    """Re-importing every builder and kernel costs ~0.1 s per rebuild; only a Python edit needs it."""
    from k3explainer.site.pipeline import Project
    from k3explainer.site.serve import LiveState, rebuild

    s = scratch_project(tmp_path)
    project, out, live = Project(s.root), tmp_path / "out", LiveState()
    rebuild(project, out, live)
    before = sys.modules["k3project.figures.fig_02_attention_matrix"]
    rebuild(project, out, live, {s.path("content/02-attention.md")})
    assert sys.modules["k3project.figures.fig_02_attention_matrix"] is before and live.errors == []
    rebuild(project, out, live, {s.path("figures/fig-02-attention-matrix/builder.py")})
    assert sys.modules["k3project.figures.fig_02_attention_matrix"] is not before and live.errors == []
    assert live.generation == 3
