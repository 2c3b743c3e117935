"""What the paragraphs and list items of a block state: objectives, endpoints, or neither."""

from __future__ import annotations

import re

from ..trace import Tracer
from .items import Context, Item, make, under
from .lists import Unit, groups_of, joined_continuations
from .vocabulary import (
    EMPTY,
    ENDPOINT,
    ENDPOINT_WORD,
    OBJECTIVE,
    OBJECTIVE_WORD,
    OTHER_BLOCK,
    STATES_OBJECTIVE,
    cut_hypothesis,
    first_clause,
    level_of,
)

_CROSS_REFERENCE = re.compile(
    r"\b(?:see|refer\s+to|described\s+in|listed\s+in|defined\s+in|provided\s+in)\s+"
    r"(?:the\s+)?(?:section|appendix|table)\s+\S+",
    re.IGNORECASE,
)
# "The primary endpoint is ...", "The secondary efficacy outcomes are ...": a paragraph that states
# an endpoint (as opposed to prose about how it is measured or analysed).
# "Each endpoint is summarized by ...", "The endpoints are analysed ...": prose about how the
# endpoints are handled, not an endpoint.
_HANDLES_ENDPOINTS = re.compile(
    r"\b(?:is|are|will\s+be)\s+(?:summari[sz]ed|analy[sz]ed|listed|presented|reported|"
    r"tested|compared|estimated)\b",
    re.IGNORECASE,
)  # ("is defined as" states one)
_STATES_ENDPOINT = re.compile(
    r"^(?:the|an?|this|each)?\s*(?:\S+\s+){0,3}(?:end\s?-?points?|outcomes?|"
    r"(?<=efficacy\s)(?:parameters?|variables?))\s+"
    r"(?:is|are|was|include|includes|of\s+th(?:is|e)|for\s+th(?:is|e)|will\s+be|addressing)\b",
    re.IGNORECASE,
)
# "The primary objectives of this study are", "The primary objective of the study is as
# follows:" (over two bullets): a lead-in that only announces the list.
_ANNOUNCES_OBJECTIVES = re.compile(
    r"^(?:the|an?)?\s*(?:\S+\s+){0,3}objectives?\s+(?:(?:of|for)\s+(?:this|the)\s+"
    r"(?:study|trial|protocol)\s+)?(?:are|is|include|includes)(?:\s+the\s+following|\s+as\s+follows)?\s*:?$",
    re.IGNORECASE,
)
# "Four key secondary objectives are ...", "the following objectives": a lead naming the
# objectives it lists (plural: "The objective is to assess X on:" is one objective).
_OBJECTIVES_NAMED = re.compile(r"\bobjectives\b", re.IGNORECASE)
# "To assess the effect of X on each of the following:": one objective for each item.
_EACH_OF = re.compile(r"\beach\s+of\s+the\s+following\b", re.IGNORECASE)
# A capital "To" and a verb inside a sentence, after a word: the next objective statement, run
# into the paragraph (a layer that lost the paragraph break).
_GLUED_STATEMENTS = re.compile(r"(?<=[a-z0-9)\]])\s+(?=To\s+[a-z]{3,}\b)")
# "In adults with CKD, to assess ...": an objective's verb after an opening phrase.
_TO_VERB = re.compile(r"(?:^|[,;]\s*)to\s+[a-z]{3,}\b", re.IGNORECASE)
_SUBGROUPS = re.compile(r"\bsub-?groups?\b", re.IGNORECASE)
_DEFINITIONS = re.compile(r"\bdefinitions?\b|\bdefined\b", re.IGNORECASE)
# A finite verb of prose ("will be assessed", "is defined", "are"): a sentence, not a name.
_PROSE_VERB = re.compile(
    r"\b(?:will|shall|should|must|may|can|is|are|was|were|has\s+been|have\s+been)\b", re.IGNORECASE
)


