"""The article as a whole: its settings (content/site.yaml: title, byline, dates, version, parts)
and how to cite it (a BibTeX entry, a plain-text citation, Google Scholar's citation_* tags and
schema.org's ScholarlyArticle), all made here from the settings, so the page and its head agree.
"""

from __future__ import annotations

import json
import re
from datetime import date
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, field_validator
from pydantic_core import PydanticCustomError

from .errors import Diagnostics
from .validate import validate
from .yamlmarks import load_file


class Author(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(min_length=2)
    group: bool = False  # a team or organisation, cited under its whole name
    affiliation: str | None = None
    url: str | None = Field(default=None, pattern=r"^https?://")


class Part(BaseModel):
    model_config = ConfigDict(extra="forbid")
    id: str = Field(pattern=r"^[a-z0-9-]+$")
    title: str


class Site(BaseModel):
    model_config = ConfigDict(extra="forbid")
    title: str
    subtitle: str
    # the page's <meta name="description"> and the preview a link to it shows (Open Graph)
    description: str
    # where the site will be published, if known: gives the page a canonical address and a link
    # preview its og:url. The page itself links only relatively, so it works in any folder.
    url: str | None = None
    parts: list[Part] = Field(min_length=1)
    authors: list[Author] = Field(min_length=1)  # a group is one author: {name: "The k3explainer authors"}
    published: date  # YYYY-MM-DD
    updated: date | None = None
    version: str | None = Field(default=None, pattern=r"^[0-9A-Za-z][0-9A-Za-z.\-]*$")
    # the picture a link preview shows: a file under the project's static/ (none by default)
    image: str | None = Field(default=None, pattern=r"^[^/].*\.(png|jpe?g|webp)$")

    @field_validator("url")
    @classmethod
    def _absolute_folder(cls, url: str | None) -> str | None:
        if url is not None and not re.fullmatch(r"https?://[^\s/]+(/\S*)?/", url):
            raise PydanticCustomError(
                "url",
                "give the full address the site is published at, ending in '/' (e.g. https://example.org/explainer/)",
            )
        return url


def load_site(path: Path, diags: Diagnostics) -> Site | None:
    if not path.is_file():
        diags.add(path, 1, 1, "missing: every project has its settings here (title, subtitle, description, parts)")
        return None
    marked = load_file(path, diags, "site settings")
    if marked is None:
        return None
    site = validate(Site, marked, path, diags)
    if site is not None and site.image:
        static = path.parent.parent / "static"
        if not (static / site.image).is_file():
            diags.add(path, *marked.where(("image",)), f"image: no file static/{site.image}")
        elif not site.url:
            diags.add(path, *marked.where(("image",)), "image: a link preview needs the address too: give `url`")
    return site


def preview_image(site: Site) -> str | None:
    """Where the page ships the link-preview image (assets/NAME), if the author names one."""
    return f"assets/{Path(site.image).name}" if site.image else None


def long_date(day: date) -> str:
    return f"{day.day} {day:%B} {day.year}"


def names(site: Site) -> str:
    """ "A, B and C", as the byline and the plain citation give them."""
    who = [a.name for a in site.authors]
    return who[0] if len(who) == 1 else ", ".join(who[:-1]) + " and " + who[-1]


def _bibtex_name(author: Author) -> str:
    if author.group or " " not in author.name:
        return "{" + author.name + "}"
    first, last = author.name.rsplit(" ", 1)
    return f"{last}, {first}"


_MINOR = {"a", "an", "and", "at", "by", "for", "from", "how", "in", "into", "of", "on", "the", "to", "why", "with"}


def cite_key(site: Site) -> str:
    """e.g. k3explainer2026gpt: the first author's surname (a group's first word that is not
    "the"), the year, and the title's first word that is not a minor one."""
    author = site.authors[0]
    words = re.findall(r"[a-z0-9]+", author.name.lower())
    who = next((w for w in words if w not in _MINOR), "anon") if author.group else words[-1] if words else "anon"
    title = next((w for w in re.findall(r"[a-z0-9]+", site.title.lower()) if w not in _MINOR), "article")
    return f"{who}{site.published.year}{title}"


def bibtex(site: Site) -> str:
    fields = [
        ("author", " and ".join(_bibtex_name(a) for a in site.authors)),
        ("title", "{" + site.title + "}"),
        ("year", str(site.published.year)),
        ("month", f"{site.published:%b}".lower()),
        ("howpublished", "Interactive article" + (f", version {site.version}" if site.version else "")),
    ]
    fields += [("url", site.url)] if site.url else []
    fields += [("note", f"Updated {long_date(site.updated)}")] if site.updated else []
    body = ",\n".join(f"  {k} = {{{v}}}" for k, v in fields)
    return f"@misc{{{cite_key(site)},\n{body}\n}}"


def plain_citation(site: Site) -> str:
    parts = [f"{names(site)} ({site.published.year}). {site.title}.", "Interactive article"]
    parts[-1] += f", version {site.version}" if site.version else ""
    parts[-1] += f", updated {long_date(site.updated)}." if site.updated else "."
    return " ".join(parts + ([site.url] if site.url else []))


def scholar_meta(site: Site) -> list[tuple[str, str]]:
    """Google Scholar's tags (its inclusion guidelines): title, each author, the date as YYYY/MM/DD."""
    meta = [("citation_title", site.title)] + [("citation_author", a.name) for a in site.authors]
    meta.append(("citation_publication_date", f"{site.published:%Y/%m/%d}"))
    return meta + ([("citation_public_url", site.url)] if site.url else [])


def json_ld(site: Site) -> str:
    """schema.org ScholarlyArticle, safe inside <script type="application/ld+json">."""
    data = {
        "@context": "https://schema.org",
        "@type": "ScholarlyArticle",
        "headline": site.title,
        "description": site.description,
        "author": [
            {"@type": "Organization" if a.group else "Person", "name": a.name}
            | ({"affiliation": {"@type": "Organization", "name": a.affiliation}} if a.affiliation else {})
            | ({"url": a.url} if a.url else {})
            for a in site.authors
        ],
        "datePublished": site.published.isoformat(),
    }
    data |= {"dateModified": site.updated.isoformat()} if site.updated else {}
    data |= {"version": site.version} if site.version else {}
    data |= {"url": site.url} if site.url else {}
    return json.dumps(data, ensure_ascii=False, indent=1).replace("</", "<\\/")
