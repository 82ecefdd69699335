"""A project's own Python, beside its content/: each figure folder's builder.py, the modules
figures/ shares between them (e.g. editorial.py), any packages of its own (the flagship's
experiments/), and optionally derived.py (values the article computes from its facts,
`derived_facts(facts)`).

The engine imports them as the package `k3project` rooted at the project folder, the way
Observable Framework runs a project's own data loaders: figures/fig-02-attention-matrix/builder.py
is the module `k3project.figures.fig_02_attention_matrix`, so a builder imports what figures/
shares relatively (`from .editorial import cited_facts`), the project's packages one level up
(`from ..experiments import recall_sweep`) and the engine's kernels absolutely
(`from k3explainer.kernels import delta_rule`). One project is mounted at a time; mounting
another forgets the first one's modules.
"""

from __future__ import annotations

import importlib
import importlib.util
import re
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


def builder_file(root: Path, folder: str) -> Path:
    return root / "figures" / folder / "builder.py"


def builder(root: Path, folder: str) -> types.ModuleType:
    """The module of figures/<folder>/builder.py (ImportError if there is none), imported once
    per mount as k3project.figures.<folder, with _ for ->."""
    file = builder_file(root, folder)
    if not file.is_file():
        raise ImportError(f"no builder figures/{folder}/builder.py")
    mount(root)
    importlib.import_module(f"{PACKAGE}.figures")
    name = f"{PACKAGE}.figures.{folder.replace('-', '_')}"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, file)
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        try:
            spec.loader.exec_module(module)
        except BaseException:
            del sys.modules[name]
            raise
    return sys.modules[name]


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


def error_text(error: BaseException) -> str:
    """`Type: message` of an author's code failing, without the absolute paths Python puts in some
    messages (an ImportError names the module's file), so a report reads the same on any machine."""
    return f"{type(error).__name__}: " + re.sub(r" \((?:/|[A-Za-z]:\\)[^()]*\)$", "", str(error))


def sources(root: Path) -> list[Path]:
    """Every file of the project's own Python other than its tests (what figure data and derived
    facts depend on): figures/ and any package beside it, and derived.py."""
    packages = [d for d in sorted(root.iterdir()) if (d / "__init__.py").is_file() and d.name != "tests"]
    files = [p for d in packages for p in d.rglob("*.py") if not p.name.startswith("test_")]
    return sorted(files + ([root / "derived.py"] if (root / "derived.py").is_file() else []))
