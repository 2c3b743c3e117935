"""The PyMuPDF engine's steps, in the order they run: the one place that order is written.

On each page, in whichever process converted it (``engines/page_workers.py``):
  1. the layout model, its model chosen first (``engines/layout_route.py``), and the page checks
     and recovery (``pages/page_check.py``, ``pages/page_recovery.py``);
  2. heading numbers drawn as pictures read (``repairs/number_pictures.py``);
  3. ruled tables read again from their drawn grid (``tables/table_grid.py``).
Steps 2 and 3 read the page's own text layer, so a page OCR read is left to OCR's words.

On the whole document, once every page is in (``engines/pymupdf_backend.py``):
  4. number pictures left unread numbered from their neighbours' sequence;
  5. pages turned upright in the backend's handle, as the converter's were;
  6. table cells given the page's word spacing (``tables/table_words.py``);
  7. the layout boxes mended: heading lines, list lead-ins, joined list items (``repairs/``);
then the pictures are rendered and their words read (``pictures/``).
"""

from __future__ import annotations

from ..model import OCR, Block, PageRecord
from .options import ParseOptions
from .pages.orientation import turn_upright
from .repairs.heading_lines import split_heading_lines
from .repairs.list_leads import unmark_lead_ins
from .repairs.list_splits import split_joined_items
from .repairs.number_pictures import number_from_sequence, number_pictures
from .tables.table_grid import regrid_tables
from .tables.table_words import respace_tables


def on_each_page(doc, results: list, options: ParseOptions) -> None:
    """Steps 2-3 on converted pages (``PageResult``s), in place. ``doc`` is the converting
    process's own handle, upright as the converter read it. Ruled tables are read here, by the
    process that converted the page, so that this reading is shared out over the workers too."""
    for blocks, heads, record in results:
        if record.source == OCR:  # its words are OCR's, not this handle's (and its numbers are read)
            continue
        if options.ocr_allowed:
            number_pictures(doc[record.page - 1], blocks)
        regrid_tables(doc, blocks, heads)  # in place: text it splits off joins the page's lists


def on_the_document(doc, blocks: list[Block], ledger: list[PageRecord]) -> list[Block]:
    """Steps 4-7 on every page's blocks in page order, with the backend's handle ``doc``."""
    number_from_sequence(blocks)
    # The converter's handle un-rotated each page and turned a sideways page upright (the ledger
    # says how far): do the same here, so that layout boxes, page sizes and rendered pictures
    # share one coordinate system, without reading every page's text a second time.
    for page, record in zip(doc, ledger):
        turn_upright(page, record.turn)
    read = {r.page for r in ledger if r.source == OCR}
    respace_tables(doc, blocks)  # the workers' grid readings are re-spaced too
    blocks = split_heading_lines(doc, blocks)  # a heading boxed with the line under it
    unmark_lead_ins(doc, blocks, read)  # a list's lead-in sentence boxed as its first item
    split_joined_items(doc, blocks, read)  # two numbered items boxed as one
    return blocks
