"""What the measuring tools (bench, reserve, screenshot) share: Debian's Chromium and a quiet
local server for a built site."""

from __future__ import annotations

import functools
import gzip
import io
import shutil
import sys
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
LAUNCH = {"executable_path": CHROMIUM, "args": ["--no-sandbox", "--disable-gpu"]}
# what a static host compresses (fonts are woff2, already compressed)
COMPRESSIBLE = (".html", ".css", ".js", ".json", ".svg", ".txt")


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


class _Gzip(_Quiet):
    """Answers text files gzip-compressed when the client accepts it, as any static host does."""

    def send_head(self):
        path = Path(self.translate_path(self.path))
        if path.is_dir():
            path = path / "index.html"
        if (
            path.suffix not in COMPRESSIBLE
            or not path.is_file()
            or "gzip" not in self.headers.get("Accept-Encoding", "")
        ):
            return super().send_head()
        body = gzip.compress(path.read_bytes(), mtime=0)
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(str(path)))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        return io.BytesIO(body)


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        if isinstance(sys.exc_info()[1], ConnectionError):
            return  # a browser dropped the connection mid-answer (its page closed or moved on): not an error
        super().handle_error(request, client_address)


def serve(folder: Path, *, compress: bool = False) -> tuple[ThreadingHTTPServer, str]:
    """Serve `folder` on a free local port (gzip-compressed like a static host with compress=True);
    returns the server (call .shutdown()) and index.html's URL."""
    handler = functools.partial(_Gzip if compress else _Quiet, directory=str(folder))
    server = _Server(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/index.html"