class BlockReader:
    """Reads the blocks of a document's sections (the paragraphs and list items under one
    heading); whether its objectives list their endpoints carries over from block to block."""

    def __init__(self, tracer: Tracer):
        self.tracer = tracer
        self._items_endpoint_lead = False  # objectives in this document list their endpoints
        self._block_states = False  # the block being read has a paragraph stating an objective

    def read_block(self, block: list[Unit], context: Context, section: dict) -> list[Item]:
        block = joined_continuations(block)
        block = [u for u in block if not EMPTY.match(u.text) and not _is_cross_reference(u.text)]
        block = _without_other_statements(block)
        groups = groups_of(block, section, self.tracer)
        kind = context.kind
        if kind is None:
            return []
        items: list[Item] = []
        # Paragraphs between lists are notes when the block's objectives are bare list items; when
        # every list hangs from a lead-in sentence, a paragraph on its own is an objective too.
        has_items = any(lead is None or _ANNOUNCES_OBJECTIVES.match(lead.text) for lead, members in groups if members)
        # When some paragraph states an objective ("To compare ...", "The primary objective is to
        # ..."), the paragraphs that state none beside it are commentary on it.
        self._block_states = any(lead is not None and STATES_OBJECTIVE.match(lead.text) for lead, _ in groups)
        for lead, members in groups:
            if kind == OBJECTIVE:
                items.extend(self._objectives_of(lead, members, has_items, context, section))
            else:
                items.extend(_endpoints_of(lead, members, has_items, context, section))
        return items

    def _objectives_of(
        self, lead: Unit | None, members: list[str], has_items: bool, context: Context, section: dict
    ) -> list[Item]:
        if lead is None:
            return [make(OBJECTIVE, context, text, section) for text in members]
        lead_text = cut_hypothesis(lead.text)
        states = bool(STATES_OBJECTIVE.match(lead_text))
        glued = _GLUED_STATEMENTS.split(lead_text) if states and not members else []
        if len(glued) > 1:
            # "To assess X To characterize Y": statements run into one paragraph by the text layer
            return [make(OBJECTIVE, context, text, section) for text in glued]
        if not members:
            if has_items or lead_text.endswith(":"):
                return []
            if not states and (self._block_states or not _has_level(context, lead_text)):
                return []
            return [make(OBJECTIVE, context, lead_text, section)]
        if _ANNOUNCES_OBJECTIVES.match(lead_text):
            return [make(OBJECTIVE, context, text, section) for text in members]
        if (
            ENDPOINT_WORD.search(lead_text) and (states or OBJECTIVE_WORD.search(lead_text))
        ) or self._items_endpoint_lead:
            # "... on the basis of the following endpoints:" -- the bullets are its endpoints.
            self._items_endpoint_lead = True
            objective = make(OBJECTIVE, context, lead_text, section)
            for text in members:
                # its objective's level, which the objective's own words may have given
                endpoint = make(ENDPOINT, under(objective), text, section)
                objective.endpoints.append(endpoint)
            return [objective]
        if lead_text.endswith(":") and (
            _OBJECTIVES_NAMED.search(lead_text) or len(lead_text.split()) <= 3 or _EACH_OF.search(lead_text)
        ):
            # "Four key secondary objectives are to compare A with B for:", "Additionally:": a
            # lead-in announcing a list of objectives; each item is one.
            return [make(OBJECTIVE, context, text, section) for text in members]
        if states or _TO_VERB.search(lead_text) or not lead_text.endswith(":"):
            # One objective whose sentence runs on into its list ("To compare X with Y on:",
            # "In adults with CKD, to assess X in reducing:" + the outcomes).
            return [make(OBJECTIVE, context, " ".join([lead_text] + members), section)]
        # "... will be evaluated for subgroups defined by the following characteristics:": a
        # list of something else.
        return []


def _endpoints_of(
    lead: Unit | None, members: list[str], has_items: bool, context: Context, section: dict
) -> list[Item]:
    if lead is None:
        return [make(ENDPOINT, context, text, section) for text in members]
    if members:
        if _DEFINITIONS.search(lead.text) and not _STATES_ENDPOINT.search(lead.text):
            return []  # "The definitions for each component ... are:" + the definitions
        if _SUBGROUPS.search(lead.text):
            return []  # "... will be examined in subgroups defined by the following factors:"
        return [make(ENDPOINT, context, text, section) for text in members]
    if lead.text.endswith(":"):
        return []
    if _CROSS_REFERENCE.search(first_clause(lead.text)):
        return []  # "Additional efficacy variables are listed in Section 5.3.3.1.3 ...": a pointer
    if _STATES_ENDPOINT.search(lead.text) and _HANDLES_ENDPOINTS.search(first_clause(lead.text)):
        return []
    if _STATES_ENDPOINT.search(lead.text) or (lead.label and ENDPOINT_WORD.search(lead.label)):
        # "The primary endpoint is ..." or "**Endpoint:** change from baseline in ..."
        return [make(ENDPOINT, context, lead.text, section)]
    if _names_a_measure(lead.text):
        # "Change from randomisation to week 68 in body weight (%)" alone under "Primary
        # endpoint": a measure named, not prose about one.
        return [make(ENDPOINT, context, lead.text, section)]
    return []


def _without_other_statements(block: list[Unit]) -> list[Unit]:
    """Leave out an estimand or hypothesis stated among the objectives, with the list it leads."""
    out: list[Unit] = []
    dropping = False
    for unit in block:
        if unit.kind == "para":
            dropping = bool(OTHER_BLOCK.search(first_clause(unit.text)))
        if not dropping:
            out.append(unit)
    return out


def _has_level(context: Context, text: str) -> bool:
    return bool(context.level or context.label or level_of(first_clause(text)))


def _is_cross_reference(text: str) -> bool:
    return bool(_CROSS_REFERENCE.search(text)) and len(text.split()) <= 15


def _names_a_measure(text: str) -> bool:
    """A short line naming what is measured, as endpoint lists print their items: no full stop,
    no colon, no verb of prose, at most 30 words."""
    return (
        len(text.split()) <= 30
        and not text.rstrip().endswith((".", ":", ";"))
        and not _PROSE_VERB.search(text)
        and text[:1].isupper()
        and "=" not in text
    )  # no formula
