"""Score a section tree against a gold list of ``{"number", "title"}`` (benchmarks and tests).

The gold is either the plain list or the corpus object ``{"sections": [...],
"complete_to_level": N}``; with the object, a found section deeper than ``complete_to_level``
that matches nothing is neither counted nor an extra (the gold does not list that deep).

Both sides are normalized the same way (``numbering.normalize_number`` / ``normalize_title``).
A section matches a gold entry when the numbers are equal and the titles agree
(``numbering.titles_agree``: gold lists sometimes prefix "Protocol Attachment LZZT.1" to the
title, or take a printed TOC's longer wording).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from clinparser.shared.numbering import normalize_number, titles_agree


@dataclass
class Score:
    gold: int
    found: int
    matched: int
    misses: list[tuple[str, str]] = field(default_factory=list)
    extras: list[tuple[str, str]] = field(default_factory=list)

    @property
    def recall(self) -> float:
        return self.matched / self.gold if self.gold else 1.0

    @property
    def precision(self) -> float:
        return self.matched / self.found if self.found else 1.0

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0


def flatten(nodes: list[dict]) -> list[dict]:
    out = []
    for n in nodes:
        out.append(n)
        out.extend(flatten(n.get("subsections", [])))
    return out


def score(toc: list[dict], gold) -> Score:
    depth = None
    if isinstance(gold, dict):
        gold, depth = gold["sections"], gold.get("complete_to_level")
    nodes = flatten(toc)
    found = [(n["number"], n["title"]) for n in nodes]
    by_number: dict[str, list[int]] = {}
    for k, (num, _) in enumerate(found):
        by_number.setdefault(normalize_number(num), []).append(k)
    used: set[int] = set()
    misses = []
    for g in gold:
        hit = next(
            (
                k
                for k in by_number.get(normalize_number(g["number"]), [])
                if k not in used and titles_agree(found[k][1], g["title"])
            ),
            None,
        )
        if hit is None:
            misses.append((g["number"], g["title"]))
        else:
            used.add(hit)
    unknown = {k for k, n in enumerate(nodes) if k not in used and depth is not None and n.get("level", 1) > depth}
    extras = [found[k] for k in range(len(found)) if k not in used and k not in unknown]
    return Score(gold=len(gold), found=len(found) - len(unknown), matched=len(used), misses=misses, extras=extras)
