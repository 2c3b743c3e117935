"""The study's identifiers as its protocol prints them: registry numbers (NCT, EudraCT, EU CT,
UTN, other registries), IND / IDE numbers and the sponsor's protocol number.

Formats are trusted wherever they stand on the title page and in the running headers; in the
front matter, the synopsis and the rest of the body only on a line whose label names an
identifier ("EudraCT Number: ...", "Protocol No.: ..."). The rest of the text is not read:
numbers of other trials cited in the background or references are not this study's. An
identifier found only struck through (Markdown ``~~``) or under a "Delete:" instruction is not
current and is not taken.

Everything here is pattern work on printed labels and number formats; nothing is specific to
one sponsor or document.
"""

from __future__ import annotations

import re
from typing import Optional

from ...shared.markup import strip_markup
from .front_matter import FrontMatter, Line, norm

# --------------------------------------------------------------------------------------------
# Identifier formats
# --------------------------------------------------------------------------------------------

_NCT = re.compile(r"\bNCT\s?(?:#|No\.?|number)?\s?:?\s?(\d{8})\b", re.I)
_EU_CT = re.compile(r"(?<![\d-])((?:19|20)\d\d-5\d{5}-\d\d-\d\d)(?![\d-])")
_EUDRACT = re.compile(r"(?<![\d-])((?:19|20)\d\d-\d{6}-\d\d)(?![\d]|-\d)")
_UTN = re.compile(r"\b(U\d{4}-\d{4}-\d{4})\b")
_OTHER_REGISTRY = re.compile(
    r"\b(ISRCTN\d{8}|ACTRN\d{14}|ChiCTR[-\w]*\d{6,}|CTRI/\d{4}/\d{2,3}/\d{6}|jRCT\w?\d{7,}|"
    r"JapicCTI-\d{6}|UMIN\d{9}|DRKS\d{8}|KCT\d{7}|IRCT\d{6,}\w*|PACTR\d{15}|NTR\d{4,}|"
    r"EUCTR\d{4}-\d{6}-\d\d(?:-[A-Z]{2})?|CTIS\s?\d{4}-\d{6}-\d\d-\d\d)\b"
)
# IND / IDE numbers: the label is what makes them identifiers.
_IND = re.compile(r"(?<![A-Za-z])(?:US\s+)?IND\s*(?i:No\.?|Number|#)?\s*:?\s*(\d[\d,]{3,7}\d)\b(?![\d-])")
_IDE = re.compile(r"(?<![A-Za-z])IDE\s*(?i:No\.?|Number|#)?\s*:?\s*([A-Z]?\d{5,7})\b")

# Sponsor protocol number labels, longest first; the value is a code that follows.
_SPONSOR_LABEL = re.compile(
    r"(?<![A-Za-z])(?:"
    r"sponsor(?:'s)?\s+(?:protocol|study|trial)\s+(?:number|no\.?|id|code|identifier)"
    r"|(?:sponsor|isn)\s*/\s*protocol(?:\s+(?:number|no\.?))?"
    r"|protocol\s*/\s*amendment\s+(?:number|no\.?)"
    r"|(?:clinical\s+)?(?:study\s+|trial\s+)?protocol\s+(?:number|no\.?|id|identifier|code|#)"
    r"|(?:[A-Z]{2,5}\s+)?(?:study|trial)\s+(?:number|no\.?|id|identifier|code|#)"
    r"|(?:clinical\s+(?:study\s+|trial\s+)?)?protocol"
    r"|study"
    r")(?![A-Za-z])\s*[:#]?\s*",
    re.I,
)
# A code: letters/digits joined by - . / _ ; must hold a digit. "EDP 305-101" (a short letter
# prefix, a space, a numbered code) is one code.
_CODE = re.compile(r"(?:[A-Z]{2,5}\s(?=\d))?[A-Za-z0-9]+(?:(?:[-./_]|\s/\s)[A-Za-z0-9]+)*")
_AMENDMENT_SUFFIX = re.compile(r"\s*\(\s*[a-z]\s*\)$")
_LABEL_ONLY = re.compile(
    r"(?:(?:[A-Z]{2,5}\s+)?(?:sponsor\s+)?(?:clinical\s+)?(?:study|trial|protocol)(?:\s+(?:number|no\.?|id|identifier|code|#))?"
    r"|eudract(?:\s+(?:number|no\.?))?|eu\s*ct(?:\s+number)?|(?:us\s+)?ind(?:\s+(?:number|no\.?))?|nct(?:\s+(?:number|no\.?))?"
    r"|utn|universal\s+trial\s+number)\s*[:#]?",
    re.I,
)
_KIND_LABEL = (  # a labelled line's label, to diagnose a value whose format says otherwise
    ("nct", re.compile(r"\bNCT\b|clinicaltrials\.gov", re.I)),
    ("eu_ct", re.compile(r"\bEU\s*CT\b", re.I)),
    ("eudract", re.compile(r"\bEudraCT\b", re.I)),
    ("ind", re.compile(r"\bIND\b")),
    ("utn", re.compile(r"\bUTN\b|universal\s+trial", re.I)),
)
_DELETED = re.compile(r"\b(?:delete[ds]?|deletion|removed|struck|strike[- ]?through|old text|previous(?:ly)?)\b", re.I)
_STRUCK = re.compile(r"~~(.+?)~~")


