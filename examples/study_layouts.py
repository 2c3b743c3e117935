"""Randomized study-definition layouts: many small synthetic protocols with exact truth.

``examples/make_protocol.py`` hand-writes three study-definition fixtures (008-010).  This
module writes hundreds: :func:`layout` takes a seed and, with ``random.Random(seed)`` only,
chooses one variation of every family below, invents the wording (drug, disease, time points,
criteria) from word pools and assembles a short protocol -- title page, table of contents and
five or six numbered chapters (introduction, objectives, design, population, perhaps
assessments, statistics).  It knows, by construction, every objective with its endpoints and
every eligibility criterion, and returns them as the truth.  Every word is invented.

Families of variation (the names of the variations chosen are the truth's ``forms``; each
name starts with its family's prefix, see :data:`FAMILIES` and :data:`FORMS`):

1. ``table.`` -- an objectives-and-endpoints table.  Columns: Objectives | Endpoints,
   Objective | Endpoint, Category (or Type) | Objectives | Endpoints, Objectives | Outcome
   Measures | Endpoints (the endpoint is the Endpoints column; the outcome-measure column holds a
   short title), or a narrow first column holding only a bullet glyph.  Levels as spanning rows,
   as the first line of the objective cell (of the first row of a level, or of every row), or as
   the Category column (repeated, or blank on continuation rows).  Endpoint cells with one
   endpoint or several bulleted ones (a single one sometimes bulleted too).  With or without a
   caption; short enough for one page, or continued over a page break with the header repeated
   or without it.
2. ``headed.`` -- headed lists: level sub-sections ("2.1 Primary Objective(s)") or bold lead
   lines ("Secondary Objectives:"); objectives as bullets, numbered items ("1.", restarting per
   level or continuing) or paragraphs; sometimes a "Key Secondary Objective(s)" level of its
   own; sometimes unlevelled sub-headings inside a level (a bold or italic line "Efficacy:",
   "Safety-related:", "Period 1") under which the same level continues; sometimes a sentence
   announcing a level's list, in the singular however many follow ("The primary objective of the
   study is as follows:"; ``headed.announced``, its own random stream).
3. ``leadin.`` -- a lead-in and its list inside a level: "To investigate the effect of DRUG on
   each of the following:", "Key secondary objectives are to compare DRUG with placebo for:"
   (then "Other secondary objectives are:" before the remaining ones), "Additionally:";
   bullets or numbered items, each item one objective (its own text; the lead-in is not
   repeated).
4. ``apart.`` -- endpoints printed apart from their objectives, in a section called
   "Endpoints", "Study Endpoints", "Efficacy Variables", "Outcome Measures", "Efficacy
   Measures" or "Pharmacokinetic Parameters" (the pharmacokinetic studies), placed in the
   objectives chapter, in an assessments chapter ("Efficacy Assessments and Variables") or in
   the statistics chapter; levels as sub-sections ("Primary Efficacy Variable"), as bold lead
   lines, or in "Endpoint | Definition" tables (spanning level rows, or a table per level);
   items as bullets, numbered items or paragraphs.  ``apart.distractor``: the statistics chapter
   says "The primary endpoint will also be analysed in subgroups defined by:" followed by
   bullets that are neither endpoints nor objectives.  (Any document may have it.)
5. ``single.`` -- the only objective, printed with no level word under "Study Objective" (a
   chapter, a sub-section or a bold lead line), as a paragraph or a bullet; its endpoints apart,
   under "Primary Endpoint(s)", under an unlevelled "Endpoints" heading, or as "Primary
   Endpoint" plus "Secondary Endpoints".
6. ``elig.`` -- eligibility criteria numbered "1." or "1)", bullets, or numbered headings with
   lettered sub-items ("1. Target Population:" then "a) ...", "b) ..." on their own lines: one
   criterion); sub-items ("a.", "(i)" ...) and "Note:" paragraphs that belong to the criterion
   above; exclusion numbering restarting or continuing the inclusion numbers; bold group lines
   ("Medical Conditions") between criteria; sections titled variously ("Subject Inclusion
   Criteria", "Criteria for Exclusion", ...), as sub-sections or as bold lead lines in one
   "Eligibility Criteria" section.

Truth (the conventions of the hand-made references): ``{"eligibility": [{"category",
"identifier", "text"}], "objectives": [{"level", "text", "endpoints": [{"level", "text"}]}]}``.
Levels are "primary", "secondary" or "exploratory" (tertiary and "other" are exploratory, "key
secondary" is secondary; the unlevelled only objective is primary, and so are endpoints printed
with no level word for it).  An objective's text is its statement as printed, without bullet
glyph or level label; endpoints sit under their objective -- those printed apart are attached
by level and order (one to one; a level printed for endpoints but not for objectives goes to
the nearest earlier objective, the "Secondary Endpoints" of a single objective).  A criterion's
identifier is its marker as printed ("1.", "1)"; null for a bullet) and its text the whole
criterion: its text, then each sub-item with its marker and the note, a line each, as
``make_protocol.criterion_text`` gives them.

The documents are drawn with ``make_protocol``'s layout code (headings, paragraphs, listings,
lead lines, ruled grids, title page, contents, running header and footer); :func:`render` is
``make_protocol.build`` with three additions: a listing entry may break over a page wherever it
falls, a grid may continue on the next page without repeating its header (:class:`RunOnGrid`),
and a lead line may be italic (:class:`Styled`).  The output is deterministic: the same seed
gives the same PDF, byte for byte.

Usage (from the repository root)::

    python examples/study_layouts.py --out DIR --count 50 --first-seed 0

writes ``layout_NNNN.pdf`` and ``layout_NNNN.truth.json`` for each seed.
"""

from __future__ import annotations

import argparse
import contextlib
import random
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pymupdf

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

import make_protocol as mp  # noqa: E402
from make_protocol import DOT, E, Grid, Lead, Listing, P, Protocol, S, Section  # noqa: E402

PRIMARY, SECONDARY, EXPLORATORY = "primary", "secondary", "exploratory"
LEVELS = (PRIMARY, SECONDARY, EXPLORATORY)

FAMILIES = {
    "1 objectives table": "table.",
    "2 headed lists": "headed.",
    "3 lead-in lists": "leadin.",
    "4 endpoints apart": "apart.",
    "5 no level word": "single.",
    "6 eligibility": "elig.",
}

# Every variation a layout can record; each is reachable (tests check it over seeds 0..199).
FORMS = (
    "table.columns.objectives_endpoints",
    "table.columns.objective_endpoint",
    "table.columns.category",
    "table.columns.type",
    "table.columns.outcome_measures",
    "table.columns.glyph",
    "table.level.span",
    "table.level.cell_first",
    "table.level.cell_every",
    "table.level.column",
    "table.level.column_blank",
    "table.endpoints.single",
    "table.endpoints.bulleted",
    "table.endpoints.bullet_single",
    "table.caption.titled",
    "table.caption.none",
    "table.split.none",
    "table.split.repeat",
    "table.split.plain",
    "headed.level.subsection",
    "headed.level.lead",
    "headed.items.bullets",
    "headed.items.numbered",
    "headed.items.paragraphs",
    "headed.numbering.restart",
    "headed.numbering.continue",
    "headed.key_secondary",
    "headed.subheading.bold",
    "headed.subheading.italic",
    "headed.announced",
    "leadin.each_following",
    "leadin.key_secondary",
    "leadin.additionally",
    "leadin.items.bullets",
    "leadin.items.numbered",
    "apart.name.endpoints",
    "apart.name.study_endpoints",
    "apart.name.efficacy_variables",
    "apart.name.outcome_measures",
    "apart.name.efficacy_measures",
    "apart.name.pk_parameters",
    "apart.place.objectives_chapter",
    "apart.place.assessments",
    "apart.place.statistics",
    "apart.levels.subsection",
    "apart.levels.lead",
    "apart.levels.table_span",
    "apart.levels.table_per_level",
    "apart.levels.none",
    "apart.items.bullets",
    "apart.items.numbered",
    "apart.items.paragraphs",
    "apart.distractor",
    "single.place.chapter",
    "single.place.subsection",
    "single.place.lead",
    "single.items.paragraph",
    "single.items.bullet",
    "single.endpoints.primary",
    "single.endpoints.unlevelled",
    "single.endpoints.with_secondary",
    "elig.marker.number_dot",
    "elig.marker.number_paren",
    "elig.marker.headings",
    "elig.marker.bullets",
    "elig.subs",
    "elig.note",
    "elig.numbering.continue",
    "elig.groups",
    "elig.container.subsections",
    "elig.container.leads",
)


def family_of(form: str) -> str:
    return next(name for name, prefix in FAMILIES.items() if form.startswith(prefix))


# --------------------------------------------------------------------------
# Word pools (all invented)
# --------------------------------------------------------------------------
@dataclass(frozen=True)
class Measure:
    """One thing a study measures: a short title (an outcome-measure column), the topic an
    objective names ("... on lung function"), the fragment a lead-in list prints and endpoint
    templates ({tp}: a time point, {period}: the treatment period, {drug})."""

    title: str
    topic: str
    frag: str
    endpoints: tuple[str, ...]


@dataclass(frozen=True)
class Disease:
    name: str  # as in a sentence
    title: str  # as in a title
    pop: str  # the population
    weeks: tuple[int, ...]  # treatment lengths (the primary time point)
    comps: tuple[str, ...]  # comparators
    measures: tuple[Measure, ...]  # the first suits a primary objective
    inclusion: tuple[str, ...]
    exclusion: tuple[str, ...]
    biomarkers: str
    pro: str
    pro_short: str
    burden: str
    mechanism: str
    strat: str  # a stratification factor


