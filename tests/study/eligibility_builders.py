"""Hand-built documents for the eligibility tests: sections and blocks shaped like
document.json / blocks.json, and the reader run on them."""

from clinparser.study.eligibility import read_eligibility
from clinparser.study.trace import Tracer


def node(title, text="", pages=(10, 10), number="", tables=(), subsections=()):
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


def block(page, text, x0=72, kind="text"):
    return {"page": page, "bbox": [x0, 100, 540, 120], "kind": kind, "text": text, "dropped": ""}


def doc(*toc, non_toc=()):
    return {"toc": list(toc), "non_toc": list(non_toc), "metadata": {}}


def read(document, blocks=()):
    return read_eligibility(document, Tracer(list(blocks)))


def brief(criteria):
    return [(c["category"], c["identifier"], c["text"]) for c in criteria]


def population(inclusion_text, exclusion_text="", pages=(10, 10)):
    subs = [node("Inclusion Criteria", inclusion_text, pages, "5.1")]
    if exclusion_text:
        subs.append(node("Exclusion Criteria", exclusion_text, pages, "5.2"))
    return node("Study Population", "", pages, "5", subsections=subs)
