"""Tracing a study item back to the blocks (pages, boxes) its words came from."""

from clinparser.study.trace import Tracer, words


def block(page, text, bbox=(10.0, 20.0, 300.0, 40.0), dropped=""):
    return {"page": page, "bbox": list(bbox), "kind": "text", "dropped": dropped, "text": text}


BLOCKS = [
    block(1, "**5.1 Inclusion Criteria**"),
    block(1, "Page 1 of 9", dropped="furniture"),
    block(1, "1. Participant is 18 to 75 years of age at the time of signing the consent form", (10, 100, 300, 120)),
    block(1, "2. Participant has a diagnosis of the disease for at least 12 months before", (10, 700, 300, 720)),
    block(2, "screening, confirmed by the investigator.", (10, 50, 300, 60)),
    block(2, "| Endpoint |\n|---|\n| Weekly itch<br>score at week 12 |", (10, 300, 300, 400)),
]


def test_an_item_continued_over_a_page_break_has_both_pages_and_boxes():
    found = Tracer(BLOCKS).trace(
        "2. Participant has a diagnosis of the disease for at least 12 months before screening, "
        "confirmed by the investigator."
    )
    assert found == {
        "pages": [1, 2],
        "boxes": [{"page": 1, "bbox": [10, 700, 300, 720]}, {"page": 2, "bbox": [10, 50, 300, 60]}],
    }


def test_dropped_furniture_is_never_a_source_and_a_missing_item_is_not_guessed():
    tracer = Tracer(BLOCKS)
    assert tracer.trace("Page 1 of 9") == {"pages": [], "boxes": []}
    assert tracer.trace("A sentence the document never prints") == {"pages": [], "boxes": []}


def test_the_page_range_limits_where_an_item_is_looked_for():
    tracer = Tracer(
        BLOCKS + [block(5, "1. Participant is 18 to 75 years of age at the time of signing the consent form")]
    )
    assert tracer.trace("Participant is 18 to 75 years of age", first_page=2)["pages"] == [5]
    assert tracer.trace("Participant is 18 to 75 years of age", first_page=2, last_page=4)["pages"] == []


def test_words_match_whole_words_and_html_in_a_cell_is_no_word():
    assert words("Weekly itch<br>score <sup>a</sup>") == ["weekly", "itch", "score", "a"]
    tracer = Tracer([block(3, "none of one")])
    assert tracer.trace("one")["pages"] == [3]
    assert tracer.trace("ne of")["pages"] == []
    assert Tracer(BLOCKS).trace("itch score at week 12")["pages"] == [2]