M = Measure
DISEASES = (
    Disease(
        "moderate to severe asthma",
        "Moderate to Severe Asthma",
        "adults and adolescents with moderate to severe asthma",
        (24, 52),
        ("placebo",),
        (
            M(
                "Lung function",
                "lung function",
                "pre-bronchodilator FEV1",
                (
                    "Change from baseline to {tp} in pre-bronchodilator forced expiratory volume in one second (FEV1)",
                    "Change from baseline in pre-bronchodilator FEV1 at {tp}",
                ),
            ),
            M(
                "Exacerbations",
                "the rate of severe asthma exacerbations",
                "the annualized rate of severe exacerbations",
                (
                    "Annualized rate of severe asthma exacerbations over {period}",
                    "Number of severe asthma exacerbations per participant-year up to {tp}",
                ),
            ),
            M(
                "Asthma control",
                "asthma control",
                "asthma control measured with the ACQ-5",
                (
                    "Change from baseline to {tp} in Asthma Control Questionnaire (ACQ-5) score",
                    "Mean change in ACQ-5 score from baseline to {tp}",
                ),
            ),
            M(
                "ACQ-5 response",
                "clinically meaningful improvement in asthma control",
                "the ACQ-5 responder rate",
                ("Proportion of participants with a decrease of at least 0.5 points in ACQ-5 score at {tp}",),
            ),
            M(
                "Time to exacerbation",
                "the time to the first severe exacerbation",
                "time to the first severe exacerbation",
                ("Time from randomization to the first severe asthma exacerbation up to {tp}",),
            ),
        ),
        (
            "Physician-diagnosed asthma for at least 12 months, treated with medium- or high-dose "
            "inhaled corticosteroids plus a second controller for at least 3 months.",
            "Pre-bronchodilator FEV1 of 40% to 85% of the predicted normal value at screening.",
            "At least two severe asthma exacerbations requiring systemic corticosteroids in the year before screening.",
        ),
        (
            "Current smoker, or former smoker with a smoking history of at least 10 pack-years.",
            "Clinically important lung disease other than asthma, such as chronic obstructive "
            "pulmonary disease or bronchiectasis.",
        ),
        "blood eosinophil count and fractional exhaled nitric oxide",
        "Asthma Quality of Life Questionnaire",
        "AQLQ",
        "Despite inhaled therapy, many people with asthma continue to have daily symptoms and "
        "exacerbations that lead to emergency visits.",
        "{Drug} is a monoclonal antibody that blocks a cytokine receptor involved in type 2 airway inflammation.",
        "blood eosinophil count",
    ),
    Disease(
        "type 2 diabetes mellitus",
        "Type 2 Diabetes Mellitus",
        "adults with type 2 diabetes inadequately controlled on metformin",
        (24, 26, 52),
        ("placebo", "sitagliptin"),
        (
            M(
                "Glycaemic control",
                "glycaemic control",
                "HbA1c",
                (
                    "Change from baseline to {tp} in HbA1c",
                    "Change in glycated haemoglobin (HbA1c) from baseline to {tp}",
                ),
            ),
            M(
                "Fasting glucose",
                "fasting plasma glucose",
                "fasting plasma glucose",
                ("Change from baseline to {tp} in fasting plasma glucose",),
            ),
            M(
                "Body weight",
                "body weight",
                "body weight",
                (
                    "Percentage change in body weight from baseline to {tp}",
                    "Change from baseline in body weight at {tp}",
                ),
            ),
            M(
                "HbA1c target",
                "attainment of the HbA1c target",
                "the proportion of participants reaching an HbA1c below 7.0%",
                ("Proportion of participants with an HbA1c below 7.0% at {tp}",),
            ),
            M(
                "Rescue therapy",
                "the need for glycaemic rescue therapy",
                "time to glycaemic rescue therapy",
                ("Time to first use of glycaemic rescue therapy up to {tp}",),
            ),
        ),
        (
            "Diagnosis of type 2 diabetes mellitus at least 6 months before screening.",
            "HbA1c of 7.5% to 10.5% inclusive at the screening visit.",
            "Treatment with metformin at a stable dose of at least 1500 mg per day for at least "
            "8 weeks before screening.",
        ),
        (
            "Type 1 diabetes mellitus or a history of diabetic ketoacidosis.",
            "History of acute or chronic pancreatitis.",
        ),
        "fasting C-peptide and the proinsulin to C-peptide ratio",
        "Diabetes Treatment Satisfaction Questionnaire",
        "DTSQ",
        "Many people with type 2 diabetes do not reach their glycaemic targets with metformin "
        "alone and need a second agent within a few years of diagnosis.",
        "{Drug} is an oral agent that increases glucose-dependent insulin secretion and slows gastric emptying.",
        "HbA1c",
    ),
    Disease(
        "rheumatoid arthritis",
        "Active Rheumatoid Arthritis",
        "adults with active rheumatoid arthritis and an inadequate response to methotrexate",
        (12, 24),
        ("placebo", "adalimumab"),
        (
            M(
                "ACR20 response",
                "the signs and symptoms of rheumatoid arthritis",
                "ACR20 response",
                ("Proportion of participants achieving an ACR20 response at {tp}",),
            ),
            M(
                "Disease activity",
                "disease activity",
                "DAS28-CRP",
                (
                    "Change from baseline to {tp} in Disease Activity Score 28 using C-reactive protein (DAS28-CRP)",
                    "Change from baseline in DAS28-CRP at {tp}",
                ),
            ),
            M(
                "Physical function",
                "physical function",
                "physical function measured with the HAQ-DI",
                ("Change from baseline to {tp} in Health Assessment Questionnaire-Disability Index (HAQ-DI)",),
            ),
            M(
                "ACR50 response",
                "marked clinical response",
                "ACR50 response",
                ("Proportion of participants achieving an ACR50 response at {tp}",),
            ),
            M(
                "Remission",
                "clinical remission",
                "remission by DAS28-CRP",
                ("Proportion of participants with a DAS28-CRP below 2.6 at {tp}",),
            ),
        ),
        (
            "Diagnosis of rheumatoid arthritis according to the current classification criteria, "
            "for at least 6 months before screening.",
            "At least six swollen joints and six tender joints at screening and at baseline.",
            "Treatment with methotrexate for at least 12 weeks, at a stable weekly dose for the "
            "last 4 weeks before baseline.",
        ),
        (
            "Inflammatory joint disease other than rheumatoid arthritis, including psoriatic arthritis and gout.",
            "Prior treatment with any Janus kinase inhibitor.",
        ),
        "serum interleukin-6 and rheumatoid factor titres",
        "Functional Assessment of Chronic Illness Therapy-Fatigue scale",
        "FACIT-Fatigue",
        "Rheumatoid arthritis causes painful swelling of the joints and, without effective "
        "treatment, progressive joint damage and disability.",
        "{Drug} selectively inhibits a kinase that relays signals from several inflammatory cytokines.",
        "prior biologic use",
    ),
    Disease(
        "major depressive disorder",
        "Major Depressive Disorder",
        "adults with major depressive disorder and an inadequate response to antidepressants",
        (6, 8),
        ("placebo",),
        (
            M(
                "Depressive symptoms",
                "depressive symptoms",
                "MADRS total score",
                (
                    "Change from baseline to {tp} in Montgomery-Asberg Depression Rating Scale (MADRS) total score",
                    "Change in MADRS total score from baseline to {tp}",
                ),
            ),
            M(
                "Response",
                "treatment response",
                "the response rate",
                ("Proportion of participants with a reduction of at least 50% in MADRS total score at {tp}",),
            ),
            M(
                "Remission",
                "remission of depressive symptoms",
                "the remission rate",
                ("Proportion of participants with a MADRS total score of 10 or lower at {tp}",),
            ),
            M(
                "Illness severity",
                "overall illness severity",
                "CGI-S score",
                ("Change from baseline to {tp} in Clinical Global Impression-Severity (CGI-S) score",),
            ),
            M(
                "Anxiety symptoms",
                "anxiety symptoms",
                "HAM-A total score",
                ("Change from baseline to {tp} in Hamilton Anxiety Rating Scale total score",),
            ),
        ),
        (
            "Current major depressive episode of at least 8 weeks, confirmed by a structured "
            "clinical interview at screening.",
            "MADRS total score of at least 26 at screening and at baseline.",
            "Inadequate response to at least one antidepressant given at an adequate dose for at "
            "least 6 weeks in the current episode.",
        ),
        (
            "Lifetime diagnosis of bipolar disorder, schizophrenia or another psychotic disorder.",
            "Significant risk of suicide in the opinion of the investigator, or any suicidal "
            "behaviour in the past year.",
        ),
        "plasma brain-derived neurotrophic factor and inflammatory markers",
        "Quick Inventory of Depressive Symptomatology-Self Report",
        "QIDS-SR",
        "Major depressive disorder is a leading cause of disability, and about a third of "
        "patients do not respond adequately to their first antidepressant.",
        "{Drug} modulates a glutamate receptor subtype expressed in brain regions that regulate mood.",
        "country",
    ),
    Disease(
        "chronic kidney disease",
        "Chronic Kidney Disease with Albuminuria",
        "adults with chronic kidney disease and albuminuria",
        (52, 104),
        ("placebo",),
        (
            M(
                "Kidney function",
                "the decline in kidney function",
                "eGFR slope",
                (
                    "Annual rate of change in estimated glomerular filtration rate (eGFR) from baseline to {tp}",
                    "Change from baseline in eGFR at {tp}",
                ),
            ),
            M(
                "Albuminuria",
                "albuminuria",
                "urine albumin-to-creatinine ratio",
                ("Percentage change from baseline to {tp} in urine albumin-to-creatinine ratio",),
            ),
            M(
                "Kidney outcome",
                "the risk of kidney failure",
                "time to the composite kidney outcome",
                (
                    "Time to the first occurrence of a sustained decline of at least 40% in eGFR, kidney "
                    "failure or renal death",
                ),
            ),
            M(
                "Blood pressure",
                "blood pressure",
                "seated systolic blood pressure",
                ("Change from baseline to {tp} in seated systolic blood pressure",),
            ),
        ),
        (
            "An eGFR of 25 to 75 mL/min/1.73 m2 at screening, calculated with the CKD-EPI equation.",
            "Urine albumin-to-creatinine ratio of at least 200 mg/g in two of three first morning samples.",
            "Stable maximum tolerated dose of an angiotensin-converting enzyme inhibitor or "
            "angiotensin receptor blocker for at least 4 weeks.",
        ),
        (
            "Polycystic kidney disease, lupus nephritis or vasculitis affecting the kidneys.",
            "Kidney transplant, or dialysis within 3 months before screening.",
        ),
        "urinary markers of tubular injury",
        "Kidney Disease Quality of Life instrument",
        "KDQOL-36",
        "Chronic kidney disease often progresses silently until dialysis or transplantation is "
        "needed, and it markedly raises cardiovascular risk.",
        "{Drug} blocks a receptor that promotes inflammation and fibrosis in the kidney.",
        "baseline eGFR",
    ),
    Disease(
        "moderate to severe plaque psoriasis",
        "Moderate to Severe Plaque Psoriasis",
        "adults with moderate to severe plaque psoriasis",
        (12, 16, 52),
        ("placebo", "apremilast"),
        (
            M(
                "PASI 75 response",
                "skin clearance",
                "PASI 75 response",
                (
                    "Proportion of participants achieving at least 75% improvement from baseline in "
                    "Psoriasis Area and Severity Index (PASI 75) at {tp}",
                    "Proportion of participants with a PASI 75 response at {tp}",
                ),
            ),
            M(
                "Physician assessment",
                "the physician's global assessment of psoriasis",
                "sPGA response",
                (
                    "Proportion of participants with a static Physician Global Assessment (sPGA) score "
                    "of 0 or 1 at {tp}",
                ),
            ),
            M(
                "PASI 90 response",
                "near-complete skin clearance",
                "PASI 90 response",
                ("Proportion of participants achieving a PASI 90 response at {tp}",),
            ),
            M(
                "Itch",
                "psoriasis-related itch",
                "the itch numeric rating scale",
                ("Change from baseline to {tp} in the weekly mean itch numeric rating scale score",),
            ),
            M(
                "Skin-related quality of life",
                "dermatology-related quality of life",
                "DLQI score",
                ("Proportion of participants with a Dermatology Life Quality Index (DLQI) score of 0 or 1 at {tp}",),
            ),
        ),
        (
            "Chronic plaque psoriasis for at least 6 months before the first dose.",
            "Plaque psoriasis covering at least 10% of body surface area, with a PASI score of at "
            "least 12, at screening and at baseline.",
            "Candidate for systemic therapy or phototherapy in the opinion of the investigator.",
        ),
        (
            "Erythrodermic, pustular or guttate psoriasis, or drug-induced psoriasis.",
            "Prior exposure to two or more biologic therapies for psoriasis.",
        ),
        "interleukin-17 pathway markers in skin biopsies",
        "Psoriasis Symptoms and Signs Diary",
        "PSSD",
        "Moderate to severe plaque psoriasis affects skin, sleep and social life, and many "
        "patients give up topical treatments because they are tedious.",
        "{Drug} is an oral inhibitor of an intracellular enzyme that controls the production of "
        "inflammatory cytokines in the skin.",
        "body weight",
    ),
    Disease(
        "chronic heart failure",
        "Chronic Heart Failure with Reduced Ejection Fraction",
        "adults with chronic heart failure and reduced ejection fraction",
        (24, 52),
        ("placebo",),
        (
            M(
                "Symptoms",
                "heart failure symptoms",
                "the KCCQ total symptom score",
                ("Change from baseline to {tp} in Kansas City Cardiomyopathy Questionnaire total symptom score",),
            ),
            M(
                "Heart failure events",
                "the risk of worsening heart failure",
                "time to the first heart failure event",
                ("Time to the first hospitalization or urgent visit for heart failure",),
            ),
            M(
                "NT-proBNP",
                "cardiac wall stress",
                "NT-proBNP",
                ("Change from baseline to {tp} in N-terminal pro-B-type natriuretic peptide (NT-proBNP)",),
            ),
            M(
                "Exercise capacity",
                "exercise capacity",
                "six-minute walk distance",
                ("Change from baseline to {tp} in six-minute walk distance",),
            ),
        ),
        (
            "Chronic heart failure, NYHA class II to IV, for at least 3 months before screening.",
            "Left ventricular ejection fraction of 40% or lower on an echocardiogram within 12 "
            "months before screening.",
            "Treatment with guideline-directed medical therapy at stable doses for at least 4 weeks.",
        ),
        (
            "Acute decompensated heart failure requiring intravenous therapy within 4 weeks before screening.",
            "Heart transplant, or a left ventricular assist device implanted or planned.",
        ),
        "high-sensitivity troponin T and markers of fibrosis",
        "EuroQol five-dimension questionnaire",
        "EQ-5D-5L",
        "Chronic heart failure with reduced ejection fraction carries a high risk of "
        "hospitalization and death despite current therapies.",
        "{Drug} increases the efficiency of cardiac muscle contraction without raising intracellular calcium.",
        "atrial fibrillation at baseline",
    ),
    Disease(
        "episodic migraine",
        "Episodic Migraine",
        "adults with episodic migraine",
        (12, 24),
        ("placebo",),
        (
            M(
                "Migraine days",
                "the frequency of migraine",
                "monthly migraine days",
                (
                    "Change from baseline in the mean number of monthly migraine days over {period}",
                    "Change from baseline to {tp} in monthly migraine days",
                ),
            ),
            M(
                "Responder rate",
                "the proportion of responders",
                "the responder rate",
                ("Proportion of participants with a reduction of at least 50% in monthly migraine days over {period}",),
            ),
            M(
                "Acute medication",
                "the use of acute headache medication",
                "acute medication days",
                ("Change from baseline in monthly days of acute headache medication use over {period}",),
            ),
            M(
                "Disability",
                "migraine-related disability",
                "MIDAS score",
                ("Change from baseline to {tp} in Migraine Disability Assessment (MIDAS) total score",),
            ),
        ),
        (
            "History of migraine for at least 12 months, with onset before the age of 50 years.",
            "Between 4 and 14 migraine days per month in each of the 3 months before screening.",
            "Completion of the headache diary on at least 24 of the 28 days of the baseline period.",
        ),
        (
            "Medication overuse headache, or headache on 15 or more days per month.",
            "Failure of more than three classes of migraine preventive treatment.",
        ),
        "plasma calcitonin gene-related peptide",
        "Migraine-Specific Quality of Life Questionnaire",
        "MSQ",
        "Migraine is among the most disabling neurological disorders, and many patients stop "
        "preventive treatments because of side effects.",
        "{Drug} is an antibody against a neuropeptide released during migraine attacks.",
        "baseline monthly migraine days",
    ),
    Disease(
        "non-small cell lung cancer",
        "Previously Treated Advanced Non-Small Cell Lung Cancer",
        "adults with previously treated advanced non-small cell lung cancer",
        (12, 24),
        ("docetaxel", "investigator's choice of chemotherapy"),
        (
            M(
                "Progression-free survival",
                "progression-free survival",
                "progression-free survival",
                (
                    "Progression-free survival, defined as the time from randomization to disease "
                    "progression per RECIST 1.1 or death from any cause",
                    "Progression-free survival assessed by blinded independent central review",
                ),
            ),
            M(
                "Overall survival",
                "overall survival",
                "overall survival",
                ("Overall survival, defined as the time from randomization to death from any cause",),
            ),
            M(
                "Objective response",
                "tumour response",
                "the objective response rate",
                (
                    "Objective response rate, defined as the proportion of participants with a "
                    "confirmed complete or partial response per RECIST 1.1",
                ),
            ),
            M(
                "Duration of response",
                "the durability of tumour response",
                "duration of response",
                ("Duration of response in participants with a confirmed objective response",),
            ),
            M(
                "Disease control",
                "disease control",
                "the disease control rate",
                (
                    "Disease control rate at {tp}, defined as the proportion of participants with "
                    "complete response, partial response or stable disease",
                ),
            ),
        ),
        (
            "Histologically or cytologically confirmed locally advanced or metastatic non-small cell lung cancer.",
            "Disease progression on or after one prior platinum-based chemotherapy regimen.",
            "At least one measurable lesion per RECIST 1.1 and an ECOG performance status of 0 or 1.",
        ),
        (
            "Untreated or symptomatic brain metastases.",
            "Interstitial lung disease or pneumonitis that required systemic corticosteroids.",
        ),
        "circulating tumour DNA",
        "EORTC Quality of Life Questionnaire Core 30",
        "EORTC QLQ-C30",
        "Most people with non-small cell lung cancer are diagnosed at an advanced stage, and "
        "options after progression on first-line therapy remain limited.",
        "{Drug} is an antibody-drug conjugate that delivers a topoisomerase inhibitor to tumour "
        "cells expressing its target antigen.",
        "histology",
    ),
    Disease(
        "moderately to severely active Crohn's disease",
        "Moderately to Severely Active Crohn's Disease",
        "adults with moderately to severely active Crohn's disease",
        (12, 52),
        ("placebo",),
        (
            M(
                "Clinical remission",
                "clinical remission",
                "clinical remission by CDAI",
                (
                    "Proportion of participants in clinical remission, defined as a Crohn's Disease "
                    "Activity Index (CDAI) score below 150, at {tp}",
                ),
            ),
            M(
                "Endoscopic response",
                "endoscopic response",
                "endoscopic response",
                (
                    "Proportion of participants with a decrease of at least 50% from baseline in the "
                    "Simple Endoscopic Score for Crohn's Disease at {tp}",
                ),
            ),
            M(
                "Steroid-free remission",
                "corticosteroid-free remission",
                "corticosteroid-free remission",
                (
                    "Proportion of participants in clinical remission without corticosteroids for at "
                    "least 90 days before {tp}",
                ),
            ),
            M(
                "Intestinal inflammation",
                "intestinal inflammation",
                "faecal calprotectin",
                ("Change from baseline to {tp} in faecal calprotectin concentration",),
            ),
        ),
        (
            "Crohn's disease diagnosed at least 3 months before screening and confirmed by endoscopy and histology.",
            "CDAI score of 220 to 450 at baseline and evidence of mucosal ulceration at the screening endoscopy.",
            "Inadequate response, loss of response or intolerance to corticosteroids, "
            "immunomodulators or biologic therapy.",
        ),
        (
            "Ulcerative colitis, indeterminate colitis or an ostomy.",
            "Symptomatic bowel stricture, abdominal abscess or a bowel resection within 6 months before screening.",
        ),
        "mucosal gene expression in intestinal biopsies",
        "Inflammatory Bowel Disease Questionnaire",
        "IBDQ",
        "Crohn's disease is a lifelong inflammation of the gut that causes pain, diarrhoea and "
        "fatigue, and often leads to surgery.",
        "{Drug} is an antibody that prevents white blood cells from homing to the inflamed gut wall.",
        "prior biologic failure",
    ),
    Disease(
        "moderate to severe atopic dermatitis",
        "Moderate to Severe Atopic Dermatitis",
        "adults and adolescents with moderate to severe atopic dermatitis",
        (16, 52),
        ("placebo",),
        (
            M(
                "EASI-75 response",
                "the extent and severity of eczema",
                "EASI-75 response",
                (
                    "Proportion of participants achieving at least 75% improvement in Eczema Area and "
                    "Severity Index (EASI-75) at {tp}",
                ),
            ),
            M(
                "Investigator assessment",
                "the investigator's global assessment of disease",
                "vIGA-AD response",
                (
                    "Proportion of participants with a validated Investigator Global Assessment score "
                    "of 0 or 1 and a reduction of at least 2 points at {tp}",
                ),
            ),
            M(
                "Itch",
                "itch",
                "peak pruritus",
                (
                    "Proportion of participants with an improvement of at least 4 points in the weekly "
                    "peak pruritus numeric rating scale at {tp}",
                ),
            ),
            M(
                "Sleep",
                "sleep disturbance",
                "the sleep disturbance score",
                ("Change from baseline to {tp} in the weekly mean sleep disturbance score",),
            ),
        ),
        (
            "Chronic atopic dermatitis diagnosed at least 1 year before screening.",
            "Eczema Area and Severity Index score of at least 16 and body surface area involvement "
            "of at least 10% at baseline.",
            "Inadequate response to topical corticosteroids or calcineurin inhibitors within 6 "
            "months before screening.",
        ),
        (
            "Active skin infection requiring systemic treatment within 1 week before baseline.",
            "Other skin disease that could interfere with the assessment of atopic dermatitis.",
        ),
        "serum thymus and activation-regulated chemokine",
        "Patient-Oriented Eczema Measure",
        "POEM",
        "Atopic dermatitis causes intense itch and broken sleep, and many patients are not helped enough by creams.",
        "{Drug} is an antibody that neutralizes a cytokine driving itch and skin inflammation.",
        "disease severity",
    ),
    Disease(
        "essential hypertension",
        "Uncontrolled Essential Hypertension",
        "adults with hypertension uncontrolled on two or more antihypertensive drugs",
        (8, 12),
        ("placebo",),
        (
            M(
                "Office blood pressure",
                "blood pressure",
                "seated office systolic blood pressure",
                ("Change from baseline to {tp} in mean seated office systolic blood pressure",),
            ),
            M(
                "Ambulatory blood pressure",
                "ambulatory blood pressure",
                "mean ambulatory systolic blood pressure",
                ("Change from baseline to {tp} in mean 24-hour ambulatory systolic blood pressure",),
            ),
            M(
                "Diastolic pressure",
                "diastolic blood pressure",
                "seated diastolic blood pressure",
                ("Change from baseline to {tp} in mean seated office diastolic blood pressure",),
            ),
            M(
                "Blood pressure control",
                "blood pressure control",
                "the proportion of participants reaching target blood pressure",
                ("Proportion of participants with a seated office blood pressure below 140/90 mmHg at {tp}",),
            ),
        ),
        (
            "Mean seated office systolic blood pressure of 145 to 180 mmHg at screening.",
            "Treatment with at least two antihypertensive drugs of different classes at stable "
            "doses for at least 4 weeks.",
        ),
        (
            "Secondary hypertension of any cause, including renal artery stenosis.",
            "Stroke, myocardial infarction or hospitalization for heart failure within 6 months before screening.",
        ),
        "plasma renin activity and aldosterone",
        "Short Form 36 Health Survey",
        "SF-36",
        "Hypertension that stays above target despite several drugs greatly raises the risk of "
        "stroke and heart attack.",
        "{Drug} inhibits the synthesis of a hormone that makes the kidneys retain sodium.",
        "baseline systolic blood pressure",
    ),
)

