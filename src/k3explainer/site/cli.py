"""`python build.py [--out DIR] [--serve | --check]` (and `k3explainer build|serve|check`): build the
site, check it without writing anything, or serve it and rebuild on change."""
from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from . import stamp


def main(argv: list[str] | None = None, *, root: Path, prog: str = "build.py") -> int:
    parser = argparse.ArgumentParser(prog=prog, description="Build the explainer site from content/.")
    parser.add_argument("--out", type=Path, default=root / "_site", help="output folder (default: _site)")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--serve", action="store_true", help="serve on 127.0.0.1, rebuild and reload on change")
    mode.add_argument("--check", action="store_true", help="validate everything a build does; write nothing")
    parser.add_argument("--port", type=int, default=8000, help="port for --serve (default 8000; 0 picks a free one)")
    parser.add_argument("--host", default="127.0.0.1", help="address for --serve (default 127.0.0.1)")
    args = parser.parse_args(argv)
    root = root.resolve()
    if not (root / "content").is_dir():
        print(f"{root}: not a project (no content/ folder); give its folder with --root", file=sys.stderr)
        return 1
    if not args.serve and not args.check:
        done = stamp.up_to_date(root, args.out)
        if done is not None:  # before importing the pipeline: most of a warm build is imports
            print("\n".join(done + [f"nothing changed since this build: {args.out} kept as it is"]))
            return 0
    from .project import Project

    project = Project(root)
    if args.serve:
        from .serve import serve

        return serve(project, args.out, host=args.host, port=args.port)
    key = None if args.check else stamp.fingerprint(root)
    from .errors import BuildError
    from .headstart import head_start

    head = head_start(project)  # node and the figure builders start before the rest of the pipeline loads
    from .pipeline import build

    with tempfile.TemporaryDirectory() as scratch:
        out = Path(scratch) / "_site" if args.check else args.out
        try:
            summary = build(project, out, head=head)
        except BuildError as e:
            head.stop()  # a build that stopped before its figures leaves no worker or node behind
            print("\n".join(map(str, e.diagnostics)), file=sys.stderr)
            left = "" if args.check else f"; {args.out} left as it was"
            print(f"build failed: {len(e.diagnostics)} problem(s){left}", file=sys.stderr)
            return 1
    if not args.check:
        stamp.record(root, args.out, key, summary.lines())
    print("\n".join(summary.lines()) if not args.check else
          f"checked {summary.sections} sections and {len(summary.figures)} live figures: no problems")
    return 0
