"""Recognize a section number at the start of a line: the lexical half of sectioning.

This module only answers "does this line *look like* it opens section X, and what is X?".
Whether it really does is decided by ``sections.py`` from the sequence of all candidates.

A number becomes a *key*, a tuple of ints that orders and nests sections:
``"3.4.2."`` -> ``(3, 4, 2)``, ``"1.0"`` -> ``(1,)``, ``"APPENDIX 4"`` and
``"Protocol Attachment LZZT.4"`` -> ``(APPENDIX_BASE + 4,)``, ``"A.1"`` -> ``(APPENDIX_BASE + 1, 1)``.
Appendices thus sort after every numbered chapter and nest like them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Optional

from .markup import strip_markup

APPENDIX_BASE = 1000
# Roman parts live in their own key range, below the appendices: "I. SIGNATURES" is not
# chapter 1, so Roman front matter never competes with the Arabic chapters that follow it.
ROMAN_BASE = 500

# A reference mark set in superscript at the end of a heading ("Ibrutinib<sup>68</sup>", a
# footnote's "a" or "*"): a citation, not part of the title. Only at the end, so a unit such as
# "m<sup>2</sup>" inside a title stays.
_TRAILING_SUP = re.compile(r"<sup>(?P<mark>(?:(?!</?sup>).){1,30})</sup>(?P<tail>[*_\s]*)$")
_REFERENCE_MARK = re.compile(r"\d{1,3}(?:\s*[,\u2013-]\s*\d{1,3})*|[a-z*\u2020\u2021\u00a7\u00b6]{1,2}")

# Separator between number and title: spaces/tab, or a dash/colon with spaces.
_SEP = r"(?:[ \t\u00a0]+[-\u2013\u2014:]?[ \t\u00a0]*|[ \t]*[-\u2013\u2014:][ \t\u00a0]+)"
# A title starts with a letter ("12-Lead ECG" and "25-hydroxy" too), possibly after a quote.
_TITLE = r"(?P<title>(?:[\"'\u201c(\[]|\d{1,3}-?(?=[A-Za-z]))?[A-Za-z\u00c0-\u024f].*)"
_DECIMAL = re.compile(rf"^(?P<label>(?P<num>\d{{1,2}}(?:\.\d{{1,3}}){{0,6}})\.?){_SEP}{_TITLE}$")
# A number glued to its title by its final dot ("2.2.2.1.Phase 1 Study", "3.Results"): the
# title must start with a capital, so "e.g." or "1.5mg" never read as a section.
_GLUED = re.compile(r"^(?P<label>(?P<num>\d{1,2}(?:\.\d{1,3}){0,6})\.)(?P<title>[A-Z][A-Za-z\u00c0-\u024f(].*)$")
_DECIMAL_ONLY = re.compile(r"^(?P<label>(?P<num>\d{1,2}(?:\.\d{1,3}){0,6})\.?)$")
_SECTION_WORD = re.compile(
    rf"^(?P<label>(?:SECTION|Section)\s+(?P<num>\d{{1,2}}(?:\.\d{{1,3}}){{0,6}})\.?)[.:]?{_SEP}?{_TITLE}?$"
)
_APPENDIX = re.compile(
    r"^(?P<label>(?:PROTOCOL\s+ATTACHMENT|Protocol\s+Attachment|APPENDIX|Appendix|ANNEX|Annex|ATTACHMENT|Attachment)"
    r"\s+(?:[A-Z]{2,8}\.)?(?P<id>\d{1,2}|[A-Z]|[IVX]{1,5})(?!\w|\.\d))[.:]?"
    r"(?:\s*[-\u2013\u2014:]?\s*(?P<title>\S.*))?$"
)
_ROMAN = re.compile(rf"^(?P<label>(?P<roman>[IVX]{{1,5}})\.){_SEP}{_TITLE}$")
_LETTER = re.compile(rf"^(?P<label>(?P<letter>[A-Z])\.){_SEP}{_TITLE}$")
_LETTERED = re.compile(rf"^(?P<label>(?P<letter>[A-Z])\.(?P<num>\d{{1,2}}(?:\.\d{{1,2}}){{0,4}})\.?){_SEP}{_TITLE}$")
# A form outline "A2." / "B10 Title": a letter glued to the item number (IRB forms).
_LETTER_GLUED = re.compile(rf"^(?P<label>(?P<letter>[A-Z])(?P<num>\d{{1,2}})\.?){_SEP}{_TITLE}$")
_ROMAN_VALUES = {"I": 1, "V": 5, "X": 10}


# Schemes: how a key is meant. "letter" keys are *relative*: ("A.",) -> (1,) is the first
# lettered child of whatever part it stands in; sections.py resolves it against the parts
# before it (outline-style protocols: I. / A. / 1.).
DECIMAL, APPENDIX, ROMAN, LETTER = "decimal", "appendix", "roman", "letter"


@dataclass(frozen=True)
class SectionNumber:
    label: str  # as printed, e.g. "3.1." or "Protocol Attachment LZZT.4"
    key: tuple[int, ...]
    title: str  # the rest of the line; "" when the title is on the next line
    scheme: str = DECIMAL


def drop_reference_mark(line: str) -> str:
    """``line`` without a superscript reference mark at its end (see ``_TRAILING_SUP``)."""
    m = _TRAILING_SUP.search(line)
    if not m or not _REFERENCE_MARK.fullmatch(strip_markup(m["mark"])):
        return line
    before = strip_markup(line[: m.start()])
    if strip_markup(m["mark"]) in ("2", "3") and re.search(r"(?:^|[^A-Za-z])[A-Za-z]{1,2}$", before):
        return line  # an exponent of a unit ("m<sup>2</sup>"), not a reference
    return line[: m.start()] + m["tail"]


def roman_to_int(s: str) -> Optional[int]:
    """Value of a Roman numeral made of I, V, X; None if it is not a valid one."""
    total, prev = 0, 0
    for ch in reversed(s):
        value = _ROMAN_VALUES.get(ch)
        if value is None:
            return None
        total += -value if value < prev else value
        prev = max(prev, value)
    return total if total > 0 and _int_to_roman(total) == s else None


def _int_to_roman(n: int) -> str:
    out = ""
    for value, sym in ((10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")):
        while n >= value:
            out, n = out + sym, n - value
    return out


def _appendix_index(ident: str) -> Optional[int]:
    if ident.isdigit():
        return int(ident)
    if len(ident) == 1 and ident.isalpha() and ident not in "IVX":
        return ord(ident) - ord("A") + 1
    return roman_to_int(ident) or (ord(ident) - ord("A") + 1 if len(ident) == 1 else None)


def _decimal_key(num: str) -> Optional[tuple[int, ...]]:
    parts = tuple(int(p) for p in num.split("."))
    if len(parts) == 2 and parts[1] == 0:  # "1.0 Introduction" is chapter 1
        parts = parts[:1]
    if any(p == 0 for p in parts[1:]) or parts == (0,):
        return None
    return parts  # a leading 0 is front matter the document numbers itself: "0.1 Synopsis"


def parse_number(line: str) -> Optional[SectionNumber]:
    """The section number (and title) that opens ``line``, or None.

    ``line`` may carry Markdown markup; it is stripped first, and a reference mark at its end
    is dropped.
    """
    text = strip_markup(drop_reference_mark(line))
    if not text:
        return None
    m = _APPENDIX.match(text)
    if m:
        index = _appendix_index(m["id"])
        if index:
            return SectionNumber(m["label"], (APPENDIX_BASE + index,), (m["title"] or "").strip(), APPENDIX)
        return None
    m = _SECTION_WORD.match(text)
    if m:
        key = _decimal_key(m["num"])
        return SectionNumber(m["label"], key, (m["title"] or "").strip()) if key else None
    m = _LETTERED.match(text)
    if m:
        parts = tuple(int(p) for p in m["num"].split("."))
        key = (APPENDIX_BASE + ord(m["letter"]) - ord("A") + 1, *parts)
        return SectionNumber(m["label"], key, m["title"].strip(), APPENDIX)
    m = _LETTER_GLUED.match(text)
    if m and int(m["num"]) > 0:
        key = (APPENDIX_BASE + ord(m["letter"]) - ord("A") + 1, int(m["num"]))
        return SectionNumber(m["label"], key, m["title"].strip(), APPENDIX)
    m = _ROMAN.match(text)
    if m and roman_to_int(m["roman"]):
        return SectionNumber(m["label"], (ROMAN_BASE + roman_to_int(m["roman"]),), m["title"].strip(), ROMAN)
    m = _LETTER.match(text)
    if m:
        return SectionNumber(m["label"], (ord(m["letter"]) - ord("A") + 1,), m["title"].strip(), LETTER)
    m = _DECIMAL.match(text) or _DECIMAL_ONLY.match(text) or _GLUED.match(text)
    if m:
        key = _decimal_key(m["num"])
        if key:
            return SectionNumber(m["label"], key, (m.groupdict().get("title") or "").strip())
    return None


def normalize_number(label: str) -> str:
    """Comparable form of a printed number: no trailing dot, "1.0" as "1", lower case, appendices unified.

    ``"3.1."`` -> ``"3.1"``, ``"APPENDIX 4"`` / ``"Protocol Attachment LZZT.4"`` -> ``"appendix 4"``.
    """
    label = label.strip()
    parsed = parse_number(label + " X") or parse_number(label)
    if parsed is None and label[:1].islower():  # "appendix a" as gold lists write it
        parsed = parse_number(label[:1].upper() + label[1:] + " X")
    if parsed and parsed.scheme == APPENDIX and len(parsed.key) == 1:
        ident = parsed.label.split()[-1].split(".")[-1]
        # A letter stays a letter ("Appendix I" after "Appendix H" is the ninth, not Roman one).
        if len(ident) == 1 and ident.isalpha():
            return f"appendix {ident.lower()}"
        return f"appendix {parsed.key[0] - APPENDIX_BASE}"
    if parsed and parsed.scheme == DECIMAL:  # "1.0" is chapter 1, "3.1." is 3.1
        return ".".join(str(k) for k in parsed.key)
    return label.rstrip(".:").lower()


def normalize_title(title: str) -> str:
    """Comparable form of a title: markup, case, punctuation and spacing folded."""
    text = strip_markup(title).lower()
    text = re.sub(r"[^\w]+", " ", text)
    return " ".join(text.split())


def spaceless_title(title: str) -> str:
    """``normalize_title`` without its spaces: a text layer's word gaps come from glyph
    positions and can fall inside words ("PACKA GING ANDLABELING" on a printed TOC page),
    so titles from different pages are compared on their letters alone."""
    return normalize_title(title).replace(" ", "")


def _without_label(title: str) -> str:
    """'Protocol Attachment LZZT.7. NINCDS Guidelines' -> 'NINCDS Guidelines'."""
    number = parse_number(title)
    return number.title if number and number.title else title


def titles_agree(a: str, b: str) -> bool:
    """Do two titles name the same thing? Equal after normalizing, or one holds the other's
    words (at least 80% of the shorter's, and half of the longer's), a leading label dropped."""
    wa, wb = normalize_title(_without_label(a)).split(), normalize_title(_without_label(b)).split()
    if wa == wb:
        return True
    if not wa or not wb:
        return False
    short, long_ = sorted((set(wa), set(wb)), key=len)
    common = len(short & long_)
    return common >= 0.8 * len(short) and common >= 0.5 * len(long_)
