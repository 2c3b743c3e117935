"""The study's titles as its protocol prints them: the official title, the short title and the
acronym.

The title page and the front matter are read: a labelled title ("Official Title:", "Protocol
Title:", "Title:", the value maybe on the lines below) wins, the most specific label first;
without one, the title page's line that reads most like a trial's title.
"""

from __future__ import annotations

import re

from .front_matter import LABEL_LINE, FrontMatter, norm, value_after

_OFFICIAL_LABEL = re.compile(
    r"^(?:official\s+(?:protocol\s+|study\s+)?title(?:\s+of\s+(?:the\s+)?(?:study|trial|protocol))?|"
    r"(?:full\s+|protocol\s+|study\s+|trial\s+|scientific\s+)?title(?:\s+of\s+(?:the\s+)?(?:study|trial|protocol))?)"
    r"\s*:?\s*(.*)$",
    re.I,
)
_SHORT_LABEL = re.compile(r"^(?:short|brief|abbreviated)\s+(?:study\s+|protocol\s+|trial\s+)?title\s*:?\s*(.*)$", re.I)
_ACRONYM_LABEL = re.compile(
    r"^(?:(?:study|trial|protocol)\s+)?(?:acronym|short\s+name)\s*:?\s*(.*)$|^(?:protocol|study|trial)\s+name\s*:\s*(.*)$",
    re.I,
)
TITLE_WORDS = re.compile(
    r"\b(?:study|trial|phase|randomi[sz]ed|evaluat\w*|efficacy|safety|effects?|investigat\w*|"
    r"versus|vs|rct|placebo|open-label|multicent\w+|double-blind)\b",
    re.I,
)
NOT_TITLE = re.compile(
    r"confidential|propert(?:y|ies)|copyright|all rights reserved|disclos|this (?:document|protocol|study will)|"
    r"good clinical practice|^page\b|in accordance with|^i have read|^the information|"
    r"^(?:cover|title) page|^clinical (?:study |trial )?protocol$",
    re.I,
)


def read_titles(front: FrontMatter) -> dict:
    """``{"official", "short", "acronym"}``, each ``{"text", "page"}`` or None."""
    lines = front.title_lines + front.front_lines
    official = short = acronym = None
    official_rank = 9
    for i, line in enumerate(lines):
        text = line.text
        m = _SHORT_LABEL.match(text)
        if m:
            value, at = value_after(lines, i, m.group(1))
            if value and short is None:
                short = {"text": _clean_title(value), "page": front.page_of(at, value)}
            continue
        m = _ACRONYM_LABEL.match(text)
        if m:
            value, at = value_after(lines, i, m.group(1) or m.group(2) or "")
            value = value.strip()
            if value and acronym is None and len(value.split()) <= 4:
                acronym = {"text": value, "page": front.page_of(at, value)}
            continue
        m = _OFFICIAL_LABEL.match(text)
        if m and not _SHORT_LABEL.match(text):
            label = text[: m.start(1)].lower() if m.group(1) else text.lower()
            rank = 0 if "official" in label else (1 if re.search(r"protocol|study|trial|full|scientific", label) else 2)
            if rank <= official_rank:
                value, at = value_after(lines, i, m.group(1))
                if (
                    rank == official_rank
                    and official
                    and not (
                        len(value) > 1.1 * len(official["text"]) and norm(value).startswith(norm(official["text"])[:40])
                    )
                ):
                    continue
                # A bare "Title" also labels a signature block's job-title field ("Title | Date (DD
                # MMM YYYY)"): its value must read like a trial's title.
                reads_as_title = rank < 2 or bool(TITLE_WORDS.search(value))
                if value and len(value.split()) >= 4 and not NOT_TITLE.search(value) and reads_as_title:
                    official = {"text": _clean_title(value), "page": front.page_of(at, value)}
                    official_rank = rank
    if official is None:
        best = None
        for line in front.title_lines:
            text = line.text
            label = LABEL_LINE.match(text)
            # "HERTHENA-Lung01: A Phase 2 Randomized ...": a study's name before its title reads
            # like a label; its value is still the title when it reads as one.
            named = (
                label
                and len(label.group(1).split()) == 1
                and len(label.group(2).split()) >= 8
                and TITLE_WORDS.search(label.group(2))
            )
            if (
                label
                and not named
                and not TITLE_WORDS.search(label.group(1))
                and (len(label.group(2).split()) < 8 or len(label.group(1).split()) > 1 or not label.group(1).isupper())
            ):
                continue
            n = len(text.split())
            if n < 6 or n > 80 or NOT_TITLE.search(text) or not TITLE_WORDS.search(text):
                continue
            if re.match(r"^(?:study|protocol|trial)\s+(?:number|no)", text, re.I):
                continue
            score = (
                (1 if line.heading else 0)
                + (1 if re.search(r"\b(?:study|trial)\b", text, re.I) else 0)
                + (1 if n >= 10 else 0)
                + (1 if re.search(r"\b(?:phase|randomi[sz]ed|versus|placebo)\b", text, re.I) else 0)
            )
            if best is None or score > best[0]:
                best = (score, line)
        if best:
            official = {"text": _clean_title(best[1].text), "page": front.page_of(best[1], best[1].text)}
    if official:
        official = _completed(official, lines + front.synopsis_lines + front.labelled_lines)
        key = norm(official["text"])[:60]
        pages = [front.page_of(line, line.text) for line in front.title_lines if key and key in norm(line.text)]
        pages = [p for p in pages if isinstance(p, int)]
        if pages and (not isinstance(official["page"], int) or min(pages) < official["page"]):
            official["page"] = min(pages)
    if official and acronym is None:
        # "BRIGHT: A Phase 3 ...", "HERTHENA-Lung01: A Phase 2 ...": capitals, maybe a hyphenated tail
        m = re.match(r"^([A-Z][A-Z0-9]{2,}(?:-[A-Za-z0-9]+)*(?:\s[A-Z0-9-]+)?)\s*:\s+\S", official["text"])
        if m:
            acronym = {"text": m.group(1), "page": official["page"]}
    return {"official": official, "short": short, "acronym": acronym}


