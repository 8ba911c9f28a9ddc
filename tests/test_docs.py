"""The docs stay linked: every relative link of README.md and docs/*.md reaches an existing file and, for a
Markdown file, an existing heading or ``<a id>`` anchor; every docs page is reachable from the README; every
alert's runbook anchor exists on the page the schema's default ``alerts.runbook_url`` points at; the
recorded-series tables are the registry's."""
from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

from gpudash.alerts import catalog
from gpudash.model import json_schema
from gpudash.rules import catalog as series_catalog
from gpudash.rules import names
from tests.conftest import ROOT

README = ROOT / "README.md"
DOCS = sorted((ROOT / "docs").glob("*.md"))
FENCE = re.compile(r"^(```|~~~).*?^\1", re.M | re.S)
CODE = re.compile(r"`[^`\n]*`")
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
HEADING = re.compile(r"^#{1,6} +(.+?) *#*$", re.M)
ANCHOR = re.compile(r"<a +(?:id|name)=\"([^\"]+)\"")


def _prose(text: str) -> str:
    return FENCE.sub("", text)


def slug(heading: str) -> str:
    """GitHub's heading anchor: the rendered text lowercased, punctuation but ``-`` and ``_`` dropped, spaces
    to ``-`` (github-slugger, which github.com uses)."""
    text = heading.replace("`", "").lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    text = path.read_text()
    found, seen = set(ANCHOR.findall(text)), {}
    for heading in HEADING.findall(_prose(text)):
        base = slug(heading)
        n = seen.get(base, 0)
        found.add(base if n == 0 else f"{base}-{n}")  # github-slugger numbers repeated headings
        seen[base] = n + 1
    return found


def links(path: Path) -> list[str]:
    return [t for t in LINK.findall(CODE.sub("", _prose(path.read_text()))) if not urlsplit(t).scheme]


def _resolve(source: Path, target: str) -> tuple[Path, str]:
    parts = urlsplit(target)
    return (source.parent / unquote(parts.path)).resolve() if parts.path else source, unquote(parts.fragment)


def broken(page: Path, root: Path = ROOT) -> list[str]:
    """The relative links of ``page`` that reach no file under ``root``, or no anchor of a Markdown file."""
    found = []
    for target in links(page):
        path, fragment = _resolve(page, target)
        if not path.exists() or root not in path.parents:
            found.append(f"{target}: no such file in the repository")
        elif fragment and path.suffix == ".md" and fragment not in anchors(path):
            found.append(f"{target}: no heading or anchor #{fragment} in {path.relative_to(root)}")
    return found


@pytest.mark.parametrize("page", [README, *DOCS], ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_relative_link_resolves(page):
    assert broken(page) == [], page.relative_to(ROOT)


def test_every_docs_page_is_linked_from_the_readme():
    linked = {_resolve(README, t)[0] for t in links(README)}
    assert [p.name for p in DOCS if p.resolve() not in linked] == []


def test_every_alert_has_a_runbook_anchor_where_the_default_url_points(example_model):
    default = json_schema()["properties"]["alerts"]["properties"]["runbook_url"]["default"]
    page, fragment = re.fullmatch(r"https://github\.com/[^/]+/[^/]+/blob/main/([^#]+)#(.+)", default).groups()
    found = anchors(ROOT / page)
    missing = [a["alert"] for a in catalog.rows(example_model) if fragment.format(alertname=a["alert"]) not in found]
    assert missing == []


@pytest.mark.parametrize("where", [names.SPOKE, names.SPOKE_TIER, names.HUB])
def test_series_tables_are_the_registry(where):
    doc = (ROOT / "docs" / "billing.md").read_text()
    assert series_catalog.table(where) in doc, "re-generate the table with gpudash.rules.catalog.table"
    start, end = series_catalog.markers(where)
    assert doc.count(start) == doc.count(end) == 1


def test_slug_matches_github():
    assert slug("Choosing the delivery targets (`outputs.targets`)") == "choosing-the-delivery-targets-outputstargets"
    assert slug("`gpudash doctor`: is this cluster ready to bill?") == "gpudash-doctor-is-this-cluster-ready-to-bill"
    assert slug("Tenancy on the ACM hub: rbac-query-proxy") == "tenancy-on-the-acm-hub-rbac-query-proxy"


def test_a_broken_link_is_caught(tmp_path):
    """The checker has teeth: a missing file and a missing anchor are reported, code blocks are not links."""
    page = tmp_path / "page.md"
    page.write_text("# Title\n\n[a](page.md#title) [b](#nowhere) [c](missing.md) `[e](y.md)`\n```\n[d](x.md)\n```\n")
    assert broken(page, tmp_path) == ["#nowhere: no heading or anchor #nowhere in page.md",
                                      "missing.md: no such file in the repository"]
