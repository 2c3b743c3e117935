"""The study definition (``result["study"]``, see ``clinparser.study.definition``) as USDM v4.0.

``study_usdm(study, ...)`` gives a USDM ``Study`` whose one ``StudyVersion`` holds what the
protocol says about the study itself::

    {"id": None, "name": ..., "versions": [{
        "titles": [StudyTitle...], "studyIdentifiers": [StudyIdentifier...],
        "organizations": [Organization...], "roles": [StudyRole (sponsor)],
        "eligibilityCriterionItems": [EligibilityCriterionItem...],
        "abbreviations": [Abbreviation...],
        "documentVersionIds": ["StudyDefinitionDocumentVersion_0001"],
        "studyDesigns": [{"instanceType": "InterventionalStudyDesign",
                          "studyPhase": AliasCode, "eligibilityCriteria": [EligibilityCriterion...],
                          "objectives": [Objective (with its endpoints)...], ...}]}],
     "instanceType": "Study"}

``to_usdm`` puts it under ``"study"`` when the result has a ``study`` block, so the export reads
like a USDM ``Wrapper`` (``{"study", "usdmVersion", "systemName", "systemVersion"}``) plus the
narrative (``studyDefinitionDocumentVersion``, ``narrativeContentItems``) and the schedules
(``studyDesign``) at the top level, where they were before. They are not copied into the study
(no object twice, no id twice); to make one Wrapper a user moves ``narrativeContentItems`` into
``study.versions[0]`` and the lists of ``studyDesign`` into ``study.versions[0].studyDesigns[0]``.
Each object validates against its ``*-Input`` schema (``study_errors``).

Codes and shapes follow the published USDM files (the Alexion data4knowledge sample, the CDISC
pilot) and the USDM CT (terminology version 2025-09-26, as the schedule export):

- **Titles**: official ``C207616`` "Official Study Title", short ``C207615`` "Brief Study Title",
  acronym ``C94108`` "Study Acronym" (the code the CDISC pilot file and USDM CT codelist C207419
  use for the acronym).
- **Identifiers**: each ``StudyIdentifier`` is scoped (``scopeId``) by the ``Organization`` that
  issues it, listed in ``StudyVersion.organizations`` (as the published files do): the sponsor for
  the sponsor's protocol number; ClinicalTrials.gov (``CT-GOV``) for NCT; the EMA (``EUDRACT``)
  for EudraCT; the EMA's CTIS for EU CT numbers; the FDA for IND and IDE numbers; the WHO for the
  UTN; the registry a number's prefix names for other registries (ISRCTN, ANZCTR, jRCT …). One
  organization per issuer, in the order first needed, the sponsor first. Registries are type
  ``C93453`` "Study Registry", the FDA ``C188863`` "Regulatory Agency", with the names and
  schemes of the Alexion file. The sponsor organization is named as printed ("Sponsor" when no
  name was read), type ``C70793`` "Clinical Study Sponsor" (what the CDISC pilot file gives its
  sponsor: whether it is a drug company, an institute or a university is not read), and its
  ``identifierScheme``/``identifier`` (a DUNS number in the published files) are empty strings:
  they are not printed in a protocol. A ``StudyRole`` ``C70793`` "Clinical Study Sponsor" names
  it, as both published files do.
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
- **Abbreviations**: ``Abbreviation`` per entry with both texts, in printed order.
- **What ClinParser does not read** but the schema requires gets a neutral value, said in a
  ``CommentAnnotation`` on the design: ``model`` ``C17998`` "Unknown", the population's
  ``includesHealthySubjects`` false, ``rationale`` "", ``arms``/``studyCells``/``epochs`` empty
  (the schedules' epochs are in the top-level ``studyDesign``); the ``StudyVersion``'s
  ``versionIdentifier`` is the export's document version and its ``rationale`` "". ``Study.id``
  is null (the schema wants a UUID; the published files leave it null) and ``Study.name`` the
  sponsor's protocol number, else the acronym, else the brief or official title, else the
  source file's name.
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

from .usdm_terms import Ids, code, note

__all__ = ["PHASES", "TITLE_TYPES", "next_ids", "study_errors", "study_usdm"]


TITLE_TYPES = {"official": ("C207616", "Official Study Title"), "short": ("C207615", "Brief Study Title"),
               "acronym": ("C94108", "Study Acronym")}
PHASES = {"1": ("C15600", "Phase I Trial"), "1/2": ("C15693", "Phase I/II Trial"), "2": ("C15601", "Phase II Trial"),
          "2/3": ("C15694", "Phase II/III Trial"), "3": ("C15602", "Phase III Trial"), "4": ("C15603", "Phase IV Trial")}
CATEGORIES = {"inclusion": ("C25532", "Inclusion Criteria"), "exclusion": ("C25370", "Exclusion Criteria")}
OBJECTIVE_LEVELS = {"primary": ("C85826", "Trial Primary Objective"), "secondary": ("C85827", "Trial Secondary Objective"),
                    "exploratory": ("C163559", "Trial Exploratory Objective")}
ENDPOINT_LEVELS = {"primary": ("C94496", "Primary Endpoint"), "secondary": ("C139173", "Secondary Endpoint"),
                   "exploratory": ("C170559", "Exploratory Endpoint")}
SPONSOR = ("C70793", "Clinical Study Sponsor")
REGISTRY = ("C93453", "Study Registry")
REGULATOR = ("C188863", "Regulatory Agency")
UNKNOWN = ("C17998", "Unknown")

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
REGISTRY_PREFIXES = [("ISRCTN", "isrctn"), ("ACTRN", "anzctr"), ("CHICTR", "chictr"), ("CTRI", "ctri"),
                     ("JRCT", "jrct"), ("JAPICCTI", "japic"), ("UMIN", "umin"), ("DRKS", "drks"), ("KCT", "cris"),
                     ("IRCT", "irct"), ("PACTR", "pactr"), ("NTR", "ntr"), ("EUCTR", "ema"), ("CTIS", "ctis")]

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
    return "".join("<p>" + "<br />".join(html.escape(line.strip(), quote=False) for line in p.split("\n")) + "</p>"
                   for p in paragraphs)


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
            out.append({"id": ids("StudyTitle"), "text": text, "type": code(ids, TITLE_TYPES[key]),
                        "instanceType": "StudyTitle"})
    return out


def _organization(ids: Ids, name: str, label: str | None, type_: tuple[str, str], scheme: str, identifier: str) -> dict:
    return {"id": ids("Organization"), "name": name, "label": label, "type": code(ids, type_),
            "identifierScheme": scheme, "identifier": identifier, "legalAddress": None, "managedSites": [],
            "instanceType": "Organization"}


def _identifiers(study: dict, ids: Ids) -> tuple[list[dict], list[dict], list[dict]]:
    """(StudyIdentifiers, Organizations, StudyRoles)."""
    identifiers = [i for i in study.get("identifiers") or [] if _text(i.get("text"))]
    organizations: list[dict] = []
    by_issuer: dict[str, str] = {}
    roles: list[dict] = []
    sponsor_name = _text((study.get("sponsor") or {}).get("text"))
    if sponsor_name or any(i.get("kind") == "sponsor" for i in identifiers):
        org = _organization(ids, sponsor_name or "Sponsor", None, SPONSOR, "", "")
        organizations.append(org)
        by_issuer["sponsor"] = org["id"]
        roles.append({"id": ids("StudyRole"), "name": "Sponsor", "label": None, "description": None,
                      "code": code(ids, SPONSOR), "appliesToIds": [], "assignedPersons": [],
                      "organizationIds": [org["id"]], "masking": None, "notes": [], "instanceType": "StudyRole"})
    out = []
    for identifier in identifiers:
        kind, text = identifier.get("kind") or "other_registry", _text(identifier["text"])
        issuer = "sponsor" if kind == "sponsor" else _issuer(kind, text)
        if issuer not in by_issuer:
            organizations.append(_organization(ids, *ISSUERS[issuer]))
            by_issuer[issuer] = organizations[-1]["id"]
        out.append({"id": ids("StudyIdentifier"), "text": text, "scopeId": by_issuer[issuer],
                    "instanceType": "StudyIdentifier"})
    return out, organizations, roles


def _phase(study: dict, ids: Ids) -> dict | None:
    value = (study.get("phase") or {}).get("value")
    if value not in PHASES:
        return None
    return {"id": ids("AliasCode"), "standardCode": code(ids, PHASES[value]), "standardCodeAliases": [],
            "instanceType": "AliasCode"}


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
        item = {"id": ids("EligibilityCriterionItem"), "name": name, "label": None, "description": None,
                "text": _xhtml(text), "dictionaryId": None, "notes": [], "instanceType": "EligibilityCriterionItem"}
        items.append(item)
        if applies_to is not None and applies_to not in COHORT_STEPS:
            item["notes"].append(note(ids, f"Applies to: {applies_to} (not a criterion of the main study design)"))
            continue
        criteria.append({"id": ids("EligibilityCriterion"), "name": name, "label": None, "description": None,
                         "category": code(ids, CATEGORIES[category]), "identifier": _identifier(criterion.get("identifier")),
                         "criterionItemId": item["id"], "nextId": None, "previousId": None, "notes": [],
                         "instanceType": "EligibilityCriterion", "_cohort": applies_to})
    for before, after in pairwise(criteria):
        before["nextId"], after["previousId"] = after["id"], before["id"]
    return criteria, items


def _population(criteria: list[dict], ids: Ids) -> dict:
    """The design's population: the main criteria by id, and a StudyCohort per sub-study listing its
    own (the ``_cohort`` mark each criterion carried out of ``_eligibility`` is taken off here)."""
    population = {"id": ids("StudyDesignPopulation"), "name": "Study Population", "label": None, "description": None,
                  "includesHealthySubjects": False, "plannedEnrollmentNumber": None, "plannedCompletionNumber": None,
                  "plannedSex": [], "criterionIds": [], "plannedAge": None, "notes": [], "cohorts": [],
                  "instanceType": "StudyDesignPopulation"}
    cohorts: dict[str, list[str]] = {}
    for criterion in criteria:
        step = criterion.pop("_cohort")
        if step is None:
            population["criterionIds"].append(criterion["id"])
        else:
            cohorts.setdefault(step, []).append(criterion["id"])
    for step, members in cohorts.items():
        population["cohorts"].append({
            "id": ids("StudyCohort"), "name": step.title(), "label": None, "description": None,
            "includesHealthySubjects": False, "plannedEnrollmentNumber": None, "plannedCompletionNumber": None,
            "plannedSex": [], "criterionIds": members, "plannedAge": None, "notes": [], "characteristics": [],
            "indicationIds": [], "instanceType": "StudyCohort"})
    return population


def _objectives(study: dict, ids: Ids) -> list[dict]:
    out = []
    n_objective = n_endpoint = 0
    for objective in study.get("objectives") or []:
        level, text = objective.get("level"), _text(objective.get("text"))
        if level not in OBJECTIVE_LEVELS or not text:
            continue
        n_objective += 1
        obj = {"id": ids("Objective"), "name": f"OBJ{n_objective}", "label": _text(objective.get("label")) or None,
               "description": None, "text": text, "dictionaryId": None, "notes": [],
               "level": code(ids, OBJECTIVE_LEVELS[level]), "endpoints": [], "instanceType": "Objective"}
        for endpoint in objective.get("endpoints") or []:
            e_level, e_text = endpoint.get("level"), _text(endpoint.get("text"))
            if e_level not in ENDPOINT_LEVELS or not e_text:
                continue
            n_endpoint += 1
            obj["endpoints"].append({
                "id": ids("Endpoint"), "name": f"END{n_endpoint}", "label": _text(endpoint.get("label")) or None,
                "description": None, "text": e_text, "dictionaryId": None, "notes": [], "purpose": "",
                "level": code(ids, ENDPOINT_LEVELS[e_level]), "instanceType": "Endpoint"})
        out.append(obj)
    return out


def _abbreviations(study: dict, ids: Ids) -> list[dict]:
    out = []
    for entry in study.get("abbreviations") or []:
        short, long = _text(entry.get("abbreviation")), _text(entry.get("expansion"))
        if short and long:
            out.append({"id": ids("Abbreviation"), "abbreviatedText": short, "expandedText": long, "notes": [],
                        "instanceType": "Abbreviation"})
    return out


def _study_name(study: dict, source: str | None) -> str:
    sponsor_ids = [_text(i.get("text")) for i in study.get("identifiers") or [] if i.get("kind") == "sponsor"]
    titles = study.get("titles") or {}
    candidates = [*sponsor_ids, *(_text((titles.get(k) or {}).get("text")) for k in ("acronym", "short", "official")),
                  PurePath(source).stem if source else ""]
    return next((c for c in candidates if c), "Study")


# --- the study -------------------------------------------------------------------------------------
def study_usdm(study: dict, *, existing: Any = None, version: str = "1", source: str | None = None,
               document_version_ids: Iterable[str] = ()) -> dict:
    """The study definition as a USDM v4.0 ``Study`` (see the module docstring). ``existing``: the
    export so far, whose ids the new ones count on from; ``document_version_ids``: the
    ``StudyDefinitionDocumentVersion`` the study version is documented by."""
    ids = Ids(next_ids(existing))
    titles = _titles(study, ids)
    identifiers, organizations, roles = _identifiers(study, ids)
    criteria, items = _eligibility(study, ids)
    design_id = ids("InterventionalStudyDesign")
    design = {
        "id": design_id, "name": "Study Design 1", "label": None, "description": None,
        "studyType": None, "studyPhase": _phase(study, ids), "therapeuticAreas": [], "characteristics": [],
        "encounters": [], "activities": [], "arms": [], "studyCells": [], "rationale": "", "epochs": [],
        "elements": [], "estimands": [], "indications": [], "studyInterventionIds": [],
        "objectives": _objectives(study, ids),
        "population": _population(criteria, ids),
        "scheduleTimelines": [], "biospecimenRetentions": [], "documentVersionIds": list(document_version_ids),
        "eligibilityCriteria": criteria, "analysisPopulations": [], "notes": [], "subTypes": [],
        "model": code(ids, UNKNOWN), "intentTypes": [], "blindingSchema": None,
        "instanceType": "InterventionalStudyDesign",
    }
    design["notes"].append(note(ids, "Not read by ClinParser: the design model (coded Unknown), arms, study cells, "
                                      "rationale and the population's healthy-subject flag (false); the schedules' "
                                      "epochs, encounters, activities and timelines are in the export's top-level studyDesign."))
    study_version = {
        "id": ids("StudyVersion"), "versionIdentifier": version, "rationale": "",
        "documentVersionIds": list(document_version_ids), "dateValues": [], "amendments": [],
        "businessTherapeuticAreas": [], "studyIdentifiers": identifiers, "referenceIdentifiers": [],
        "studyDesigns": [design], "titles": titles, "eligibilityCriterionItems": items, "narrativeContentItems": [],
        "abbreviations": _abbreviations(study, ids), "roles": roles, "organizations": organizations,
        "studyInterventions": [], "administrableProducts": [], "medicalDevices": [], "productOrganizationRoles": [],
        "biomedicalConcepts": [], "bcCategories": [], "bcSurrogates": [], "dictionaries": [], "conditions": [],
        "notes": [], "instanceType": "StudyVersion",
    }
    return {"id": None, "name": _study_name(study, source), "description": None, "label": None,
            "versions": [study_version], "documentedBy": [], "instanceType": "Study"}


def study_errors(study: dict | None, validate) -> list[str]:
    """Every schema error of the exported ``Study`` (nested objects included), and every
    ``criterionItemId``/``scopeId``/``organizationIds`` that names no object of the study."""
    if not study:
        return []
    # The designs are checked on their own: under StudyVersion's anyOf (interventional or
    # observational) an error would only say "not valid under any of the given schemas".
    versions = study.get("versions") or []
    bare = dict(study, versions=[dict(v, studyDesigns=[]) for v in versions])
    errors = [f"Study: {e}" for e in validate("Study-Input", bare)]
    for version in versions:
        for design in version.get("studyDesigns") or []:
            kind = design.get("instanceType") if design.get("instanceType") in DESIGN_TYPES else "InterventionalStudyDesign"
            errors += [f"{design.get('id')}: {e}" for e in validate(f"{kind}-Input", design)]
        items = {i.get("id") for i in version.get("eligibilityCriterionItems") or []}
        orgs = {o.get("id") for o in version.get("organizations") or []}
        for design in version.get("studyDesigns") or []:
            errors += [f"{c.get('id')}: criterionItemId {c.get('criterionItemId')} names no item"
                       for c in design.get("eligibilityCriteria") or [] if c.get("criterionItemId") not in items]
        errors += [f"{i.get('id')}: scopeId {i.get('scopeId')} names no organization"
                   for i in version.get("studyIdentifiers") or [] if i.get("scopeId") not in orgs]
        errors += [f"{r.get('id')}: organization {o} not listed" for r in version.get("roles") or []
                   for o in r.get("organizationIds") or [] if o not in orgs]
    return errors
