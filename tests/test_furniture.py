from __future__ import annotations

from clinparser.furniture import mark_furniture
from clinparser.model import PAGE_FOOTER, TEXT, Block


def test_repeated_edge_text_is_furniture_and_body_text_is_not():
    sizes = {p: (612, 792) for p in range(1, 11)}
    blocks = []
    for p in range(1, 11):
        blocks.append(Block(p, (72, 20, 300, 35), TEXT, "CP-001 Clinical Study Protocol"))
        blocks.append(Block(p, (72, 300, 500, 340), TEXT, f"Unique body paragraph {p}."))
        blocks.append(Block(p, (250, 760, 350, 772), TEXT, f"Page {p} of 10"))
    blocks.append(Block(5, (72, 400, 500, 420), PAGE_FOOTER, "labelled by the layout model"))
    mark_furniture(blocks, sizes, 10)
    dropped = {b.text for b in blocks if b.dropped == "furniture"}
    assert "CP-001 Clinical Study Protocol" in dropped and "Page 7 of 10" in dropped
    assert "labelled by the layout model" in dropped
    assert not any(b.dropped for b in blocks if b.text.startswith("Unique"))


def test_a_one_off_line_at_the_edge_stays():
    sizes = {p: (612, 792) for p in range(1, 11)}
    blocks = [Block(3, (72, 20, 300, 35), TEXT, "A note at the top of one page")]
    mark_furniture(blocks, sizes, 10)
    assert blocks[0].dropped == ""


def test_numbered_headings_at_the_top_of_each_page_are_not_furniture():
    sizes = {p: (595, 842) for p in range(1, 5)}
    blocks = [Block(p, (72, 89, 146, 101), TEXT, f"# **{p} Section {p}**") for p in range(1, 5)]
    mark_furniture(blocks, sizes, 4)
    assert [b.dropped for b in blocks] == ["", "", "", ""]
