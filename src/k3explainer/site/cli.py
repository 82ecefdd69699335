"""`python build.py [--out DIR] [--serve | --check]` (and `k3explainer build|serve|check`): build the
site, check it without writing anything, or serve it and rebuild on change."""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from .errors import BuildError
from .pipeline import build
from .project import Project


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
    project = Project(root)
    if args.serve:
        from .serve import serve  # (its web server and file watcher only when serving)

        return serve(project, args.out, host=args.host, port=args.port)
    with tempfile.TemporaryDirectory() as scratch:
        out = Path(scratch) / "_site" if args.check else args.out
        try:
            summary = build(project, out)
        except BuildError as e:
            print("\n".join(map(str, e.diagnostics)), file=sys.stderr)
            left = "" if args.check else f"; {args.out} left as it was"
            print(f"build failed: {len(e.diagnostics)} problem(s){left}", file=sys.stderr)
            return 1
    if summary.warnings:
        print("\n".join(summary.warnings), file=sys.stderr)
    print(
        "\n".join(summary.lines())
        if not args.check
        else f"checked {summary.sections} sections and {len(summary.figures)} live figures: no problems"
    )
    return 0
