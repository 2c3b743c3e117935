"""The study definition of one parsed document: every reader of this package, run in turn.

The readers take the document as the output writes it (``document.json``'s dict, the blocks as
``blocks.json`` lists them), so what they read is exactly what a user sees, and each item can
be traced back to the blocks, and so to the pages and boxes, it came from.
"""

from __future__ import annotations

from ..document_types import Document, Study
from .abbreviations import read_abbreviations
from .design import read_design
from .eligibility import read_eligibility
from .identity import read_identity
from .objectives import read_objectives
from .trace import Tracer


def read_study(document: Document, blocks: list[dict]) -> Study:
    """``document``: ``{"toc", "non_toc", ...}``; ``blocks``: dicts as in ``blocks.json``."""
    tracer = Tracer(blocks)
    identity, identity_notes = read_identity(document, blocks)
    criteria, criteria_notes = read_eligibility(document, tracer)
    objectives, objective_notes = read_objectives(document, tracer)
    abbreviations = read_abbreviations(document)
    design, design_notes = read_design(
        document, tracer, criteria=criteria, title=identity["titles"].get("official"), abbreviations=abbreviations
    )
    return {
        "titles": identity["titles"],
        "identifiers": identity["identifiers"],
        "phase": identity["phase"],
        "sponsor": identity["sponsor"],
        "eligibility": criteria,
        "objectives": objectives,
        "design": design,
        "abbreviations": abbreviations,
        # Never a silent guess: what each reader could not settle, in reading order.
        "diagnostics": [{"reader": "identity", **d} for d in identity_notes]
        + [{"reader": "eligibility", **d} for d in criteria_notes]
        + [{"reader": "objectives", **d} for d in objective_notes]
        + [{"reader": "design", **d} for d in design_notes],
    }
