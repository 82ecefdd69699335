"""Lighthouse on Debian's Chromium against the built site served gzip-compressed (as a static host
serves it): `python -m k3explainer.lighthouse SITE_DIR [--runs 3]`, also a step of the bench.

Lighthouse (npm, pinned in package.json) loads the page in a fresh headless Chromium with its
default mobile preset (a mid-range phone, simulated 4G throttling) or --preset=desktop and reports
the performance score and the metrics it is made of. Single runs vary by a few points on a busy
machine, so the bench takes the median of several.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

from .browser import CHROMIUM, serve

METRICS = {  # audit id → (label, unit scale)
    "first-contentful-paint": "FCP ms",
    "largest-contentful-paint": "LCP ms",
    "total-blocking-time": "TBT ms",
    "cumulative-layout-shift": "CLS",
    "speed-index": "speed index ms",
}


def lighthouse_bin(root: Path) -> Path:
    path = root / "node_modules" / ".bin" / "lighthouse"
    if not path.is_file():
        raise SystemExit(f"{path} is missing: run `npm ci` (lighthouse is a dev dependency)")
    return path


def run_once(binary: Path, url: str, preset: str) -> dict[str, float]:
    """One Lighthouse run: {"score": 0–100, "FCP ms": …, …}."""
    cmd = [
        str(binary),
        url,
        "--output=json",
        "--output-path=stdout",
        "--quiet",
        "--only-categories=performance",
        "--chrome-flags=--headless=new --no-sandbox --disable-gpu",
    ]
    if preset == "desktop":
        cmd.append("--preset=desktop")
    proc = subprocess.run(cmd, capture_output=True, text=True, env={**os.environ, "CHROME_PATH": CHROMIUM}, timeout=300)
    if proc.returncode:
        raise RuntimeError(f"lighthouse failed ({proc.returncode}): {proc.stderr[-2000:]}")
    report = json.loads(proc.stdout)
    out = {"score": 100 * report["categories"]["performance"]["score"]}
    out.update({label: report["audits"][audit]["numericValue"] for audit, label in METRICS.items()})
    return out


def median_of(site: Path, root: Path, runs: int = 3) -> dict[str, dict[str, float]]:
    """{"mobile": {metric: median}, "desktop": {...}} over `runs` runs each."""
    binary = lighthouse_bin(root)
    server, url = serve(site, compress=True)
    try:
        result = {}
        for preset in ("mobile", "desktop"):
            samples = [run_once(binary, url, preset) for _ in range(runs)]
            result[preset] = {k: statistics.median(s[k] for s in samples) for k in samples[0]}
        return result
    finally:
        server.shutdown()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m k3explainer.lighthouse", description=__doc__.split("\n\n")[0])
    ap.add_argument("site", type=Path, help="a built site folder (e.g. _site)")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--root", type=Path, default=Path.cwd(), help="the project whose node_modules has lighthouse")
    args = ap.parse_args(argv)
    for preset, m in median_of(args.site, args.root, args.runs).items():
        print(
            f"lighthouse {preset:7s} (median of {args.runs}): performance {m['score']:.0f}, "
            + ", ".join(f"{k} {v:.0f}" if k != "CLS" else f"CLS {v:.3f}" for k, v in m.items() if k != "score")
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