def read_identifiers(front: FrontMatter) -> tuple[list[dict], list[dict]]:
    """One entry per number, title page first (``{"kind", "text", "page", "source"}``), and
    diagnostics: numbers not current, mislabelled, several or disagreeing."""
    scan = _Scan(front)
    scan.scan(front.title_lines, anywhere=True)
    scan.scan(front.front_lines, anywhere=False)
    scan.scan(front.header_lines, anywhere=True)
    scan.scan(front.synopsis_lines, anywhere=False)
    scan.scan(front.labelled_lines, anywhere=False)
    scan.header_codes()
    identifiers = _merge(scan.found, scan.diagnostics)
    return identifiers, scan.diagnostics


# --------------------------------------------------------------------------------------------
# Scanning lines
# --------------------------------------------------------------------------------------------


class _Scan:
    def __init__(self, front: FrontMatter):
        self.front = front
        self.diagnostics: list[dict] = []
        self.found: list[dict] = []  # candidate identifiers, in reading order

    def _struck_or_deleted(self, line: Line, value: str, previous: Optional[Line]) -> bool:
        for m in _STRUCK.finditer(line.raw or ""):
            if value.replace(" ", "") in strip_markup(m.group(1)).replace(" ", ""):
                return True
        if _DELETED.search(line.text[: max(0, line.text.find(value))]):
            return True
        if previous is not None and re.fullmatch(r"\s*(?:delete[ds]?|deletion|removed)\s*:?\s*", previous.text, re.I):
            return True
        return False

    def _add(self, kind: str, text: str, line: Line, labelled: bool, label: str = "") -> None:
        self.found.append(
            {
                "kind": kind,
                "text": text,
                "page": self.front.page_of(line, text),
                "source": line.zone,
                "labelled": labelled,
                "label": label,
            }
        )

    def scan(self, lines: list[Line], anywhere: bool) -> None:
        """Identifiers of ``lines``; ``anywhere``: formats are trusted wherever they stand in the
        line (title page, header); else only on a line whose label names an identifier."""
        previous = None
        for k, line in enumerate(lines):
            text = line.text
            if k + 1 < len(lines) and _LABEL_ONLY.fullmatch(text) and len(lines[k + 1].text.split()) <= 3:
                text = text.rstrip(": ") + ": " + lines[k + 1].text
                line = Line(
                    text, line.raw + " " + lines[k + 1].raw, line.first, lines[k + 1].last, line.zone, line.node
                )
            if not anywhere and not self._is_identifier_line(text):
                previous = line
                continue
            spans = []
            for kind, rx in (
                ("nct", _NCT),
                ("eu_ct", _EU_CT),
                ("eudract", _EUDRACT),
                ("utn", _UTN),
                ("other_registry", _OTHER_REGISTRY),
                ("ind", _IND),
                ("ide", _IDE),
            ):
                for m in rx.finditer(text):
                    if any(m.start(1) < e and s < m.end(1) for s, e in spans):
                        continue
                    value = m.group(1)
                    if kind == "nct":
                        value = m.group(0).strip()
                    if self._struck_or_deleted(line, m.group(1), previous):
                        self.diagnostics.append(
                            {
                                "kind": "identifier_not_current",
                                "detail": f"{value!r} on page {line.first} is struck through or deleted",
                            }
                        )
                        spans.append((m.start(1), m.end(1)))
                        continue
                    spans.append((m.start(), m.end()))
                    label = text[max(0, m.start() - 30) : m.start()]
                    self._check_label(kind, value, label, line)
                    self._add(kind, value, line, True, label)
            for value, label in self._sponsor_codes(text, spans):
                if self._struck_or_deleted(line, value, previous):
                    continue
                self._add("sponsor", value, line, True, label)
            previous = line

    def _check_label(self, kind: str, value: str, before: str, line: Line) -> None:
        m = re.search(r"([A-Za-z][A-Za-z .#/]{1,25}?)\s*(?:number|no\.?|#)?\s*:?\s*$", before, re.I)
        if not m:
            return
        label = m.group(1)
        for other, rx in _KIND_LABEL:
            if rx.search(label) and other != kind and not (kind == "eu_ct" and other == "eudract"):
                if kind in ("ind", "ide"):
                    return
                self.diagnostics.append(
                    {
                        "kind": "identifier_label_mismatch",
                        "detail": f"{value!r} (page {line.first}, {line.zone}) is labelled "
                        f"{label.strip()!r} but is printed as a {kind} number",
                    }
                )
                return

    @staticmethod
    def _is_identifier_line(text: str) -> bool:
        head = text[:60]
        if re.match(
            r"^\s*(?:EudraCT|EU\s*CT|NCT|IND|IDE|UTN|Universal Trial|ClinicalTrials\.gov|"
            r"(?:[A-Z]{2,5}\s+)?(?:Sponsor\s+)?(?:Clinical\s+)?(?:Study|Trial|Protocol)\s*(?:/\s*Amendment\s*)?"
            r"(?:Number|No\.?|ID|Identifier|Code|#)|ISN|Registration|Registry|"
            r"(?:\w+\s+){0,2}Registry\s+(?:Number|No\.?|ID))\b",
            head,
            re.I,
        ):
            return bool(re.search(r"[:#]|\bN(?:o|umber)\b", head, re.I))
        return False

    def _sponsor_codes(self, text: str, taken: list[tuple[int, int]]) -> list[tuple[str, str]]:
        out = []
        for m in _SPONSOR_LABEL.finditer(text):
            label = m.group(0).strip()
            before = text[max(0, m.start() - 25) : m.start()]
            if re.search(r"(?:doc(?:ument)?\.?|eris|edms)\s*$", before, re.I):
                continue
            # "Protocol" / "Study" alone must be followed directly by a code (no colon needed),
            # and the word must not be inside a sentence ("this study 2020-...").
            bare = re.fullmatch(r"(?:(?:clinical\s+)?(?:study\s+|trial\s+)?protocol|study)\s*[:#]?", label, re.I)
            if (
                bare
                and m.start() > 0
                and not re.search(r"(?:^|[|:;,]\s*|\s{2,}|\)\s*)$", text[: m.start()])
                and not re.search(r"\b(?:clinical|amendment|final|approved)\s*$", text[: m.start()], re.I)
            ):
                continue
            rest = text[m.end() :]
            c = _CODE.match(rest)
            if not c:
                continue
            if any(s <= m.end() + c.start() < e for s, e in taken):
                continue
            value = c.group(0).rstrip(".,;/")
            value = _AMENDMENT_SUFFIX.sub("", value)  # an amendment letter "(c)" is not part of the number
            if not self._plausible_code(value, bare is not None):
                continue
            out.append((value, label))
        return out

    @staticmethod
    def _plausible_code(value: str, bare: bool) -> bool:
        compact = re.sub(r"[^A-Za-z0-9]", "", value)
        if len(compact) < 4 or not re.search(r"\d", value):
            return False
        if re.fullmatch(r"\d{1,2}(?:\.\d+)*", value):  # a version or section number
            return False
        if re.fullmatch(r"(?:19|20)\d\d", value) or re.fullmatch(r"\d{1,2}[-/.]\d{1,2}[-/.]\d{2,4}", value):
            return False  # a year or a date
        if re.fullmatch(r"(?:19|20)\d\d-\d{6}-\d\d(?:-\d\d)?", value):
            return False  # a EudraCT / EU CT number under a loose label
        if bare and not re.search(r"[A-Za-z]", value) and len(compact) < 5:
            return False
        if re.fullmatch(r"v(?:ersion)?\d.*", value, re.I):
            return False
        return True

    def header_codes(self) -> None:
        """Unlabelled codes repeated in the running headers that carry a labelled sponsor number
        ("MK-3475-063-03" around "063-03")."""
        labelled = {norm(f["text"]) for f in self.found if f["kind"] == "sponsor"}
        if not labelled:
            return
        seen = set()
        for line in self.front.header_lines:
            for token in re.findall(r"[A-Za-z0-9]+(?:[-./_][A-Za-z0-9]+)+|[A-Za-z]+\d[A-Za-z0-9]*", line.text):
                for part in token.split("/"):
                    part = part.strip(".")
                    n = norm(part)
                    if len(n) < 5 or n in labelled or n in seen:
                        continue
                    if any(lab in n and len(lab) >= 4 for lab in labelled):
                        seen.add(n)
                        self._add("sponsor", part, line, False, "")

    # ---- titles -----------------------------------------------------------------------------