def _completed(official: dict, lines: list) -> dict:
    """The title completed by another printing of it that goes on where it stops ("... with
    Hereditary" on the title page, whose last line was lost; "Title: ... with Hereditary
    Angioedema Type I or II" on the signature page): a title cut at a line break. A few words
    more at most, not a bracketed note or a field's label after it, and not after a title that
    ends with its acronym's bracket or a full stop."""
    n = len(official["text"].split())
    for i, line in enumerate(lines):
        m = _OFFICIAL_LABEL.match(line.text)
        if not m or _SHORT_LABEL.match(line.text):
            continue
        words = _clean_title(value_after(lines, i, m.group(1))[0]).split()
        rest = words[n:] if norm(" ".join(words[:n])) == norm(official["text"]) else []
        if (
            rest
            and len(rest) <= 10
            and not rest[0].startswith("(")
            and ":" not in " ".join(rest)
            and not official["text"].endswith((")", "."))
        ):
            return {"text": " ".join(words), "page": official["page"]}
    return official


# what a title page prints after the title on its line: the registry's number, the protocol's
# ("... Undergoing IVF NCT01035099 Protocol ID: 0811010075")
# (a registry number inside the title is the title's: "... Who Completed Study NCT01234567")
_AFTER_TITLE = re.compile(
    r"(?<!\bstudy)(?<!\bin)(?<!\bfrom)(?<!\bof)(?<!\band)(?<!\bwith)"
    r"\s+NCT\s*#?\s*\d{8}\b(?=\s*$|\s+(?:protocol|study)\s+(?:id|no\.?|number)\b).*$"
    r"|\s+(?:protocol|study)\s+(?:id|no\.?|number)\s*[:#].*$",
    re.I,
)


def _clean_title(text: str) -> str:
    text = _AFTER_TITLE.sub("", text)
    text = re.sub(r"(?<=[A-Za-z])- (?=[A-Za-z])", "-", text)
    text = re.sub(r"\s+([,.;:)])", r"\1", text)
    return " ".join(text.split()).strip(" *")
