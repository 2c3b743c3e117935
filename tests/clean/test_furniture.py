from __future__ import annotations

from clinparser.clean.furniture import mark_furniture
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
            blocks.append(
                Block(p, (72, 20, 540, 60), PAGE_HEADER, f"Acme Pharma\nDate: {date}\nVersion: 2.0\nPage: {p} of {n}")
            )
        elif p % 3 == 0:
            # The same lines run together into one, and styled as a heading.
            blocks.append(Block(p, (72, 20, 540, 60), HEADING, f"### Acme Pharma Date: {date}"))
            blocks.append(Block(p, (72, 62, 540, 70), TEXT, f"Version: 2.0 Page: {p} of {n}"))
        else:
            blocks.append(
                Block(p, (72, 20, 540, 60), TEXT, f"**Acme Pharma**\nDate: {date}\nVersion: 2.0\nPage: {p} of {n}")
            )
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


def _bundled_appendix(pages: int = 20, first: int = 13, last: int = 17) -> list[Block]:
    """A protocol with a running footer on every page and, on pages first..last, a bundled
    amendment whose own header block (drawn as a table) tops each of its pages: too few pages
    (a quarter) to count as the document's furniture by share."""
    from clinparser.model import TABLE

    blocks = []
    for p in range(1, pages + 1):
        if first <= p <= last:
            if p % 2:  # the converter saw it as lines of text here, as a table there
                header = (
                    f"Protocol Amendment no 3 Date: {p} June 2018\n"
                    f"Trial ID: XY-1234 CONFIDENTIAL Page: {p - first + 1} of 5"
                )
                blocks.append(Block(p, (92, 68, 566, 106), TEXT, header))
            else:
                header = (
                    f"|Protocol Amendment no 3||Date:|{p} June 2018|\n"
                    "|---|---|---|---|\n"
                    f"|Trial ID: XY-1234|CONFIDENTIAL|Page:|{p - first + 1} of 5|"
                )
                blocks.append(Block(p, (92, 68, 566, 106), TABLE, header))
        blocks.append(Block(p, (72, 200, 500, 260), TEXT, f"Unique body paragraph {p}."))
        blocks.append(Block(p, (72, 760, 500, 772), TEXT, f"Sponsor Study XY-1234 Page {p} of {pages}"))
    return blocks


def test_a_bundled_appendix_header_on_a_run_of_pages_is_furniture():
    blocks = _bundled_appendix()
    mark_furniture(blocks, {p: (612, 792) for p in range(1, 21)}, 20)
    headers = [b for b in blocks if "Protocol Amendment" in b.text]
    assert len(headers) == 5 and all(b.dropped == "furniture" for b in headers)
    assert not any(b.dropped for b in blocks if b.text.startswith("Unique"))


def test_the_header_row_of_a_long_table_repeated_on_each_page_stays():
    from clinparser.model import TABLE

    blocks = []
    for p in range(1, 11):
        if 3 <= p <= 7:  # the header row drawn apart, the rows of the table below it
            blocks.append(Block(p, (72, 60, 540, 80), TABLE, "|Assessment|Screening|Week 4|\n|---|---|---|"))
            blocks.append(Block(p, (72, 82, 540, 700), TABLE, f"|Test {p}|X||\n|---|---|---|\n|Other {p}||X|"))
        blocks.append(Block(p, (72, 760, 500, 772), TEXT, f"Page {p} of 10"))
    mark_furniture(blocks, {p: (612, 792) for p in range(1, 11)}, 10)
    assert not any(b.dropped for b in blocks if b.text.startswith("|Assessment"))


def test_header_rows_a_table_swallowed_are_taken_out_of_it():
    from clinparser.model import TABLE

    blocks = []
    for p in range(1, 11):
        blocks.append(Block(p, (72, 30, 540, 60), TEXT, f"Sponsor Name\nProtocol XY-1234 Page {p} of 10"))
        blocks.append(Block(p, (72, 200, 540, 260), TEXT, f"Unique body paragraph {p}."))
    # On page 4 the converter drew the header and the table below it as one table.
    blocks[6] = Block(
        4,
        (72, 30, 540, 400),
        TABLE,
        "|Sponsor Name||\n|---|---|\n|Protocol XY-1234|Page 4 of 10|\n|Parameter|Value|\n|Dose|10 mg|",
    )
    mark_furniture(blocks, {p: (612, 792) for p in range(1, 11)}, 10)
    assert blocks[6].dropped == "" and blocks[6].text.splitlines() == ["|Parameter|Value|", "|---|---|", "|Dose|10 mg|"]


