"""The study definition (``result["study"]``, see ``clinparser.study.definition``) as USDM v4.0.

``study_usdm(study, ...)`` gives the USDM ``Study`` of the export's ``Wrapper``: the protocol
document with the narrative, and one ``StudyVersion`` holding what the protocol says about the
study itself, with the narrative's items and one study design that also holds the schedules::

    {"id": None, "name": ..., "instanceType": "Study",
     "documentedBy": [{"instanceType": "StudyDefinitionDocument", "type": Protocol, "language": en,
                       "versions": [StudyDefinitionDocumentVersion (contents: [NarrativeContent...])]}],
     "versions": [{
        "titles": [StudyTitle...], "studyIdentifiers": [StudyIdentifier...],
        "organizations": [Organization...], "roles": [StudyRole (sponsor)],
        "eligibilityCriterionItems": [EligibilityCriterionItem...],
        "narrativeContentItems": [NarrativeContentItem...],
        "abbreviations": [Abbreviation...],
        "documentVersionIds": ["StudyDefinitionDocumentVersion_0001"],
        "studyDesigns": [{"instanceType": "InterventionalStudyDesign", "studyType": Interventional,
                          "studyPhase": AliasCode, "model": Code, "population": ...,
                          "eligibilityCriteria": [EligibilityCriterion...],
                          "objectives": [Objective (with its endpoints)...],
                          "epochs", "encounters", "activities", "scheduleTimelines": the schedules}]}]}

This is where the published files (the Alexion data4knowledge sample, the CDISC pilot) put each
part; a result without a ``study`` block gets the same shape with what it has (a Study named after
its source file). Each object validates against its ``*-Input`` schema (``study_errors``), and the
export passes the usdm4 rules engine's checks but for the ones listed in ``docs/chunks-and-usdm.md``.

**The study design reader's hook**: ``add_design(design, study_version, reading, ids)`` is given
``result["study"]["design"]`` when it is a mapping; it fills ``studyDesigns[0]`` (arms, epochs
shared with the schedules', cells and elements, population, model, masking, allocation,
indication) and the study version (interventions with their administrations and products,
amendments) with ids from the export's own counter: ``clinparser.export.usdm_design`` gives the
rules and codes.

Codes and shapes follow the published USDM files (the Alexion data4knowledge sample, the CDISC
pilot) and the USDM CT (terminology version 2025-09-26, as the schedule export):

- **Titles**: official ``C207616`` "Official Study Title", short ``C207615`` "Brief Study Title",
  acronym ``C207646`` "Study Acronym" (USDM CT codelist C207419; the CDISC pilot file's ``C94108``
  is not in it, and usdm4's rule DDF00146 flags it).
- **Identifiers**: each ``StudyIdentifier`` is scoped (``scopeId``) by the ``Organization`` that
  issues it, listed in ``StudyVersion.organizations`` (as the published files do): the sponsor for
  the sponsor's protocol number; ClinicalTrials.gov (``CT-GOV``) for NCT; the EMA (``EUDRACT``)
  for EudraCT; the EMA's CTIS for EU CT numbers; the FDA for IND and IDE numbers; the WHO for the
  UTN; the registry a number's prefix names for other registries (ISRCTN, ANZCTR, jRCT …). One
  organization per issuer, in the order first needed, the sponsor first. Registries are type
  ``C93453`` "Study Registry", the FDA ``C188863`` "Regulatory Agency", with the names and
  schemes of the Alexion file. The sponsor organization is named as printed ("Sponsor" when no
  name was read), its type an organization type of USDM CT C188724 by its name: ``C18240``
  "Academia" for a university or college, ``C21541`` "Healthcare Facility" for a hospital,
  ``C199144`` "Governmental Agency or Group" for a national institute or ministry, ``C54148``
  "Contract Research Organization", else ``C54149`` "Drug Company" (as the Alexion file types its
  sponsor; the StudyRole code C70793 is no organization type), and its
  ``identifierScheme``/``identifier`` (a DUNS number in the published files) are empty strings:
  they are not printed in a protocol. A ``StudyRole`` ``C70793`` "Clinical Study Sponsor" names
  it and applies to the study version (``appliesToIds``), as the Alexion file has it.
- **Phase**: ``studyPhase`` is an ``AliasCode`` whose ``standardCode`` is the NCI trial-phase
  term: 1 ``C15600`` "Phase I Trial", 1/2 ``C15693`` "Phase I/II Trial", 2 ``C15601`` "Phase II
  Trial", 2/3 ``C15694`` "Phase II/III Trial", 3 ``C15602`` "Phase III Trial", 4 ``C15603``
  "Phase IV Trial"; null when no phase was read. A printed sub-phase ("Phase 2b") is its phase.
- **Eligibility**: one ``EligibilityCriterion`` per criterion of the main design (``applies_to``
  null), category ``C25532`` "Inclusion Criteria" / ``C25370`` "Exclusion Criteria",
  ``identifier`` as printed without its list punctuation ("1." → "1", "[2]" → "2"; "" when none
  is printed), ``name`` ``IN01``/``EX01`` … (numbered within its category, as the published files
  name them), chained by ``previousId``/``nextId`` in document order, and ``criterionItemId`` its
  ``EligibilityCriterionItem`` (same name; the text as XHTML paragraphs, a line break as
  ``<br />``). The population's ``criterionIds`` lists the main criteria. A sub-study's criteria
  (``applies_to`` "sub-study") are the design's too, listed by a ``StudyCohort`` of the population
  named after it (its participants are a cohort of the study's). A criterion of another step
  ("run-in", "randomization", "extension" …) is not in the design's list (such a step is no cohort
  of participants, and a reader of ``eligibilityCriteria`` takes all of them as the study's): only
  its item is kept in ``eligibilityCriterionItems``, named ``<applies_to>-IN01`` …, with a
  ``CommentAnnotation`` note "Applies to: extension (not a criterion of the main study design)".
- **Objectives**: ``Objective`` with level ``C85826``/``C85827``/``C163559`` ("Trial Primary /
  Secondary / Exploratory Objective", the Alexion decodes), ``name`` ``OBJ1`` …, ``label`` the
  printed heading label ("Primary", "Safety"), and its ``endpoints``: ``Endpoint`` with level
  ``C94496``/``C139173``/``C170559`` ("Primary / Secondary / Exploratory Endpoint"), ``name``
  ``END1`` …, ``purpose`` "" (required by the schema, not read; the published files leave it
  empty too).
  An objective's and an endpoint's ``text`` is XHTML-escaped ("&" is "&amp;"): USDM reads these
  texts as XHTML (usdm4 rule DDF00247).
- **Abbreviations**: ``Abbreviation`` per entry with both texts, in printed order.
- **Study type** ``C98388`` "Interventional Study" (the design is an ``InterventionalStudyDesign``).
- **What ClinParser does not read** but the schema requires gets a neutral value, said in a
  ``CommentAnnotation`` on the design ("Not read by ClinParser: …"): ``model`` ``C82640``
  "Single Group Study" when no model is read and at most one arm is (the schema requires a model
  and the intervention model codelist C99076 has no "unknown"; single group describes a design
  exported without arms or with one), ``C82639`` "Parallel Study" when more arms are read; the
  population's ``includesHealthySubjects`` false, ``rationale`` "", ``arms``/``studyCells``
  empty. The population's ``plannedSex`` and ``plannedAge`` stay empty when the design reader
  gives none (usdm4 rules DDF00097/DDF00098 flag that: nothing is invented; a minimum age
  without a maximum gets the published files' 100 years, with a note). The ``StudyVersion``'s
  ``versionIdentifier`` is the export's document version and its ``rationale`` "". ``Study.id``
  is null (the schema wants a UUID; the published files leave it null) and ``Study.name`` the
  sponsor's protocol number, else the acronym, else the brief or official title, else the
  source file's name.
- **The document**: one ``StudyDefinitionDocument`` named "<study name> protocol", type
  ``C70817`` "Protocol", language ``en`` and template ``SPONSOR`` as in the Alexion file, its
  ``description`` the source file it was read from; its one version is the narrative's.
- **Ids** are ``<Class>_nnnn`` (``usdm_terms.usdm_id``) in document order, each class counting
  on after the ids the export already holds (``Code_n`` after the document status and the
  schedules' codes), so the same result always gives the same bytes and no id is used twice.
"""

