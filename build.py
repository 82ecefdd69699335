#!/usr/bin/env python3
"""Build the site: `python build.py` (→ _site/), `python build.py --serve` for live preview."""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT / "src"))  # run from a checkout without installing

from k3explainer.site.cli import main  # noqa: E402  (after the sys.path line above)

if __name__ == "__main__":
    sys.exit(main(root=ROOT))