# The pharmacokinetic studies (healthy participants): objective, fragment, title, endpoints.
PK_AIMS = (
    (
        "To characterize the pharmacokinetics of {drug} after single ascending oral doses",
        "single-dose plasma exposure",
        "Single-dose pharmacokinetics",
        (
            "Maximum observed plasma concentration (Cmax) of {drug} after a single dose",
            "Area under the plasma concentration-time curve from time zero to infinity (AUCinf) of {drug}",
        ),
    ),
    (
        "To characterize the steady-state pharmacokinetics of {drug} after repeated once-daily dosing",
        "steady-state exposure",
        "Multiple-dose pharmacokinetics",
        (
            "Area under the concentration-time curve over the dosing interval (AUCtau) of {drug} on Day 14",
            "Accumulation ratio of {drug} based on AUCtau",
        ),
    ),
    (
        "To assess the effect of a high-fat meal on the pharmacokinetics of {drug}",
        "exposure under fed conditions",
        "Food effect",
        ("Ratio of the geometric means of Cmax and AUCinf of {drug} in the fed and fasted states",),
    ),
    (
        "To characterize the pharmacokinetics of the main circulating metabolite of {drug}",
        "metabolite exposure",
        "Metabolite pharmacokinetics",
        ("Cmax, AUCinf and terminal elimination half-life of the main metabolite of {drug}",),
    ),
    (
        "To evaluate the dose proportionality of {drug} exposure",
        "dose proportionality",
        "Dose proportionality",
        ("Dose-normalized Cmax and AUCinf of {drug} across the dose levels studied",),
    ),
    (
        "To estimate the renal excretion of unchanged {drug}",
        "urinary excretion",
        "Urinary excretion",
        ("Amount of unchanged {drug} excreted in urine and its renal clearance",),
    ),
)

SPONSORS = (
    "Halvorsen Therapeutics",
    "Bluefin Biosciences",
    "Corvane Pharma",
    "Meridale Bio",
    "Quillon Life Sciences",
    "Tessaro Pharmaceuticals",
    "Arbenwood Research",
    "Nordvale Biotherapeutics",
    "Pellucid Medicines",
    "Sorrel Clinical Sciences",
)
MONTHS = ("January", "March", "May", "July", "September", "November")
SYLLABLES = (
    "ba",
    "co",
    "da",
    "fe",
    "ga",
    "li",
    "mo",
    "na",
    "pe",
    "ra",
    "so",
    "ta",
    "ve",
    "zo",
    "ri",
    "lu",
    "ne",
    "xi",
    "qua",
    "tor",
)
SUFFIXES = ("mab", "tinib", "gliptin", "parin", "cept", "stat", "lisib", "dronate")

LEVEL_LABELS = {  # (level, key) -> printed labels of an objectives level
    (PRIMARY, False): ("Primary", "Primary Objective", "Primary Objectives", "Primary Objective(s)"),
    (SECONDARY, True): (
        "Key Secondary",
        "Key Secondary Objective",
        "Key Secondary Objectives",
        "Key Secondary Objective(s)",
    ),
    (SECONDARY, False): ("Secondary", "Secondary Objectives", "Secondary Objective(s)"),
    (EXPLORATORY, False): (
        "Exploratory",
        "Exploratory Objectives",
        "Tertiary/Exploratory",
        "Tertiary Objectives",
        "Other Objectives",
        "Exploratory Objective(s)",
    ),
}
CATEGORY_WORDS = {
    (PRIMARY, False): ("Primary",),
    (SECONDARY, True): ("Key Secondary",),
    (SECONDARY, False): ("Secondary",),
    (EXPLORATORY, False): ("Exploratory", "Tertiary", "Other"),
}

APART_NAMES = {  # name -> (section titles, level labels by (level, key))
    "endpoints": (
        ("Endpoints",),
        {
            (PRIMARY, False): ("Primary Endpoint", "Primary Endpoint(s)", "Primary Endpoints"),
            (SECONDARY, True): ("Key Secondary Endpoints", "Key Secondary Endpoint(s)"),
            (SECONDARY, False): ("Secondary Endpoints", "Secondary Endpoint(s)"),
            (EXPLORATORY, False): (
                "Exploratory Endpoints",
                "Tertiary Endpoints",
                "Other Endpoints",
                "Tertiary/Exploratory Endpoints",
            ),
        },
    ),
    "study_endpoints": (
        ("Study Endpoints", "Trial Endpoints"),
        {
            (PRIMARY, False): ("Primary Endpoint", "Primary Endpoint(s)"),
            (SECONDARY, True): ("Key Secondary Endpoints",),
            (SECONDARY, False): ("Secondary Endpoints",),
            (EXPLORATORY, False): ("Exploratory Endpoints", "Other Endpoints"),
        },
    ),
    "efficacy_variables": (
        ("Efficacy Variables", "Efficacy Assessments and Variables"),
        {
            (PRIMARY, False): ("Primary Efficacy Variable", "Primary Variable"),
            (SECONDARY, True): ("Key Secondary Variables",),
            (SECONDARY, False): ("Secondary Variables", "Secondary Efficacy Variables"),
            (EXPLORATORY, False): ("Exploratory Variables", "Other Variables"),
        },
    ),
    "outcome_measures": (
        ("Outcome Measures",),
        {
            (PRIMARY, False): ("Primary Outcome Measure", "Primary Outcome Measures"),
            (SECONDARY, True): ("Key Secondary Outcome Measures",),
            (SECONDARY, False): ("Secondary Outcome Measures",),
            (EXPLORATORY, False): (
                "Exploratory Outcome Measures",
                "Other Outcome Measures",
                "Tertiary Outcome Measures",
            ),
        },
    ),
    "efficacy_measures": (
        ("Efficacy Measures", "Efficacy and Safety Measures"),
        {
            (PRIMARY, False): ("Primary Efficacy Measure", "Primary Measure"),
            (SECONDARY, True): ("Key Secondary Measures",),
            (SECONDARY, False): ("Secondary Measures",),
            (EXPLORATORY, False): ("Exploratory Measures",),
        },
    ),
    "pk_parameters": (
        ("Pharmacokinetic Parameters", "Pharmacokinetic Endpoints"),
        {
            (PRIMARY, False): ("Primary Pharmacokinetic Parameters", "Primary Parameters"),
            (SECONDARY, True): ("Key Secondary Parameters",),
            (SECONDARY, False): ("Secondary Pharmacokinetic Parameters", "Secondary Parameters"),
            (EXPLORATORY, False): ("Exploratory Parameters", "Other Parameters"),
        },
    ),
}