from __future__ import annotations

import html
import re
from collections import defaultdict
from collections.abc import Iterable
from itertools import pairwise
from pathlib import PurePath
from typing import Any

from ..document_types import Study
from .usdm_design import PARALLEL, SINGLE_GROUP, add_design
from .usdm_schedule import design_errors
from .usdm_terms import Ids, code, note

__all__ = ["PHASES", "TITLE_TYPES", "add_design", "next_ids", "study_errors", "study_usdm"]


TITLE_TYPES = {
    "official": ("C207616", "Official Study Title"),
    "short": ("C207615", "Brief Study Title"),
    "acronym": ("C207646", "Study Acronym"),
}
PHASES = {
    "1": ("C15600", "Phase I Trial"),
    "1/2": ("C15693", "Phase I/II Trial"),
    "2": ("C15601", "Phase II Trial"),
    "2/3": ("C15694", "Phase II/III Trial"),
    "3": ("C15602", "Phase III Trial"),
    "4": ("C15603", "Phase IV Trial"),
}
CATEGORIES = {"inclusion": ("C25532", "Inclusion Criteria"), "exclusion": ("C25370", "Exclusion Criteria")}
OBJECTIVE_LEVELS = {
    "primary": ("C85826", "Trial Primary Objective"),
    "secondary": ("C85827", "Trial Secondary Objective"),
    "exploratory": ("C163559", "Trial Exploratory Objective"),
}
ENDPOINT_LEVELS = {
    "primary": ("C94496", "Primary Endpoint"),
    "secondary": ("C139173", "Secondary Endpoint"),
    "exploratory": ("C170559", "Exploratory Endpoint"),
}
SPONSOR = ("C70793", "Clinical Study Sponsor")  # the StudyRole
# The sponsor Organization's type (USDM CT C188724), by its name; a drug company unless it says otherwise.
DRUG_COMPANY = ("C54149", "Drug Company")
SPONSOR_TYPES = [
    (re.compile(r"universit|college|academ|school of|faculty", re.I), ("C18240", "Academia")),
    (
        re.compile(r"hospital|medical cent(?:er|re)|clinic\b|health (?:system|service)", re.I),
        ("C21541", "Healthcare Facility"),
    ),
    (
        re.compile(r"national institutes? of|\bNIH\b|\bNCI\b|ministry|department of|government|public health", re.I),
        ("C199144", "Governmental Agency or Group"),
    ),
    (re.compile(r"contract research|\bCRO\b", re.I), ("C54148", "Contract Research Organization")),
]
INTERVENTIONAL = ("C98388", "Interventional Study")
PROTOCOL = ("C70817", "Protocol")
# What the design note says ClinParser did not read, unless add_design filled it (key, words).
UNREAD = [
    ("model", None),  # worded by _model_unread: the code the schema's required model got
    ("plannedSex", "the population's planned sex"),
    ("plannedAge", "the planned age range"),
    ("plannedEnrollmentNumber", "the planned enrollment"),
    ("arms", "arms, study cells and elements"),
    ("epochs", "the design's epochs (the schedules' are kept)"),
    ("studyInterventions", "study interventions"),
    ("blindingSchema", "the masking (blinding schema)"),
    ("allocation", "the allocation"),
    ("indications", "the indication"),
    ("amendments", "amendments"),
    ("includesHealthySubjects", "whether healthy subjects are included (false)"),
    ("rationale", "the design rationale (empty)"),
]
REGISTRY = ("C93453", "Study Registry")
REGULATOR = ("C188863", "Regulatory Agency")

