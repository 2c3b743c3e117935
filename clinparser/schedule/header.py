"""Read a schedule's column header: which visit, when, in which window.

A schedule's visit columns are headed by one to five header rows, joined top to bottom with
" / " by the table stage ("Visit 1 / Week -2", "Screening / -42 to -9", "Day 29 ±3"). Each
part is read on its own:

- a part with a unit word and a number ("Week 2", "Day −42 to −9", "C1D8", "Cycle 2 Day 1",
  "Hour 4") gives the timing; a bare number or range ("-2", "4-7", "10-22") gives the timing in
  the unit the header rows are named by (the label column's header: "VISIT / WEEK",
  "Study Procedures / Days", "Timepoint (hours)"), the rows in order;
- a visit word ("Visit 3", "V3") or a bare number under a "Visit" row gives the visit;
- a window ("±3 days", "+/- 2", "(-3/+7 d)") gives the window, in the timing's unit unless it
  names its own;
- words alone ("Screening", "ET", "EOS or ET") name the visit when they head this column
  only, and an epoch when the same words head a run of adjacent columns (``epochs``).
"""

from __future__ import annotations

import re
from typing import Optional

UNITS = {
    "minute": ("min", "mins", "minute", "minutes"),
    "hour": ("h", "hr", "hrs", "hour", "hours"),
    "day": ("d", "day", "days"),
    "week": ("w", "wk", "wks", "week", "weeks"),
    "month": ("m", "mo", "month", "months"),
    "year": ("y", "yr", "year", "years"),
}
_UNIT_OF = {word: unit for unit, words in UNITS.items() for word in words}
_LONG_UNIT = "|".join(sorted((w for w in _UNIT_OF if len(w) > 1), key=len, reverse=True))
_ALL_UNIT = "|".join(sorted(_UNIT_OF, key=len, reverse=True))

MINUS = "-\u2212\u2013\u2010\u2011"  # hyphen-minus, minus sign, en dash, hyphens
_NUM = rf"[{MINUS}+]?\s?(?:\d+(?:\.\d+)?|\.\d+)"
_RANGE_SEP = rf"\s*(?:to|through|thru|[{MINUS}/]|and|&)\s*"
_PLUS_MINUS = r"(?:±|\+\s?/\s?[-\u2212]|\+\s?-)"
WINDOW = re.compile(
    rf"\(?\s*(?:(?P<pm>{_PLUS_MINUS})\s?(?P<both>\d+(?:\.\d+)?)"
    rf"|(?P<minus>[{MINUS}]\s?\d+)\s?/\s?(?P<plus>\+\s?\d+)"
    rf"|(?<![\w+])(?P<late>\+\s?\d+(?:\.\d+)?))"  # "+7 days", "379+7": up to 7 late
    rf"\s*(?P<unit>{_ALL_UNIT})?\.?\s*\)?",
    re.I,
)
# A window printed as how early a visit may be, alone in its cell ("-35D", "-3 days"): the number
# before its unit word, never after one ("Day -5" is a day).
_EARLY = re.compile(rf"[{MINUS}]\s?\d+\s?(?:d|days?|w|wks?|weeks?)\.?", re.I)
# "Day 1", "Week -2", "Days 4-7", "Day −42 to −9", "Hour 0.5", "Month 3"
_UNIT_NUMBER = re.compile(
    rf"\b(?P<unit>{_LONG_UNIT}|[dwhm])\s?(?P<from>{_NUM})(?:{_RANGE_SEP}(?:(?:{_LONG_UNIT})\s?)?(?P<to>{_NUM}))?(?![\d.])",
    re.I,
)
# "C1D8", "Cycle 2 Day 1", "C2 D1"
_CYCLE = re.compile(
    rf"\b(?:cycle|c)\s?(?P<cycle>\d+)\s*[,/]?\s*(?:day|d)\s?(?P<day>{_NUM})(?:{_RANGE_SEP}(?P<to>{_NUM}))?", re.I
)
_BARE = re.compile(rf"^(?P<from>{_NUM})(?:{_RANGE_SEP}(?P<to>{_NUM}))?$", re.I)
_VISIT = re.compile(r"^(?:visit|v)\s?(?P<visit>\d+[a-z]?(?:\.\d+)?)$", re.I)
# Another visit code: "P13" (a phone visit), "FU1", "S2"; not a unit or cycle ("D8", "W4", "C2").
_VISIT_CODE = re.compile(r"^(?!(?:[DWHMCY]|WK|HR|MO|CY)\d)[A-Z]{1,3}\d+[a-z]?$")
# Words that time something inside a visit, and times in hours or minutes: "Predose", "EOI +30
# min", "2-4 h postdose", "72 h", "SOI".
_TIME_WORDS = re.compile(
    r"\b(?:pre|post)[\s-]?(?:dose|dosing|infusion|injection)\b|\b(?:predose|postdose)\b|\b(?:SOI|EOI|EOT\s?inf\w*)\b"
    r"|\b(?:start|end|beginning)\s+of\s+(?:the\s+)?(?:infusion|injection|dosing)\b|\b(?:before|after)\s+(?:dosing|infusion|the\s+dose)\b"
    r"|(?<![A-Za-z])[-+\u2212]?\d+(?:\.\d+)?(?:\s?[-\u2013]\s?\d+(?:\.\d+)?)?\s?(?:h|hr|hrs|hours?|min|mins|minutes?)\b"
    r"|^(?:hour|minute)\s",
    re.I,
)