# Eligibility: (group, template, sub-items, notes). Groups name the numbered headings of the
# "headings" form; templates use the document's words ({Person}, {persons}, {drug}, numbers).
INCLUSION = (
    (
        "consent",
        "{Person} has provided written informed consent before any study-specific procedure is performed.",
        (),
        (),
    ),
    (
        "consent",
        "Willing and able to comply with scheduled visits, the treatment plan, "
        "laboratory tests and other study procedures.",
        (),
        (),
    ),
    (
        "age",
        "Male or female, aged {amin} to {amax} years inclusive at the time of signing the informed consent form.",
        (),
        (),
    ),
    (
        "age",
        "Female {persons} of childbearing potential must agree to use one of the following "
        "methods of contraception from screening until {cw} weeks after the last dose of study "
        "intervention:",
        (
            "combined hormonal contraception associated with inhibition of ovulation",
            "an intrauterine device or intrauterine hormone-releasing system",
            "bilateral tubal occlusion",
            "a vasectomized sole partner",
            "sexual abstinence, when this is the preferred and usual lifestyle of the {person}",
        ),
        ("Note: Periodic abstinence and withdrawal are not acceptable methods of contraception.",),
    ),
    (
        "age",
        "Male {persons} with a partner of childbearing potential must agree to use a condom "
        "from the first dose until {cw} weeks after the last dose.",
        (),
        (),
    ),
    (
        "labs",
        "Adequate organ function at screening, as shown by all of the following:",
        (
            "absolute neutrophil count of at least 1.5 x 10^9/L",
            "platelet count of at least 100 x 10^9/L",
            "alanine and aspartate aminotransferase no higher than 2.5 times the upper limit of normal",
            "estimated glomerular filtration rate of at least 45 mL/min/1.73 m2",
        ),
        (
            "Note: Laboratory tests may be repeated once during the screening period if a result is "
            "thought to be erroneous.",
        ),
    ),
    ("labs", "Body mass index of {bmin} to {bmax} kg/m2 inclusive at screening.", (), ()),
)
EXCLUSION = (
    ("allergy", "History of hypersensitivity to {drug} or to any of its excipients.", (), ()),
    (
        "allergy",
        "History of a severe allergic reaction to any biologic or to any drug, in the opinion of the investigator.",
        (),
        (),
    ),
    (
        "medical",
        "Active or chronic infection, including tuberculosis, hepatitis B, hepatitis C "
        "or human immunodeficiency virus infection.",
        (),
        (
            "Note: A {person} with a positive hepatitis C antibody test and undetectable hepatitis C "
            "RNA may be enrolled.",
        ),
    ),
    (
        "medical",
        "Malignancy within the 5 years before screening, except adequately treated "
        "basal cell or squamous cell carcinoma of the skin or carcinoma in situ of the cervix.",
        (),
        (),
    ),
    (
        "medical",
        "Any condition that, in the opinion of the investigator, would put the {person} "
        "at undue risk or interfere with the study assessments.",
        (),
        (),
    ),
    (
        "therapy",
        "Use of any of the following medications within {tw} weeks before randomization:",
        (
            "systemic corticosteroids at a dose above 10 mg prednisone equivalent per day",
            "strong inhibitors or inducers of cytochrome P450 3A4",
            "live or live-attenuated vaccines",
            "any other investigational product",
        ),
        ("Note: Inhaled, intranasal and topical corticosteroids are permitted.",),
    ),
    (
        "therapy",
        "Participation in another interventional clinical study within 30 days or five "
        "half-lives, whichever is longer, before the first dose of study intervention.",
        (),
        (),
    ),
    (
        "labs",
        "Any of the following laboratory abnormalities at screening:",
        (
            "haemoglobin below 9.0 g/dL",
            "total bilirubin above 1.5 times the upper limit of normal, unless due to Gilbert syndrome",
            "serum potassium above 5.5 mmol/L",
        ),
        ("Note: A single repeat test is allowed for an abnormal value.",),
    ),
    (
        "labs",
        "Fridericia-corrected QT interval above 450 ms in men or above 470 ms in women on "
        "the screening electrocardiogram.",
        (),
        (),
    ),
    (
        "other",
        "Pregnant or breastfeeding, or planning to become pregnant during the study or "
        "within {cw} weeks after the last dose.",
        (),
        ("Note: A negative serum pregnancy test is required at screening for women of childbearing potential.",),
    ),
    ("other", "History of alcohol or drug abuse in the year before screening.", (), ()),
    (
        "other",
        "Employee of the sponsor or of the study site who is directly involved in the "
        "conduct of the study, or a family member of such an employee.",
        (),
        (),
    ),
    ("other", "Major surgery within {sw} weeks before screening, or surgery planned during the study.", (), ()),
)
HEALTHY_INCLUSION = (
    (
        "population",
        "Healthy as determined by medical history, physical examination, vital "
        "signs, electrocardiogram and clinical laboratory tests at screening.",
        (),
        (),
    ),
    (
        "population",
        "Non-smoker for at least 3 months before screening, confirmed by a negative urine cotinine test.",
        (),
        (),
    ),
)
HEALTHY_EXCLUSION = (
    (
        "medical",
        "History or presence of any clinically significant cardiovascular, hepatic, "
        "renal, gastrointestinal or neurological disease.",
        (),
        (),
    ),
    (
        "therapy",
        "Use of any prescription or non-prescription medication, including herbal "
        "supplements, within 14 days before the first dose.",
        (),
        ("Note: Paracetamol up to 2 g per day is allowed until 48 hours before dosing.",),
    ),
    ("other", "Donation of more than 450 mL of blood within 3 months before the first dose.", (), ()),
)
HEADINGS = {
    "inclusion": {
        "consent": ("Signed Written Informed Consent", "Informed Consent"),
        "population": ("Target Population",),
        "age": ("Age and Reproductive Status", "Age and Sex"),
        "labs": ("Physical and Laboratory Test Findings", "Laboratory Criteria"),
    },
    "exclusion": {
        "medical": ("Medical Conditions", "Medical History and Concurrent Diseases"),
        "therapy": ("Prior/Concomitant Therapy", "Prohibited Treatments and/or Therapies"),
        "labs": ("Laboratory Test Findings", "Diagnostic Assessments"),
        "allergy": ("Allergies and Adverse Drug Reactions",),
        "other": ("Other Exclusion Criteria", "Other Exclusions"),
    },
}
INCLUSION_TITLES = (
    "Inclusion Criteria",
    "Subject Inclusion Criteria",
    "Patient Inclusion Criteria",
    "Participant Inclusion Criteria",
    "Criteria for Inclusion",
    "Inclusion Criteria for Study Entry",
)
EXCLUSION_TITLES = (
    "Exclusion Criteria",
    "Subject Exclusion Criteria",
    "Patient Exclusion Criteria",
    "Participant Exclusion Criteria",
    "Criteria for Exclusion",
    "Exclusion Criteria for Study Entry",
)
INCLUSION_INTROS = (
    "{Persons} are eligible to be included in the study only if all of the following criteria apply:",
    "{Persons} must meet all of the following criteria to be enrolled:",
    "A {person} will be eligible for inclusion in this study only if all of the following criteria are met:",
)
EXCLUSION_INTROS = (
    "{Persons} are excluded from the study if any of the following criteria apply:",
    "{Persons} meeting any of the following criteria will not be enrolled:",
    "A {person} who meets any of the following criteria will be excluded from the study:",
)
SUB_MARKERS = ("a.", "a)", "(a)", "i.", "(i)")
ROMAN = ("i", "ii", "iii", "iv", "v", "vi", "vii", "viii")

SUBGROUP_LEADS = (
    "The primary endpoint will also be analysed in subgroups defined by:",
    "Consistency of the treatment effect on the primary endpoint will be examined in "
    "subgroups defined by the following factors:",
    "Subgroup analyses of the primary endpoint will be performed for:",
)
SUBGROUP_TITLES = (
    "Subgroup Analyses",
    "Analysis of the Primary Endpoint",
    "Primary Endpoint Analysis",
    "Supportive Analyses",
)
DEFINITIONS = (
    "{title} is assessed at every scheduled visit; baseline is the last value before the first dose.",
    "Derived from the {title_l} data recorded at the visits of the treatment period.",
    "{title} is summarized by treatment group with the number and percentage of participants.",
    "Measured by the central reading centre for {title_l}, blinded to treatment.",
    "Participants with missing {title_l} data at the time point count as not meeting it.",
    "{title} as recorded in the electronic case report form and reviewed by the sponsor.",
    "Analysed with a mixed model for repeated measures for {title_l}.",
    "{title} data are collected until the end of the follow-up period.",
    "The {title_l} definition follows the current regulatory guidance.",
    "Recorded by the investigator for {title_l} at each visit.",
)


# --------------------------------------------------------------------------
# Custom blocks (subclasses, so make_protocol's checks and heights apply to them)
# --------------------------------------------------------------------------
@dataclass
class Styled(Lead):
    """A lead line in another face: italic ("heit") or bold italic ("hebi")."""

    font: str = "heit"


@dataclass
class RunOnGrid(Grid):
    """A grid that continues on the next page without repeating its caption or header."""


# --------------------------------------------------------------------------
# What a layout is made of
# --------------------------------------------------------------------------
@dataclass
class Aim:
    """An objective with its endpoints, as the generator knows it."""

    kind: str  # efficacy, safety, pk, immunogenicity, pro, biomarker, exposure
    objective: str
    fragment: str  # its text in a lead-in list
    endpoints: list[str]
    title: str  # outcome-measure title
    level: str = PRIMARY
    key: bool = False
    templates: tuple[str, ...] = ()  # endpoint templates ({tp}) to print more endpoints with

    @property
    def listable(self) -> bool:
        """Can be an item of "the effect of DRUG on each of the following:" (not a
        pharmacokinetic aim: a study of them compares no effects)."""
        return self.kind in ("efficacy", "pro", "biomarker")


@dataclass
class Composition:
    seed: int
    spec: Protocol
    study: dict
    forms: list[str]
    checks: list = field(default_factory=list)  # (grid, split expected) verified on render


# --------------------------------------------------------------------------
# Text widths: make_protocol measures every candidate line with pymupdf.get_text_length, a
# Python loop over MuPDF calls (most of the time a layout takes).  It sums the glyphs' advances
# in order and multiplies by the size; the same sum over cached advances is bit-identical, so
# it stands in for make_protocol.text_width while a layout is composed or rendered.
# --------------------------------------------------------------------------
_ADVANCE: dict[tuple[str, str], float] = {}
_SLOW_TEXT_WIDTH = mp.text_width


def fast_text_width(text: str, font: str, size: float) -> float:
    plain = "".join(c for c in text if c not in mp.WINANSI)
    if not plain.isascii():  # PyMuPDF steps through UTF-8 bytes there: leave it to it
        return _SLOW_TEXT_WIDTH(text, font, size)
    w = 0
    for ch in plain:
        adv = _ADVANCE.get((font, ch))
        if adv is None:
            adv = _ADVANCE[(font, ch)] = pymupdf.get_text_length(ch, fontname=font, fontsize=1)
        w += adv
    extra = sum(text.count(c) * em * size for c, (_, em) in mp.WINANSI.items())
    return w * size + extra


@contextlib.contextmanager
def fast_widths():
    saved = mp.text_width
    mp.text_width = fast_text_width
    try:
        yield
    finally:
        mp.text_width = saved


def cap(s: str) -> str:
    return s[:1].upper() + s[1:]


def norm(text: str) -> str:
    return " ".join(text.split())


WIDTHS = (mp.CONTENT_W, mp.CONTENT_W - mp.LIST_TEXT_INDENT, mp.CONTENT_W - mp.LIST_TEXT_INDENT - mp.SUB_INDENT)


def printable(text: str, bold: bool = False) -> bool:
    """No line of `text`, however it is set (paragraph, list item, sub-item), begins like a
    section number: a parser could take it for a heading (make_protocol refuses such lines)."""
    font = mp.BOLD_FONT if bold else mp.BODY_FONT
    for width in WIDTHS:
        if any(mp.NUMBER_LED.match(line) for line in mp.wrap(text, font, mp.BODY_SIZE, width)):
            return False
    return True


