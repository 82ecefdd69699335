"""`k3explainer new DIR`: start an explainer from the starter (one section with math, a sourced
fact in a claim box, one live figure with its spec, builder, component and test, a README and a
CI script). It builds and its tests pass as it is; the page frame, runtime and widgets stay in the
engine (a project overrides one by giving a file of the same name)."""

from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path

STARTER = Path(__file__).resolve().parent / "starter"


def main(argv: list[str], prog: str = "k3explainer new") -> int:
    parser = argparse.ArgumentParser(prog=prog, description=__doc__.split("\n")[0])
    parser.add_argument("dir", type=Path, help="the new project's folder (created; must not hold anything yet)")
    target = parser.parse_args(argv).dir
    if target.exists() and (not target.is_dir() or any(target.iterdir())):
        print(f"{target}: already holds files; give a new or empty folder", file=sys.stderr)
        return 1
    shutil.copytree(STARTER, target, dirs_exist_ok=True, ignore=shutil.ignore_patterns("__pycache__"))
    print(f"""started an explainer in {target}
  cd {target}
  k3explainer build          # → _site/index.html
  k3explainer serve          # live preview, rebuilt on every save
  python3 -m pytest tests    # the figure's numbers and what the page ships
then edit content/01-temperature.md, or add a figure: README.md says which four files make one""")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:], prog="python -m k3explainer.new"))