# Issuers: key -> (name, label, type, identifierScheme, identifier), as the Alexion file has them.
ISSUERS = {
    "ctgov": ("CT-GOV", "ClinicalTrials.gov", REGISTRY, "USGOV", "CT-GOV"),
    "ema": ("EMA", "European Medicines Agency", REGISTRY, "EU", "EUDRACT"),
    "ctis": ("EMA-CTIS", "EU Clinical Trials Information System", REGISTRY, "EU", "CTIS"),
    "fda": ("FDA", "Food & Drug Administration", REGULATOR, "USGOV", "FDA"),
    "who": ("WHO-UTN", "WHO Universal Trial Number", REGISTRY, "WHO", "UTN"),
    "isrctn": ("ISRCTN", "ISRCTN Registry", REGISTRY, "ISRCTN", "ISRCTN"),
    "anzctr": ("ANZCTR", "Australian New Zealand Clinical Trials Registry", REGISTRY, "ANZCTR", "ANZCTR"),
    "chictr": ("ChiCTR", "Chinese Clinical Trial Registry", REGISTRY, "ChiCTR", "ChiCTR"),
    "ctri": ("CTRI", "Clinical Trials Registry - India", REGISTRY, "CTRI", "CTRI"),
    "jrct": ("jRCT", "Japan Registry of Clinical Trials", REGISTRY, "jRCT", "jRCT"),
    "japic": ("JAPIC", "JapicCTI", REGISTRY, "JAPIC", "JAPIC"),
    "umin": ("UMIN-CTR", "UMIN Clinical Trials Registry", REGISTRY, "UMIN", "UMIN-CTR"),
    "drks": ("DRKS", "German Clinical Trials Register", REGISTRY, "DRKS", "DRKS"),
    "cris": ("CRIS", "Clinical Research Information Service (Korea)", REGISTRY, "CRIS", "CRIS"),
    "irct": ("IRCT", "Iranian Registry of Clinical Trials", REGISTRY, "IRCT", "IRCT"),
    "pactr": ("PACTR", "Pan African Clinical Trials Registry", REGISTRY, "PACTR", "PACTR"),
    "ntr": ("NTR", "Netherlands Trial Register", REGISTRY, "NTR", "NTR"),
    "other": ("OTHER-REGISTRY", "Other trial registry", REGISTRY, "", ""),
}
KIND_ISSUER = {"nct": "ctgov", "eudract": "ema", "eu_ct": "ctis", "ind": "fda", "ide": "fda", "utn": "who"}
# An other_registry number's issuer by its prefix (the formats clinparser.study.identity reads).
REGISTRY_PREFIXES = [
    ("ISRCTN", "isrctn"),
    ("ACTRN", "anzctr"),
    ("CHICTR", "chictr"),
    ("CTRI", "ctri"),
    ("JRCT", "jrct"),
    ("JAPICCTI", "japic"),
    ("UMIN", "umin"),
    ("DRKS", "drks"),
    ("KCT", "cris"),
    ("IRCT", "irct"),
    ("PACTR", "pactr"),
    ("NTR", "ntr"),
    ("EUCTR", "ema"),
    ("CTIS", "ctis"),
]