# A visit column's header holds a number (a day, a week, a visit, a cycle) or names a visit or a
# period. A table of response categories ("Target Lesions | Non-Target Lesions | New Lesions |
# Overall Response", cells "CR", "PR", "SD") has the shape of marks under headers naming none.
_VISIT_HEADER = re.compile(
    r"\d|\b(?:screen\w*|baseline|visits?|days?|weeks?|months?|years?|hours?|cycles?|periods?|phases?|treatment|"
    r"follow[\s-]?up|end|discontinu\w*|terminat\w*|withdraw\w*|unscheduled|randomi[sz]\w*|enrol\w*|dos(?:e|ing)|"
    r"pre-?dose|post-?dose|EOT|EOS|ET|ED|FU|UNS)\b",
    re.I,
)


def names_a_visit(header: str) -> bool:
    """Does a column's header read as a visit's: a number, or a visit or period word?"""
    return bool(_VISIT_HEADER.search(header))


def is_numbered(part: str) -> bool:
    """A header part that is a number a header row names ("3", "-28 to -1", "V3", "6a", "± 3"
    left out): it takes the next header row's kind."""
    text = " ".join(part.split())
    return bool(
        _BARE.match(_without_window(text)) or _VISIT.match(text) or _VISIT_CODE.match(text) or _LETTERED.match(text)
    )


def _counts_nothing(part: str) -> bool:
    """A range or a number below one ("-28 to -1", "0"): no cycle or visit is numbered so."""
    bare = _BARE.match(_without_window(part))
    if not bare:
        return False
    value = number(bare["from"])
    return bool(bare["to"]) or value is None or value < 1


def reads_as_time(part: str) -> bool:
    """A cell that is only a time ("W0", "D-3", "W-4 to -1", "Wk 12 (±3d)", "C1D8"): in a
    header row it heads a column; a mark with a footnote ("X1") does not read so."""
    text = _without_window(" ".join(part.split()))
    return bool(_UNIT_NUMBER.fullmatch(text) or _CYCLE.fullmatch(text))


def is_time_point(part: str) -> bool:
    return bool(_TIME_WORDS.search(part))


_LETTERED = re.compile(r"^\d{1,3}[a-z]$")  # "6a", "12a": a visit added between two others
_ROW_NAMES = re.compile(rf"\b(?P<name>visit|cycle|{_LONG_UNIT}|time\s?points?|timepoint)\b", re.I)


def number(text: str) -> Optional[float]:
    """A printed number with any of the minus signs ("−9", "-.3", "+2"), as int when whole."""
    text = re.sub(rf"[{MINUS}]", "-", text.replace(" ", ""))
    try:
        value = float(text)
    except ValueError:
        return None
    return int(value) if value.is_integer() else value


