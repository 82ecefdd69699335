"""The `k3explainer` command. Every subcommand acts on the project at --root (default: the folder
you stand in), never on the checkout the package was installed from.

    k3explainer new DIR                            start an explainer from the starter
    k3explainer build [--root DIR] [--out DIR]     build the site (default out: ROOT/_site)
    k3explainer check [--root DIR]                 everything a build validates; nothing written
    k3explainer serve [--root DIR] [--port N]      live preview: rebuild and reload on change
    k3explainer reserve [--root DIR] [--figure fig-NN …] [--write]
    k3explainer screenshot URL OUT.png [WIDTH] [light|dark] [SELECTOR]
"""

from __future__ import annotations

import sys
from pathlib import Path

COMMANDS = ("new", "build", "check", "serve", "reserve", "screenshot")


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if not args or args[0] in ("-h", "--help"):
        print(__doc__)
        return 0 if args else 2
    command, rest = args[0], args[1:]
    if command in ("build", "check", "serve"):
        from .site.cli import main as site_main

        root, rest = _take_root(rest)
        return site_main(
            [f"--{command}"] + rest if command != "build" else rest, root=root, prog=f"k3explainer {command}"
        )
    if command == "new":
        from .new import main as new_main

        return new_main(rest)
    if command == "reserve":
        from .reserve import main as reserve_main

        return reserve_main(rest, prog="k3explainer reserve")
    if command == "screenshot":
        from .screenshot import main as screenshot_main

        return screenshot_main(rest)
    from .site.suggest import did_you_mean

    print(
        f"k3explainer: unknown command {command!r}{did_you_mean(command, COMMANDS)} (commands: {', '.join(COMMANDS)})",
        file=sys.stderr,
    )
    return 2


def _take_root(args: list[str]) -> tuple[Path, list[str]]:
    """--root DIR (or --root=DIR) out of the arguments; the current folder without it."""
    for i, a in enumerate(args):
        if a == "--root" and i + 1 < len(args):
            return Path(args[i + 1]).resolve(), args[:i] + args[i + 2 :]
        if a.startswith("--root="):
            return Path(a.split("=", 1)[1]).resolve(), args[:i] + args[i + 1 :]
    return Path.cwd(), args


if __name__ == "__main__":
    sys.exit(main())