# --------------------------------------------------------------------------------------------
# Merging
# --------------------------------------------------------------------------------------------

_SOURCE_ORDER = {"title page": 0, "front matter": 1, "header": 2, "synopsis": 3, "labelled line": 4}


def _merge(found: list[dict], diagnostics: list[dict]) -> list[dict]:
    """One entry per number (first printing kept); a sponsor number that another one contains
    ("063-03" in "MK-3475-063-03") is the same number."""
    by_norm: dict[str, dict] = {}
    order: list[str] = []
    for f in found:
        n = norm(f["text"])
        if not n:
            continue
        if n in by_norm:
            known = by_norm[n]
            if isinstance(f["page"], int) and (not isinstance(known["page"], int) or f["page"] < known["page"]):
                known["page"] = f["page"]
            known["_sources"].add(f["source"])
            continue
        entry = {
            "kind": f["kind"],
            "text": f["text"],
            "page": f["page"],
            "source": f["source"],
            "_sources": {f["source"]},
        }
        by_norm[n] = entry
        order.append(n)
    # sponsor numbers contained in a longer one
    sponsor = [n for n in order if by_norm[n]["kind"] == "sponsor"]
    drop = set()
    for n in sponsor:
        for other in sponsor:
            if other != n and n in other and other not in drop:
                if by_norm[n]["source"] == "title page" and by_norm[other]["source"] != "title page":
                    drop.add(other)  # the title page's form of the number wins over a header's longer one
                    continue
                drop.add(n)
                longer = by_norm[other]
                longer["_sources"] |= by_norm[n]["_sources"]
                p = by_norm[n]["page"]
                if isinstance(p, int) and (not isinstance(longer["page"], int) or p < longer["page"]):
                    longer["page"] = p
                break
    # a code that is a registry number is not also a sponsor number
    registry = {n for n in order if by_norm[n]["kind"] != "sponsor"}
    for n in sponsor:
        if any(n in r or r in n for r in registry):
            drop.add(n)
    out = [by_norm[n] for n in order if n not in drop]
    out.sort(key=lambda e: _SOURCE_ORDER.get(e["source"], 9))
    _diagnose_disagreement(out, diagnostics)
    for e in out:
        e.pop("_sources", None)
    return out


def _diagnose_disagreement(entries: list[dict], diagnostics: list[dict]) -> None:
    for kind in ("sponsor", "nct", "eudract", "eu_ct", "ind", "utn"):
        same = [e for e in entries if e["kind"] == kind]
        by_source: dict[str, set] = {}
        for e in same:
            for s in e["_sources"]:
                by_source.setdefault(s, set()).add(e["text"])
        title = by_source.get("title page", set())
        for source in ("header", "synopsis"):
            other = by_source.get(source, set())
            if title and other and not (title & other):
                diagnostics.append(
                    {
                        "kind": "identifier_disagreement",
                        "detail": f"{kind} number on the title page {sorted(title)} differs from the "
                        f"{source} {sorted(other)}",
                    }
                )
        if len(same) > 1 and kind != "sponsor":
            diagnostics.append(
                {
                    "kind": "identifier_several",
                    "detail": f"{len(same)} different {kind} numbers: {[e['text'] for e in same]}",
                }
            )