def row_kinds(names: list[str]) -> list[str]:
    """The kind of each numbered header row, in order, from the parts of the label column's
    header, one part a row ("VISIT / WEEK" -> ["visit", "week"]; "Study Procedures / Days" ->
    ["day"]; "Timepoint(hours)" -> ["hour"]; "Cycle / Day" -> ["cycle", "day"]). A unit word
    names the row's numbers ("Visit day (window)" holds days, "Timing of Visit (Weeks)" weeks);
    "window" outside brackets names a row of windows ("Visit Window (Days)"); a part with none
    of these names no row."""
    kinds = []
    for name in names:
        name = re.sub(r"(?<=[A-Za-z])\d+\b", "", name)  # a footnote number glued on: "Cycle1"
        outside = re.sub(r"\([^)]*\)", " ", name)
        words = [m["name"].lower() for m in _ROW_NAMES.finditer(name.replace("(", " ").replace(")", " "))]
        units = [_UNIT_OF[w] for w in words if w in _UNIT_OF]
        if re.search(r"\bwindows?\b", outside, re.I):
            kind = f"window-{units[0]}" if units else "window"
        else:
            kind = units[0] if units else "cycle" if "cycle" in words else "visit" if "visit" in words else None
        if kind:
            kinds.append(kind)
    return kinds


def _bracketed_unit(text: str) -> list[str]:
    """The unit a header part names in brackets for the numbers under it ("Treatment Period
    (Study Days)" -> ["day"]), else []."""
    inside = re.fullmatch(r"[^()]*\(([^()]*)\)\s*", text)
    if not inside or re.search(r"\d", inside.group(1)):
        return []  # "Screening (D-42 to -2)": a bracket holding numbers is that visit's timing
    kinds = row_kinds([inside.group(1)])
    return kinds[:1] if kinds and kinds[0] in UNITS else []


def window(text: str, unit: Optional[str]) -> Optional[dict]:
    """The visit window a header part prints ("±3 days", "+/-2", "(-3/+7 d)"), else None."""
    m = WINDOW.search(text)
    if not m:
        return None
    if m["pm"]:
        before = after = number(m["both"])
    elif m["late"]:
        before, after = 0, number(m["late"].replace("+", ""))
    else:
        before, after = abs(number(m["minus"])), number(m["plus"])
    named = _UNIT_OF.get((m["unit"] or "").lower())
    return {"text": " ".join(m.group(0).split()).strip("() "), "before": before, "after": after, "unit": named or unit}


def _timing(unit: str, start: str, end: Optional[str], cycle: Optional[int] = None) -> Optional[dict]:
    low, high = number(start), number(end) if end else None
    if low is None:
        return None
    if high is None or high < low:
        # "-6 through -5" reads low to high; "2-3" likewise. "15-3" is not a range: keep the start.
        high = low if high is None or end and not re.match(rf"^\s*[{MINUS}]", end) and high < low else high
    return {"unit": unit, "from": min(low, high), "to": max(low, high), "cycle": cycle}