class Doc:
    """One layout being composed: the random choices, the outline and the truth."""

    def __init__(self, seed: int):
        self.seed = seed
        self.rng = random.Random(seed)
        self.forms: list[str] = []
        self.tables = 0
        self.objectives: list[dict] = []  # truth, printed order
        self.apart: list[tuple[str, str]] = []  # (level, endpoint) printed apart, in order
        self.criteria: list[dict] = []
        self.checks: list = []
        self.used: set[str] = set()

    # -- helpers -----------------------------------------------------------
    def form(self, name: str) -> None:
        assert name in FORMS, name
        if name not in self.forms:
            self.forms.append(name)

    def pick(self, seq):
        return self.rng.choice(list(seq))

    def chance(self, p: float) -> bool:
        return self.rng.random() < p

    def fill(self, template: str, **more) -> str:
        return norm(template.format(**{**self.words, **more}))

    def caption(self, title: str) -> str:
        self.tables += 1
        return f"Table {self.tables}: {title}"

    def para(self, sentences: list[str], k: tuple[int, int] = (2, 3)) -> mp.Para:
        """A paragraph of k unused sentences from `sentences` (filled), every line printable."""
        pool = [self.fill(s) for s in sentences]
        pool = [s for s in pool if s.lower() not in self.used]
        for _ in range(40):
            n = min(len(pool), self.rng.randint(*k))
            text = " ".join(sorted(self.rng.sample(pool, n), key=pool.index))
            if printable(text):
                break
        else:
            text = next(s for s in pool if printable(s))
        for s in pool:
            if s in text:
                self.used.add(s.lower())
        return P(text)

    def sentence(self, options) -> str:
        for _ in range(40):
            text = self.fill(self.pick(options))
            if printable(text) and text.lower() not in self.used:
                self.used.add(text.lower())
                return text
        raise AssertionError(f"no printable sentence among {options[:1]}")

    # -- setup ---------------------------------------------------------------
    def setup(self) -> None:
        rng = self.rng
        self.pk = self.chance(0.12)
        self.disease = self.pick(DISEASES)
        if rng.random() < 0.5:
            suffix = self.pick(SUFFIXES)
            drug = "".join(self.pick(SYLLABLES) for _ in range(rng.randint(2, 3))) + suffix
        else:
            letters = "".join(rng.choice("ABCDEFGHJKLMNPRSTVXZ") for _ in range(rng.randint(2, 3)))
            drug = f"{letters}-{rng.randint(100, 9999)}"
        self.drug = drug
        person = self.pick(("participant", "subject") if self.pk else ("participant", "subject", "patient"))
        weeks = self.pick(self.disease.weeks)
        early = [w for w in (4, 8, 12, 16, 24) if w < weeks] or [2]
        self.weeks, self.early = weeks, early
        self.phase = "1" if self.pk else self.pick(("2", "2b", "3"))
        comp = "placebo" if self.pk else self.pick(self.disease.comps)
        self.words = {
            "drug": drug,
            "Drug": cap(drug),
            "person": person,
            "Person": cap(person),
            "persons": person + "s",
            "Persons": cap(person) + "s",
            "comp": comp,
            "disease": self.disease.name,
            "pop": "healthy participants" if self.pk else self.disease.pop,
            "tp": f"Week {weeks}",
            "dur": f"{weeks} weeks",
            "period": f"the {weeks}-week treatment period",
            "amin": 18,
            "amax": self.pick((55, 65, 70, 75, 80)) if not self.pk else 55,
            "cw": self.pick((4, 12, 16, 20)),
            "tw": self.pick((2, 4, 8)),
            "sw": self.pick((4, 8, 12)),
            "bmin": "18.0",
            "bmax": "30.0" if self.pk else self.pick(("32.0", "35.0", "40.0")),
            "n": self.pick((120, 180, 240, 360, 480, 600)) if not self.pk else 48,
            "ratio": self.pick(("1:1", "2:1")),
            "strat": self.disease.strat,
            "biomarkers": self.disease.biomarkers,
            "pro": self.disease.pro,
            "pro_short": self.disease.pro_short,
            "dose": self.pick((5, 10, 20, 50, 100, 200)),
        }
        self.upper = self.chance(0.6)

    def chapter_title(self, title: str) -> str:
        if self.upper:
            return title.upper()
        small = {"and", "of", "the", "for", "in", "to"}
        return " ".join(w if w.lower() in small and i else cap(w) for i, w in enumerate(title.lower().split()))

    # -- aims ----------------------------------------------------------------
    def endpoint_text(self, template: str, week: int) -> str:
        return self.fill(template, tp=f"Week {week}")

    def efficacy_aim(self, m: Measure, level: str) -> Aim | None:
        objectives = {
            PRIMARY: (
                "To demonstrate the superiority of {drug} over {comp} in {topic} at {tp} in {pop}",
                "To evaluate the efficacy of {drug} compared with {comp} on {topic} after {dur} of treatment",
                "To assess whether {drug} is superior to {comp} with respect to {topic} in {pop}",
            ),
            SECONDARY: (
                "To evaluate the effect of {drug} on {topic}",
                "To compare {drug} with {comp} with respect to {topic}",
                "To assess the effect of {drug} compared with {comp} on {topic} over {dur}",
            ),
            EXPLORATORY: (
                "To explore the effect of {drug} on {topic}",
                "To describe {topic} during treatment with {drug}",
            ),
        }[level]
        for _ in range(20):
            obj = self.fill(self.pick(objectives), topic=m.topic)
            first = self.pick(m.endpoints)
            eps = [self.endpoint_text(first, self.weeks)]
            if "{tp}" in first:
                eps.append(self.endpoint_text(first, self.pick(self.early)))
            else:
                eps += [self.endpoint_text(t, self.weeks) for t in m.endpoints if t != first][:1]
            aim = Aim("efficacy", obj, m.frag, eps, m.title, level, templates=m.endpoints)
            if self.aim_ok(aim):
                return aim
        return None

    def aim_ok(self, aim: Aim) -> bool:
        texts = [aim.objective, aim.fragment] + aim.endpoints
        return (
            all(printable(t) for t in texts)
            and not any(t.lower() in self.used for t in texts)
            and len(set(aim.endpoints)) == len(aim.endpoints)
        )

    def other_aim(self, kind: str, level: str) -> Aim | None:
        d = self.disease
        topic0 = d.measures[0].frag
        table = {
            "safety": (
                (
                    "To evaluate the safety and tolerability of {drug} in {pop}",
                    "To assess the safety and tolerability of {drug} compared with {comp}",
                    "To characterize the safety profile of {drug} over {dur} of treatment",
                ),
                "safety and tolerability",
                "Safety",
                (
                    "Incidence of treatment-emergent adverse events and serious adverse events through {tp}",
                    "Incidence of clinically significant changes in laboratory values, vital "
                    "signs and electrocardiograms",
                    "Incidence of adverse events leading to discontinuation of study intervention",
                ),
            ),
            "pk": (
                (
                    "To characterize the pharmacokinetics of {drug} in {pop}",
                    "To describe the plasma exposure of {drug} at steady state",
                ),
                "plasma exposure to {drug}",
                "Pharmacokinetics",
                (
                    "Trough plasma concentration of {drug} at {tp}",
                    "Population pharmacokinetic estimates of the clearance and volume of distribution of {drug}",
                ),
            ),
            "immunogenicity": (
                ("To evaluate the immunogenicity of {drug}", "To assess the development of antibodies against {drug}"),
                "immunogenicity",
                "Immunogenicity",
                (
                    "Incidence of anti-drug antibodies against {drug} through {tp}",
                    "Titres of neutralizing antibodies in participants with anti-drug antibodies",
                ),
            ),
            "pro": (
                (
                    "To assess the effect of {drug} on health-related quality of life",
                    "To evaluate patient-reported quality of life with {drug} compared with {comp}",
                ),
                "health-related quality of life measured by the {pro_short}",
                "Quality of life",
                ("Change from baseline to {tp} in {pro} ({pro_short}) total score",),
            ),
            "biomarker": (
                (
                    "To explore the effect of {drug} on {biomarkers}",
                    "To investigate changes in {biomarkers} during treatment with {drug}",
                ),
                "{biomarkers}",
                "Biomarkers",
                ("Change from baseline to {tp} in {biomarkers}",),
            ),
            "exposure": (
                ("To explore the relationship between {drug} exposure and {topic0}",),
                "the exposure-response relationship for {topic0}",
                "Exposure-response",
                ("Relationship between {drug} trough concentration and change from baseline in {topic0}",),
            ),
        }[kind]
        objectives, frag, title, endpoints = table
        for _ in range(20):
            obj = self.fill(self.pick(objectives), topic0=topic0)
            n = self.rng.randint(1, len(endpoints))
            eps = [self.fill(t, topic0=topic0) for t in endpoints[:n]]
            aim = Aim(
                kind,
                obj,
                self.fill(frag, topic0=topic0),
                eps,
                title,
                level,
                templates=tuple(t.replace("{topic0}", topic0) for t in endpoints),
            )
            if self.aim_ok(aim):
                return aim
        return None

    def pk_aims(self) -> list[Aim]:
        aims = []
        for obj, frag, title, eps in self.rng.sample(PK_AIMS, len(PK_AIMS)):
            aim = Aim("pk", self.fill(obj), frag, [self.fill(e) for e in eps], title)
            if self.aim_ok(aim):
                aims.append(aim)
        return aims

    def claim(self, aim: Aim) -> Aim:
        for t in [aim.objective] + aim.endpoints:
            self.used.add(t.lower())
        return aim

    def choose_aims(self, n_primary: int, n_secondary: int, n_exploratory: int) -> list[Aim]:
        """New aims by level (primary first); the disease's first measure is the first
        primary one.  Later calls continue from what earlier calls left."""
        out: list[Aim] = []
        if self.pk:
            if not hasattr(self, "pk_pool"):
                self.pk_pool = self.pk_aims()
            for level, n in ((PRIMARY, n_primary), (SECONDARY, n_secondary), (EXPLORATORY, min(n_exploratory, 1))):
                for _ in range(n):
                    if self.pk_pool:
                        aim = self.pk_pool.pop(0)
                        aim.level = level
                        out.append(self.claim(aim))
            return out
        if not hasattr(self, "measures_left"):
            first, *rest = self.disease.measures
            self.measures_left = [first] + self.rng.sample(rest, len(rest))
            self.kinds_left = {
                SECONDARY: ["safety"] + self.rng.sample(["pk", "immunogenicity"], 2),
                EXPLORATORY: self.rng.sample(["pro", "biomarker", "exposure"], 3),
            }

        def measure(level):
            while self.measures_left:
                aim = self.efficacy_aim(self.measures_left.pop(0), level)
                if aim is not None:
                    out.append(self.claim(aim))
                    return

        def other(level):
            while self.kinds_left[level]:
                aim = self.other_aim(self.kinds_left[level].pop(0), level)
                if aim is not None:
                    out.append(self.claim(aim))
                    return
            measure(level)

        for _ in range(n_primary):
            measure(PRIMARY)
        effect = 0 if not n_secondary else max(1, n_secondary - self.rng.randint(1, 2))
        for _ in range(effect):
            measure(SECONDARY)
        for _ in range(n_secondary - effect):
            other(SECONDARY)
        for _ in range(n_exploratory):
            other(EXPLORATORY)
        return out

    # -- truth -----------------------------------------------------------------
    def objective(self, level: str, text: str, endpoints: list[str] = ()) -> dict:
        o = {"level": level, "text": norm(text), "endpoints": [{"level": level, "text": norm(e)} for e in endpoints]}
        self.objectives.append(o)
        return o

    def attach_apart(self) -> None:
        """Endpoints printed apart join the objectives by level, in order (see module doc)."""
        for level in dict.fromkeys(lv for lv, _ in self.apart):
            mine = [t for lv, t in self.apart if lv == level]
            targets = [o for o in self.objectives if o["level"] == level]
            if not targets:  # a level printed only for endpoints: the nearest earlier one
                earlier = LEVELS[: LEVELS.index(level)]
                targets = [[o for o in self.objectives if o["level"] in earlier][-1]]
            for k, text in enumerate(mine):
                o = targets[min(k, len(targets) - 1)]
                o["endpoints"].append({"level": level, "text": norm(text)})

    def truth(self) -> dict:
        return {"eligibility": self.criteria, "objectives": self.objectives}


# --------------------------------------------------------------------------
# Family 1: the objectives-and-endpoints table
# --------------------------------------------------------------------------
TABLE_COLUMNS = {
    "objectives_endpoints": (["Objectives", "Endpoints"], [200, 268]),
    "objective_endpoint": (["Objective", "Endpoint"], [200, 268]),
    "category": (["Category", "Objectives", "Endpoints"], [72, 180, 216]),
    "type": (["Type", "Objectives", "Endpoints"], [72, 180, 216]),
    "outcome_measures": (["Objectives", "Outcome Measures", "Endpoints"], [170, 96, 202]),
    "glyph": (["", "Objectives", "Endpoints"], [16, 200, 252]),
}
TABLE_PROSE = (
    "Objectives are ranked by their importance; only the primary objective determines the sample size.",
    "The treatment effect of interest is the difference between {drug} and {comp} in all "
    "randomized {persons}, whatever their adherence to study intervention.",
    "Endpoints measured at several time points are analysed at each of them, the last being the main one.",
    "Secondary objectives are tested only if the primary objective is met.",
    "Exploratory objectives are reported descriptively, without formal testing.",
    "Rescue medication use is recorded at every visit and taken into account as described in "
    "the statistical analysis plan.",
)
MARGIN = 15  # a table ends at least this far from the page's bottom, or overflows it so far


def table_rows(
    doc: Doc, levels: list[tuple[str, bool, list[Aim]]], columns: str, placement: str, bullet_single: bool, labels: dict
) -> list[list[str]]:
    rows: list[list[str]] = []
    for level, key, aims in levels:
        label = labels[(level, key)]
        if placement == "span":
            rows.append([label])
        for k, aim in enumerate(aims):
            obj = aim.objective
            if placement == "cell_every" or (placement == "cell_first" and k == 0):
                obj = f"{label}\n{obj}"
            if len(aim.endpoints) == 1 and not bullet_single:
                eps = aim.endpoints[0]
            else:
                eps = "\n".join(f"{DOT} {e}" for e in aim.endpoints)
            if columns in ("category", "type"):
                word = labels[("word", level, key)]
                cat = "" if placement == "column_blank" and k else word
                rows.append([cat, obj, eps])
            elif columns == "outcome_measures":
                rows.append([obj, aim.title, eps])
            elif columns == "glyph":
                rows.append([DOT, obj, eps])
            else:
                rows.append([obj, eps])
    return rows


def objectives_table(doc: Doc) -> list:
    """Family 1: blocks of the objectives chapter; truth from the table's rows."""
    columns = doc.pick(TABLE_COLUMNS)
    if columns in ("category", "type"):
        placement = doc.pick(("column", "column_blank"))
    elif columns == "glyph":
        placement = "span"
    else:
        placement = doc.pick(("span", "span", "cell_first", "cell_every"))
    split = doc.pick(("none", "none", "repeat", "plain"))
    if doc.pk:  # too few aims to fill a page
        split = "none"
    bullet_single = doc.chance(0.3)
    titled = doc.chance(0.7)
    names, widths = TABLE_COLUMNS[columns]
    labels = {}
    for (level, key), options in LEVEL_LABELS.items():
        label = doc.pick(options)
        if placement in ("cell_first", "cell_every") and doc.chance(0.5):
            label += ":"
        labels[(level, key)] = label
        labels[("word", level, key)] = doc.pick(CATEGORY_WORDS[(level, key)])
    key_secondary = doc.chance(0.25)
    counts = (doc.pick((1, 1, 2)), doc.rng.randint(2, 4), doc.pick((0, 1, 2, 3)))
    if split != "none":
        counts = (2, 4, 4)
    aims = doc.choose_aims(*counts)

    def levels_of(aims):
        out = []
        for level in LEVELS:
            mine = [a for a in aims if a.level == level]
            if level == SECONDARY and key_secondary and len(mine) > 1:
                out.append((level, True, mine[:1]))
                mine = mine[1:]
            if mine:
                out.append((level, False, mine))
        return out

    def rows_of(aims):
        return table_rows(doc, levels_of(aims), columns, placement, bullet_single, labels)

    def height(rows):
        g = Grid("", names, widths, rows)
        return mp.grid_row_height(g, names, True) + sum(mp.grid_row_height(g, r, False) for r in rows)

    def grow() -> bool:
        """One more endpoint for the aim with fewest (another time point of its own
        endpoint template), none getting more than four."""
        for a in sorted(aims, key=lambda a: len(a.endpoints)):
            if len(a.endpoints) >= 4:
                continue
            for t in a.templates:
                if "{tp}" not in t or not any(e.startswith(t.split("{")[0]) for e in a.endpoints):
                    continue
                for week in doc.early + [doc.weeks]:
                    e = doc.endpoint_text(t, week)
                    if e not in a.endpoints and e.lower() not in doc.used and printable(e):
                        a.endpoints.append(e)
                        doc.used.add(e.lower())
                        return True
        return False

    # The chapter opens a page: its heading, the paragraphs, the caption, then the table,
    # which breaks over the page exactly when its rows pass the bottom of the body.
    ref = (
        f"The objectives of the study and the endpoints that measure them are given in Table {doc.tables + 1}."
        if titled
        else "The study objectives and their corresponding endpoints are listed below."
    )
    doc.used.add(ref.lower())
    prose = [P(ref)]
    for _ in range(2 if split != "none" else doc.pick((0, 0, 1))):
        prose.append(doc.para(list(TABLE_PROSE), (2, 3)))
    style = mp.STUDY_STYLES[1]
    top = mp.BODY_TOP + style.leading + style.gap_after
    top += sum(len(mp.para_lines(p)) * mp.BODY_LEADING for p in prose)
    top += mp.PARA_GAP * (len(prose) - 1) + mp.TABLE_GAP
    top += mp.CAPTION_LEADING + 4 if titled else 0
    room = mp.BODY_BOTTOM - top
    rows = rows_of(aims)
    while split != "none" and height(rows) < room + MARGIN:
        if not grow():
            split = "none"  # this disease has too few time points: one page after all
        rows = rows_of(aims)
    while split == "none" and height(rows) > room - MARGIN and len(aims) > 2:
        aims.pop()
        rows = rows_of(aims)
    doc.form(f"table.columns.{columns}")
    doc.form(f"table.level.{placement}")
    doc.form(f"table.split.{split}")
    doc.form(f"table.caption.{'titled' if titled else 'none'}")
    for a in aims:
        if len(a.endpoints) > 1:
            doc.form("table.endpoints.bulleted")
        elif bullet_single:
            doc.form("table.endpoints.bullet_single")
        else:
            doc.form("table.endpoints.single")
    for level, key, mine in levels_of(aims):
        for a in mine:
            doc.objective(level, a.objective, a.endpoints)
    title = (
        doc.caption(
            doc.pick(
                ("Objectives and Endpoints", "Study Objectives and Endpoints", "Objectives and Associated Endpoints")
            )
        )
        if titled
        else ""
    )
    cls = RunOnGrid if split == "plain" else Grid
    grid = cls(title, names, widths, rows)
    doc.checks.append((grid, split != "none"))
    return prose + [grid]


