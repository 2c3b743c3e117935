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
