"""What a one-shot build starts before it loads the rest of the pipeline (the Markdown parser, Jinja,
the section models: ~0.15 s of imports): node, which loads Temml for the formulas, and the figure
builders in a second process (figjobs.py), which need only the facts and the specs. On two cores
both then run beside the rest of the build. The CLI's build and check start one; `--serve`, which
keeps its results in memory between rebuilds, and a build called from Python compute in order.
"""
from __future__ import annotations

import time
from dataclasses import dataclass

from .errors import Diagnostics
from .facts import Facts, project_facts
from .figdata import start_jobs
from .figjobs import FigureJobs
from .math import Renderer, start_renderer
from .project import Project
from .specs import Spec, load_specs


@dataclass
class HeadStart:
    diags: Diagnostics  # what loading the facts and specs reported; the build adds the rest
    facts: Facts
    specs: dict[str, Spec]
    renderer: Renderer | None  # None with a math cache (math.start_renderer)
    jobs: FigureJobs | None  # None when the facts or specs have problems: the build stops anyway
    started: float  # time.perf_counter() when the build began

    def stop(self) -> None:
        """The build stopped early: end node and the worker now."""
        if self.renderer is not None:
            self.renderer.stop()
        if self.jobs is not None:
            self.jobs.cancel()


def head_start(project: Project) -> HeadStart:
    started = time.perf_counter()
    renderer = start_renderer(project.node_modules, project.cache)
    diags = Diagnostics(project.root)
    facts = project_facts(project.root, diags)
    specs = load_specs(project.content / "figures", diags)
    jobs = start_jobs(specs, facts, project.root, project.figure_cache) if not diags.items else None
    return HeadStart(diags, facts, specs, renderer, jobs, started)