# --------------------------------------------------------------------------
# Families 2 and 3: headed lists, lead-ins
# --------------------------------------------------------------------------
def level_groups(aims: list[Aim], key_level: bool) -> list[tuple[str, bool, list[Aim]]]:
    out = []
    for level in LEVELS:
        mine = [a for a in aims if a.level == level]
        effect = [a for a in mine if a.kind == "efficacy"]
        if level == SECONDARY and key_level and effect and len(mine) > 1:
            key = effect[: 1 if len(mine) == 2 else 2]
            out.append((level, True, key))
            mine = [a for a in mine if a not in key]
        if mine:
            out.append((level, False, mine))
    return out


class Items:
    """Prints objectives as bullets, numbered items or paragraphs (family 2)."""

    def __init__(self, doc: Doc, style: str, restart: bool):
        self.doc, self.style, self.restart, self.n = doc, style, restart, 0

    def new_level(self) -> None:
        if self.restart:
            self.n = 0

    def blocks(self, texts: list[str], style: str | None = None) -> list:
        style = style or self.style
        if style == "paragraphs":
            return [P(t) for t in texts]
        if style == "bullets":
            return [Listing([E(DOT, t) for t in texts])]
        entries = []
        for t in texts:
            self.n += 1
            entries.append(E(f"{self.n}.", t))
        return [Listing(entries)]


LEADINS = {
    "each_following": (
        "To investigate the effect of {drug} on each of the following:",
        "To evaluate the effect of {drug} compared with {comp} on each of the following:",
        "To assess the effect of {drug} on each of the following measures:",
    ),
    "key_secondary": (
        "Key secondary objectives are to compare {drug} with {comp} for:",
        "The key secondary objectives are to compare {drug} and {comp} with respect to:",
    ),
    "additionally": ("Additionally:", "In addition:"),
}
SUBHEADINGS = {  # unlevelled sub-headings by the kind of the objectives under them
    "efficacy": ("Efficacy", "Efficacy:", "Effect-related:", "Clinical efficacy"),
    "safety": ("Safety", "Safety:", "Safety-related:", "Safety and tolerability"),
    "pk": ("Pharmacokinetics", "Pharmacokinetic:"),
    "pro": ("Patient-reported outcomes", "Quality of life:"),
    "biomarker": ("Biomarkers", "Biomarker-related:"),
}
PERIODS = (("Period 1", "Period 2"), ("Part A", "Part B"), ("Part 1:", "Part 2:"))
SUBCLASS = {
    "efficacy": "efficacy",
    "exposure": "efficacy",
    "safety": "safety",
    "immunogenicity": "safety",
    "pk": "pk",
    "pro": "pro",
    "biomarker": "biomarker",
}


def subheading_groups(doc: Doc, aims: list[Aim]) -> list[tuple[str, list[Aim]]] | None:
    """(sub-heading, its aims) for a level: by kind, or by study period in the
    pharmacokinetic studies; None when the level's aims are all of one kind."""
    if doc.pk:
        half = (len(aims) + 1) // 2
        return list(zip(doc.pick(PERIODS), [aims[:half], aims[half:]]))
    classes = list(dict.fromkeys(SUBCLASS[a.kind] for a in aims))
    if len(classes) < 2:
        return None
    return [(doc.pick(SUBHEADINGS[c]), [a for a in aims if SUBCLASS[a.kind] == c]) for c in classes]


def level_content(
    doc: Doc, level: str, key: bool, aims: list[Aim], items: Items, leadin: str | None, subheading: str | None
) -> tuple[list, list[Aim]]:
    """Blocks of one level (after its heading or lead line) and its aims in printed order;
    the truth's objectives are recorded in that order."""
    blocks: list = []
    if leadin:
        group = [a for a in aims if a.listable]
        rest = [a for a in aims if not a.listable]
        list_style = "bullets" if items.style == "numbered" else doc.pick(("bullets", "numbered"))
        doc.form(f"leadin.{leadin}")
        doc.form(f"leadin.items.{list_style}")
        lead = P(doc.sentence(LEADINS[leadin]))
        if leadin == "additionally":  # statements, then "Additionally:" and more of them
            first, more = aims[:1], aims[1:]
            blocks += items.blocks([a.objective for a in first])
            blocks += [lead] + items.blocks([a.objective for a in more], list_style)
            order = [(a, a.objective) for a in first + more]
        else:
            blocks += [lead] + items.blocks([a.fragment for a in group], list_style)
            order = [(a, a.fragment) for a in group]
            if rest:
                other = P(
                    doc.sentence(("Other secondary objectives are:", "The other secondary objectives are:"))
                    if leadin == "key_secondary"
                    else doc.sentence(("Further objectives at this level are:", "The remaining objectives are:"))
                )
                blocks += [other] + items.blocks([a.objective for a in rest])
                order += [(a, a.objective) for a in rest]
        for a, text in order:
            doc.objective(level, text)
        return blocks, [a for a, _ in order]
    if subheading:
        groups = subheading_groups(doc, aims)
        font = doc.pick(("heit", "hebi"))
        for label, group in groups:
            if subheading == "bold":
                blocks.append(Lead(label))
            else:
                blocks.append(Styled(label, font=font))
            blocks += items.blocks([a.objective for a in group])
            for a in group:
                doc.objective(level, a.objective)
        doc.form(f"headed.subheading.{subheading}")
        return blocks, [a for _, g in groups for a in g]
    # sometimes a sentence announcing the list, in the singular however many follow ("The
    # primary objective of the study is as follows:"); its own random stream, so the layouts
    # without it are as they were
    if items.style != "paragraphs" and random.Random(f"announced {doc.seed} {level}").random() < 0.3:
        name = level.replace("_", " ")
        options = [
            f"The {name} objective of the study is as follows:",
            f"The {name} objectives of the study are as follows:",
            f"The {name} objectives of this study are:",
        ]
        random.Random(f"announced words {doc.seed} {level}").shuffle(options)
        unused = [o for o in options if o.lower() not in doc.used]  # the synopsis may print the list too
        if unused:
            doc.used.add(unused[0].lower())
            doc.form("headed.announced")
            blocks.append(P(unused[0]))
    blocks += items.blocks([a.objective for a in aims])
    for a in aims:
        doc.objective(level, a.objective)
    return blocks, list(aims)


def headed_objectives(doc: Doc, chapter: str) -> tuple[list, list[Section], list]:
    """Family 2 (+3): the objectives chapter's own blocks, its level sub-sections, and the
    groups for the endpoints printed apart: (level, key, aims)."""
    marker = doc.pick(("subsection", "lead"))
    style = doc.pick(("bullets", "numbered", "paragraphs"))
    restart = doc.chance(0.5)
    key_level = doc.chance(0.25)
    counts = (doc.pick((1, 1, 2)), doc.rng.randint(2, 4), doc.pick((0, 1, 2, 2, 3)))
    aims = doc.choose_aims(*counts)
    groups = level_groups(aims, key_level)
    doc.form(f"headed.level.{marker}")
    doc.form(f"headed.items.{style}")
    if style == "numbered":
        doc.form(f"headed.numbering.{'restart' if restart else 'continue'}")
    if any(key for _, key, _ in groups):
        doc.form("headed.key_secondary")
    items = Items(doc, style, restart)
    # Lead-ins (family 3) and sub-headings (family 2) go into levels that can take them.
    leadins: dict[int, str] = {}
    if doc.chance(0.65):
        options = []
        for k, (level, key, mine) in enumerate(groups):
            listable = [a for a in mine if a.listable]
            if len(listable) >= 2:
                options.append((k, "each_following"))
                if level == SECONDARY and not key and not key_level:
                    options.append((k, "key_secondary"))
            if len(mine) >= 2:
                options.append((k, "additionally"))
        if options:
            k, kind = doc.pick(options)
            leadins[k] = kind
    subs: dict[int, str] = {}
    if doc.chance(0.35):
        options = [
            k
            for k, (_, _, mine) in enumerate(groups)
            if len(mine) >= 2 and k not in leadins and subheading_groups(doc, mine)
        ]
        if options:
            subs[doc.pick(options)] = doc.pick(("bold", "italic"))
    own = [
        doc.para(
            [
                "The objectives of the study are described below in order of importance.",
                "This chapter lists the objectives that the study is designed to address.",
                "Objectives are grouped by their priority for the study.",
            ],
            (1, 1),
        )
    ]
    sections: list[Section] = []
    printed = []
    for k, (level, key, mine) in enumerate(groups):
        label = doc.pick(LEVEL_LABELS[(level, key)])
        if label in ("Primary", "Secondary", "Exploratory", "Key Secondary"):
            label += " Objectives" if len(mine) > 1 else " Objective"
        items.new_level()
        content, order = level_content(doc, level, key, mine, items, leadins.get(k), subs.get(k))
        printed.append((level, key, order))
        if marker == "subsection":
            sections.append(S(f"{chapter}.{len(sections) + 1}", label, *content))
        else:
            own += [Lead(label + doc.pick(("", ":")))] + content
    return own, sections, printed


# --------------------------------------------------------------------------
# Family 4: endpoints printed apart
# --------------------------------------------------------------------------
def definition_rows(doc: Doc, endpoints: list[tuple[str, str]]) -> list[list[str]]:
    templates = doc.rng.sample(DEFINITIONS, len(DEFINITIONS))
    rows = []
    for k, (title, text) in enumerate(endpoints):
        t = templates[k % len(templates)]
        low = title[:1].lower() + title[1:] if title[1:2].islower() else title
        definition = doc.fill(t, title=cap(title), title_l=low)
        if definition.lower() in doc.used:
            definition = doc.fill(t, title=f"{cap(title)} ({k + 1})", title_l=low)
        doc.used.add(definition.lower())
        rows.append([text, definition])
    return rows


def endpoints_apart(
    doc: Doc, number: str, groups: list[tuple[str, bool, str | None, list]], name: str, levels: str
) -> list[Section]:
    """Family 4: the endpoints section numbered `number` (and its level sub-sections).
    `groups`: (level, key, printed label or None for unlevelled, [(title, endpoint text)])."""
    titles, labels = APART_NAMES[name]
    title = doc.pick(titles)
    doc.form(f"apart.name.{name}")
    item_style = doc.pick(("bullets", "bullets", "numbered", "paragraphs"))
    intro = doc.para(
        [
            "The endpoints below are listed in the order of the objectives they measure.",
            "Each endpoint is summarized by treatment group at every scheduled visit.",
            "Efficacy will be measured with the variables described below.",
            "The measures that address each objective are given in this section.",
        ],
        (1, 1),
    )
    top = S(number, title, intro)
    out = [top]
    for level, _, _, eps in groups:
        for _, text in eps:
            doc.apart.append((level, text))

    def items(texts):
        if item_style == "paragraphs":
            return [P(t) for t in texts]
        if item_style == "bullets":
            return [Listing([E(DOT, t) for t in texts])]
        return [Listing([E(f"{k}.", t) for k, t in enumerate(texts, 1)])]

    if levels == "none":
        for _, _, _, eps in groups:
            top.blocks += items([t for _, t in eps])
        doc.form("apart.levels.none")
        doc.form(f"apart.items.{item_style}")
        return out
    printed = [(level, key, label or doc.pick(labels[(level, key)]), eps) for level, key, label, eps in groups]
    doc.form(f"apart.levels.{levels}")
    if not levels.startswith("table"):
        doc.form(f"apart.items.{item_style}")
    if levels == "table_span":
        rows = []
        for _, _, label, eps in printed:
            rows.append([label])
            rows += definition_rows(doc, eps)
        cap_ = (
            doc.caption(doc.pick(("Endpoints and Definitions", "Study Endpoints", "Efficacy Endpoints")))
            if doc.chance(0.6)
            else ""
        )
        top.blocks.append(Grid(cap_, ["Endpoint", "Definition"], [190, 278], rows))
        return out
    for k, (level, key, label, eps) in enumerate(printed, 1):
        if levels == "table_per_level":
            top.blocks += [Lead(label), Grid("", ["Endpoint", "Definition"], [190, 278], definition_rows(doc, eps))]
        elif levels == "lead":
            top.blocks += [Lead(label + doc.pick(("", ":")))] + items([t for _, t in eps])
        else:
            out.append(S(f"{number}.{k}", label, *items([t for _, t in eps])))
    return out


def distractor(doc: Doc, number: str) -> Section:
    """Bullets after a sentence naming the primary endpoint: subgroups, not endpoints."""
    doc.form("apart.distractor")
    factors = [
        "age (under 65 years, 65 years or older)",
        "sex",
        "geographic region",
        f"baseline {doc.disease.strat}",
        "race",
        "body mass index category",
        "prior use of the comparator class",
    ]
    chosen = [f for f in factors if f.lower() not in doc.used]
    chosen = doc.rng.sample(chosen, doc.rng.randint(3, 5))
    lead = doc.sentence(SUBGROUP_LEADS)
    return S(
        number,
        doc.pick(SUBGROUP_TITLES),
        P(lead),
        Listing([E(DOT, f) for f in chosen]),
        doc.para(
            [
                "Forest plots will display the treatment effect with its 95% confidence interval in each subgroup.",
                "Subgroups with fewer than ten participants per group will not be analysed separately.",
            ],
            (1, 1),
        ),
    )


