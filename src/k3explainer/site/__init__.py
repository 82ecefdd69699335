"""The site generator: content/ → validated model → figure data → HTML.

Floors, each importing only the ones below it:
    pipeline  ← cli, serve
    render, output
    markdown, math, figdata
    content, specs, facts
    yamlmarks, errors, projectcode (the project's own figures/ and derived.py)
"""