DESIGN_TYPES = ("InterventionalStudyDesign", "ObservationalStudyDesign")
_ID = re.compile(r"([A-Za-z]+)_(\d+)")


def next_ids(existing: Any) -> dict[str, int]:
    """Class -> the first free number after every ``<Class>_n`` id found in ``existing``."""
    found: dict[str, int] = {}
    stack = [existing]
    while stack:
        o = stack.pop()
        if isinstance(o, dict):
            m = _ID.fullmatch(str(o.get("id") or ""))
            if m:
                found[m[1]] = max(found.get(m[1], 1), int(m[2]) + 1)
            stack.extend(o.values())
        elif isinstance(o, list):
            stack.extend(o)
    return found


def _text(value: Any) -> str:
    return str(value or "").strip()


def _xhtml(text: str) -> str:
    """Plain text as XHTML paragraphs: a blank line between paragraphs, a line break ``<br />``."""
    paragraphs = [p.strip() for p in re.split(r"\n[ \t]*\n", text.replace("\r\n", "\n")) if p.strip()]
    return "".join(
        "<p>" + "<br />".join(html.escape(line.strip(), quote=False) for line in p.split("\n")) + "</p>"
        for p in paragraphs
    )


def _identifier(printed: str | None) -> str:
    """A criterion's printed number without its list punctuation: "1." -> "1", "[2]" / "(b)" -> "2" / "b"."""
    text = _text(printed)
    m = re.fullmatch(r"[\(\[]?(.*?)[.\)\]:]?", text)
    return (m[1] if m else text).strip()


def _issuer(kind: str, text: str) -> str:
    if kind in KIND_ISSUER:
        return KIND_ISSUER[kind]
    compact = re.sub(r"\W", "", text).upper()
    return next((key for prefix, key in REGISTRY_PREFIXES if compact.startswith(prefix)), "other")


# --- parts -----------------------------------------------------------------------------------------
def _titles(study: dict, ids: Ids) -> list[dict]:
    titles = study.get("titles") or {}
    out = []
    for key in ("official", "short", "acronym"):
        text = _text((titles.get(key) or {}).get("text"))
        if text:
            out.append(
                {
                    "id": ids("StudyTitle"),
                    "text": text,
                    "type": code(ids, TITLE_TYPES[key]),
                    "instanceType": "StudyTitle",
                }
            )
    return out


def _organization(ids: Ids, name: str, label: str | None, type_: tuple[str, str], scheme: str, identifier: str) -> dict:
    return {
        "id": ids("Organization"),
        "name": name,
        "label": label,
        "type": code(ids, type_),
        "identifierScheme": scheme,
        "identifier": identifier,
        "legalAddress": None,
        "managedSites": [],
        "instanceType": "Organization",
    }


def _sponsor_type(name: str) -> tuple[str, str]:
    return next((term for pattern, term in SPONSOR_TYPES if pattern.search(name)), DRUG_COMPANY)


