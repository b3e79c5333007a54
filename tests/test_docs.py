"""The documents: every relative link in README.md and docs/*.md resolves (the file, and the
heading an ``#anchor`` names, by GitHub's heading-slug rule), every document in docs/ is
linked from the README, and the README stays one screen that opens with the two commands."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import unquote

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
DOCS = sorted((ROOT / "docs").glob("*.md"))
README_MAX_LINES = 150

FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
CODE_SPAN = re.compile(r"(`+)(?:.|\n)*?\1")
# [text](target "title") and ![alt](target); text may hold one level of brackets.
INLINE_LINK = re.compile(
    r"!?\[(?:[^\[\]]|\[[^\[\]]*\])*\]"  # the text
    r"\(\s*(<[^>]*>|[^)\s]*)(?:\s+\"[^\"]*\")?\s*\)"  # (target "title")
)
REFERENCE = re.compile(r"^ {0,3}\[[^\]]+\]:\s*(<[^>]*>|\S+)", re.MULTILINE)
HEADING = re.compile(r"^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
HTML_ANCHOR = re.compile(r"<a\s[^>]*(?:id|name)=\"([^\"]+)\"")
SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:|^//")


def prose(text: str) -> str:
    """The text outside code: fenced and indented code blocks blanked out (lines kept, so
    line numbers still hold), code spans removed."""
    out: list[str] = []
    fence: str | None = None
    blank_before = True
    in_indented = False
    for line in text.splitlines():
        marker = FENCE.match(line)
        if fence is not None:
            if marker and marker.group(1)[0] == fence[0] and len(marker.group(1)) >= len(fence):
                fence = None
            out.append("")
            continue
        if marker:
            fence = marker.group(1)
            out.append("")
            continue
        indented = line.startswith("    ") and line.strip()
        if indented and (blank_before or in_indented):
            in_indented = True
            out.append("")
            continue
        in_indented = in_indented and not line.strip()
        blank_before = not line.strip()
        out.append(line)
    return CODE_SPAN.sub("", "\n".join(out))


def links(text: str) -> Iterator[tuple[int, str]]:
    """(line number, target) of every link and image outside code."""
    body = prose(text)
    for pattern in (INLINE_LINK, REFERENCE):
        for match in pattern.finditer(body):
            target = match.group(1).strip("<>")
            yield body.count("\n", 0, match.start()) + 1, target


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: the text as shown (links and images by their text,
    code, emphasis and tags dropped), lower case, every character that is not a letter, a
    digit, a mark, a space, a hyphen or an underscore removed, each space a hyphen."""
    text = re.sub(r"!?\[((?:[^\[\]]|\[[^\[\]]*\])*)\]\([^)]*\)", r"\1", heading)
    text = re.sub(r"<[^>]+>", "", text)
    text = text.replace("`", "").replace("*", "")
    text = re.sub(r"(^|\s)_+|_+(\s|$)", r"\1\2", text)  # _emphasis_, not snake_case
    kept = "".join(
        c for c in text.lower() if c.isalnum() or c in " -_" or unicodedata.category(c)[0] == "M"
    )
    return kept.replace(" ", "-")


def anchors(text: str) -> set[str]:
    """Every anchor a markdown file offers: its headings' slugs (a repeated one numbered
    -1, -2, ... as GitHub does) and explicit ``<a id=...>`` / ``<a name=...>``."""
    found: set[str] = set()
    seen: dict[str, int] = {}
    fence: str | None = None
    for line in text.splitlines():
        marker = FENCE.match(line)
        if fence is not None:
            if marker and marker.group(1)[0] == fence[0]:
                fence = None
            continue
        if marker:
            fence = marker.group(1)
            continue
        heading = HEADING.match(line)
        if heading:
            base = slug(heading.group(2))
            n = seen.get(base, 0)
            seen[base] = n + 1
            found.add(base if n == 0 else f"{base}-{n}")
    found.update(HTML_ANCHOR.findall(text))
    return found


def broken_links(path: Path, root: Path = ROOT) -> list[str]:
    """What is wrong with the relative links of one markdown file, one line each."""
    problems = []
    for line, target in links(path.read_text(encoding="utf-8")):
        if not target or SCHEME.match(target):
            continue  # another site, mailto: and the like: not ours to check offline
        where = f"{path.relative_to(root)}:{line}: {target}"
        file_part, _, anchor = target.partition("#")
        dest = (path.parent / unquote(file_part)).resolve() if file_part else path
        if not dest.is_relative_to(root):
            problems.append(f"{where}: points outside the repository")
            continue
        if not dest.exists():
            problems.append(f"{where}: no such file")
            continue
        if not anchor:
            continue
        if dest.suffix != ".md":
            problems.append(f"{where}: an anchor into a file that is not markdown")
        elif unquote(anchor) not in anchors(dest.read_text(encoding="utf-8")):
            problems.append(f"{where}: no heading with that anchor")
    return problems


@pytest.mark.parametrize("path", [README, *DOCS], ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_resolves(path: Path) -> None:
    assert broken_links(path) == []


def test_every_document_is_linked_from_the_readme() -> None:
    linked = {
        (README.parent / unquote(t.partition("#")[0])).resolve()
        for _, t in links(README.read_text(encoding="utf-8"))
        if not SCHEME.match(t)
    }
    assert [str(p.relative_to(ROOT)) for p in DOCS if p not in linked] == []


def test_the_readme_is_one_screen_and_opens_with_the_two_commands() -> None:
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= README_MAX_LINES
    first = [line.strip() for line in lines[:6]]
    assert any(line.startswith("python3 build.py serve") for line in first), first
    assert any(line.startswith("python3 build.py test") for line in first), first


def test_the_check_finds_a_missing_file_a_missing_heading_and_a_way_out(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "other.md").write_text("# The `bridge` protocol, in full\n\n## Notes\n")
    page = tmp_path / "docs" / "page.md"
    page.write_text(
        "# Page\n\n## Notes\n\n## Notes\n\n"
        "[fine](other.md#the-bridge-protocol-in-full) [also](#notes-1) ![pic](other.md)\n"
        "[gone](missing.md) [no heading](other.md#nothing) [out](../../x.md)\n"
        "[again](#notes-2) `[in code](nowhere.md)` [web](https://example.org/x.md)\n"
        "\n    [indented code](nowhere.md)\n\n```\n[fenced](nowhere.md)\n```\n"
    )
    assert broken_links(page, tmp_path) == [
        "docs/page.md:8: missing.md: no such file",
        "docs/page.md:8: other.md#nothing: no heading with that anchor",
        "docs/page.md:8: ../../x.md: points outside the repository",
        "docs/page.md:9: #notes-2: no heading with that anchor",
    ]


@pytest.mark.parametrize(
    ("heading", "anchor"),
    [
        ("The bridge protocol", "the-bridge-protocol"),
        ("`solve`, `can_play` and `effort=`", "solve-can_play-and-effort"),
        ("Speed: page boot (ms)", "speed-page-boot-ms"),
        ("Rules & rulings", "rules--rulings"),
        ("See [the solver](solver.md) notes", "see-the-solver-notes"),
        ("Ünïcode ‘quotes’ and *emphasis*", "ünïcode-quotes-and-emphasis"),
    ],
)
def test_heading_slugs_follow_githubs_rule(heading: str, anchor: str) -> None:
    assert slug(heading) == anchor