# --------------------------------------------------------------------------
# Family 6: eligibility
# --------------------------------------------------------------------------
def sub_marker(style: str, k: int) -> str:
    letter = "abcdefghij"[k]
    return {"a.": f"{letter}.", "a)": f"{letter})", "(a)": f"({letter})", "i.": f"{ROMAN[k]}.", "(i)": f"({ROMAN[k]})"}[
        style
    ]


@dataclass
class Crit:
    group: str
    text: str
    subs: list[str]
    note: str


def criteria_pool(doc: Doc, category: str) -> list[Crit]:
    d = doc.disease
    if category == "inclusion":
        disease = HEALTHY_INCLUSION if doc.pk else [("population", t, (), ()) for t in d.inclusion]
        general = list(INCLUSION)
        if doc.pk:
            general = [g for g in general if "Body mass" in g[1] or g[0] != "labs"]
    else:
        disease = HEALTHY_EXCLUSION if doc.pk else [("medical", t, (), ()) for t in d.exclusion]
        general = list(EXCLUSION)
    out = []
    for group, text, subs, notes in list(disease) + general:
        t = doc.fill(text)
        if not printable(t) or t.lower() in doc.used:
            continue
        chosen = []
        if subs:
            n = doc.rng.randint(2, min(4, len(subs)))
            chosen = [doc.fill(s) for s in subs[:n]]
        note = doc.fill(doc.pick(notes)) if notes and doc.chance(0.5) else ""
        if any(not printable(x) for x in chosen + [note] if x):
            continue
        out.append(Crit(group, t, chosen, note))
    return out


def select_criteria(doc: Doc, category: str, headings: bool) -> list[Crit]:
    pool = criteria_pool(doc, category)
    if headings:  # lettered sub-items are whole criteria: none with items of its own
        pool = [c for c in pool if not c.subs]
    disease = [c for c in pool if c.group in ("population",)] if category == "inclusion" else []
    rest = [c for c in pool if c not in disease]
    n = doc.rng.randint(4, 7) if category == "inclusion" else doc.rng.randint(5, 9)
    take = disease + doc.rng.sample(rest, min(len(rest), max(1, n - len(disease))))
    if category == "exclusion" and not doc.pk:  # both disease exclusions lead
        lead = [c for c in pool if c.text in [doc.fill(t) for t in doc.disease.exclusion]]
        take = lead + [c for c in take if c not in lead]
    groups = list(HEADINGS[category])
    order = {g: k for k, g in enumerate(groups)}
    take.sort(key=lambda c: order.get(c.group, 0))
    for c in take:
        doc.used.add(c.text.lower())
        if c.note:
            doc.used.add(c.note.lower())
    return take


def criteria_blocks(
    doc: Doc, category: str, marker: str, sub_style: str, start: int, grouped: bool
) -> tuple[list, int]:
    """Blocks of one category's criteria; truth appended; returns the next number."""
    headings = marker == "headings"
    chosen = select_criteria(doc, category, headings)
    n = start
    blocks: list = []

    def label() -> str:
        nonlocal n
        n += 1
        return {"number_dot": f"{n}.", "number_paren": f"{n})", "headings": f"{n}.", "bullets": DOT}[marker]

    def record(e):
        doc.criteria.append(
            {"category": category, "identifier": None if e.label == DOT else e.label, "text": mp.criterion_text(e)}
        )

    if headings:
        by_group: dict[str, list[Crit]] = {}
        for c in chosen:
            by_group.setdefault(c.group, []).append(c)
        entries = []
        letter_style = doc.pick(("a)", "a."))
        colon = doc.pick((":", ":", ""))
        for group, crits in by_group.items():
            head = doc.pick(HEADINGS[category][group]) + colon
            subs = [(sub_marker(letter_style, k), c.text) for k, c in enumerate(crits)]
            note = next((c.note for c in crits if c.note), "")
            e = E(label(), head, *subs, note=note) if note else E(label(), head, *subs)
            entries.append(e)
            record(e)
            if note:
                doc.form("elig.note")
        return [Listing(entries, "criteria", category)], n
    current_group = None
    entries: list = []
    for c in chosen:
        if grouped and c.group != current_group:
            if entries:
                blocks.append(Listing(entries, "criteria", category))
                entries = []
            blocks.append(Lead(doc.pick(HEADINGS[category].get(c.group, ("Other",)))))
            current_group = c.group
        subs = [(sub_marker(sub_style, k), s) for k, s in enumerate(c.subs)]
        e = E(label(), c.text, *subs, note=c.note) if c.note else E(label(), c.text, *subs)
        entries.append(e)
        record(e)
        if c.subs:
            doc.form("elig.subs")
        if c.note:
            doc.form("elig.note")
    blocks.append(Listing(entries, "criteria", category))
    return blocks, n


def eligibility(doc: Doc, chapter: str) -> list[Section]:
    marker = doc.pick(("number_dot", "number_paren", "headings", "bullets"))
    ex_marker = marker if doc.chance(0.75) else doc.pick(("number_dot", "number_paren", "headings", "bullets"))
    sub_style = doc.pick(SUB_MARKERS)
    container = doc.pick(("subsections", "subsections", "leads"))
    grouped = doc.chance(0.2)
    cont = doc.chance(0.3) and marker == ex_marker and marker != "bullets"
    doc.form(f"elig.container.{container}")
    doc.form(f"elig.marker.{marker}")
    doc.form(f"elig.marker.{ex_marker}")
    own = [
        doc.para(
            [
                "The criteria below are checked at the screening visit and again on the "
                "day of randomization, before the first dose.",
                "{Persons} are recruited at study sites in several countries."
                if not doc.pk
                else "{Persons} are recruited from the volunteer panel of the clinical unit.",
                "No waivers of the eligibility criteria will be granted.",
                "Screening assessments must be completed within the screening window.",
            ]
        )
    ]
    inc, n = criteria_blocks(doc, "inclusion", marker, sub_style, 0, grouped and marker != "headings")
    exc, _ = criteria_blocks(
        doc, "exclusion", ex_marker, sub_style, n if cont else 0, grouped and ex_marker != "headings"
    )
    if grouped and (marker != "headings" or ex_marker != "headings"):
        doc.form("elig.groups")
    if cont:
        doc.form("elig.numbering.continue")
    inc_intro = [P(doc.sentence(INCLUSION_INTROS))] if doc.chance(0.85) else []
    exc_intro = [P(doc.sentence(EXCLUSION_INTROS))] if doc.chance(0.85) else []
    inc_title, exc_title = doc.pick(INCLUSION_TITLES), doc.pick(EXCLUSION_TITLES)
    if container == "subsections":
        return [
            S(
                chapter,
                doc.chapter_title(
                    doc.pick(("Study Population", "Selection of Study Population", "Selection of Participants"))
                ),
                *own,
            ),
            S(f"{chapter}.1", inc_title, *inc_intro, *inc),
            S(f"{chapter}.2", exc_title, *exc_intro, *exc),
        ]
    colon = doc.pick(("", ":"))
    return [
        S(chapter, doc.chapter_title(doc.pick(("Study Population", "Selection of Study Population"))), *own),
        S(
            f"{chapter}.1",
            doc.pick(("Eligibility Criteria", "Selection Criteria")),
            Lead(inc_title + colon),
            *inc_intro,
            *inc,
            Lead(exc_title + colon),
            *exc_intro,
            *exc,
        ),
    ]


# --------------------------------------------------------------------------
# Prose
# --------------------------------------------------------------------------
def intro(doc: Doc) -> list[Section]:
    d = doc.disease
    if doc.pk:
        first = [
            "{Drug} is being developed for the treatment of {disease}.",
            d.mechanism,
            "Studies in animals showed no effects of concern at exposures well above the expected clinical range.",
        ]
        second = [
            "This is the first study of {drug} in humans, and it will provide the "
            "pharmacokinetic data needed to select doses for studies in patients.",
            "Healthy volunteers are studied first so that the effects of {drug} can be "
            "seen without those of a disease or its treatments.",
        ]
    else:
        first = [
            d.burden,
            d.mechanism,
            "Current treatments for {disease} leave an unmet need for therapies that are "
            "both effective and convenient.",
        ]
        second = [
            "In earlier studies, {drug} was well tolerated at single doses up to {dose} mg in healthy volunteers.",
            "The dose and schedule chosen for this study are based on the exposure reached in the earlier studies.",
            "This study will provide the data needed to decide on further development of {drug}.",
        ]
    blocks = [doc.para(first, (2, 3)), doc.para(second, (1, 2))]
    title = doc.chapter_title(doc.pick(("Introduction", "Background and Rationale", "Introduction and Rationale")))
    return [S("1", title, *blocks)]


def design(doc: Doc, chapter: str) -> list[Section]:
    if doc.pk:
        pool = [
            "This is an open-label, single-centre study in healthy {persons} in two parts.",
            "Part A studies single ascending doses and Part B repeated once-daily doses of {drug}.",
            "{Persons} stay in the clinical unit from the day before dosing until the last "
            "pharmacokinetic sample of each period.",
            "A safety review committee decides on each next dose after reviewing the data of the previous cohort.",
        ]
    else:
        pool = [
            "This is a multicentre, randomized, double-blind, parallel-group study in {pop}.",
            "Approximately {n} {persons} will be randomized in a {ratio} ratio to {drug} or {comp}.",
            "Randomization will be stratified by region and by {strat}.",
            "After a screening period of up to four weeks, {persons} receive study "
            "intervention for {dur} and are then followed for a further eight weeks.",
            "An independent data monitoring committee will review unblinded safety data at regular intervals.",
            "Study visits take place every four weeks during treatment, with telephone contacts in between.",
        ]
    title = doc.chapter_title(doc.pick(("Study Design", "Investigational Plan", "Overall Design")))
    first = doc.para(pool[:3], (2, 3))  # what the study is first, then how it runs
    return [S(chapter, title, first, doc.para(pool[3:], (1, 2)))]


def statistics_chapter(doc: Doc, chapter: str) -> tuple[Section, list[Section]]:
    pool_size = [
        "The planned sample size gives about 90% power to detect the assumed "
        "treatment difference at a two-sided significance level of 5%.",
        "The sample size assumes a dropout rate of about 15% over the treatment period.",
        "No formal sample size calculation was made; the number of {persons} is typical for studies of this kind.",
    ]
    pool_sets = [
        "All efficacy analyses will be performed on the full analysis set, which "
        "includes all randomized {persons} who receive at least one dose.",
        "The safety analysis set includes all {persons} who receive at least one dose of study intervention.",
        "Missing data will be handled by multiple imputation under a missing-at-random assumption.",
    ]
    title = doc.chapter_title(doc.pick(("Statistical Considerations", "Statistical Methods", "Statistics")))
    top = S(
        chapter,
        title,
        doc.para(
            [
                "Statistical methods are summarized here and described in full in the statistical analysis plan.",
                "All statistical tests are two-sided.",
                "Data will be summarized by treatment group and visit.",
            ],
            (1, 2),
        ),
    )
    subs = [
        S("", doc.pick(("Sample Size Determination", "Sample Size")), doc.para(pool_size, (1, 2))),
        S("", doc.pick(("Analysis Populations", "Analysis Sets")), doc.para(pool_sets, (1, 2))),
    ]
    return top, subs


# --------------------------------------------------------------------------
# Assembly
# --------------------------------------------------------------------------
def number_subsections(chapter: str, sections: list[Section]) -> list[Section]:
    """Give sub-sections built without numbers the next numbers under `chapter`."""
    out, k, renumber = [], 0, {}
    for sec in sections:
        parts = sec.number.split(".") if sec.number else []
        if not sec.number or (len(parts) == 2 and parts[0] == chapter):
            k += 1
            renumber[sec.number] = f"{chapter}.{k}"
            out.append(Section(f"{chapter}.{k}", sec.title, sec.blocks, form=sec.form))
        else:  # deeper: follow its parent's new number
            parent = ".".join(parts[:2])
            new = renumber.get(parent, parent) + "." + ".".join(parts[2:])
            out.append(Section(new, sec.title, sec.blocks, form=sec.form))
    return out


def apart_groups(doc: Doc, groups) -> list:
    return [(level, key, None, [(a.title, a.endpoints[0])]) for level, key, aims in groups for a in aims]


def merge_groups(groups: list) -> list:
    out: list = []
    for level, key, label, eps in groups:
        if out and out[-1][:3] == (level, key, label):
            out[-1][3].extend(eps)
        else:
            out.append((level, key, label, list(eps)))
    return out


def compose(seed: int) -> Composition:
    with fast_widths():
        return _compose(seed)