def _identifiers(study: dict, ids: Ids, version_id: str) -> tuple[list[dict], list[dict], list[dict]]:
    """(StudyIdentifiers, Organizations, StudyRoles); the sponsor's role applies to the study version."""
    identifiers = [i for i in study.get("identifiers") or [] if _text(i.get("text"))]
    organizations: list[dict] = []
    by_issuer: dict[str, str] = {}
    roles: list[dict] = []
    sponsor_name = _text((study.get("sponsor") or {}).get("text"))
    if sponsor_name or any(i.get("kind") == "sponsor" for i in identifiers):
        org = _organization(ids, sponsor_name or "Sponsor", None, _sponsor_type(sponsor_name), "", "")
        organizations.append(org)
        by_issuer["sponsor"] = org["id"]
        roles.append(
            {
                "id": ids("StudyRole"),
                "name": "Sponsor",
                "label": None,
                "description": None,
                "code": code(ids, SPONSOR),
                "appliesToIds": [version_id],
                "assignedPersons": [],
                "organizationIds": [org["id"]],
                "masking": None,
                "notes": [],
                "instanceType": "StudyRole",
            }
        )
    out = []
    for identifier in identifiers:
        kind, text = identifier.get("kind") or "other_registry", _text(identifier["text"])
        issuer = "sponsor" if kind == "sponsor" else _issuer(kind, text)
        if issuer not in by_issuer:
            organizations.append(_organization(ids, *ISSUERS[issuer]))
            by_issuer[issuer] = organizations[-1]["id"]
        out.append(
            {
                "id": ids("StudyIdentifier"),
                "text": text,
                "scopeId": by_issuer[issuer],
                "instanceType": "StudyIdentifier",
            }
        )
    return out, organizations, roles


def _phase(study: dict, ids: Ids) -> dict | None:
    value = (study.get("phase") or {}).get("value")
    if value not in PHASES:
        return None
    return {
        "id": ids("AliasCode"),
        "standardCode": code(ids, PHASES[value]),
        "standardCodeAliases": [],
        "instanceType": "AliasCode",
    }


# A sub-study's participants are a cohort of the study population: its criteria are the design's
# criteria, listed by a StudyCohort (other steps -- run-in, randomization, extension -- are no
# cohort of participants, and stay out of the design's list).
COHORT_STEPS = ("sub-study",)


def _eligibility(study: dict, ids: Ids) -> tuple[list[dict], list[dict]]:
    """(the design's EligibilityCriteria, every EligibilityCriterionItem)."""
    criteria: list[dict] = []
    items: list[dict] = []
    counts: dict[tuple[str | None, str], int] = defaultdict(int)
    for criterion in study.get("eligibility") or []:
        category = criterion.get("category")
        text = _text(criterion.get("text"))
        if category not in CATEGORIES or not text:
            continue
        applies_to = criterion.get("applies_to")
        counts[(applies_to, category)] += 1
        name = f"{'IN' if category == 'inclusion' else 'EX'}{counts[(applies_to, category)]:02d}"
        if applies_to is not None:
            name = f"{applies_to}-{name}"
        item = {
            "id": ids("EligibilityCriterionItem"),
            "name": name,
            "label": None,
            "description": None,
            "text": _xhtml(text),
            "dictionaryId": None,
            "notes": [],
            "instanceType": "EligibilityCriterionItem",
        }
        items.append(item)
        if applies_to is not None and applies_to not in COHORT_STEPS:
            item["notes"].append(note(ids, f"Applies to: {applies_to} (not a criterion of the main study design)"))
            continue
        criteria.append(
            {
                "id": ids("EligibilityCriterion"),
                "name": name,
                "label": None,
                "description": None,
                "category": code(ids, CATEGORIES[category]),
                "identifier": _identifier(criterion.get("identifier")),
                "criterionItemId": item["id"],
                "nextId": None,
                "previousId": None,
                "notes": [],
                "instanceType": "EligibilityCriterion",
                "_cohort": applies_to,
            }
        )
    for before, after in pairwise(criteria):
        before["nextId"], after["previousId"] = after["id"], before["id"]
    return criteria, items


