"""The study's sponsor as its protocol prints it ("Sponsor: Acme Pharma GmbH", "Name of
Sponsor/Company: ...", or a company's name alone at the top of the title page).

Where: labelled on the title page or the front matter, then in the synopsis, then in the running
headers; else an unlabelled line near the top of the title page that is nothing but a
company's name.
"""

from __future__ import annotations

import re
from typing import Optional

from .front_matter import LABEL_LINE, FrontMatter, value_after
from .titles import NOT_TITLE, TITLE_WORDS

_SPONSOR_NAME_LABEL = re.compile(
    r"^(?:(?:clinical\s+)?(?:study\s+|trial\s+)?sponsor(?:\s+name)?(?:\s+and\s+(?:legal\s+)?(?:registered\s+)?address)?"
    r"|name\s+of\s+(?:the\s+)?(?:sponsor|company)(?:\s*/\s*(?:sponsor|company))?)\s*:?\s*(.*)$",
    re.I,
)
_LEGAL_SUFFIX = re.compile(
    r"^(.*?(?:,?\s(?:Inc|Ltd|LLC|L\.L\.C|GmbH|AG|A/S|AB|Corp|Corporation|plc|PLC|S\.A|SA|B\.V|BV|N\.V|NV|"
    r"Limited|Company|S\.p\.A|SE|KK|K\.K|Co)\b\.?)(?:\s*\([^)]{2,12}\))?)",
)


# "Sponsor:" inside a line, after other text ("... Ovarian Cancer Sponsor: TESARO, Inc. ..."),
# on the title page; never "Co-Sponsor:" nor "Sponsor Protocol No.:".
_INNER_SPONSOR = re.compile(r"(?<![A-Za-z-])(?:Sponsor|SPONSOR)\s*:\s*(?=[A-Z])")
# What a company's name ends with: a legal form, or a word of the trade.
_COMPANY_END = (
    r"(?:Inc|Ltd|LLC|L\.L\.C|GmbH|AG|A/S|AB|Corp|Corporation|Company|plc|PLC|S\.A|B\.V|N\.V|Limited|S\.p\.A|K\.K)\.?"
    r"|Pharmaceuticals?|Pharma|Therapeutics|Biosciences?|Biotherapeutics|Biotech(?:nology)?|Biopharma(?:ceuticals?)?|"
    r"Laboratories|Research\s*(?:&|and)\s*Development|R\s*&\s*D"
)
_COMPANY = re.compile(r"\b(?:" + _COMPANY_END + r")(?![A-Za-z])")
# A line that is a company's name and nothing else: capitalised words (and "&", "and", "of",
# "-"), ending with the legal form or trade word.
_COMPANY_NAME = re.compile(
    r"(?:[A-Z][\w.'’-]*|&|and|of|de|la)(?:,?\s+(?:[A-Z][\w.'’-]*|&|and|of|de|la))*?,?\s+(?:" + _COMPANY_END + r")"
)
_TOP_LINES = 8  # how far down the title page an unlabelled sponsor line may stand


def _looks_like_name(name: str) -> bool:
    """A sponsor's name starts with a letter and holds a word (never "3.0 (Amendment")."""
    return (
        bool(name) and name[0].isalpha() and bool(re.search(r"[A-Za-z]{2,}", name)) and "(amendment" not in name.lower()
    )


def read_sponsor(front: FrontMatter) -> Optional[dict]:
    """``{"text", "page"}``: the sponsor's name, labelled or printed alone near the top of the
    title page; None when neither is printed."""
    found = _labelled_sponsor(front)
    return found if found is not None else _title_page_company(front)


def _labelled_sponsor(front: FrontMatter) -> Optional[dict]:
    for lines in (front.title_lines + front.front_lines, front.synopsis_lines, front.header_lines):
        for i, line in enumerate(lines):
            text = line.text
            if re.match(r"^co-?\s*sponsor", text, re.I):
                continue
            m = _SPONSOR_NAME_LABEL.match(text)
            if not m:
                if line.zone == "title page":
                    inner = _INNER_SPONSOR.search(text)
                    name = _clean_sponsor(text[inner.end() :]) if inner else ""
                    if _looks_like_name(name):
                        # placed by the words from the label on, inside the pages the line
                        # was read from: the line's start (a title) may be printed earlier too
                        pages = front.tracer.trace(text[inner.start() :], line.first, line.last)["pages"]
                        return {"text": name, "page": pages[0] if pages else front.page_of(line, name)}
                continue
            if re.match(
                r"^sponsor\s*(?:'s)?\s*(?:signatory|signature|protocol|study|trial|contact|medical|representative|approval)",
                text,
                re.I,
            ):
                continue
            value, at = value_after(lines, i, m.group(1))
            if not value.strip() and i + 1 < len(lines):
                nxt = LABEL_LINE.match(lines[i + 1].text)
                if nxt and re.fullmatch(r"(?:non-?\s*US|US(?:\s+territory)?|EU|global|worldwide)", nxt.group(1), re.I):
                    value, at = lines[i + 1].text, lines[i + 1]
            name = _clean_sponsor(value)
            if name and not _looks_like_name(name) and not m.group(1).strip():
                # labels stacked in one column, values in the next: the line after the
                # label is another label's value ("3.0 (Amendment 2.0)"); the sponsor's is
                # the next line that reads as a company's name
                for later in lines[i + 1 : i + 8]:
                    candidate = _clean_sponsor(later.text)
                    if _looks_like_name(candidate) and _COMPANY.search(candidate):
                        name, at, value = candidate, later, later.text
                        break
            if _looks_like_name(name):
                return {"text": name, "page": front.page_of(at, value)}
    return None


def _title_page_company(front: FrontMatter) -> Optional[dict]:
    """A sponsor printed without a label: a line near the top of the title page that is
    nothing but a company's name ("Janssen Research & Development", "Acme Pharma GmbH")."""
    for line in front.title_lines[:_TOP_LINES]:
        text = line.text.strip(" *")
        if not 1 <= len(text.split()) <= 8 or re.search(r"[:\d@|]|/(?!S\b)", text) or NOT_TITLE.search(text):
            continue
        if TITLE_WORDS.search(text) or not _COMPANY_NAME.fullmatch(text):
            continue
        return {"text": text.rstrip(","), "page": front.page_of(line, text)}
    return None


def _clean_sponsor(value: str) -> str:
    value = " ".join(value.split()).strip(" *:")
    value = re.sub(r"^(?:non-?\s*US|US territory|global)\s*:\s*", "", value, flags=re.I)
    value = value.split(":")[0].strip()  # a name holds no colon: what follows is another field
    if not value or len(value) < 3:
        return ""
    m = _LEGAL_SUFFIX.match(value)
    if m and len(m.group(1)) >= 3:
        return m.group(1).strip().rstrip("*,")
    cut = re.split(
        r",?\s+\d|\s\(hereafter|,\s+a\s+(?:wholly|subsidiary)|\s+(?:phone|tel|fax|e-?mail)\b",
        value,
        maxsplit=1,
        flags=re.I,
    )[0]
    return cut.strip().rstrip("*,")