class Encounter:
    """What one visit column's header says (see the module docstring)."""

    def __init__(
        self, parts: list[str], kinds: list[str], below: Optional[tuple[int, list]] = None, kinds_of_all: bool = False
    ):
        self.visit: Optional[str] = None
        self.timing: Optional[dict] = None
        self.window: Optional[dict] = None
        self.words: list[str] = []  # parts that are names, not numbers
        self._from_row = False  # the timing came from a header row named by its unit
        self._cycle: Optional[int] = None  # a number under a "Cycle" row
        # The unit a window row is named in ("Visit Window (Days)"): a bare "±3" under it is days.
        every = list(kinds) + (list(below[1]) if below else [])
        self._window_unit = next((k.partition("-")[2] for k in every if k and k.startswith("window-")), None)
        self.unread: list[str] = []  # numbered parts no rule reads
        self.footnoted: list[str] = []  # numbers read without the footnote letter glued to them
        # Each part as a label shows it, and what it was read as ("visit", "timing", "window",
        # "cycle", "name"): a bare number takes its row's name ("15" under "Day" -> "Day 15").
        self.shown: list[tuple[str, str]] = []
        self._read(parts, list(kinds), below, kinds_of_all)

    def _read(
        self,
        parts: list[str],
        kinds: list[Optional[str]],
        below: Optional[tuple[int, list]],
        kinds_of_all: bool = False,
    ) -> None:
        """Each part with the kind of the header row it stands in: ``kinds`` in order for the
        numbered parts of the header; from part ``below[0]`` on (header rows printed inside the
        grid), the kinds ``below[1]`` their own rows' labels name."""
        if kinds_of_all:
            kinds = _rows_filled(parts[: below[0]] if below else parts, kinds)
        for i, part in enumerate(parts):
            if below and i == below[0]:
                kinds = list(below[1])
            text = " ".join(part.split())
            if not text:
                continue
            numbered = is_numbered(text)
            if not numbered and (not kinds or kinds[0] is None):
                # "Treatment Period (Study Days)" over "-1", "1", "2": the numbers below are days
                kinds = (_bracketed_unit(text) or kinds[:1]) + kinds[1:]
            kind = kinds.pop(0) if kinds and numbered else None
            if kind in ("cycle", "visit") and kinds and (_counts_nothing(text) or kind == "cycle" and _dated(text)):
                # "-28 to -1" under a Cycle row and a Day row (screening has no cycle): a range or
                # a negative number counts no cycle or visit, so the next row's kind is its own;
                # nor is "43 (+7 days)" a cycle: a window in days times a day
                kind = kinds.pop(0)
            self._read_part(text, kind)

    def _read_part(self, text: str, kind: Optional[str]) -> None:
        if not kind and self.timing is None and self.visit is None:
            kind = _dated(text)  # "FU/ED" over "24 (± 2 days)": the window says 24 counts days
        visit = _VISIT.match(text)
        if self.shown and not kind and is_time_point(text):
            # a time point under the visit ("Predose", "EOI +30 min"): not the visit's name or timing
            self.shown.append((text, "timepoint"))
            return
        cycle_only = re.fullmatch(r"(?:cycle|c)\s?(\d+)", text, re.I)
        if cycle_only and not kind:  # "Cycle 2" over its days: the cycle of the day below
            self._cycle = int(cycle_only.group(1))
            self.shown.append((text, "cycle"))
            return
        if kind == "visit" and _LETTERED.match(text):  # "6a" under a "Visit" row: an added visit
            self.visit = self.visit or text
            self.shown.append((f"Visit {text}", "visit"))
            return
        if visit or _VISIT_CODE.match(text):
            self.visit = self.visit or (visit["visit"] if visit else text)
            self.shown.append((text, "visit"))
            return
        if (kind in UNITS or self.visit is not None) and _LETTERED.match(text):
            # "18a" in a row of days: days are numbers, so the letter is a footnote's mark that
            # lost its superscript (in a "Visit" row, above, "6a" is a visit added after 6);
            # so it is under a visit already named ("Visit 2" over "1b"): no second visit number
            self.footnoted.append(text)
            text = text[:-1]
        rest = _without_window(text)
        self.shown.append(_shown(text, kind))
        win = window(text, None)
        cycle = _CYCLE.search(rest)
        found = None if cycle else _UNIT_NUMBER.search(rest)
        bare = None if cycle or found else _BARE.match(rest)
        if cycle and not self.timing:
            self.timing = _timing("day", cycle["day"], cycle["to"], int(cycle["cycle"]))
        elif found and not self.timing:
            self.timing = _timing(_UNIT_OF[found["unit"].lower()], found["from"], found["to"])
        elif found and not self._from_row:
            self.words.append(found.group(0))  # "Week 2" over "Day 15": a name; the day is the timing
        elif bare:
            if (
                kind == "visit"
                or kind is None
                and self.visit is None
                and not self.timing
                and re.fullmatch(r"\d+", rest)
            ):
                self.visit = self.visit or rest
            elif kind == "cycle" and re.fullmatch(r"\d+", rest):
                self._cycle = int(rest)
            elif kind and kind.startswith("window") and not self.window:
                low, high = number(bare["from"]), number(bare["to"]) if bare["to"] else None
                high = low if high is None else high
                unit = kind.partition("-")[2] or None
                self.window = {"text": rest, "before": abs(min(low, 0)), "after": max(high, 0), "unit": unit}
            elif kind in UNITS and self._from_row:
                pass  # a second row in another unit ("Week 2" over "Day 15"): shown, the first says when
            elif kind in UNITS and not self._from_row:
                # A row named by its unit ("Study day") says when; a "Week 2" name above it is a name.
                if self.timing:
                    self.words.append(f"{self.timing['unit'].title()} {_show(self.timing)}")
                self.timing, self._from_row = _timing(kind, bare["from"], bare["to"]), True
            else:
                self.unread.append(text)
        if win and not self.window:
            self.window = win
        match = cycle or found or bare
        # a name keeps its brackets whole: "Treatment Period (Study Days)", not "... (Study Days"
        words = (rest[: match.start()] + " " + rest[match.end() :]) if match else _name_text(text)
        words = " ".join(words.split()).strip(" ,;:-")
        if re.search(r"[A-Za-z]", words):
            self.words.append(words)


