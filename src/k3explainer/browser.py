"""What the measuring tools (bench, reserve, screenshot) share: Debian's Chromium and a quiet
local server for a built site."""
from __future__ import annotations

import functools
import shutil
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
LAUNCH = {"executable_path": CHROMIUM, "args": ["--no-sandbox", "--disable-gpu"]}


def serve(folder: Path) -> tuple[ThreadingHTTPServer, str]:
    """Serve `folder` on a free local port; returns the server (call .shutdown()) and index.html's URL."""
    handler = functools.partial(type("Quiet", (SimpleHTTPRequestHandler,), {"log_message": lambda *a: None}),
                                directory=str(folder))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/index.html"
