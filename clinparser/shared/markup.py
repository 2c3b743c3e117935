"""Plain text of the converters' Markdown: the one reading of markup every stage shares.

It sits below the stage packages because all of them read block text: the converter's
table cells, the numbering grammar, furniture, references and the study readers."""

from __future__ import annotations

import re

# Markup the converters wrap around or inside heading text, by kind rather than by name: any
# HTML/XML tag, Markdown emphasis (*, _, ~~, ==), code ticks, and a Markdown link reduced to its
# text. A new tag a converter starts to emit therefore never hides a number.
_MARKUP = re.compile(r"</?[A-Za-z][A-Za-z0-9]*(?:\s[^<>]*)?/?>|\*\*|__|~~|==|(?<!\w)[_*](?=\S)|(?<=\S)[_*](?!\w)|`")
# The converters' HTML tags and comments (<br>, <sup>, <!-- ... -->): not words of the page.
HTML_TAG = re.compile(r"<[^>]*>")
# Inline HTML tags and every Markdown mark character: what is left is letters to compare.
TAGS_AND_MARKS = re.compile(r"</?[A-Za-z][^>]*>|[#*_`>|\\]")
_LINK = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")
_HEADING_HASHES = re.compile(r"^\s{0,3}#{1,6}\s*")
_BULLET = re.compile(r"^\s*[-*+\u2022\u25aa\u25cf]\s+")  # the layout model may call a heading a bullet


def strip_markup(line: str) -> str:
    """Plain text of one Markdown line: no heading hashes, emphasis, HTML tags."""
    line = _HEADING_HASHES.sub("", line)
    line = _BULLET.sub("", line)
    line = _LINK.sub(r"\1", line)
    line = _MARKUP.sub("", line)
    line = line.replace("\\", "")
    return " ".join(line.split())


# The words read inside a picture (convert/pictures/picture_words.py) follow its placeholder in a
# section's text as one block between these two lines: searchable, and easy to tell from the
# text around the picture. ``source`` says where they came from ("text-layer", "ocr").
PICTURE_TEXT_START = "<!-- text in the picture ({source}) -->"
PICTURE_TEXT_END = "<!-- end of text in the picture -->"
PICTURE_TEXT = re.compile(
    r"^<!-- text in the picture \((?P<source>[^)]*)\) -->\n(?P<text>.*?)\n<!-- end of text in the picture -->$",
    re.S | re.M,
)


def picture_text_block(lines: list[str], source: str) -> str:
    """The marked block of a picture's words, one line each."""
    return "\n".join([PICTURE_TEXT_START.format(source=source), *lines, PICTURE_TEXT_END])


# Symbol-font characters some converters keep as private-use code points: "\uf0b13 days" is "±3
# days", "Be \uf0b3 18 years of age" is "Be ≥ 18 years of age".
SYMBOL_FONT = str.maketrans(
    {
        "\uf0b1": "\u00b1",
        "\uf02d": "-",
        "\uf02b": "+",
        "\uf0ae": "\u2192",
        "\uf0ac": "\u2190",
        "\uf0a3": "\u2264",
        "\uf0b3": "\u2265",
    }
)
