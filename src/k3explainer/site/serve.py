"""`python build.py --serve`: serve the output on 127.0.0.1, rebuild on change, reload the page.

Only files inside the output folder are served. A failed rebuild keeps the last good site and
shows the errors as an overlay in the open page (sent over server-sent events).
"""

from __future__ import annotations

import json
import posixpath
import sys
import threading
import time
from http import HTTPStatus
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import unquote, urlsplit

from . import projectcode
from .errors import BuildError
from .pipeline import Project, build

EVENTS = "/__k3/events"
CLIENT = "/__k3/live.js"
# Served as a file (not inline) so the page's Content-Security-Policy still holds.
LIVE_JS = """(function () {
  var box = null;
  var es = new EventSource("/__k3/events");
  es.addEventListener("reload", function () { location.reload(); });
  es.addEventListener("error-report", function (e) {
    if (!box) {
      box = document.createElement("pre");
      box.id = "k3-build-error";
      box.setAttribute("role", "alert");
      box.style.cssText = "position:fixed;inset:auto 1rem 1rem 1rem;max-height:50vh;overflow:auto;z-index:99;" +
        "background:#2b0d0d;color:#ffd9d9;padding:1rem;border-radius:8px;font:13px/1.45 monospace;white-space:pre-wrap";
      document.body.appendChild(box);
    }
    box.textContent = "Build failed — still showing the last good build.\\n\\n" + JSON.parse(e.data).join("\\n");
  });
})();
"""


class LiveState:
    """The build generation and the latest errors, shared between the watcher and request threads."""

    def __init__(self) -> None:
        self.cond = threading.Condition()
        self.generation = 0
        self.errors: list[str] = []

    def publish(self, errors: list[str]) -> None:
        with self.cond:
            self.generation += 1
            self.errors = errors
            self.cond.notify_all()


def resolve_inside(root: Path, url_path: str) -> Path | None:
    """Map a URL path to a file inside `root`, or None if it would leave it (.., %2e%2e, symlinks)."""
    path = posixpath.normpath(unquote(urlsplit(url_path).path))
    parts = [p for p in path.split("/") if p and p not in (".", "..")]
    if ".." in path.split("/"):
        return None
    candidate = root.joinpath(*parts)
    try:
        real = candidate.resolve(strict=False)
        real.relative_to(root.resolve())
    except ValueError:
        return None
    if real.is_dir():
        real = real / "index.html"
    return real if real.is_file() else None


def make_handler(out: Path, live: LiveState):
    class Handler(SimpleHTTPRequestHandler):
        def log_message(self, *args) -> None:  # keep the terminal for build output
            pass

        def do_GET(self) -> None:  # http.server's naming
            route = urlsplit(self.path).path
            if route == EVENTS:
                return self._events()
            if route == CLIENT:
                return self._send(LIVE_JS.encode(), "text/javascript")
            target = resolve_inside(out, self.path)
            if target is None:
                return self.send_error(HTTPStatus.NOT_FOUND)
            body = target.read_bytes()
            if target.name == "index.html":
                body = body.replace(b"</body>", f'<script src="{CLIENT}"></script></body>'.encode())
            self._send(body, self.guess_type(str(target)))

        def _send(self, body: bytes, ctype: str) -> None:
            self.send_response(HTTPStatus.OK)
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            self.wfile.write(body)

        def _events(self) -> None:
            self.send_response(HTTPStatus.OK)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            with live.cond:
                seen = live.generation
                errors = live.errors
            try:
                if errors:
                    self._event("error-report", errors)
                while True:
                    with live.cond:
                        live.cond.wait_for(lambda seen=seen: live.generation != seen, timeout=15)
                        changed, seen, errors = live.generation != seen, live.generation, live.errors
                    if not changed:
                        self.wfile.write(b": ping\n\n")
                    elif errors:
                        self._event("error-report", errors)
                    else:
                        self._event("reload", [])
                    self.wfile.flush()
            except (BrokenPipeError, ConnectionResetError):
                pass

        def _event(self, name: str, payload: list[str]) -> None:
            self.wfile.write(f"event: {name}\ndata: {json.dumps(payload)}\n\n".encode())
            self.wfile.flush()

    return Handler


def _forget_builders() -> None:
    """Drop the project's builders and the kernels so an edited one is imported afresh by the next build."""
    projectcode.forget()
    for name in [m for m in sys.modules if m.startswith("k3explainer.kernels")]:
        del sys.modules[name]


def rebuild(project: Project, out: Path, live: LiveState, changed: set[Path] | None = None) -> None:
    """Build again; the project's builders and the kernels are imported afresh only when a Python
    file is among the `changed` paths (None: unknown, so always): an edit to prose or a spec
    keeps them (~0.1 s of re-importing per rebuild). Figure data and math come from the build's
    content-hash caches, so a prose edit runs no kernel and renders only its changed formulas."""
    t0 = time.perf_counter()
    if changed is None or any(p.suffix == ".py" for p in changed):
        _forget_builders()
    try:
        build(project, out)
    except BuildError as e:
        errors = [str(d) for d in e.diagnostics]
        print("\n".join(errors), flush=True)
        live.publish(errors)
        return
    print(f"rebuilt in {time.perf_counter() - t0:.2f} s", flush=True)
    live.publish([])


def serve(project: Project, out: Path, *, host: str = "127.0.0.1", port: int = 8000) -> int:
    live = LiveState()
    changes = _changes(project)
    next(changes)  # the watcher is live before the first build, so no edit from here on is missed
    rebuild(project, out, live)
    server = ThreadingHTTPServer((host, port), make_handler(out, live))
    server.daemon_threads = True
    print(f"serving {out} at http://{host}:{server.server_address[1]}/  (Ctrl+C stops)", flush=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        for changed in changes:
            rebuild(project, out, live, changed)
    except KeyboardInterrupt:
        pass
    finally:
        server.shutdown()
    return 0


def _changes(project: Project):
    """Yield once when watching has started, then the set of changed paths once per batch of edits
    to the inputs (watchfiles if present, else polling)."""
    import k3explainer  # the engine itself (builders, kernels, pipeline), wherever it is installed

    # the project's Python: figures/ (which also holds the specs, components and sheets), any
    # package beside it, derived.py
    own = sorted({project.root / p.relative_to(project.root).parts[0] for p in projectcode.sources(project.root)})
    folders = (project.content, project.templates, project.static, project.root / "figures", *own)
    watched = [d for d in dict.fromkeys(folders) if d.exists()] + [Path(k3explainer.__file__).parent]
    try:
        from watchfiles import watch
    except ImportError:

        def stamp():
            files = (p for d in watched for p in ([d] if d.is_file() else sorted(d.rglob("*"))))
            return [(p, p.stat().st_mtime_ns) for p in files if p.is_file()]

        last = stamp()
        yield
        while True:
            time.sleep(0.5)
            now = stamp()
            if now != last:
                changed = {p for p, _ in set(now) ^ set(last)}
                last = now
                yield changed
    else:
        # yield_on_timeout makes the first (empty) batch arrive once the watcher exists; later empty
        # batches are idle ticks, not edits. A batch is handed over once a step (checked every
        # `step` ms) brings no new change: with watchfiles' default of 50 ms that was 50–100 ms of
        # every reload; an editor's save (write, or write and rename) takes well under 10 ms.
        batches = watch(*watched, debounce=100, step=10, rust_timeout=300, yield_on_timeout=True)
        next(batches)
        yield
        for batch in batches:
            if batch:
                yield {Path(path) for _, path in batch}
