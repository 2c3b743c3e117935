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


def _header_block_pages(n: int, *, labelled_every: int = 2) -> list[Block]:
    """A running header block (sponsor, date, version, page number) on every page; the layout
    model labelled it on some pages, and grouped its lines differently from page to page."""
    from clinparser.model import HEADING, PAGE_HEADER

    blocks = []
    for p in range(1, n + 1):
        date = f"{p % 28 + 1} Mar 202{p % 3}"
        if p % labelled_every == 0:
            blocks.append(Block(p, (72, 20, 540, 60), PAGE_HEADER, f"Acme Pharma\nDate: {date}\nVersion: 2.0\nPage: {p} of {n}"))
        elif p % 3 == 0:
            # The same lines run together into one, and styled as a heading.
            blocks.append(Block(p, (72, 20, 540, 60), HEADING, f"### Acme Pharma Date: {date}"))
            blocks.append(Block(p, (72, 62, 540, 70), TEXT, f"Version: 2.0 Page: {p} of {n}"))
        else:
            blocks.append(Block(p, (72, 20, 540, 60), TEXT, f"**Acme Pharma**\nDate: {date}\nVersion: 2.0\nPage: {p} of {n}"))
        blocks.append(Block(p, (72, 300, 540, 340), TEXT, f"Body paragraph {p} of the protocol."))
    return blocks


def test_a_header_block_with_page_number_and_date_is_furniture_however_grouped_or_labelled():
    blocks = _header_block_pages(12)
    mark_furniture(blocks, {p: (612, 792) for p in range(1, 13)}, 12)
    headers = [b for b in blocks if "Acme" in b.text or "Version" in b.text]
    assert [b.text for b in headers if b.dropped != "furniture"] == []
    assert not any(b.dropped for b in blocks if b.text.startswith("Body"))


def test_furniture_on_a_landscape_page_sits_lower_and_is_still_recognised():
    sizes = {p: (612, 792) for p in range(1, 10)}
    sizes[10] = (792, 612)
    blocks = [Block(p, (72, 20, 300, 35), TEXT, "- CONFIDENTIAL -") for p in range(1, 10)]
    blocks.append(Block(10, (28, 73, 120, 81), TEXT, "#### - CONFIDENTIAL -"))  # 13 % down
    blocks.append(Block(10, (28, 300, 500, 320), TEXT, "- CONFIDENTIAL -"))  # mid-page: body
    mark_furniture(blocks, sizes, 10)
    assert [b.dropped for b in blocks[-2:]] == ["furniture", ""]


def test_a_table_caption_repeated_on_every_page_stays():
    sizes = {p: (792, 612) for p in range(1, 6)}
    blocks = [Block(p, (72, 30, 400, 45), TEXT, "**Table 1: Schedule of Activities**") for p in range(1, 6)]
    mark_furniture(blocks, sizes, 5)
    assert [b.dropped for b in blocks] == [""] * 5
