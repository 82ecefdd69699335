"""Writing the site: build everything into a temporary sibling folder, then swap it in.

If anything fails before the swap, the previous output is untouched.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path


def write_atomic(out: Path, files: dict[str, bytes]) -> None:
    """Write `files` into `out`, swapped in whole."""
    out = out.resolve()
    out.parent.mkdir(parents=True, exist_ok=True)
    for stale in out.parent.glob(f".{out.name}.old-*"):  # left by a build that was stopped
        shutil.rmtree(stale, ignore_errors=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.new-", dir=out.parent))
    try:
        for rel, data in sorted(files.items()):
            target = tmp / rel
            target.parent.mkdir(parents=True, exist_ok=True)
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
    if old is not None:
        shutil.rmtree(old)
