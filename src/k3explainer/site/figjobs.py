"""A one-shot build's figure data in two processes: the figure builders are most of a cold build's
Python work, and on two cores they can run beside the rest of it.

As soon as the specs and facts are loaded, the build forks one worker, which starts taking figures
from a shared queue; the build itself goes on with the sections and their checks, then takes the
figures that are left (`finish`) and collects the worker's. Every figure is computed by the same
function from the same inputs wherever it runs, and the results are used in figure order, so the
output does not depend on which process took which figure. A worker that fails hands back
nothing and its figures are computed here; `cancel` stops it when the build ends early.
`--serve` keeps its figure data in memory between rebuilds and so computes in its own process.
"""
from __future__ import annotations

import os
import pickle
import signal
import sys
import tempfile
from pathlib import Path
from typing import Any, Callable

from .errors import Diagnostic, Diagnostics

# (data or None, the diagnostics its computation reported)
Result = tuple[Any, list[Diagnostic]]
RECORD = 2  # bytes per queued figure: its index, big-endian (a pipe read this small is atomic)


class FigureJobs:
    def __init__(self, fids: list[str], run: Callable[[str, Diagnostics], Any], root: Path):
        self.fids, self.run, self.root = fids, run, root
        self._queue, queue_in = os.pipe()
        os.write(queue_in, b"".join(i.to_bytes(RECORD, "big") for i in range(len(fids))))
        os.close(queue_in)  # an empty queue reads as its end
        self._results = tempfile.TemporaryFile()  # the worker's results, read after it exits
        _flush()  # (or the worker would print again what this process had not written out yet)
        self.pid = os.fork()
        if self.pid == 0:
            self._work()

    def _work(self) -> None:
        """In the worker: take figures until none are left, write their results, exit."""
        status = 1
        try:
            pickle.dump(self._take(), self._results, protocol=pickle.HIGHEST_PROTOCOL)
            self._results.flush()
            status = 0
        finally:
            _flush()  # what a builder printed
            os._exit(status)  # never back into the build's own code (nor its atexit handlers)

    def _take(self) -> dict[str, Result]:
        got: dict[str, Result] = {}
        while record := os.read(self._queue, RECORD):
            fid = self.fids[int.from_bytes(record, "big")]
            diags = Diagnostics(self.root)
            got[fid] = (self.run(fid, diags), diags.items)
        return got

    def finish(self) -> dict[str, Result]:
        """Every figure's result: the ones still queued are computed here, then the worker's are
        collected (any it took but did not hand back are computed here too)."""
        got = self._take()
        _, status = os.waitpid(self.pid, 0)
        if status == 0:
            self._results.seek(0)
            got.update(pickle.load(self._results))
        self._close()
        for fid in self.fids:
            if fid not in got:
                diags = Diagnostics(self.root)
                got[fid] = (self.run(fid, diags), diags.items)
        return got

    def cancel(self) -> None:
        """Stop the worker if it is still there (the build stopped before it needed the figures)."""
        if self.pid is not None:
            os.kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)
            self._close()

    def _close(self) -> None:
        self.pid = None
        os.close(self._queue)
        self._results.close()


def _flush() -> None:
    for stream in (sys.stdout, sys.stderr):
        stream.flush()
