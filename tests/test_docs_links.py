"""The README and the docs/ pages: every relative link and picture points at a file (and a heading) that exists,
the README stays a newcomer's page (under 15 KB, its test command the one ``.ci/run`` runs), and every page is
linked from the README."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"!?\[(?:[^\]\\]|\\.)*\]\(([^)\s]+)\)")
"""``[text](target)`` and ``![alt](target)``; the text may run over a line break."""


def _outside_code(text: str) -> str:
    """The text with fenced code blocks and inline code spans blanked (a link in code is not a link)."""
    text = re.sub(r"^```.*?^```", "", text, flags=re.S | re.M)
    return re.sub(r"`[^`]*`", "``", text)


def _anchors(page: Path) -> set[str]:
    """The anchors GitHub gives the page's headings (lower case, punctuation dropped, spaces as hyphens; a repeated
    heading gets ``-1``, ``-2``...)."""
    seen: dict[str, int] = {}
    found: set[str] = set()
    text = re.sub(r"^```.*?^```", "", page.read_text(encoding="utf-8"), flags=re.S | re.M)
    for m in re.finditer(r"^#{1,6} +(.+?) *#* *$", text, flags=re.M):
        slug = "".join(c for c in m.group(1).lower() if c.isalnum() or c in " -_").replace(" ", "-")
        n = seen.get(slug, 0)
        seen[slug] = n + 1
        found.add(slug if n == 0 else f"{slug}-{n}")
    return found


def _links(page: Path) -> list[str]:
    return [m.group(1) for m in LINK.finditer(_outside_code(page.read_text(encoding="utf-8")))]


def test_every_relative_link_points_at_a_file_and_heading_that_exist() -> None:
    broken: list[str] = []
    checked = 0
    for page in PAGES:
        for target in _links(page):
            if re.match(r"[a-z][a-z0-9+.-]*:", target):  # https:, mailto: ...: not ours to check offline
                continue
            path, _, anchor = target.partition("#")
            dest = (page.parent / path).resolve() if path else page
            checked += 1
            if not dest.exists():
                broken.append(f"{page.relative_to(ROOT)}: {target} (no such file)")
            elif anchor and dest.suffix == ".md" and anchor not in _anchors(dest):
                broken.append(f"{page.relative_to(ROOT)}: {target} (no heading #{anchor})")
    assert checked > 50  # the pages do link to each other and show pictures
    assert not broken, "\n".join(broken)


def test_the_readme_is_short_and_links_every_page() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.encode("utf-8")) < 15_000
    linked = {Path(t.partition("#")[0]).name for t in _links(ROOT / "README.md")}
    for page in PAGES[1:]:
        assert page.name in linked, f"README.md does not link docs/{page.name}"


def test_the_readme_test_command_is_the_one_ci_runs() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    command = ci[ci.index("# The README's test command, verbatim:") + 1]
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    head = readme[:readme.index("\n## ", readme.index("## The two commands"))]  # the commands stay at the top
    assert f"```\n{command}\n```" in head
    play = "python3 -m venv .venv && .venv/bin/pip install . && .venv/bin/arcade"  # the player's install
    assert f"```\n{play}\n```" in head
