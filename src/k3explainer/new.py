"""`k3explainer new DIR`: start an explainer from the starter (one section with math, a sourced
fact in a claim box, one live figure with its spec, builder, component and test, a README and a
CI script). It builds and its tests pass as it is; the page frame, runtime and widgets stay in the
engine (a project overrides one by giving a file of the same name)."""

from __future__ import annotations

import argparse
import getpass
import shutil
import subprocess
import sys
from datetime import date
from pathlib import Path

STARTER = Path(__file__).resolve().parent / "starter"


def main(argv: list[str], prog: str = "k3explainer new") -> int:
    parser = argparse.ArgumentParser(prog=prog, description=__doc__.split("\n")[0])
    parser.add_argument("dir", type=Path, help="the new project's folder (created; must not hold anything yet)")
    parser.add_argument("--author", help="the byline's name (default: git's user.name, else your login name)")
    args = parser.parse_args(argv)
    target = args.dir
    if target.exists() and (not target.is_dir() or any(target.iterdir())):
        print(f"{target}: already holds files; give a new or empty folder", file=sys.stderr)
        return 1
    shutil.copytree(STARTER, target, dirs_exist_ok=True, ignore=shutil.ignore_patterns("__pycache__"))
    _sign(target / "content" / "site.yaml", args.author or _default_author(), date.today())
    print(f"""started an explainer in {target}
  cd {target}
  k3explainer build          # → _site/index.html
  k3explainer serve          # live preview, rebuilt on every save
  python3 -m pytest figures  # the figure's numbers and what the page ships
then edit content/01-temperature.md, or add a figure: README.md says which four files make one""")
    return 0


def _default_author() -> str:
    try:
        done = subprocess.run(["git", "config", "user.name"], capture_output=True, text=True, timeout=5)
        name = done.stdout.strip()
    except (OSError, subprocess.SubprocessError):
        name = ""
    return name or getpass.getuser()


def _sign(site_yaml: Path, author: str, today: date) -> None:
    """The new explainer's byline: its author and today's date in place of the starter's."""
    text = site_yaml.read_text(encoding="utf-8")
    text = text.replace("  - name: Your Name\n", f"  - name: {_quoted(author)}\n", 1)
    text = text.replace("published: 2026-12-07\n", f"published: {today.isoformat()}\n", 1)
    site_yaml.write_text(text, encoding="utf-8")


def _quoted(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:], prog="python -m k3explainer.new"))