def test_a_short_table_whose_header_row_tops_a_run_of_pages_keeps_it():
    from clinparser.model import TABLE

    changes = ["Removed the washout", "Added an ECG", "Changed the dose"]
    blocks = [Block(p, (72, 760, 500, 772), TEXT, f"Sponsor Study XY-1234 Page {p} of 20") for p in range(1, 21)]
    for p, change in zip((8, 9, 10), changes):
        blocks.append(
            Block(p, (72, 60, 540, 140), TABLE, f"|Applicable Section|Description|\n|---|---|\n|{p}.1|{change}|")
        )
    mark_furniture(blocks, {p: (612, 792) for p in range(1, 21)}, 20)
    assert all(b.text.startswith("|Applicable Section|") and not b.dropped for b in blocks if b.kind == TABLE)


def test_a_header_block_torn_by_a_tables_columns_is_taken_out_of_it():
    from clinparser.model import TABLE

    blocks = []
    for p in range(1, 11):
        blocks.append(
            Block(
                p,
                (72, 30, 540, 60),
                TEXT,
                f"Protocol\nTrial ID: XY-1234\nDate: 21 December 2017\nVersion: 2.0 Page {p} of 10",
            )
        )
        blocks.append(Block(p, (72, 200, 540, 260), TEXT, f"Unique body paragraph {p}."))
    # A landscape page: the header block fell into the table and its columns cut it to pieces.
    torn = (
        "|Protocol||Dat|e:|21 Dec|embe|r 2017|\n"
        "|---|---|---|---|---|---|---|\n"
        "|Trial ID: XY-1234||Ver|sion:|2.0|P|age: 4|"
    )
    blocks[6] = Block(
        4,
        (72, 80, 700, 500),
        TABLE,
        torn + "\n|Activity|Visit 1|Visit 2|Visit 3|Visit 4|Visit 5|Visit 6|\n|ECG|X||X||X||",
    )
    # A real header row naming a furniture word ("Protocol") among words of its own stays.
    blocks[8] = Block(5, (72, 80, 700, 500), TABLE, "|Protocol|Visit|V1|V2|\n|---|---|---|---|\n|ECG|X||X|")
    mark_furniture(blocks, {p: (792, 612) for p in range(1, 11)}, 10)
    assert blocks[6].text.splitlines()[0] == "|Activity|Visit 1|Visit 2|Visit 3|Visit 4|Visit 5|Visit 6|"
    assert len(blocks[6].text.splitlines()) == 3
    assert blocks[8].text.startswith("|Protocol|Visit|V1|V2|") and not blocks[8].dropped


def test_footer_lines_a_tables_last_cell_swallowed_are_taken_out_and_its_own_lines_stay():
    from clinparser.model import TABLE

    blocks = []
    for p in range(1, 11):
        blocks.append(Block(p, (72, 200, 540, 260), TEXT, f"Unique body paragraph {p}."))
        blocks.append(Block(p, (72, 740, 540, 770), TEXT, f"18 Apr 2022\nSponsor Pharma\nPage {p} of 10"))
    # On page 2 a table of contents reaches the bottom edge: the footer's lines went into its
    # last cell, above the cell's own entry (a bare section number among them).
    toc = "|1 INTRODUCTION .... 29|\n|---|\n|18 Apr 2022<br>Sponsor Pharma<br>Page 2 of<br>4<br>TREATMENTS .... 45|"
    blocks[3] = Block(2, (72, 100, 540, 760), TABLE, toc)
    # Cells naming the sponsor, at the bottom of another table, keep it: no date or page number goes with it.
    blocks[5] = Block(
        3, (72, 100, 540, 760), TABLE, "|Role|Name|\n|---|---|\n|Sponsor Pharma<br>Sponsor|Contact details|"
    )
    mark_furniture(blocks, {p: (612, 792) for p in range(1, 11)}, 10)
    assert blocks[3].text.splitlines() == ["|1 INTRODUCTION .... 29|", "|---|", "|4<br>TREATMENTS .... 45|"]
    assert blocks[5].text.endswith("|Sponsor Pharma<br>Sponsor|Contact details|") and not blocks[5].dropped


