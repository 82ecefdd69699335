"""A project's own Python, beside its content/: figure builders in figures/<builder>.py and,
optionally, derived.py (values the article computes from its facts, `derived_facts(facts)`).

The engine imports them as the package `k3project` rooted at the project folder
(`k3project.figures.fig_02_attention_matrix`, `k3project.derived`), the way Observable Framework
runs a project's own data loaders: builders import each other relatively (`from .editorial import
cited_facts`) and the kernels from the engine (`from k3explainer.kernels import delta_rule`).
One project is mounted at a time; mounting another forgets the first one's modules.
"""

from __future__ import annotations

import importlib
import sys
import traceback
import types
from pathlib import Path

PACKAGE = "k3project"


def mount(root: Path) -> None:
    """Make `root`'s figures/ and derived.py importable as k3project.* (idempotent)."""
    root = root.resolve()
    current = sys.modules.get(PACKAGE)
    if current is not None and list(current.__path__) == [str(root)]:
        return
    forget()
    package = types.ModuleType(PACKAGE, f"the explainer project at {root}")
    package.__path__ = [str(root)]
    sys.modules[PACKAGE] = package


def forget() -> None:
    """Drop the mounted project's modules, so the next import reads their files afresh."""
    for name in [m for m in sys.modules if m == PACKAGE or m.startswith(PACKAGE + ".")]:
        del sys.modules[name]


def builder_file(root: Path, name: str) -> Path:
    return root / "figures" / f"{name}.py"


def builder_names(root: Path) -> list[str]:
    return sorted(p.stem for p in (root / "figures").glob("*.py") if not p.name.startswith("_"))


def builder(root: Path, name: str) -> types.ModuleType:
    """The module of figures/<name>.py (ImportError if there is none)."""
    if not builder_file(root, name).is_file():
        raise ImportError(f"no builder figures/{name}.py")
    mount(root)
    return importlib.import_module(f"{PACKAGE}.figures.{name}")


def derive_hook(root: Path):
    """derived.py's `derived_facts`, or None when the project has no derived.py."""
    if not (root / "derived.py").is_file():
        return None
    mount(root)
    return importlib.import_module(f"{PACKAGE}.derived").derived_facts


def line_in(error: BaseException, file: Path) -> int:
    """The line of `file` an error was raised from (a syntax error's own line), else 1."""
    if isinstance(error, SyntaxError) and error.lineno:
        return error.lineno
    frames = [f for f in traceback.extract_tb(error.__traceback__) if Path(f.filename).resolve() == file.resolve()]
    return frames[-1].lineno if frames else 1


def sources(root: Path) -> list[Path]:
    """Every file of the project's own Python (what figure data and derived facts depend on)."""
    return sorted(
        [*(root / "figures").glob("*.py"), *([root / "derived.py"] if (root / "derived.py").is_file() else [])]
    )
