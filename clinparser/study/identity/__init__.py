"""The study's identity as its protocol prints it: titles, identifiers, phase and sponsor.

Each is read by its own module from the same zones of text (``front_matter``): ``titles``,
``identifiers``, ``phase`` and ``sponsor``. Here they are run in turn, and what none of them
found is diagnosed.
"""

from __future__ import annotations

from ...document_types import Document
from .front_matter import FrontMatter
from .identifiers import read_identifiers
from .phase import read_phase
from .sponsor import read_sponsor
from .titles import read_titles


def read_identity(document: Document, blocks: list[dict]) -> tuple[dict, list[dict]]:
    """The study's titles, identifiers, phase and sponsor as printed, and diagnostics."""
    front = FrontMatter(document, blocks)
    identifiers, diagnostics = read_identifiers(front)
    titles = read_titles(front)
    phase = read_phase(front, titles["official"])
    if phase["value"] is None and phase["printed"]:
        diagnostics.append({"kind": "phase_unrecognised", "detail": f"phase printed {phase['printed']!r}"})
    sponsor = read_sponsor(front)
    if titles["official"] is None:
        diagnostics.append({"kind": "title_not_found", "detail": "no official title found on the title page"})
    if not any(i["kind"] == "sponsor" for i in identifiers):
        diagnostics.append(
            {
                "kind": "protocol_number_not_found",
                "detail": "no sponsor protocol number on the title page, headers or synopsis",
            }
        )
    return {"titles": titles, "identifiers": identifiers, "phase": phase, "sponsor": sponsor}, diagnostics
