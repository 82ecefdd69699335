"""Nothing changed, nothing built: `build` skips a build whose inputs and output are exactly as the
last build left them, the way `make` does.

What a build's output depends on, all hashed into one fingerprint:
- the project's content/, templates/, static/ and figures/ folders and its derived.py (every
  file, by content);
- the browser packages it copies or runs from node_modules (their package.json: name and version);
- the engine's own source (pipeline, kernels, runtime: every file of the installed package);
- Python's version and the versions of the libraries the build declares (markdown-it, Jinja,
  PyYAML, pydantic, numpy, ...), read from the package's metadata. Without that metadata (a
  checkout run as `python build.py` without `pip install`) nothing is skipped.
The stamp (one per output folder, in .cache/build-stamps/) keeps the fingerprint, the output
folder, each output file's size and modification time, and the summary the build printed. A build is skipped only when the
fingerprint matches and the output folder holds exactly those files, untouched.

Only the standard library is imported here: checking costs ~0.1 s, where a fresh process that
builds spends most of a second importing pydantic, numpy and the renderers.
"""
from __future__ import annotations

import hashlib
import json
import sys
from importlib import metadata
from pathlib import Path

import k3explainer

# The node packages the build reads: Temml (math to MathML, its CSS) and Plotly.
NODE_PACKAGES = ("temml", "plotly.js-cartesian-dist-min")
PROJECT_FOLDERS = ("content", "templates", "static", "figures")
PROJECT_FILES = ("derived.py",)
ENGINE = Path(k3explainer.__file__).parent  # the installed package: pipeline, builders, kernels


def _files(folder: Path):
    return sorted(p for p in folder.rglob("*") if p.is_file() and "__pycache__" not in p.parts)


def _library_versions() -> list[str] | None:
    try:
        wanted = [r for r in metadata.requires("k3explainer") or [] if "extra ==" not in r]
    except metadata.PackageNotFoundError:
        return None
    names = [r.split(";")[0].split("==")[0].split(">")[0].split("<")[0].split("[")[0].strip() for r in wanted]
    return [f"{n}=={metadata.version(n)}" for n in names]


def fingerprint(root: Path) -> str | None:
    """One hash of everything the output depends on; None when that cannot be known."""
    versions = _library_versions()
    if versions is None:
        return None
    h = hashlib.blake2b(digest_size=20)
    h.update(json.dumps([sys.version, versions]).encode())
    engine = ENGINE
    sources = [(root, p) for name in PROJECT_FOLDERS for p in _files(root / name)]
    sources += [(root, root / name) for name in PROJECT_FILES]
    sources += [(root, root / "node_modules" / n / "package.json") for n in NODE_PACKAGES]
    sources += [(engine, p) for p in _files(engine)]
    for base, path in sources:
        h.update(f"\0{base == engine}:{path.relative_to(base).as_posix()}\0".encode())
        h.update(path.read_bytes() if path.is_file() else b"(missing)")
    return h.hexdigest()


def _listing(out: Path) -> dict[str, list[int]]:
    return {p.relative_to(out).as_posix(): [p.stat().st_size, p.stat().st_mtime_ns] for p in _files(out)}


def _stamp_path(root: Path, out: Path) -> Path:
    name = hashlib.blake2b(str(out.resolve()).encode(), digest_size=8).hexdigest()
    return root / ".cache" / "build-stamps" / f"{name}.json"


def up_to_date(root: Path, out: Path) -> list[str] | None:
    """The last build's summary lines if `out` is what building `root` now would write, else None."""
    try:
        stamp = json.loads(_stamp_path(root, out).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if stamp.get("out") != str(out.resolve()) or not out.is_dir() or stamp.get("files") != _listing(out):
        return None
    key = fingerprint(root)
    return stamp["summary"] if key is not None and stamp.get("fingerprint") == key else None


def record(root: Path, out: Path, key: str | None, summary: list[str]) -> None:
    """After a successful build from inputs whose fingerprint was `key` (taken before the build
    read them, so an edit made during the build is never stamped as built)."""
    path = _stamp_path(root, out)
    if key is None:
        path.unlink(missing_ok=True)
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    stamp = {"fingerprint": key, "out": str(out.resolve()), "files": _listing(out), "summary": summary}
    path.write_text(json.dumps(stamp, indent=1) + "\n", encoding="utf-8")
