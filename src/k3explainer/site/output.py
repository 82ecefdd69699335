"""Writing the site: build everything into a temporary sibling folder, then swap it in.

If anything fails before the swap, the previous output is untouched.
"""
from __future__ import annotations

import os
import shutil
import tempfile
import threading
from pathlib import Path


def write_atomic(out: Path, files: dict[str, bytes], written: dict | None = None) -> None:
    """Write `files` into `out`, swapped in whole.

    `written` (kept by `--serve` between rebuilds) remembers what the last swap left in `out`:
    each file's bytes and stat. A file whose bytes are the same and whose copy in `out` is still
    untouched is hard-linked into the new folder rather than written again (Plotly alone is 3 MB);
    the new folder is complete before the swap either way. With it, the replaced folder is also
    removed in the background, after the swap, rather than before the rebuild is reported."""
    out = out.resolve()
    out.parent.mkdir(parents=True, exist_ok=True)
    for stale in [out.with_name(f".{out.name}.old"), *out.parent.glob(f".{out.name}.old-*")]:
        if stale.is_dir() and stale not in _removing:  # left by a build that was stopped
            shutil.rmtree(stale, ignore_errors=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.new-", dir=out.parent))
    last = dict(written) if written else {}
    if written is not None:
        written.clear()  # until the swap succeeds, nothing in `out` is known to be ours
    try:
        folders = {tmp}
        for rel, data in sorted(files.items()):
            target = tmp / rel
            if target.parent not in folders:
                target.parent.mkdir(parents=True, exist_ok=True)
                folders.add(target.parent)
            if not _link_unchanged(out / rel, target, data, last.get(rel)):
                target.write_bytes(data)
        os.chmod(tmp, 0o755)
        old = None
        if out.exists():
            old = Path(tempfile.mkdtemp(prefix=f".{out.name}.old-", dir=out.parent))
            out.rename(old)  # (onto the empty folder just made: a name no other build uses)
        tmp.rename(out)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    if written is not None:
        written.update((rel, (data, _sig(out / rel))) for rel, data in files.items())
    if old is not None:
        if written is None:
            shutil.rmtree(old)
        else:
            _removing.add(old)
            threading.Thread(target=_remove, args=(old,)).start()  # (joined at exit: nothing is left behind)


_removing: set[Path] = set()  # replaced folders being removed in the background


def _remove(folder: Path) -> None:
    try:
        shutil.rmtree(folder, ignore_errors=True)
    finally:
        _removing.discard(folder)


def _sig(path: Path) -> tuple:
    """What tells that a file in the output was replaced or written to since (not its ctime,
    which linking and unlinking the file's other names change)."""
    st = os.stat(path)
    return st.st_mtime_ns, st.st_size, st.st_ino, st.st_dev


def _link_unchanged(previous: Path, target: Path, data: bytes, last: tuple | None) -> bool:
    if last is None or not (last[0] is data or last[0] == data):
        return False
    try:
        if _sig(previous) != last[1]:
            return False
        os.link(previous, target)
    except OSError:
        return False
    return True