def test_a_header_block_read_as_one_line_in_a_varying_order_is_furniture():
    # Printed line by line on most pages; on some, the converter runs the block's lines into
    # one, in an order of its own, with a stamp printed twice over itself read doubled.
    from clinparser.model import HEADING

    n = 12
    sizes = {p: (612, 792) for p in range(1, n + 1)}
    blocks = []
    for p in range(1, n + 1):
        if p % 4:
            lines = [
                "Protocol",
                "Date:",
                "21 December 2017",
                "Acme Pharma",
                "Trial ID: AC-4373",
                "Version:",
                "2.0",
                "CONFIDENTIAL",
                "Page:",
                f"{p} of {n}",
            ]
            blocks.append(Block(p, (72, 20, 540, 90), TEXT, "\n".join(lines)))
        else:
            joined = (
                "Protocol Date: 21 December 2017 **Acme Pharma** Version: 2.0 ~~CONFIDENTIALCONFIDENTIAL~~ "
                f"Trial ID: AC-4373 Page: {p} of {n}"
            )
            blocks.append(Block(p, (72, 20, 540, 90), TEXT, joined))
        blocks.append(Block(p, (72, 300, 540, 340), TEXT, f"Body paragraph {p} of the protocol."))
    # Body-like lines at the edge made of one furniture line and other words, or a heading
    # made of header words, stay.
    blocks.append(Block(5, (72, 95, 540, 110), TEXT, "Protocol deviations are listed below"))
    blocks.append(Block(6, (72, 95, 540, 110), HEADING, "## Protocol Version 2.0"))
    mark_furniture(blocks, sizes, n)
    assert [b.page for b in blocks if "Acme" in b.text and b.dropped != "furniture"] == []
    assert [b.dropped for b in blocks[-2:]] == ["", ""]
    assert not any(b.dropped for b in blocks if b.text.startswith("Body"))


def test_a_header_blocks_labels_in_a_tables_top_row_are_taken_out():
    from clinparser.model import TABLE

    blocks = []
    for p in range(1, 11):
        blocks.append(Block(p, (72, 20, 540, 60), TEXT, f"Date: {p} May 2019\nVersion:\nStatus:\nFinal"))
        blocks.append(Block(p, (72, 200, 540, 260), TEXT, f"Unique body paragraph {p}."))
    # Page 2 is another report's cover, its header block drawn as a table with a title
    # beside the labels: the labels go, the title stays.
    cover = (
        "|Clinical Trial Report<br>Appendix 16.1.1|Date:<br>Version:<br>Status:|11 Jun 2020<br>1.0|\n"
        "|---|---|---|\n"
        "|16.1.1 Protocol|||"
    )
    blocks[2] = Block(2, (72, 20, 540, 120), TABLE, cover)
    # The same cover again at the end, drawn as a table of that one row.
    blocks[18] = Block(10, (72, 20, 540, 100), TABLE, cover.split("\n|16.1.1")[0])
    mark_furniture(blocks, {p: (612, 792) for p in range(1, 11)}, 10)
    assert blocks[2].text.splitlines()[0] == "|Clinical Trial Report<br>Appendix 16.1.1||11 Jun 2020<br>1.0|"
    assert blocks[18].text.splitlines()[0] == "|Clinical Trial Report<br>Appendix 16.1.1||11 Jun 2020<br>1.0|"


def test_footer_lines_a_body_block_swallowed_are_taken_off_its_end():
    from clinparser.model import LIST_ITEM

    sizes = {p: (612, 792) for p in range(1, 11)}
    blocks = []
    for p in range(1, 11):
        blocks.append(Block(p, (72, 200, 540, 260), TEXT, f"Unique body paragraph {p}."))
        blocks.append(Block(p, (80, 735, 330, 757), TEXT, "18 Apr 2022\nAcme Pharma"))
        blocks.append(Block(p, (470, 735, 540, 745), TEXT, f"Page {p} of 10"))
    # Page 4: the last list item and the footer are one block, the footer's lines run together.
    blocks[10] = Block(4, (80, 690, 540, 757), LIST_ITEM, "- Study contract.\n\n- 18 Apr 2022 Acme Pharma Page 4 of 10")
    # Page 5: the footer block starts with its date, which reads like "18 Apr..." as a section.
    blocks[13] = Block(5, (80, 735, 330, 757), TEXT, "18 Apr 2022 Acme Pharma")
    # Page 6: a paragraph ending near the bottom with a line of its own stays whole.
    blocks[16] = Block(6, (80, 690, 540, 757), TEXT, "The sponsor is\nAcme Pharma Research Limited")
    mark_furniture(blocks, sizes, 10)
    assert blocks[10].text == "- Study contract." and not blocks[10].dropped
    assert blocks[13].dropped == "furniture"
    assert blocks[16].text == "The sponsor is\nAcme Pharma Research Limited"