def _population(criteria: list[dict], ids: Ids) -> dict:
    """The design's population: the main criteria by id, and a StudyCohort per sub-study listing its
    own (the ``_cohort`` mark each criterion carried out of ``_eligibility`` is taken off here)."""
    population = {
        "id": ids("StudyDesignPopulation"),
        "name": "Study Population",
        "label": None,
        "description": None,
        "includesHealthySubjects": False,
        "plannedEnrollmentNumber": None,
        "plannedCompletionNumber": None,
        "plannedSex": [],
        "criterionIds": [],
        "plannedAge": None,
        "notes": [],
        "cohorts": [],
        "instanceType": "StudyDesignPopulation",
    }
    cohorts: dict[str, list[str]] = {}
    for criterion in criteria:
        step = criterion.pop("_cohort")
        if step is None:
            population["criterionIds"].append(criterion["id"])
        else:
            cohorts.setdefault(step, []).append(criterion["id"])
    for step, members in cohorts.items():
        population["cohorts"].append(
            {
                "id": ids("StudyCohort"),
                "name": step.title(),
                "label": None,
                "description": None,
                "includesHealthySubjects": False,
                "plannedEnrollmentNumber": None,
                "plannedCompletionNumber": None,
                "plannedSex": [],
                "criterionIds": members,
                "plannedAge": None,
                "notes": [],
                "characteristics": [],
                "indicationIds": [],
                "instanceType": "StudyCohort",
            }
        )
    return population


def _objectives(study: dict, ids: Ids) -> list[dict]:
    out = []
    n_objective = n_endpoint = 0
    for objective in study.get("objectives") or []:
        level, text = objective.get("level"), _text(objective.get("text"))
        if level not in OBJECTIVE_LEVELS or not text:
            continue
        n_objective += 1
        obj = {
            "id": ids("Objective"),
            "name": f"OBJ{n_objective}",
            "label": _text(objective.get("label")) or None,
            "description": None,
            "text": html.escape(text, quote=False),
            "dictionaryId": None,
            "notes": [],
            "level": code(ids, OBJECTIVE_LEVELS[level]),
            "endpoints": [],
            "instanceType": "Objective",
        }
        for endpoint in objective.get("endpoints") or []:
            e_level, e_text = endpoint.get("level"), _text(endpoint.get("text"))
            if e_level not in ENDPOINT_LEVELS or not e_text:
                continue
            n_endpoint += 1
            obj["endpoints"].append(
                {
                    "id": ids("Endpoint"),
                    "name": f"END{n_endpoint}",
                    "label": _text(endpoint.get("label")) or None,
                    "description": None,
                    "text": html.escape(e_text, quote=False),
                    "dictionaryId": None,
                    "notes": [],
                    "purpose": "",
                    "level": code(ids, ENDPOINT_LEVELS[e_level]),
                    "instanceType": "Endpoint",
                }
            )
        out.append(obj)
    return out


def _abbreviations(study: dict, ids: Ids) -> list[dict]:
    """One Abbreviation per abbreviated text (USDM DDF00170): an abbreviation the document lists
    twice (two lists, or one expanded two ways) keeps its expansions, the first first, joined
    with "; "."""
    out: dict[str, dict] = {}
    for entry in study.get("abbreviations") or []:
        short, long = _text(entry.get("abbreviation")), _text(entry.get("expansion"))
        if not (short and long):
            continue
        if short in out:
            known = out[short]
            if long.lower() not in [x.lower() for x in known["expandedText"].split("; ")]:
                known["expandedText"] += f"; {long}"
            continue
        out[short] = {
            "id": ids("Abbreviation"),
            "abbreviatedText": short,
            "expandedText": long,
            "notes": [],
            "instanceType": "Abbreviation",
        }
    return list(out.values())


def _study_name(study: dict, source: str | None) -> str:
    sponsor_ids = [_text(i.get("text")) for i in study.get("identifiers") or [] if i.get("kind") == "sponsor"]
    titles = study.get("titles") or {}
    candidates = [
        *sponsor_ids,
        *(_text((titles.get(k) or {}).get("text")) for k in ("acronym", "short", "official")),
        PurePath(source).stem if source else "",
    ]
    return next((c for c in candidates if c), "Study")


def _model_unread(design: dict) -> str:
    """The note's words for a model that was not read: which code the schema's required model got."""
    if design["model"]["code"] == PARALLEL[0]:
        return (
            "the intervention model (coded Parallel Study: the schema requires a model, the codelist has no "
            "unknown, and the design has more than one arm)"
        )
    return (
        "the intervention model (coded Single Group Study, the model of a design of at most one arm, as exported: "
        "the schema requires a model and the codelist has no unknown)"
    )


