"""Every string that reaches the output is NFC, without replacement or control characters;
ligatures and soft hyphens are handled one documented way."""

from __future__ import annotations

import unicodedata

from clinparser.clean.clean_text import clean, clean_blocks, unmapped_warning
from clinparser.model import TEXT, Block, OutlineEntry


def test_nfc_composes_decomposed_letters():
    decomposed = "Caf" + "e\u0301" + " nai\u0308ve"
    assert clean(decomposed) == "Café naïve"
    assert unicodedata.is_normalized("NFC", clean(decomposed))


def test_ligatures_are_spelled_out_and_nothing_else_is_folded():
    assert clean("\ufb01rst \ufb02ow e\ufb00ect o\ufb03ce") == "first flow effect office"
    assert clean("5 mg/m² ½ dose µg") == "5 mg/m² ½ dose µg"  # NFKC would change these


def test_soft_hyphen_joins_a_broken_word_and_is_removed_elsewhere():
    assert clean("treat\u00ad\nment") == "treatment"
    assert clean("treat\u00ad \n  ment plan") == "treatment plan"
    assert clean("co\u00adoperate") == "cooperate"


def test_control_and_replacement_characters_are_removed_newlines_and_tabs_kept():
    assert clean("a\x03b\x0cc\x1fd\x7fe\x85f") == "abcdef"
    assert clean("one\ttwo\nthree\r\nfour\rfive") == "one\ttwo\nthree\nfour\nfive"
    assert clean("x\ufffdy") == "xy"


def test_plain_ascii_is_returned_as_is():
    text = "5.1 Inclusion Criteria\n\n1. Age >= 18"
    assert clean(text) is text


def test_clean_blocks_counts_replacements_per_page_and_warns_with_pages():
    blocks = [Block(3, None, TEXT, "\ufffd\ufffd= 4"), Block(5, None, TEXT, "ok"), Block(7, None, TEXT, "\ufffd")]
    lost = clean_blocks(blocks)
    assert [b.text for b in blocks] == ["= 4", "ok", ""]
    assert lost == {3: 2, 7: 1}
    (warning,) = unmapped_warning(lost)
    assert "3 characters" in warning and "pages 3, 7" in warning
    assert unmapped_warning(clean_blocks([Block(1, None, TEXT, "fine")])) == []


def test_outline_titles_are_cleaned_too():
    from clinparser.clean.clean_text import clean_entries

    entry = OutlineEntry(number="6.2.2\x03", title="Concordance\x00 of \ufb01les", page=51, source="bookmark")
    clean_entries([entry])
    assert (entry.number, entry.title) == ("6.2.2", "Concordance of files")


def test_the_words_read_inside_a_picture_are_cleaned_and_their_replacements_counted():
    from clinparser.model import PICTURE, RawImage

    image = RawImage(
        4, (0, 0, 10, 10), b"", 10, 10, words=[((0, 0, 5, 2), "\ufb01rst \ufffd dose"), ((0, 3, 5, 5), "\ufffd")]
    )
    block = Block(4, (0, 0, 10, 10), PICTURE, "", image=image)
    assert clean_blocks([block]) == {4: 2}
    assert image.words == [((0, 0, 5, 2), "first dose")]  # a line left empty is no line
