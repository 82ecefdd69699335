"""figjobs: a one-shot build's figures computed by the build and a forked worker give what one
process computing them in order gives, whoever takes which figure, and a worker that fails or is
cancelled costs nothing but time."""
from __future__ import annotations

import os
import time
from pathlib import Path

from k3explainer.site.errors import Diagnostics
from k3explainer.site.figjobs import FigureJobs

FIDS = [f"fig-{i:02d}" for i in range(1, 25)]


def _run(fid, diags):
    if fid.endswith("3"):
        diags.add(Path("figures") / f"{fid}.py", 3, 1, f"{fid} reports a problem")
    return {"id": fid, "pid": os.getpid(), "value": sum(ord(c) for c in fid) / 7}


def _without_pid(data):
    return {k: v for k, v in data.items() if k != "pid"}


def test_every_figure_comes_back_once_with_its_diagnostics(tmp_path):
    got = FigureJobs(FIDS, _run, tmp_path).finish()
    assert sorted(got) == FIDS
    for fid, (data, diags) in got.items():
        assert _without_pid(data) == _without_pid(_run(fid, Diagnostics(tmp_path)))
        assert [d.message for d in diags] == ([f"{fid} reports a problem"] if fid.endswith("3") else [])


def test_the_worker_takes_figures_beside_the_build(tmp_path):
    # The build's process holds its first figure until the worker has taken one (or 30 s have
    # passed): on a loaded machine the build could otherwise empty the queue before the forked
    # worker is first scheduled (seen once in a full run on three workers), and "both take
    # figures" would depend on the scheduler, not on FigureJobs.
    parent, worker_ran = os.getpid(), tmp_path / "worker-ran"

    def run(fid, diags):
        if os.getpid() != parent:
            worker_ran.touch()
        else:
            deadline = time.monotonic() + 30
            while not worker_ran.exists() and time.monotonic() < deadline:
                time.sleep(0.005)
        return _run(fid, diags)

    got = FigureJobs(FIDS, run, tmp_path).finish()
    assert len({data["pid"] for data, _ in got.values()}) == 2


def test_a_worker_that_fails_leaves_its_figures_to_the_build(tmp_path):
    parent = os.getpid()

    def fails_in_worker(fid, diags):
        if os.getpid() != parent:
            raise RuntimeError("worker broke")
        return _run(fid, diags)

    got = FigureJobs(FIDS, fails_in_worker, tmp_path).finish()
    assert sorted(got) == FIDS
    assert {data["pid"] for data, _ in got.values()} == {parent}


def test_cancel_stops_the_worker_and_can_be_repeated(tmp_path):
    jobs = FigureJobs(FIDS, lambda fid, diags: sum(range(10**8)), tmp_path)
    pid = jobs.pid
    jobs.cancel()
    jobs.cancel()
    try:
        os.kill(pid, 0)
        alive = True
    except ProcessLookupError:
        alive = False
    assert not alive


def test_cancel_after_finish_does_nothing(tmp_path):
    jobs = FigureJobs(FIDS[:3], _run, tmp_path)
    assert sorted(jobs.finish()) == FIDS[:3]
    jobs.cancel()


def _children() -> set[int]:
    return {int(pid) for task in Path("/proc/self/task").iterdir()
            for pid in (task / "children").read_text().split()}


def test_a_build_that_stops_early_leaves_no_worker_behind(tmp_path, capsys):
    """The worker starts before the sections are checked; a section error ends it with the build."""
    from .project import scratch_project

    project = scratch_project(tmp_path)
    project.replace("content/06-deltanet.md", "number:", "numbr:")
    before = _children()
    code, out = project.build(tmp_path / "out", capsys)
    assert code == 1 and "numbr" in out
    assert _children() <= before