def _compose(seed: int) -> Composition:
    doc = Doc(seed)
    doc.setup()
    rng = doc.rng
    outline: list[Section] = intro(doc)
    mode = doc.pick(("table", "table", "headed", "headed", "headed", "single"))
    apart_place = doc.pick(("objectives_chapter", "assessments", "statistics"))
    if doc.pk:
        apart_name = "pk_parameters"
    else:
        apart_name = doc.pick(
            ("endpoints", "study_endpoints", "efficacy_variables", "outcome_measures", "efficacy_measures")
        )
    apart_levels = doc.pick(("subsection", "subsection", "lead", "table_span", "table_per_level"))
    pending_apart = None  # (groups, levels) to print in the assessments/statistics chapter
    obj_chapter = "2"
    if mode == "table":
        blocks = objectives_table(doc)
        outline.append(
            S(
                obj_chapter,
                doc.chapter_title(
                    doc.pick(
                        ("Objectives and Endpoints", "Study Objectives and Endpoints", "Trial Objectives and Endpoints")
                    )
                ),
                *blocks,
                new_page=True,
            )
        )
    elif mode == "headed":
        own, levels, groups = headed_objectives(doc, obj_chapter)
        title = doc.pick(("Study Objectives", "Objectives", "Trial Objectives"))
        if apart_place == "objectives_chapter":
            title = doc.pick(("Objectives and Endpoints", "Study Objectives and Endpoints"))
        outline.append(S(obj_chapter, doc.chapter_title(title), *own))
        outline += levels
        groups_apart = merge_groups(apart_groups(doc, groups))
        if doc.chance(0.3) and groups_apart[-1][0] == EXPLORATORY and len(groups_apart) > 1:
            groups_apart = groups_apart[:-1]  # exploratory endpoints not printed
        if apart_place == "objectives_chapter":
            doc.form("apart.place.objectives_chapter")
            outline += endpoints_apart(doc, f"{obj_chapter}.{len(levels) + 1}", groups_apart, apart_name, apart_levels)
        else:
            pending_apart = (groups_apart, apart_levels)
    else:
        aim = doc.choose_aims(1, 0, 0)[0]
        place = doc.pick(("chapter", "subsection", "lead"))
        item = doc.pick(("paragraph", "bullet"))
        ends = doc.pick(("primary", "unlevelled", "with_secondary"))
        doc.form(f"single.place.{place}")
        doc.form(f"single.items.{item}")
        doc.form(f"single.endpoints.{ends}")
        doc.objective(PRIMARY, aim.objective)
        obj_block = P(aim.objective) if item == "paragraph" else Listing([E(DOT, aim.objective)])
        eps = [(aim.title, e) for e in aim.endpoints]
        if ends == "unlevelled":
            groups_apart = [(PRIMARY, False, None, eps)]
        else:
            groups_apart = [(PRIMARY, False, None, eps)]
            if ends == "with_secondary":
                extra = doc.choose_aims(0, 2, 0)
                groups_apart.append((SECONDARY, False, None, [(a.title, a.endpoints[0]) for a in extra]))
        levels = "none" if ends == "unlevelled" else apart_levels
        if place == "chapter":
            outline.append(S(obj_chapter, doc.chapter_title(doc.pick(("Study Objective", "Objective"))), obj_block))
            if apart_place == "objectives_chapter":
                apart_place = doc.pick(("assessments", "statistics"))
            pending_apart = (groups_apart, levels)
        elif place == "subsection":
            outline.append(
                S(
                    obj_chapter,
                    doc.chapter_title(doc.pick(("Objectives and Endpoints", "Study Objective and Endpoints"))),
                    doc.para(
                        [
                            "The study has a single objective.",
                            "The objective and the endpoints that measure it are given below.",
                        ],
                        (1, 1),
                    ),
                )
            )
            outline.append(S(f"{obj_chapter}.1", "Study Objective", obj_block))
            apart_place = "objectives_chapter"
            doc.form("apart.place.objectives_chapter")
            outline += endpoints_apart(doc, f"{obj_chapter}.2", groups_apart, apart_name, levels)
        else:
            outline.append(
                S(
                    obj_chapter,
                    doc.chapter_title(doc.pick(("Objectives and Endpoints", "Study Objective and Endpoints"))),
                    doc.para(
                        [
                            "The study has a single objective.",
                            "The objective and the endpoints that measure it are given below.",
                        ],
                        (1, 1),
                    ),
                    Lead(doc.pick(("Study Objective", "Study Objective:"))),
                    obj_block,
                )
            )
            apart_place = "objectives_chapter"
            doc.form("apart.place.objectives_chapter")
            outline += endpoints_apart(doc, f"{obj_chapter}.1", groups_apart, apart_name, levels)
    outline += design(doc, "3")
    outline += eligibility(doc, "4")
    chapter = 5
    if pending_apart and apart_place == "assessments":
        doc.form("apart.place.assessments")
        groups_apart, levels = pending_apart
        outline.append(
            S(
                str(chapter),
                doc.chapter_title(
                    doc.pick(("Efficacy and Safety Assessments", "Study Assessments", "Assessment of Efficacy"))
                ),
                doc.para(
                    [
                        "Assessments are performed at the visits shown in the schedule of activities.",
                        "Efficacy assessments are made before any other procedure of the visit.",
                        "Safety is assessed at every visit by adverse event reporting, vital "
                        "signs and laboratory tests.",
                    ],
                    (1, 2),
                ),
            )
        )
        outline += endpoints_apart(doc, f"{chapter}.1", groups_apart, apart_name, levels)
        pending_apart = None
        chapter += 1
    top, subs = statistics_chapter(doc, str(chapter))
    if pending_apart:
        doc.form("apart.place.statistics")
        groups_apart, levels = pending_apart
        subs = endpoints_apart(doc, f"{chapter}.1", groups_apart, apart_name, levels) + subs
    if doc.chance(0.5) and not doc.pk:
        subs.append(distractor(doc, ""))
    outline += [top] + number_subsections(str(chapter), subs)
    doc.attach_apart()
    number = f"{doc.pick(('SL', 'TRX', 'CPX', 'NVR', 'ABN'))}-{rng.randint(100, 999)}-{rng.randint(101, 399)}"
    if doc.pk:
        title = (
            f"A Phase 1, Open-Label Study of the Pharmacokinetics, Safety and "
            f"Tolerability of {cap(doc.drug)} in Healthy Participants"
        )
    else:
        title = (
            f"A Phase {doc.phase}, Randomized, Double-Blind, "
            f"{'Placebo' if doc.words['comp'] == 'placebo' else 'Active'}-Controlled "
            f"Study of {cap(doc.drug)} in {doc.disease.title}"
        )
    sponsor = doc.pick(SPONSORS)
    spec = Protocol(
        outline=outline,
        title=title,
        number=number,
        sponsor=sponsor,
        cover=[
            ("Protocol Number:", number),
            ("Phase:", f"Phase {doc.phase}"),
            ("Sponsor:", sponsor),
            ("Date:", f"{rng.randint(1, 28)} {doc.pick(MONTHS)} 2026"),
        ],
        running_header=(
            f"{number} Clinical Study Protocol",
            doc.pick(("Version 1.0", "Version 2.0", "Amendment 1", "Final")),
        ),
        styles=mp.STUDY_STYLES,
        chapter_breaks=doc.chance(0.5),
        cover_grid=doc.chance(0.4),
    )
    mp.check_outline(spec)
    return Composition(seed, spec, doc.truth(), list(doc.forms), doc.checks)


def layout(seed: int) -> tuple[Protocol, dict]:
    """The protocol spec of layout `seed` and the truth of its study definition.  Draw the
    spec with :func:`render` (make_protocol.build would insist on knowing beforehand where
    each criterion breaks over a page)."""
    c = compose(seed)
    return c.spec, c.study


def forms_of(seed: int) -> list[str]:
    """The names of the variations layout `seed` uses."""
    return compose(seed).forms


# --------------------------------------------------------------------------
# Rendering (make_protocol.build, with the three additions of the module doc)
# --------------------------------------------------------------------------
def place_listing(flow: mp.Flow, lst: Listing, placed: mp.Placed) -> None:
    """make_protocol.place_listing, without its promise of where pages break."""
    text_x = mp.listing_text_x(lst)
    for n, e in enumerate(lst.entries):
        lines = mp.wrap(e.text, mp.BODY_FONT, mp.BODY_SIZE, mp.RIGHT - text_x)
        flow.start_block(mp.LIST_GAP if n else mp.PARA_GAP, min(2, len(lines)) * mp.BODY_LEADING)
        pages = [flow.page_no]
        label = e.label + " "
        flow.text(
            text_x - mp.text_width(label, mp.BODY_FONT, mp.BODY_SIZE),
            flow.y,
            label + lines[0],
            mp.BODY_FONT,
            mp.BODY_SIZE,
            mp.BODY_LEADING,
        )
        flow.y += mp.BODY_LEADING
        for line in lines[1:]:
            flow.lines(text_x, [line])
            pages.append(flow.page_no)
        for marker, text in e.subs:
            sub = mp.sub_lines(text_x, marker, text)
            flow.start_block(mp.LIST_GAP, min(2, len(sub)) * mp.BODY_LEADING)
            pages.append(flow.page_no)
            sub_x = text_x + mp.SUB_INDENT
            mark = marker + " "
            flow.text(
                sub_x - mp.text_width(mark, mp.BODY_FONT, mp.BODY_SIZE),
                flow.y,
                mark + sub[0],
                mp.BODY_FONT,
                mp.BODY_SIZE,
                mp.BODY_LEADING,
            )
            flow.y += mp.BODY_LEADING
            for line in sub[1:]:
                flow.lines(sub_x, [line])
                pages.append(flow.page_no)
        if e.note:
            note = mp.wrap(e.note, mp.BODY_FONT, mp.BODY_SIZE, mp.RIGHT - text_x)
            flow.start_block(mp.LIST_GAP, min(2, len(note)) * mp.BODY_LEADING)
            for line in note:
                flow.lines(text_x, [line])
                pages.append(flow.page_no)
        placed.item_pages[id(e)] = sorted(set(pages))


def place_styled(flow: mp.Flow, line: Styled, need: float) -> None:
    flow.start_block(mp.PARA_GAP + 2, need)
    flow.lines(mp.LEFT, mp.wrap(line.text, line.font, mp.BODY_SIZE, mp.CONTENT_W), font=line.font)


def place_run_on(flow: mp.Flow, grid: RunOnGrid, need: float, placed: mp.Placed) -> None:
    """make_protocol.place_grid, continuing on the next page with no caption and no header."""
    flow.start_block(mp.TABLE_GAP, need)
    pages = [flow.page_no]
    right = grid.x0 + sum(grid.widths)

    def close() -> None:
        flow.ops.append(("line", grid.x0, flow.y, right, flow.y, 0.6, mp.TEXT_COLOR))

    if grid.title:
        mp.table_caption(flow, grid.title)
    mp.draw_grid_row(flow, grid, grid.columns, header=True)
    for k, row in enumerate(grid.rows):
        if flow.y + mp.grid_row_height(grid, row, False) > mp.BODY_BOTTOM:
            close()
            flow.new_page()
            pages.append(flow.page_no)
        mp.draw_grid_row(flow, grid, row, header=False)
        placed.item_pages[(id(grid), k)] = flow.page_no
    close()
    placed.tables.append(
        {"title": grid.title, "pages": pages, "columns": list(grid.columns), "data": [list(r) for r in grid.rows]}
    )


def layout_body(spec: Protocol, first_page: int) -> tuple[list[list], list[mp.Placed]]:
    flow = mp.Flow(first_page)
    placed = [mp.Placed() for _ in spec.outline]
    items = list(mp.flatten(spec))
    for i, (k, blk) in enumerate(items):
        need = mp.lead_height(items, i)
        info = placed[k]
        if isinstance(blk, mp.Heading):
            mp.place_heading(flow, blk, need)
            info.page = flow.page_no
        elif isinstance(blk, Styled):
            place_styled(flow, blk, need)
        elif isinstance(blk, Lead):
            mp.place_lead(flow, blk, need)
        elif isinstance(blk, mp.Para):
            mp.place_para(flow, blk, need)
        elif isinstance(blk, Listing):
            place_listing(flow, blk, info)
        elif isinstance(blk, RunOnGrid):
            place_run_on(flow, blk, need, info)
        elif isinstance(blk, Grid):
            mp.place_grid(flow, blk, need, info, mp.TABLE_GAP)
        else:
            raise TypeError(blk)
        info.last_page = flow.page_no
    return flow.pages, placed


def render(spec: Protocol, pdf_path: Path) -> tuple[int, list[mp.Placed]]:
    """Write the PDF of `spec` (title page, contents, body); (page count, placed)."""
    with fast_widths():
        return _render(spec, pdf_path)


def _render(spec: Protocol, pdf_path: Path) -> tuple[int, list[mp.Placed]]:
    mp.check_outline(spec)
    n_toc = mp.toc_page_count(spec.outline)
    body, placed = layout_body(spec, first_page=2 + n_toc)
    pages = [mp.title_page_ops(spec)] + mp.toc_pages_ops(spec.outline, placed) + body
    doc = pymupdf.open()
    for n, ops in enumerate(pages, 1):
        running = mp.running_ops(spec, n, len(pages)) if n > 1 else []
        mp.render_page(doc, running + ops, {})
    doc.set_metadata(
        {
            "title": spec.title,
            "author": spec.sponsor,
            "subject": f"Clinical Study Protocol {spec.number}",
            "keywords": "synthetic, test fixture",
            "creator": "ClinParser examples/study_layouts.py",
            "producer": "PyMuPDF",
            "creationDate": mp.FIXED_PDF_DATE,
            "modDate": mp.FIXED_PDF_DATE,
            "trapped": "",
        }
    )
    pdf_path = Path(pdf_path)
    pdf_path.parent.mkdir(parents=True, exist_ok=True)
    doc.save(pdf_path, garbage=4, deflate=True, no_new_id=True)
    doc.close()
    return len(pages), placed


def build_layout(seed: int, pdf_path: Path) -> dict:
    """Write layout `seed` to `pdf_path`; return its truth:
    {"seed", "forms", "pages", "study": {"eligibility": [...], "objectives": [...]}}."""
    c = compose(seed)
    n_pages, placed = render(c.spec, pdf_path)
    row_pages = {}
    for info in placed:
        row_pages.update(info.item_pages)
    for grid, split in c.checks:  # the table broke over a page exactly when it was meant to
        pages = {p for key, p in row_pages.items() if isinstance(key, tuple) and key[0] == id(grid)}
        assert (len(pages) > 1) == split, (seed, grid.title, pages)
    return {"seed": seed, "forms": c.forms, "pages": n_pages, "study": c.study}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True, help="output folder")
    parser.add_argument("--count", type=int, default=20, help="how many layouts (default 20)")
    parser.add_argument("--first-seed", type=int, default=0, help="first seed (default 0)")
    args = parser.parse_args(argv)
    for seed in range(args.first_seed, args.first_seed + args.count):
        pdf = args.out / f"layout_{seed:04d}.pdf"
        truth = build_layout(seed, pdf)
        mp.write_truth(truth, args.out / f"layout_{seed:04d}.truth.json")
        print(f"wrote {pdf} ({truth['pages']} pages): {', '.join(truth['forms'])}")


if __name__ == "__main__":
    main()