def _document(ids: Ids, name: str, document_version: dict, source: str | None) -> dict:
    """The ``StudyDefinitionDocument`` the narrative's document version belongs to (as the Alexion file
    has it: the protocol, in English, the sponsor's template)."""
    return {
        "id": ids("StudyDefinitionDocument"),
        "name": f"{name} protocol",
        "label": None,
        "description": f"Read by ClinParser from {source}" if source else None,
        "language": {
            "id": ids("Code"),
            "code": "en",
            "codeSystem": "ISO",
            "codeSystemVersion": "1",
            "decode": "English",
            "instanceType": "Code",
        },
        "type": code(ids, PROTOCOL),
        "templateName": "SPONSOR",
        "versions": [document_version],
        "childIds": [],
        "notes": [],
        "instanceType": "StudyDefinitionDocument",
    }


# --- the study -------------------------------------------------------------------------------------
SCHEDULE_LISTS = ("epochs", "encounters", "activities", "scheduleTimelines")


def study_usdm(
    study: Study | None,
    *,
    existing: Any = None,
    version: str = "1",
    source: str | None = None,
    document_version: dict | None = None,
    narrative_items: Iterable[dict] = (),
    schedules: dict | None = None,
    document_version_ids: Iterable[str] = (),
) -> dict:
    """The study as one USDM v4.0 ``Study`` (see the module docstring): the study definition
    (``study``, may be empty), the narrative's ``document_version`` (in ``documentedBy``) and
    ``narrative_items``, the ``schedules`` lists (``usdm_schedule.schedule_design``) in the one
    study design, and ``study["design"]`` given to ``add_design``. ``existing``: the objects made
    so far, whose ids the new ones count on from."""
    study = study or {}
    ids = Ids(next_ids(existing))
    name = _study_name(study, source)
    version_id = ids("StudyVersion")
    documented_by = [_document(ids, name, document_version, source)] if document_version else []
    document_ids = [document_version["id"]] if document_version else list(document_version_ids)
    titles = _titles(study, ids)
    identifiers, organizations, roles = _identifiers(study, ids, version_id)
    criteria, items = _eligibility(study, ids)
    design_id = ids("InterventionalStudyDesign")
    design = {
        "id": design_id,
        "name": "Study Design 1",
        "label": None,
        "description": None,
        "studyType": code(ids, INTERVENTIONAL),
        "studyPhase": _phase(study, ids),
        "therapeuticAreas": [],
        "characteristics": [],
        "encounters": [],
        "activities": [],
        "arms": [],
        "studyCells": [],
        "rationale": "",
        "epochs": [],
        "elements": [],
        "estimands": [],
        "indications": [],
        "studyInterventionIds": [],
        "objectives": _objectives(study, ids),
        "population": _population(criteria, ids),
        "scheduleTimelines": [],
        "biospecimenRetentions": [],
        "documentVersionIds": list(document_ids),
        "eligibilityCriteria": criteria,
        "analysisPopulations": [],
        "notes": [],
        "subTypes": [],
        "model": code(ids, SINGLE_GROUP),
        "intentTypes": [],
        "blindingSchema": None,
        "instanceType": "InterventionalStudyDesign",
    }
    for key in SCHEDULE_LISTS:
        design[key] = list((schedules or {}).get(key) or [])
    study_version = {
        "id": version_id,
        "versionIdentifier": version,
        "rationale": "",
        "documentVersionIds": list(document_ids),
        "dateValues": [],
        "amendments": [],
        "businessTherapeuticAreas": [],
        "studyIdentifiers": identifiers,
        "referenceIdentifiers": [],
        "studyDesigns": [design],
        "titles": titles,
        "eligibilityCriterionItems": items,
        "narrativeContentItems": list(narrative_items),
        "abbreviations": _abbreviations(study, ids),
        "roles": roles,
        "organizations": organizations,
        "studyInterventions": [],
        "administrableProducts": [],
        "medicalDevices": [],
        "productOrganizationRoles": [],
        "biomedicalConcepts": [],
        "bcCategories": [],
        "bcSurrogates": [],
        "dictionaries": [],
        "conditions": [],
        "notes": [],
        "instanceType": "StudyVersion",
    }
    reading = study.get("design")
    filled = add_design(design, study_version, reading, ids) if isinstance(reading, dict) else []
    unread = [text or _model_unread(design) for key, text in UNREAD if key not in filled]
    if unread:
        design["notes"].append(note(ids, "Not read by ClinParser: " + "; ".join(unread) + "."))
    return {
        "id": None,
        "name": name,
        "description": None,
        "label": None,
        "versions": [study_version],
        "documentedBy": documented_by,
        "instanceType": "Study",
    }