def _rows_filled(parts: list[str], kinds: list[Optional[str]]) -> list[Optional[str]]:
    """The row kinds left for a column's numbered parts, where every header row is named by a
    kind (else a word on top may stand in an unnamed epoch row: "Treatment" over "2" / "1" under
    "Phase / Visit / Day / Window"). A column headed by words above fewer numbers than there are
    named rows ("Follow-up" over "134", "Cycle 2" over "1" under a
    "Cycle / Day" header) has its words in the upper rows: its numbers stand in the lowest rows,
    so they take the lowest rows' kinds, not the first ones."""
    shown = [" ".join(p.split()) for p in parts if p.strip()]
    # a dash or "N/A" stands in a row too (its number is not printed here); a window does where
    # a row of windows is named
    filling = ("window", "blank") if any((k or "").startswith("window") for k in kinds) else ("blank",)
    numbered = sum(is_numbered(p) or _shown(p, None)[1] in filling for p in shown)
    if shown and not is_numbered(shown[0]) and 0 < numbered < len(kinds):
        return kinds[len(kinds) - numbered :]
    return kinds


def _dated(text: str) -> Optional[str]:
    """The unit of a bare number printed with a window in days or weeks ("24 (± 2 days)"), else
    None: in a row no unit names, that number is the visit's day, not a visit number."""
    win = window(text, None)
    return win["unit"] if win and win["unit"] in ("day", "week") and _BARE.match(_without_window(text)) else None


def _shown(text: str, kind: Optional[str]) -> tuple[str, str]:
    """A part as a label shows it, and its role: the window left out ("D8 (± 1)" -> "D8"), a
    bare number named by its row ("Day 15", "Visit 3", "Cycle 2"); a window alone is a window."""
    rest = _label_text(text)
    if not rest or re.fullmatch(r"(?:N/?A|[-\u2013\u2014])", rest, re.I):
        return text, "window" if WINDOW.search(text) else "blank"
    if _EARLY.fullmatch(rest):
        return rest, "window"  # "-35D" alone under a visit: up to 35 days before it
    if WINDOW.search(text) and re.fullmatch(r"[a-z](?:,[a-z])*", rest):
        return text, "window"  # "+7db": a window and the footnote letter glued to it
    if _BARE.match(rest) and kind:
        if kind.startswith("window"):
            return rest, "window"
        role = "timing" if kind in UNITS else kind
        return f"{kind.title()} {rest}", role
    if _CYCLE.search(rest) or _UNIT_NUMBER.search(rest):
        return rest, "timing"
    return rest, "name"


def _label_text(text: str) -> str:
    """A part without its window, its brackets kept whole: "1 (HD)" stays, "D8 (± 1)" -> "D8"."""
    rest = " ".join(WINDOW.sub(" ", text).split()).strip(" ,;")
    rest = re.sub(r"\(\s*\)", "", rest).strip()
    if rest.count("(") > rest.count(")"):
        rest = rest.rstrip(" (")
    return " ".join(rest.split())


def _name_text(text: str) -> str:
    """A part that names something, its window left out and its brackets whole: "Treatment
    Period (Study Days)" stays, "(Follow-up)" -> "Follow-up"."""
    rest = _label_text(text)
    inner = rest[1:-1]
    if rest.startswith("(") and rest.endswith(")") and "(" not in inner and ")" not in inner:
        return inner.strip()
    return rest


def _show(timing: dict) -> str:
    return str(timing["from"]) if timing["from"] == timing["to"] else f"{timing['from']} to {timing['to']}"


def _without_window(text: str) -> str:
    return WINDOW.sub(" ", text).strip(" ,;()")


def read_encounter(
    parts: list[str], kinds: list[str], below: Optional[tuple[int, list]] = None, kinds_of_all: bool = False
) -> Encounter:
    """What a visit column's header says; ``kinds_of_all``: every header row is one the label
    column names by a kind (no unnamed epoch row above them)."""
    enc = Encounter(parts, kinds, below, kinds_of_all)
    printed = WINDOW.search(enc.window["text"]) if enc.window else None
    if enc.window and not (printed and printed.group("unit")):
        # A window row named in days ("Visit Window (Days)") or a bare "±3": the row's or the timing's unit.
        enc.window["unit"] = enc.window["unit"] or enc._window_unit or (enc.timing["unit"] if enc.timing else "day")
    if enc._cycle is not None and enc.timing and enc.timing["cycle"] is None:
        enc.timing["cycle"] = enc._cycle
    return enc
