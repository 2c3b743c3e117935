"""Hand-built documents for the objectives tests: sections shaped like document.json, and what
the tests compare of read_objectives' output."""

from clinparser.study.trace import Tracer


def section(number, title, text="", pages=(1, 1), tables=(), subsections=()):
    return {
        "number": number,
        "title": title,
        "level": number.count(".") + 1,
        "pages": list(pages),
        "text": text,
        "tables": list(tables),
        "images": [],
        "references": [],
        "subsections": list(subsections),
    }


def document(*toc, non_toc=()):
    return {"toc": list(toc), "non_toc": list(non_toc), "metadata": {}}


def no_blocks():
    return Tracer([])


def flat(objectives):
    """The fields that say what was read (pages and boxes are checked separately)."""
    return [
        (
            o["level"],
            o["label"],
            o["text"],
            o["section"],
            [(e["level"], e["label"], e["text"], e["section"]) for e in o["endpoints"]],
        )
        for o in objectives
    ]


def kinds(diagnostics):
    return [d["kind"] for d in diagnostics]