def study_errors(study: dict | None, validate) -> list[str]:
    """Every schema error of the exported ``Study`` (nested objects included), and every
    ``criterionItemId``/``scopeId``/``organizationIds``/``appliesToIds`` that names no object of
    the study. The many narrative and schedule objects are checked one by one, so that an error
    names its object; the rest is checked as a whole."""
    if not study:
        return []
    # The designs are checked on their own: under StudyVersion's anyOf (interventional or
    # observational) an error would only say "not valid under any of the given schemas".
    versions = study.get("versions") or []
    documents = study.get("documentedBy") or []
    bare = dict(
        study,
        versions=[dict(v, studyDesigns=[], narrativeContentItems=[]) for v in versions],
        documentedBy=[dict(d, versions=[dict(v, contents=[]) for v in d.get("versions") or []]) for d in documents],
    )
    errors = [f"Study: {e}" for e in validate("Study-Input", bare)]
    for document in documents:
        for document_version in document.get("versions") or []:
            for content in document_version.get("contents") or []:
                errors += [f"{content.get('id')}: {e}" for e in validate("NarrativeContent-Input", content)]
    for version in versions:
        for item in version.get("narrativeContentItems") or []:
            errors += [f"{item.get('id')}: {e}" for e in validate("NarrativeContentItem-Input", item)]
        for design in version.get("studyDesigns") or []:
            kind = (
                design.get("instanceType")
                if design.get("instanceType") in DESIGN_TYPES
                else "InterventionalStudyDesign"
            )
            shell = dict(design, **{key: [] for key in SCHEDULE_LISTS})
            errors += [f"{design.get('id')}: {e}" for e in validate(f"{kind}-Input", shell)]
            errors += design_errors(design, validate)
        items = {i.get("id") for i in version.get("eligibilityCriterionItems") or []}
        orgs = {o.get("id") for o in version.get("organizations") or []}
        for design in version.get("studyDesigns") or []:
            errors += [
                f"{c.get('id')}: criterionItemId {c.get('criterionItemId')} names no item"
                for c in design.get("eligibilityCriteria") or []
                if c.get("criterionItemId") not in items
            ]
        errors += [
            f"{i.get('id')}: scopeId {i.get('scopeId')} names no organization"
            for i in version.get("studyIdentifiers") or []
            if i.get("scopeId") not in orgs
        ]
        errors += [
            f"{r.get('id')}: organization {o} not listed"
            for r in version.get("roles") or []
            for o in r.get("organizationIds") or []
            if o not in orgs
        ]
        errors += _design_reference_errors(version)
        applicable = {version.get("id")} | {d.get("id") for d in version.get("studyDesigns") or []}
        errors += [
            f"{r.get('id')}: appliesToIds {a} names neither the version nor a design"
            for r in version.get("roles") or []
            for a in r.get("appliesToIds") or []
            if a not in applicable
        ]
    return errors


def _design_reference_errors(version: dict) -> list[str]:
    """Every id the design export (``usdm_design``) writes that names no object where it should:
    a cell's arm, epoch and elements, the design's and the elements' interventions, an
    administration's product."""
    interventions = {i.get("id") for i in version.get("studyInterventions") or []}
    products = {p.get("id") for p in version.get("administrableProducts") or []}
    errors = [
        f"{a.get('id')}: administrableProductId {a.get('administrableProductId')} names no product"
        for i in version.get("studyInterventions") or []
        for a in i.get("administrations") or []
        if a.get("administrableProductId") is not None and a.get("administrableProductId") not in products
    ]
    for design in version.get("studyDesigns") or []:
        arms = {a.get("id") for a in design.get("arms") or []}
        epochs = {e.get("id") for e in design.get("epochs") or []}
        elements = {e.get("id") for e in design.get("elements") or []}
        for cell in design.get("studyCells") or []:
            errors += [
                f"{cell.get('id')}: {key} {cell.get(key)} names no {kind}"
                for key, kind, known in (("armId", "arm", arms), ("epochId", "epoch", epochs))
                if cell.get(key) not in known
            ]
            errors += [
                f"{cell.get('id')}: element {e} names no element"
                for e in cell.get("elementIds") or []
                if e not in elements
            ]
        for owner in [design, *(design.get("elements") or [])]:
            errors += [
                f"{owner.get('id')}: studyInterventionId {i} names no study intervention"
                for i in owner.get("studyInterventionIds") or []
                if i not in interventions
            ]
    return errors
