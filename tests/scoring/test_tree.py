"""Scoring a tree against a gold list (the benchmark's measure)."""

from __future__ import annotations

from scoring.tree import score


def node(number, title, level, *children):
    return {"number": number, "title": title, "level": level, "subsections": list(children)}


def test_sections_deeper_than_the_gold_lists_are_unknown_not_wrong():
    toc = [
        node("1", "Intro", 1, node("1.1", "Background", 2, node("1.1.1", "Detail", 3))),
        node("2", "Extra chapter", 1),
    ]
    gold = {
        "complete_to_level": 2,
        "sections": [{"number": "1", "title": "Intro"}, {"number": "1.1", "title": "Background"}],
    }
    s = score(toc, gold)
    assert (s.matched, s.found, s.extras) == (2, 3, [("2", "Extra chapter")])
    assert round(s.precision, 3) == 0.667 and s.recall == 1.0


def test_plain_list_gold_counts_every_section():
    toc = [node("1", "Intro", 1, node("1.1.1", "Detail", 3))]
    s = score(toc, [{"number": "1", "title": "Intro"}])
    assert (s.matched, s.found) == (1, 2)


def test_lettered_appendix_matches_the_gold_spelling():
    s = score([node("Appendix B", "Forms", 1)], [{"number": "appendix b", "title": "Forms"}])
    assert s.f1 == 1.0
