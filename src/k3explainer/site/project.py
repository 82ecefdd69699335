"""Where a project's inputs live (a module of its own: the CLI needs it before it loads the pipeline)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

# The engine's own templates and static files (page frame, runtime, widgets, base styles). A
# project's templates/ and static/ hold its figures' components and sheets, and may override any
# theme file by giving one of the same name.
THEME = Path(__file__).resolve().parents[1] / "theme"


@dataclass(frozen=True)
class Project:
    """Where a project's inputs live; everything is relative to its root."""

    root: Path

    content = property(lambda self: self.root / "content")
    templates = property(lambda self: self.root / "templates")
    static = property(lambda self: self.root / "static")
    cache = property(lambda self: self.root / ".cache" / "math.json")
    figure_cache = property(lambda self: self.root / ".cache" / "figures")

    @property
    def node_modules(self) -> Path:
        """The project's npm packages; without any, those of the engine's checkout (an editable
        install), so a new project builds before its first `npm install`."""
        own = self.root / "node_modules"
        checkout = THEME.parents[2] / "node_modules"
        return own if own.is_dir() or not (checkout / "temml").is_dir() else checkout

    def layered(self, rel: str) -> list[Path]:
        """The folder `rel` (e.g. "static/js/runtime") of the theme, then of the project."""
        return [d for d in (THEME / rel, self.root / rel) if d.is_dir()]

    def file(self, rel: str) -> Path:
        """The project's file `rel` if it has one, else the theme's."""
        own = self.root / rel
        return own if own.is_file() else THEME / rel