def test_a_running_header_drawn_inside_a_picture_leaves_the_pictures_words():
    from clinparser.clean.furniture import mark_furniture
    from clinparser.model import PICTURE, TEXT, Block, RawImage

    sizes = {p: (612.0, 792.0) for p in range(1, 6)}
    blocks = []
    for page in range(1, 5):  # the header printed as text on four pages
        blocks.append(Block(page, (72, 30, 540, 42), TEXT, f"Trial ID: NN-4373 Page {page} of 5"))
        blocks.append(Block(page, (72, 300, 540, 320), TEXT, f"Body text {page}."))
    # page 5: the header and a figure inside one picture box (pixels = points here)
    words = [((0, 0, 400, 12), "Trial ID: NN-4373 Page 5 of 5"), ((0, 200, 300, 212), "Randomization 2:1")]
    picture = Block(
        5,
        (72, 30, 540, 330),
        PICTURE,
        "",
        image=RawImage(5, (72, 30, 540, 330), b"", 468, 300, words=words, words_from="text-layer"),
    )
    blocks.append(picture)
    mark_furniture(blocks, sizes, 5)
    assert picture.dropped == "" and picture.image.words == [((0, 200, 300, 212), "Randomization 2:1")]


def test_an_axis_of_numbers_at_the_foot_of_a_picture_is_not_a_page_number():
    from clinparser.clean.furniture import mark_furniture
    from clinparser.model import PICTURE, TEXT, Block, RawImage

    sizes = {p: (612.0, 792.0) for p in range(1, 6)}
    blocks = [Block(page, (72, 300, 540, 320), TEXT, f"Body text {page}.") for page in range(1, 5)]
    blocks += [Block(page, (300, 760, 312, 770), TEXT, str(page)) for page in range(1, 5)]  # page numbers
    # page 5: a timeline reaching the foot of the page; its axis is "cycle days 1 2 3", and the
    # page number "5" is drawn alone inside the same box (pixels = points here, box from y=600)
    axis = [
        ((0, 80, 40, 90), "cycle days"),
        ((60, 80, 66, 90), "1"),
        ((80, 80, 86, 90), "2"),
        ((100, 80, 106, 90), "3"),
    ]
    words = [((0, 0, 200, 12), "Letrozole 5 mg/d")] + axis + [((228, 160, 240, 170), "5")]
    picture = Block(
        5,
        (72, 600, 540, 780),
        PICTURE,
        "",
        image=RawImage(5, (72, 600, 540, 780), b"", 468, 180, words=words, words_from="text-layer"),
    )
    blocks.append(picture)
    mark_furniture(blocks, sizes, 5)
    assert [text for _, text in picture.image.words] == ["Letrozole 5 mg/d", "cycle days", "1", "2", "3"]


def test_a_header_read_as_one_line_is_furniture_though_its_date_changes_with_each_bundled_amendment():
    # The protocol's pages print one date, the bundled amendments' pages others: no one date
    # recurs on enough pages, the header's other lines do. Read as one line, in an order of its
    # own, on every other page.
    from clinparser.model import TABLE

    n = 20
    sizes = {p: (612, 792) for p in range(1, n + 1)}
    blocks = []
    for p in range(1, n + 1):
        date = "21 December 2017" if p <= 5 else ("3 March 2018" if p <= 10 else "9 July 2018")
        if p % 2:
            rows = f"|Acme Pharma|Date:|{date}|\n|---|---|---|\n|Page: {p} of {n}|Version:|2.0|"
            blocks.append(Block(p, (72, 20, 540, 90), TABLE, rows))
        else:
            blocks.append(
                Block(p, (72, 20, 540, 90), TEXT, f"Date: {date} **Acme Pharma** Version: 2.0 Page: {p} of {n}")
            )
        blocks.append(Block(p, (72, 300, 540, 340), TEXT, f"Body paragraph {p} of the protocol."))
    # A line at the edge with a date and one header word is body text.
    blocks.append(Block(7, (72, 95, 540, 110), TEXT, "Version 3 March 2018"))
    mark_furniture(blocks, sizes, n)
    assert [b.page for b in blocks if b.kind == TEXT and "Acme" in b.text and b.dropped != "furniture"] == []
    assert blocks[-1].dropped == ""
    assert not any(b.dropped for b in blocks if b.text.startswith("Body"))


def test_a_tables_last_cell_keeps_its_escaped_pipe_when_footer_lines_are_taken_out():
    from clinparser.model import TABLE

    blocks = []
    for p in range(1, 11):
        blocks.append(Block(p, (72, 200, 540, 260), TEXT, f"Unique body paragraph {p}."))
        blocks.append(Block(p, (72, 740, 540, 770), TEXT, f"18 Apr 2022\nSponsor Pharma\nPage {p} of 10"))
    toc = "|1 INTRODUCTION .... 29|\n|---|\n|18 Apr 2022<br>Sponsor Pharma<br>Page 2 of<br>4<br>DOSE \\| ROUTE .... 45|"
    blocks[3] = Block(2, (72, 100, 540, 760), TABLE, toc)
    mark_furniture(blocks, {p: (612, 792) for p in range(1, 11)}, 10)
    assert blocks[3].text.splitlines() == ["|1 INTRODUCTION .... 29|", "|---|", "|4<br>DOSE \\| ROUTE .... 45|"]
