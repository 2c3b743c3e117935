"""Hand-built title pages and blocks for the identity tests (shaped like document.json /
blocks.json)."""


def node(title, text="", pages=(1, 1), number="", tables=(), subsections=()):
    return {
        "number": number,
        "title": title,
        "level": 1,
        "pages": list(pages),
        "text": text,
        "tables": list(tables),
        "images": [],
        "references": [],
        "subsections": list(subsections),
    }


def block(page, text, dropped="", kind="text"):
    return {"page": page, "bbox": [0, 0, 10, 10], "kind": kind, "text": text, "dropped": dropped}


TITLE = (
    "A Phase 3, Randomized, Double-blind, Placebo-controlled Study of Drugamab in "
    "Adults With Moderate to Severe Disease"
)


def title_page_blocks():
    """The blocks of a protocol whose header and footer name its numbers, its title page a
    table, and a cited parent trial."""
    return [
        block(1, "Protocol EXT-301 Version 2.0", dropped="furniture", kind="page-header"),
        block(1, "Clinical Study Protocol", kind="heading"),
        block(1, "|Protocol Title:|" + TITLE + "|", kind="table"),
        block(2, "Delete: EudraCT Number: 2012-002805-23"),
        block(3, "Protocol Number: EXT-301 NCT Number: NCT01234567"),
        block(3, "UTN U1111-1234-5678 Protocol EXT-301", dropped="furniture", kind="page-footer"),
        block(4, "The parent trial (NCT09999999; EudraCT 2010-024251-87) enrolled 600 patients."),
    ]
