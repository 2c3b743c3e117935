"""Builders shared by the design readers' tests: a section of the parsed tree."""


def section(number, title, *subsections, text="Some text."):
    """A toc node on page 40 with no tables."""
    return {
        "number": number,
        "title": title,
        "text": text,
        "pages": [40, 40],
        "tables": [],
        "subsections": list(subsections),
    }
