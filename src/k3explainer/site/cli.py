"""`python build.py [--out DIR] [--serve]`: build the site, or serve it and rebuild on change."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .errors import BuildError
from .pipeline import Project, build


def main(argv: list[str] | None = None, *, root: Path) -> int:
    parser = argparse.ArgumentParser(prog="build.py", description="Build the explainer site from content/.")
    parser.add_argument("--out", type=Path, default=root / "_site", help="output folder (default: _site)")
    parser.add_argument("--serve", action="store_true", help="serve on 127.0.0.1, rebuild and reload on change")
    parser.add_argument("--port", type=int, default=8000, help="port for --serve (default 8000; 0 picks a free one)")
    parser.add_argument("--host", default="127.0.0.1", help="address for --serve (default 127.0.0.1)")
    args = parser.parse_args(argv)
    project = Project(root.resolve())
    if args.serve:
        from .serve import serve

        return serve(project, args.out, host=args.host, port=args.port)
    try:
        summary = build(project, args.out)
    except BuildError as e:
        print("\n".join(map(str, e.diagnostics)), file=sys.stderr)
        print(f"build failed: {len(e.diagnostics)} problem(s); {args.out} left as it was", file=sys.stderr)
        return 1
    print("\n".join(summary.lines()))
    return 0
