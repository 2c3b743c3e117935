"""Generate a synthetic clinical-trial protocol PDF plus its exact ground truth.

The generated document is a test fixture for ClinParser: it looks like a real
protocol (title page, table of contents, running header/footer, numbered
sections, ruled tables, a vector schema, a raster figure, numbered criteria
lists and cross-references), but every word of it is invented.  Because the
generator lays out the text itself, it knows exactly which section every
paragraph, list item, table and figure belongs to and on which page each
heading is printed; that knowledge is written to a JSON "truth" file.

Usage (from the repository root)::

    python examples/make_protocol.py             # -> examples/input/
    python examples/make_protocol.py --out DIR   # -> DIR/

Both runs write ``protocol_001.pdf`` and ``protocol_001.truth.json``.  The
output is byte-for-byte deterministic (fixed metadata, no document id, no
randomness), so the PDF's hash only changes when this script changes.

Tests can call :func:`build` directly::

    truth = build(tmp_path / "protocol_001.pdf")

Only PyMuPDF is used for drawing, with the Base-14 Helvetica fonts.
"""

from __future__ import annotations

import argparse
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator, Union

import pymupdf

# --------------------------------------------------------------------------
# Page geometry (US Letter, points, origin top-left as in PyMuPDF)
# --------------------------------------------------------------------------
PAGE_W, PAGE_H = 612, 792
LEFT, RIGHT = 72, 540
CONTENT_W = RIGHT - LEFT
BODY_TOP, BODY_BOTTOM = 72, 720  # body text never leaves this band

HEADER_BASELINE, HEADER_RULE = 40, 47  # running header lives in y < 50
FOOTER_RULE, FOOTER_BASELINE = 748, 762  # running footer lives in y > 742

BODY_FONT, BOLD_FONT = "helv", "hebo"
BODY_SIZE, BODY_LEADING = 10, 13
TEXT_COLOR = (0, 0, 0)
MUTED_COLOR = (0.3, 0.3, 0.3)

RUNNING_HEADER = ["CP-001 Clinical Study Protocol", "Version 2.0"]
FOOTER_LEFT = "Confidential"
PAGE_LABEL = "Page {n} of {N}"

# Fixed PDF dates keep the output reproducible.
FIXED_PDF_DATE = "D:20260101000000Z"

PROTOCOL_TITLE = (
    "A Phase 2, Randomized, Double-Blind, Placebo-Controlled Study to Evaluate "
    "the Efficacy and Safety of EXP-4170 in Adult Participants with Moderate "
    "to Severe Atopic Dermatitis"
)
PROTOCOL_NUMBER = "CP-001"
SPONSOR = "Example Pharma Inc."


@dataclass(frozen=True)
class HeadingStyle:
    font: str
    size: float
    leading: float
    gap_before: float  # vertical space above the heading (dropped at page top)
    gap_after: float


# Level 4 deliberately uses the plain body font: an "unstyled" heading that a
# parser can only recognise by its numbering.
HEADING_STYLES = {
    1: HeadingStyle(BOLD_FONT, 14, 18, 0, 8),
    2: HeadingStyle(BOLD_FONT, 12, 16, 10, 4),
    3: HeadingStyle(BOLD_FONT, 11, 15, 8, 3),
    4: HeadingStyle(BODY_FONT, 10, 13, 6, 2),
}

PARA_GAP = 6  # space between paragraphs
LIST_GAP = 3  # space between list items
LIST_TEXT_INDENT = 30  # hanging indent of list item text
TABLE_GAP, FIGURE_GAP = 10, 12
CAPTION_FONT, CAPTION_SIZE, CAPTION_LEADING = BOLD_FONT, 10, 14
CELL_PAD = 3
HEADER_FILL = (0.86, 0.89, 0.94)


# --------------------------------------------------------------------------
# Content model
# --------------------------------------------------------------------------
@dataclass
class Para:
    text: str


@dataclass
class NumberedList:
    items: list[str]  # item text without the "1." prefix

    def labelled(self) -> list[str]:
        return [f"{i}. {item}" for i, item in enumerate(self.items, 1)]


@dataclass
class Table:
    title: str
    columns: list[str]
    widths: list[float]  # column widths in points, must sum to CONTENT_W
    rows: list[list[str]]
    font_size: float = 9
    # The fixture promises how many pages each table spans (the SoA must be
    # split once); layout fails loudly if an edit to the text changes that.
    expect_pages: int = 1
    center_values: bool = False  # centre all columns but the first (SoA "X")


@dataclass
class Figure:
    title: str
    kind: str  # "vector" or "raster"
    width: float
    height: float


Block = Union[Para, NumberedList, Table, Figure]


@dataclass
class Section:
    number: str
    title: str
    blocks: list[Block]

    @property
    def level(self) -> int:
        return self.number.count(".") + 1

    @property
    def heading(self) -> str:
        return f"{self.number} {self.title}"


@dataclass
class Heading:
    """Layout-only block: the heading line that opens a section."""

    section: Section


def S(number: str, title: str, *blocks: Block) -> Section:
    return Section(number, title, list(blocks))


def P(text: str) -> Para:
    return Para(" ".join(text.split()))


# --------------------------------------------------------------------------
# Document text (entirely invented)
# --------------------------------------------------------------------------
SOA_COLUMNS = ["Procedure", "Screening", "Day 1", "Week 2", "Week 4",
               "Week 8", "Week 12", "End of Study"]
SOA_WIDTHS = [146] + [46] * 7

# One mask character per visit column: "X" = performed, "." = not performed.
SOA_MASKS = [
    ("Informed consent", "X......"),
    ("Eligibility criteria review", "XX....."),
    ("Demographics", "X......"),
    ("Medical history", "X......"),
    ("Prior and concomitant medication review", "XXXXXXX"),
    ("Complete physical examination", "X....XX"),
    ("Targeted physical examination", ".XXXX.."),
    ("Height", "X......"),
    ("Weight", "X....XX"),
    ("Vital signs", "XXXXXXX"),
    ("12-lead ECG", "XX...XX"),
    ("Hematology", "XXXXXXX"),
    ("Serum chemistry", "XXXXXXX"),
    ("Coagulation panel", "X....X."),
    ("Urinalysis", "XX.X.XX"),
    ("Serum pregnancy test", "X......"),
    ("Urine pregnancy test", ".XXXXXX"),
    ("HBV, HCV, and HIV serology", "X......"),
    ("Tuberculosis test (IGRA)", "X......"),
    ("Randomization", ".X....."),
    ("Study intervention administration", ".XXXX.."),
    ("Drug accountability", ".XXXXX."),
    ("Injection site assessment", ".XXXX.."),
    ("PK blood sample", ".XXXXXX"),
    ("Anti-drug antibody sample", ".X.X.XX"),
    ("Serum biomarker sample", ".X.X.X."),
    ("Skin biopsy (optional)", ".X...X."),
    ("DSI assessment", "XXXXXXX"),
    ("IGA assessment", "XXXXXXX"),
    ("Body surface area assessment", "XX..XX."),
    ("Electronic diary training", "X......"),
    ("Electronic diary review", ".XXXXXX"),
    ("Sleep disturbance questionnaire", ".XXXXXX"),
    ("Quality of life questionnaire", ".X.X.XX"),
    ("Lesion photography (selected sites)", ".X...X."),
    ("Genetic sample (optional)", ".X....."),
    ("Contraception counseling", "XXXXXXX"),
    ("Depression screening questionnaire", "X....XX"),
    ("Rescue medication review", ".XXXXXX"),
    ("Adverse event review", "XXXXXXX"),
    ("Serious adverse event review", "XXXXXXX"),
]


def soa_rows() -> list[list[str]]:
    # A first row with visit days makes the grid look like a real SoA.
    rows = [["Visit day (window)", "-28 to -1", "1", "15 +/- 3", "29 +/- 3",
             "57 +/- 3", "85 +/- 3", "113 +/- 3"]]
    for name, mask in SOA_MASKS:
        rows.append([name] + ["X" if m == "X" else "" for m in mask])
    return rows


OUTLINE: list[Section] = [
    S("1", "PROTOCOL SUMMARY",
      P("""This section provides a concise overview of the study design, the
        planned population, and the schedule of procedures. Where the summary
        and the detailed sections of this protocol differ, the detailed
        sections take precedence.""")),
    S("1.1", "Synopsis",
      P("""Study CP-001 is a Phase 2, multicenter, randomized, double-blind,
        placebo-controlled study of EXP-4170 in adults with moderate to severe
        atopic dermatitis. Approximately 120 participants will be randomized in
        a 2:1 ratio to receive EXP-4170 or matching placebo. Randomization will
        be stratified by baseline disease severity and by geographic
        region."""),
      P("""The primary objective is to compare the proportion of participants
        achieving at least a 75% improvement in the Dermatitis Severity Index
        (DSI-75) at Week 12 between the two treatment groups. Key secondary
        objectives address itch intensity, sleep disturbance, and the safety
        profile of repeated subcutaneous dosing. The timing of all assessments
        is presented in Section 1.3."""),
      P("""Each participant will take part for up to 20 weeks, comprising a
        screening period of up to 28 days, a 12-week treatment period, and a
        4-week safety follow-up period. Study intervention will be administered
        every 2 weeks at the study site by qualified personnel."""),
      P("""The study population consists of adults aged 18 to 75 years whose
        disease has not been adequately controlled with topical treatment.
        Participants must have a DSI score of 16 or higher and lesions covering
        at least 10% of body surface area at baseline."""),
      P("""An independent data monitoring committee will review unblinded
        safety data at regular intervals during the treatment period. The
        committee may recommend modification or early termination of the study
        if an unacceptable safety signal emerges."""),
      P("""Efficacy will be assessed at every scheduled visit by blinded
        investigators using the DSI and the Investigator Global Assessment.
        Participants will complete itch and sleep diaries on an electronic
        device throughout the treatment period.""")),
    S("1.2", "Schema",
      P("""The overall flow of participants through the study periods is
        illustrated in Figure 1. Participants who discontinue study
        intervention early are encouraged to remain in the study and complete
        the follow-up visits."""),
      Figure("Figure 1: Study Schema", "vector", CONTENT_W, 150)),
    S("1.3", "Schedule of Activities",
      P("""Table 1 lists the procedures to be performed at each scheduled visit.
        A visit window of plus or minus 3 days applies to all visits after Day 1
        unless otherwise specified. Unscheduled visits may be conducted at any
        time at the discretion of the investigator."""),
      Table("Table 1: Schedule of Activities", SOA_COLUMNS, SOA_WIDTHS,
            soa_rows(), font_size=8, expect_pages=2, center_values=True),
      P("""Dosing visits at Weeks 6 and 10 follow the procedures of the Week 4
        visit and are not shown separately. Abbreviations used in Table 1 are
        defined in Section 10.1, and the laboratory analytes for each panel are
        listed in Section 10.2.""")),
    S("2", "INTRODUCTION",
      P("""EXP-4170 is a fully humanized immunoglobulin G1 monoclonal antibody
        that binds with high affinity to the alpha subunit of the
        interleukin-47 receptor. Blocking this receptor interrupts a signaling
        pathway that is thought to sustain type 2 inflammation in the
        skin.""")),
    S("2.1", "Study Rationale",
      P("""Despite the availability of topical therapies and several systemic
        agents, many adults with atopic dermatitis continue to experience
        uncontrolled disease and persistent itch. An agent with a distinct
        mechanism of action and an infrequent dosing schedule could address an
        important unmet medical need. The present study is designed to
        establish proof of efficacy and to select a dose regimen for Phase 3
        development.""")),
    S("2.2", "Background",
      P("""Atopic dermatitis is a chronic, relapsing inflammatory skin disease
        characterized by eczematous lesions, dry skin, and intense pruritus.
        The condition affects an estimated 2% to 7% of adults and is frequently
        associated with asthma, allergic rhinitis, and food allergy. Moderate
        to severe disease has a substantial impact on sleep, work productivity,
        and mental health."""),
      P("""Overexpression of interleukin-47 has been observed in lesional skin
        biopsies from affected patients when compared with samples from healthy
        volunteers. Levels of the cytokine correlate with clinical severity
        scores in several independent cohorts.""")),
    S("2.2.1", "Nonclinical Studies",
      P("""The nonclinical program for EXP-4170 included in vitro binding
        studies, pharmacology studies in transgenic mouse models, and
        repeat-dose toxicology studies in cynomolgus monkeys. No adverse
        findings were identified at exposures up to 30 times the anticipated
        clinical exposure at the highest planned dose.""")),
    S("2.2.1.1", "Prior Phase 1 Data",
      P("""A first-in-human study enrolled 48 healthy volunteers who received
        single ascending doses of EXP-4170 ranging from 10 mg to 600 mg. The
        most frequently reported adverse events were mild injection site
        reactions and headache, none of which led to withdrawal. No clinically
        meaningful changes in laboratory values, vital signs, or
        electrocardiograms were detected.""")),
    S("2.2.1.2", "Pharmacokinetics",
      P("""Following subcutaneous administration, EXP-4170 reached maximum serum
        concentrations between 4 and 7 days after dosing. Exposure increased in
        an approximately dose-proportional manner across the tested range, and
        the mean terminal half-life was close to 21 days. These properties
        support a dosing interval of 2 weeks in the present study.""")),
    S("2.3", "Benefit-Risk Assessment",
      P("""Participants randomized to EXP-4170 may experience an improvement in
        the signs and symptoms of their disease, although this benefit has not
        yet been demonstrated. Potential risks include hypersensitivity
        reactions, injection site reactions, and an increased susceptibility to
        certain infections."""),
      P("""The risks will be minimized through careful selection of
        participants, frequent safety monitoring, and predefined rules for
        interrupting treatment. Taking these measures into account, the
        anticipated benefits are considered to justify the potential risks for
        participants in this study.""")),
    S("3", "OBJECTIVES AND ENDPOINTS",
      P("""The objectives of the study and the corresponding endpoints are
        summarized in Table 2. All endpoints will be assessed in the full
        analysis set unless otherwise stated in Section 9.2."""),
      Table("Table 2: Objectives and Endpoints", ["Objectives", "Endpoints"],
            [214, 254], [
                ["Primary: To evaluate the efficacy of EXP-4170 compared with "
                 "placebo in reducing disease severity",
                 "Proportion of participants achieving DSI-75 at Week 12"],
                ["Secondary: To assess the effect of EXP-4170 on itch and "
                 "sleep quality",
                 "Change from baseline to Week 12 in the weekly average of "
                 "daily peak itch scores and in the sleep disturbance score"],
                ["Safety: To characterize the safety and tolerability of "
                 "EXP-4170",
                 "Incidence of treatment-emergent adverse events and serious "
                 "adverse events through the end of the study"],
            ]),
      P("""Exploratory biomarker and pharmacokinetic endpoints are described in
        a separate analysis plan and are not listed here.""")),
    S("4", "STUDY DESIGN",
      P("""This section describes the structure of the study, the justification
        for the chosen design, and the criteria that define its
        conclusion.""")),
    S("4.1", "Overall Design",
      P("""After providing written informed consent, participants will enter a
        screening period lasting up to 28 days. Eligible participants will be
        randomized on Day 1 and will receive their first dose of study
        intervention at the site under observation. Subsequent doses will be
        administered at Weeks 2, 4, 6, 8, and 10."""),
      Figure("Figure 2: Dosing Timeline", "raster", 325, 130),
      P("""The dosing timeline in Figure 2 shows the six treatment
        administrations followed by the safety follow-up period. Participants
        will remain at the site for at least 60 minutes after each of the first
        three injections.""")),
    S("4.2", "Scientific Rationale for Study Design",
      P("""A placebo control is necessary to obtain an unbiased estimate of the
        treatment effect, because the signs of atopic dermatitis fluctuate
        spontaneously over time. The 12-week treatment duration is consistent
        with the period over which other biologic agents have shown a clear
        separation from placebo. Limited use of low-potency topical
        corticosteroids as rescue therapy is permitted to reduce the risk of
        severe flares in the placebo group.""")),
    S("4.3", "End of Study Definition",
      P("""A participant is considered to have completed the study if he or she
        has completed all periods, including the last scheduled follow-up
        visit. The end of the study is defined as the date of the last visit of
        the last participant in the study globally.""")),
    S("5", "STUDY POPULATION",
      P("""Prospective approval of protocol deviations to recruitment and
        enrollment criteria, also known as protocol waivers or exemptions, is
        not permitted.""")),
    S("5.1", "Inclusion Criteria",
      P("""Participants are eligible to be included in the study only if all of
        the following criteria apply:"""),
      NumberedList([
          "Participant is 18 to 75 years of age inclusive at the time of "
          "signing the informed consent form.",
          "Participant has a diagnosis of atopic dermatitis for at least 12 "
          "months before screening, confirmed by the investigator.",
          "Participant has a DSI score of 16 or higher and an Investigator "
          "Global Assessment score of 3 or 4 at screening and on Day 1.",
          "Participant has atopic dermatitis involvement of at least 10% of "
          "body surface area at screening and at baseline.",
          "Participant has a documented history of inadequate response to "
          "topical medications within 6 months before screening, or topical "
          "treatments are otherwise medically inadvisable.",
          "Participant is capable of giving signed informed consent and is "
          "willing to comply with all study procedures and restrictions.",
      ])),
    S("5.2", "Exclusion Criteria",
      P("""Participants are excluded from the study if any of the following
        criteria apply:"""),
      NumberedList([
          "Participant has an active chronic or acute skin infection requiring "
          "systemic treatment within 4 weeks before Day 1.",
          "Participant has a known history of human immunodeficiency virus "
          "infection or a positive test for hepatitis B surface antigen or "
          "hepatitis C antibody at screening.",
          "Participant has received a biologic therapy targeting type 2 "
          "inflammation within 5 half-lives or 16 weeks before Day 1, "
          "whichever is longer.",
          "Participant has used systemic immunosuppressive drugs, such as "
          "cyclosporine or methotrexate, within 4 weeks before Day 1.",
          "Participant has a history of malignancy within 5 years, except for "
          "adequately treated basal cell carcinoma of the skin.",
          "Participant has a clinically significant abnormal laboratory value "
          "at screening that, in the opinion of the investigator, would "
          "jeopardize participant safety.",
          "Participant is pregnant, breastfeeding, or planning to become "
          "pregnant during the study.",
          "Participant has participated in another interventional clinical "
          "study within 30 days or 5 half-lives of the investigational product "
          "before screening.",
      ])),
    S("5.3", "Screen Failures",
      P("""Screen failures are defined as participants who consent to take part
        in the study but are not subsequently randomized. A minimal set of
        screen failure information is required to ensure transparent reporting
        of participant flow. Individuals who do not meet the criteria for
        participation may be rescreened once, provided that the reason for
        failure was transient.""")),
    S("6", "STUDY INTERVENTION",
      P("""Study intervention is defined as any investigational product or
        placebo intended to be administered to a participant according to this
        protocol.""")),
    S("6.1", "Study Intervention Administered",
      P("""EXP-4170 will be supplied as a sterile solution in a single-use
        prefilled syringe containing 200 mg in 1.0 mL. Placebo will be supplied
        in identical prefilled syringes containing the same formulation without
        the active ingredient. Each dose will be injected subcutaneously into
        the abdomen, upper arm, or thigh, with rotation of the injection site
        at each visit."""),
      P("""The study intervention must be stored refrigerated at 2 to 8 degrees
        Celsius and protected from light until use. The site pharmacist or a
        designee is responsible for maintaining accurate records of receipt,
        storage, and dispensing.""")),
    S("6.2", "Dose Modification",
      P("""Dose reduction of EXP-4170 is not permitted in this study. Dosing may
        be interrupted for up to 4 weeks in the event of an intercurrent
        illness or a suspected treatment-related adverse event, in consultation
        with the medical monitor."""),
      P("""Before resuming treatment, the investigator must confirm that the
        participant still meets the safety-related eligibility criteria; see
        Section 5.2 for the relevant exclusion criteria. Disease activity at
        the time of resumption should be documented using the DSI as described
        in Section 8.1. Participants who require an interruption of more than
        4 weeks must permanently discontinue study intervention according to
        Section 7.1.""")),
    S("7", "DISCONTINUATION OF STUDY INTERVENTION",
      P("""Discontinuation of study intervention does not represent withdrawal
        from the study. Every effort should be made to retain participants in
        follow-up so that information on efficacy and safety can be
        collected.""")),
    S("7.1", "Discontinuation of Study Intervention",
      P("""Study intervention must be permanently discontinued if a participant
        develops anaphylaxis or another severe hypersensitivity reaction
        attributed to the study intervention. Discontinuation is also required
        in the event of pregnancy, a serious opportunistic infection, or the
        diagnosis of a malignancy."""),
      P("""The reason for discontinuation and the date of the last dose must be
        recorded in the electronic case report form. Participants who
        discontinue study intervention should complete the End of Study visit
        procedures 4 weeks after their last dose.""")),
    S("8", "STUDY ASSESSMENTS AND PROCEDURES",
      P("""Study procedures and their timing are summarized in the Schedule of
        Activities in Section 1.3. Immediate safety concerns should be
        discussed with the sponsor as soon as they occur so that appropriate
        measures can be taken.""")),
    S("8.1", "Efficacy Assessments",
      P("""The DSI is a composite clinician-reported score that rates the
        extent and severity of erythema, induration, excoriation, and
        lichenification in four body regions. Total scores range from 0 to 72,
        with higher values indicating more severe disease. The same trained
        assessor should perform the DSI evaluation for a given participant
        throughout the study whenever possible."""),
      P("""Participants will record their worst itch over the previous 24 hours
        each evening on an 11-point numeric rating scale using an electronic
        diary. Sleep disturbance will be captured weekly through a short
        questionnaire completed in the diary.""")),
    S("8.2", "Safety Assessments",
      P("""Planned time points for all safety assessments are provided in the
        Schedule of Activities. Adverse events will be collected from the
        signing of the informed consent form until the final follow-up
        visit.""")),
    S("8.2.1", "Vital Signs",
      P("""Body temperature, pulse rate, respiratory rate, and blood pressure
        will be measured after the participant has rested for at least 5
        minutes in a seated position. On dosing days, vital signs will be
        obtained before the injection and again 30 minutes after it.""")),
    S("8.2.2", "Clinical Laboratory Tests",
      P("""Blood and urine samples for safety laboratory tests will be collected
        at the visits indicated in Table 1 and analyzed by a central
        laboratory. The investigator must review each laboratory report,
        document the review, and record any clinically relevant changes as
        adverse events. The full list of required tests is provided in
        Section 10.2.""")),
    S("9", "STATISTICAL CONSIDERATIONS",
      P("""A statistical analysis plan will be finalized before database lock
        and will describe the analyses in greater detail than this
        section.""")),
    S("9.1", "Sample Size Determination",
      P("""A sample size of 120 participants, with 80 assigned to EXP-4170 and
        40 to placebo, provides approximately 90% power to detect a difference
        in DSI-75 response rates of 30% versus 8%. This calculation assumes a
        two-sided significance level of 0.05 and uses a chi-square test."""),
      P("""The assumed placebo response rate is based on data from comparable
        trials in a similar population. No adjustment for dropout has been made
        because participants who discontinue early will be counted as
        non-responders.""")),
    S("9.2", "Analysis Populations",
      P("""The full analysis set includes all randomized participants who
        received at least one dose of study intervention, analyzed according to
        the treatment to which they were randomized. The safety analysis set
        includes all participants who received at least one dose, analyzed
        according to the treatment actually received. The per-protocol set
        excludes participants with important protocol deviations that could
        affect the primary endpoint.""")),
    S("10", "SUPPORTING DOCUMENTATION",
      P("""The appendices in this section provide supporting information that
        is referenced throughout the protocol.""")),
    S("10.1", "Appendix 1: Abbreviations",
      P("""The abbreviations and specialist terms used in this protocol are
        defined in the following table."""),
      Table("Table 3: Abbreviations", ["Abbreviation", "Definition"],
            [110, 358], [
                ["ADA", "anti-drug antibody"],
                ["AE", "adverse event"],
                ["DSI", "Dermatitis Severity Index"],
                ["ECG", "electrocardiogram"],
                ["eCRF", "electronic case report form"],
                ["IGA", "Investigator Global Assessment"],
                ["IGRA", "interferon-gamma release assay"],
                ["PK", "pharmacokinetic(s)"],
                ["Q2W", "every 2 weeks"],
                ["SAE", "serious adverse event"],
            ])),
    S("10.2", "Appendix 2: Clinical Laboratory Tests",
      P("""The hematology panel includes hemoglobin, hematocrit, red blood cell
        count, white blood cell count with differential, and platelet count.
        The chemistry panel includes sodium, potassium, creatinine, blood urea
        nitrogen, glucose, total bilirubin, alanine aminotransferase, aspartate
        aminotransferase, and alkaline phosphatase."""),
      P("""Routine urinalysis will be performed by dipstick, with microscopic
        examination only if the dipstick result is abnormal. Serum pregnancy
        testing is required at screening for participants of childbearing
        potential, followed by urine testing at each dosing visit.""")),
]

REFERENCE_RE = re.compile(r"\bSection (\d+(?:\.\d+)*)")


def section_text(sec: Section) -> list[str]:
    """All prose strings owned by a section (not its subsections)."""
    out: list[str] = []
    for b in sec.blocks:
        if isinstance(b, Para):
            out.append(b.text)
        elif isinstance(b, NumberedList):
            out.extend(b.labelled())
        elif isinstance(b, Table):
            out.extend(cell for row in b.rows for cell in row)
    return out


def references_of(sec: Section) -> list[str]:
    refs: list[str] = []
    for text in section_text(sec):
        for ref in REFERENCE_RE.findall(text):
            if ref not in refs:
                refs.append(ref)
    return refs


def check_outline(outline: list[Section]) -> None:
    """Guard the properties the truth file promises (fail loudly if edited)."""
    numbers = [s.number for s in outline]
    assert len(set(numbers)) == len(numbers), "duplicate section numbers"
    seen: dict[str, str] = {}
    for sec in outline:
        assert sec.blocks, f"section {sec.number} has no body"
        assert sec.level in HEADING_STYLES, sec.number
        for ref in references_of(sec):
            assert ref in numbers, f"{sec.number} refers to missing {ref}"
        for b in sec.blocks:
            if isinstance(b, Table):
                assert abs(sum(b.widths) - CONTENT_W) < 0.01, b.title
                assert all(len(r) == len(b.columns) for r in b.rows), b.title
        # Sentences must be unique so tests can locate each in one section.
        for text in section_text(sec):
            if len(text.split()) < 4:  # table cells like "X", "ECG"
                continue
            for sentence in re.split(r"(?<=[.:])\s+(?=[A-Z])", text):
                key = sentence.strip().lower()
                if len(key.split()) < 3:  # the "1." label of a list item
                    continue
                assert key not in seen, f"sentence repeated: {sentence!r}"
                seen[key] = sec.number


# --------------------------------------------------------------------------
# Text measuring
# --------------------------------------------------------------------------
def text_width(text: str, font: str, size: float) -> float:
    return pymupdf.get_text_length(text, fontname=font, fontsize=size)


def _wrap_tokens(text: str) -> list[str]:
    """Split at spaces, but keep "Section 5.2" together: a wrapped line that
    began with a bare "5.2" would look like a section heading."""
    tokens: list[str] = []
    for word in text.split(" "):
        if tokens and tokens[-1] == "Section":
            tokens[-1] += " " + word
        else:
            tokens.append(word)
    return tokens


def wrap(text: str, font: str, size: float, width: float) -> list[str]:
    """Greedy word wrap; only breaks at spaces so joining with ' ' restores
    the original text exactly."""
    lines: list[str] = []
    current = ""
    for word in _wrap_tokens(text):
        candidate = f"{current} {word}" if current else word
        if current and text_width(candidate, font, size) > width:
            lines.append(current)
            current = word
        else:
            current = candidate
    if current:
        lines.append(current)
    # A single word wider than the box would spill out of its cell or box.
    for line in lines:
        assert text_width(line, font, size) <= width + 0.01, line
    return lines


def baseline(top: float, size: float, leading: float) -> float:
    """Baseline that vertically centres a line of `size` in a `leading` box."""
    return top + (leading - size) / 2 + 0.8 * size


# --------------------------------------------------------------------------
# Layout: pages are lists of drawing ops, rendered later in one go
# --------------------------------------------------------------------------
# Ops are plain tuples so a page's content can be inspected before rendering:
#   ("text", x, y_baseline, text, font, size, color)
#   ("line", x0, y0, x1, y1, width, color)
#   ("rect", x0, y0, x1, y1, stroke_color, fill_color, width)
#   ("poly", [(x, y), ...], fill_color)
#   ("image", (x0, y0, x1, y1), name)
Op = tuple


class Flow:
    """A cursor that flows blocks down the body area of successive pages."""

    def __init__(self, first_page: int):
        self.first_page = first_page  # physical number of the first page
        self.pages: list[list[Op]] = [[]]
        self.y = BODY_TOP
        self.after_heading = False

    @property
    def page_no(self) -> int:
        return self.first_page + len(self.pages) - 1

    @property
    def ops(self) -> list[Op]:
        return self.pages[-1]

    def new_page(self) -> None:
        self.pages.append([])
        self.y = BODY_TOP

    def start_block(self, gap: float, need: float) -> None:
        """Add the gap above a block (not at a page top and not directly
        below its heading) and break the page if `need` points do not fit."""
        if self.y > BODY_TOP and not self.after_heading:
            self.y += gap
        self.after_heading = False
        if self.y + need > BODY_BOTTOM:
            self.new_page()

    def text(self, x: float, top: float, text: str, font: str, size: float,
             leading: float, color=TEXT_COLOR) -> None:
        self.ops.append(("text", x, baseline(top, size, leading), text, font,
                         size, color))

    def lines(self, x: float, lines: list[str], font=BODY_FONT,
              size=BODY_SIZE, leading=BODY_LEADING) -> None:
        """Place wrapped lines, continuing on the next page when full."""
        for line in lines:
            if self.y + leading > BODY_BOTTOM:
                self.new_page()
            self.text(x, self.y, line, font, size, leading)
            self.y += leading

    def centered(self, text: str, font: str, size: float, leading: float):
        x = LEFT + (CONTENT_W - text_width(text, font, size)) / 2
        self.text(x, self.y, text, font, size, leading)
        self.y += leading


@dataclass
class Placed:
    """What the layout learned about one section (feeds the truth file)."""

    page: int = 0
    tables: list[dict] = field(default_factory=list)
    images: list[dict] = field(default_factory=list)


def para_lines(p: Para) -> list[str]:
    return wrap(p.text, BODY_FONT, BODY_SIZE, CONTENT_W)


def item_lines(item: str) -> list[str]:
    return wrap(item, BODY_FONT, BODY_SIZE, CONTENT_W - LIST_TEXT_INDENT)


def cell_lines(table: Table, text: str, col: int, header: bool) -> list[str]:
    font = BOLD_FONT if header else BODY_FONT
    return wrap(text, font, table.font_size, table.widths[col] - 2 * CELL_PAD)


def cell_leading(table: Table) -> float:
    return table.font_size * 1.25


def row_height(table: Table, row: list[str], header: bool) -> float:
    n = max(len(cell_lines(table, c, i, header)) for i, c in enumerate(row))
    return n * cell_leading(table) + 2 * CELL_PAD


def lead_height(items: list, i: int) -> float:
    """Height that must fit on the current page for block i to start there.

    Headings chain to the following block, which keeps every heading
    together with at least two lines of its body (no stranded headings)."""
    blk = items[i][1]
    if isinstance(blk, Heading):
        st = HEADING_STYLES[blk.section.level]
        rest = lead_height(items, i + 1) if i + 1 < len(items) else 0
        return st.leading + st.gap_after + rest
    if isinstance(blk, Para):
        return min(2, len(para_lines(blk))) * BODY_LEADING
    if isinstance(blk, NumberedList):
        return min(2, len(item_lines(blk.items[0]))) * BODY_LEADING
    if isinstance(blk, Table):
        return (CAPTION_LEADING + 4 + row_height(blk, blk.columns, True)
                + row_height(blk, blk.rows[0], False))
    if isinstance(blk, Figure):
        return blk.height + 6 + CAPTION_LEADING
    raise TypeError(blk)


def place_heading(flow: Flow, sec: Section, need: float) -> None:
    st = HEADING_STYLES[sec.level]
    if sec.level == 1 and flow.ops:  # every chapter opens a fresh page
        flow.new_page()
    flow.start_block(st.gap_before, need)
    assert text_width(sec.heading, st.font, st.size) <= CONTENT_W, sec.heading
    flow.text(LEFT, flow.y, sec.heading, st.font, st.size, st.leading)
    flow.y += st.leading + st.gap_after
    flow.after_heading = True


def place_para(flow: Flow, p: Para, need: float) -> None:
    flow.start_block(PARA_GAP, need)
    flow.lines(LEFT, para_lines(p))


def place_list(flow: Flow, lst: NumberedList) -> None:
    for n, item in enumerate(lst.items, 1):
        lines = item_lines(item)
        flow.start_block(LIST_GAP if n > 1 else PARA_GAP,
                         min(2, len(lines)) * BODY_LEADING)
        # The label is part of the first line's string (so text extraction
        # yields "1. Participant ..."), shifted left so that the item text
        # still hangs at LIST_TEXT_INDENT like the continuation lines.
        label = f"{n}. "
        text_x = LEFT + LIST_TEXT_INDENT
        label_x = text_x - text_width(label, BODY_FONT, BODY_SIZE)
        assert label_x >= LEFT, label
        flow.text(label_x, flow.y, label + lines[0], BODY_FONT, BODY_SIZE,
                  BODY_LEADING)
        flow.y += BODY_LEADING
        flow.lines(text_x, lines[1:])


def table_caption(flow: Flow, title: str) -> None:
    flow.centered(title, CAPTION_FONT, CAPTION_SIZE, CAPTION_LEADING)
    flow.y += 4


def draw_row(flow: Flow, table: Table, row: list[str], header: bool) -> None:
    h = row_height(table, row, header)
    if header:
        flow.ops.append(("rect", LEFT, flow.y, RIGHT, flow.y + h, None,
                         HEADER_FILL, 0))
    x = LEFT
    lead = cell_leading(table)
    font = BOLD_FONT if header else BODY_FONT
    for col, text in enumerate(row):
        top = flow.y + CELL_PAD
        for line in cell_lines(table, text, col, header):
            tx = x + CELL_PAD
            if table.center_values and col > 0:
                w = text_width(line, font, table.font_size)
                tx = x + (table.widths[col] - w) / 2
            flow.text(tx, top, line, font, table.font_size, lead)
            top += lead
        x += table.widths[col]
    flow.y += h


def draw_grid(flow: Flow, table: Table, row_edges: list[float]) -> None:
    """Rule every cell: one horizontal line per row edge, one vertical per
    column edge, spanning the part of the table on this page."""
    for y in row_edges:
        flow.ops.append(("line", LEFT, y, RIGHT, y, 0.6, TEXT_COLOR))
    x = LEFT
    for w in [0] + table.widths:
        x += w
        flow.ops.append(("line", x, row_edges[0], x, row_edges[-1], 0.6,
                         TEXT_COLOR))


def place_table(flow: Flow, table: Table, need: float, placed: Placed) -> None:
    flow.start_block(TABLE_GAP, need)
    pages = [flow.page_no]

    def start_chunk(title: str) -> list[float]:
        table_caption(flow, title)
        edges = [flow.y]
        draw_row(flow, table, table.columns, header=True)
        edges.append(flow.y)
        return edges

    edges = start_chunk(table.title)
    for row in table.rows:
        if flow.y + row_height(table, row, False) > BODY_BOTTOM:
            # Split: close the grid here and repeat caption + header row.
            draw_grid(flow, table, edges)
            flow.new_page()
            pages.append(flow.page_no)
            edges = start_chunk(f"{table.title} (continued)")
        draw_row(flow, table, row, header=False)
        edges.append(flow.y)
    draw_grid(flow, table, edges)
    assert len(pages) == table.expect_pages, (table.title, pages)
    placed.tables.append({
        "title": table.title,
        "pages": pages,
        "columns": list(table.columns),
        "data": [list(r) for r in table.rows],
    })


def place_figure(flow: Flow, fig: Figure, need: float, placed: Placed) -> None:
    flow.start_block(FIGURE_GAP, need)
    x0 = LEFT + (CONTENT_W - fig.width) / 2
    rect = (x0, flow.y, x0 + fig.width, flow.y + fig.height)
    if fig.kind == "vector":
        flow.ops.extend(schema_ops(rect))
    else:
        flow.ops.append(("image", rect, "timeline"))
    flow.y = rect[3] + 6
    flow.centered(fig.title, CAPTION_FONT, CAPTION_SIZE, CAPTION_LEADING)
    placed.images.append({
        "title": fig.title,
        "page": flow.page_no,
        "bbox": [round(v, 2) for v in rect],
        "kind": fig.kind,
    })


def flatten(outline: list[Section]) -> Iterator[tuple[Section, object]]:
    for sec in outline:
        yield sec, Heading(sec)
        for blk in sec.blocks:
            yield sec, blk


def layout_body(outline: list[Section], first_page: int
                ) -> tuple[list[list[Op]], dict[str, Placed]]:
    flow = Flow(first_page)
    placed = {sec.number: Placed() for sec in outline}
    items = list(flatten(outline))
    for i, (sec, blk) in enumerate(items):
        need = lead_height(items, i)
        info = placed[sec.number]
        if isinstance(blk, Heading):
            place_heading(flow, sec, need)
            info.page = flow.page_no
        elif isinstance(blk, Para):
            place_para(flow, blk, need)
        elif isinstance(blk, NumberedList):
            place_list(flow, blk)
        elif isinstance(blk, Table):
            place_table(flow, blk, need, info)
        elif isinstance(blk, Figure):
            place_figure(flow, blk, need, info)
    return flow.pages, placed


# --------------------------------------------------------------------------
# Figures
# --------------------------------------------------------------------------
SCHEMA_BOXES = [  # (column, row offset from centre line, label lines)
    (0, 0, ["Screening", "Up to 28 days"]),
    (1, 0, ["Randomization", "2:1, N = 120"]),
    (2, -1, ["EXP-4170 200 mg", "SC Q2W, 12 weeks"]),
    (2, 1, ["Placebo", "SC Q2W, 12 weeks"]),
    (3, 0, ["Safety Follow-up", "4 weeks"]),
    (4, 0, ["End of Study", "Week 16"]),
]


def schema_ops(rect: tuple) -> list[Op]:
    """Vector study schema: boxes with labels joined by arrowed connectors."""
    x0, y0, x1, y1 = rect
    gap, box_h, size = 22, 44, 8
    box_w = (x1 - x0 - 4 * gap) / 5
    cy = (y0 + y1) / 2
    ops: list[Op] = []
    boxes = {}
    for col, row, label in SCHEMA_BOXES:
        bx = x0 + col * (box_w + gap)
        by = cy + row * 38 - box_h / 2
        boxes[(col, row)] = (bx, by, bx + box_w, by + box_h)
        ops.append(("rect", bx, by, bx + box_w, by + box_h, (0.12, 0.3, 0.55),
                    (0.9, 0.94, 1.0), 1))
        lines = [(t, BOLD_FONT if k == 0 else BODY_FONT) for k, part in
                 enumerate(label) for t in
                 wrap(part, BOLD_FONT if k == 0 else BODY_FONT, size,
                      box_w - 8)]
        lead = size * 1.25
        top = by + (box_h - lead * len(lines)) / 2
        for text, font in lines:
            tx = bx + (box_w - text_width(text, font, size)) / 2
            ops.append(("text", tx, baseline(top, size, lead), text, font,
                        size, TEXT_COLOR))
            top += lead

    def mid_right(b):
        return (b[2], (b[1] + b[3]) / 2)

    def mid_left(b):
        return (b[0], (b[1] + b[3]) / 2)

    def connector(points):
        for p, q in zip(points, points[1:]):
            ops.append(("line", *p, *q, 1, TEXT_COLOR))
        qx, qy = points[-1]  # every connector ends going right
        ops.append(("poly", [(qx, qy), (qx - 6, qy - 3.5), (qx - 6, qy + 3.5)],
                    TEXT_COLOR))

    def elbow(a, b):
        (ax, ay), (bx, by) = mid_right(a), mid_left(b)
        mx = (ax + bx) / 2
        connector([(ax, ay), (mx, ay), (mx, by), (bx, by)])

    elbow(boxes[(0, 0)], boxes[(1, 0)])
    elbow(boxes[(1, 0)], boxes[(2, -1)])
    elbow(boxes[(1, 0)], boxes[(2, 1)])
    elbow(boxes[(2, -1)], boxes[(3, 0)])
    elbow(boxes[(2, 1)], boxes[(3, 0)])
    elbow(boxes[(3, 0)], boxes[(4, 0)])
    return ops


def timeline_pixmap(width: int = 300, height: int = 120) -> pymupdf.Pixmap:
    """Raster dosing timeline built pixel by pixel (deterministic, no text):
    six dosing bars every 2 weeks over 12 weeks, a grey follow-up band and a
    week axis with ticks, on a soft vertical gradient."""
    px_per_week = 200 / 12
    dose_x = [20 + round(2 * k * px_per_week) for k in range(6)]
    tick_x = {20 + round(k * px_per_week) for k in range(17)}  # weeks 0-16
    samples = bytearray()
    for y in range(height):
        bg = (250 - y * 35 // height, 250 - y * 22 // height,
              255 - y * 10 // height)
        for x in range(width):
            color = bg
            if any(d <= x < d + 8 for d in dose_x) and 30 <= y < 95:
                shade = (y - 30) * 40 // 65
                color = (31 + shade, 78 + shade, 140 + shade)
            elif 220 <= x < 287 and 62 <= y < 95:
                color = (200, 200, 200)
            elif 15 <= x < 292 and 95 <= y < 97:
                color = (60, 60, 60)
            elif 97 <= y < 102 and x in tick_x:
                color = (60, 60, 60)
            samples += bytes(color)
    return pymupdf.Pixmap(pymupdf.csRGB, width, height, bytes(samples), False)


# --------------------------------------------------------------------------
# Front matter
# --------------------------------------------------------------------------
def title_page_ops() -> list[Op]:
    flow = Flow(1)
    flow.y = 96
    flow.centered("CLINICAL STUDY PROTOCOL", BOLD_FONT, 12, 16)
    flow.ops.append(("line", LEFT, 124, RIGHT, 124, 1, TEXT_COLOR))
    flow.y = 150
    for line in wrap(PROTOCOL_TITLE, BOLD_FONT, 16, CONTENT_W - 40):
        flow.centered(line, BOLD_FONT, 16, 22)
    flow.y += 14
    flow.ops.append(("line", LEFT, flow.y, RIGHT, flow.y, 1, TEXT_COLOR))
    flow.y += 40
    for label, value in [
        ("Protocol Number:", PROTOCOL_NUMBER),
        ("Investigational Product:", "EXP-4170"),
        ("Phase:", "2"),
        ("Sponsor:", SPONSOR),
        ("Version:", "2.0"),
        ("Date:", "15 January 2026"),
    ]:
        flow.text(LEFT + 60, flow.y, label, BOLD_FONT, 11, 20)
        flow.text(LEFT + 210, flow.y, value, BODY_FONT, 11, 20)
        flow.y += 20
    flow.y = 610
    flow.centered("CONFIDENTIAL", BOLD_FONT, 14, 20)
    flow.y += 6
    notice = ("This document contains confidential information belonging to "
              "Example Pharma Inc. It may not be disclosed to any third party "
              "without prior written authorization, except as required to "
              "conduct the study.")
    for line in wrap(notice, BODY_FONT, 9, CONTENT_W - 60):
        flow.centered(line, BODY_FONT, 9, 12)
    return flow.ops


TOC_TITLE_GAP = 30
TOC_LEADING = 15.5
TOC_INDENT = 14


def toc_entries_per_page() -> int:
    return int((BODY_BOTTOM - BODY_TOP - TOC_TITLE_GAP) // TOC_LEADING)


def toc_page_count(outline: list[Section]) -> int:
    per = toc_entries_per_page()
    return (len(outline) + per - 1) // per


def toc_pages_ops(outline: list[Section], placed: dict[str, Placed]
                  ) -> list[list[Op]]:
    """One line per section: number + title, dot leaders, page number."""
    per = toc_entries_per_page()
    pages = []
    for start in range(0, len(outline), per):
        flow = Flow(0)
        title = "TABLE OF CONTENTS" + (" (continued)" if start else "")
        flow.text(LEFT, flow.y, title, BOLD_FONT, 14, 18)
        flow.y += TOC_TITLE_GAP
        for sec in outline[start:start + per]:
            font = BOLD_FONT if sec.level == 1 else BODY_FONT
            x = LEFT + (sec.level - 1) * TOC_INDENT
            num = str(placed[sec.number].page)
            num_x = RIGHT - text_width(num, BODY_FONT, 10)
            flow.text(x, flow.y, sec.heading, font, 10, TOC_LEADING)
            dots_from = x + text_width(sec.heading, font, 10) + 4
            dot_w = text_width(".", BODY_FONT, 10)
            n_dots = int((num_x - 4 - dots_from) // dot_w)
            dots = "." * n_dots
            flow.text(num_x - 4 - text_width(dots, BODY_FONT, 10), flow.y,
                      dots, BODY_FONT, 10, TOC_LEADING)
            flow.text(num_x, flow.y, num, BODY_FONT, 10, TOC_LEADING)
            flow.y += TOC_LEADING
        pages.append(flow.ops)
    return pages


def running_ops(n: int, total: int) -> list[Op]:
    """Running header and footer for every page except the title page."""
    size = 9
    left, right = RUNNING_HEADER
    label = PAGE_LABEL.format(n=n, N=total)
    label_x = LEFT + (CONTENT_W - text_width(label, BODY_FONT, size)) / 2
    return [
        ("text", LEFT, HEADER_BASELINE, left, BODY_FONT, size, MUTED_COLOR),
        ("text", RIGHT - text_width(right, BODY_FONT, size), HEADER_BASELINE,
         right, BODY_FONT, size, MUTED_COLOR),
        ("line", LEFT, HEADER_RULE, RIGHT, HEADER_RULE, 0.5, MUTED_COLOR),
        ("line", LEFT, FOOTER_RULE, RIGHT, FOOTER_RULE, 0.5, MUTED_COLOR),
        ("text", LEFT, FOOTER_BASELINE, FOOTER_LEFT, BODY_FONT, size,
         MUTED_COLOR),
        ("text", label_x, FOOTER_BASELINE, label, BODY_FONT, size,
         MUTED_COLOR),
    ]


# --------------------------------------------------------------------------
# Rendering
# --------------------------------------------------------------------------
def render_page(doc: pymupdf.Document, ops: list[Op],
                images: dict[str, pymupdf.Pixmap]) -> None:
    page = doc.new_page(width=PAGE_W, height=PAGE_H)
    # One Shape per page gives a single content stream (text drawn last, so
    # it sits on top of table fills and figure boxes).
    shape = page.new_shape()
    for op in ops:
        kind = op[0]
        if kind == "text":
            _, x, y, text, font, size, color = op
            shape.insert_text((x, y), text, fontname=font, fontsize=size,
                              color=color)
        elif kind == "line":
            _, ax, ay, bx, by, width, color = op
            shape.draw_line((ax, ay), (bx, by))
            shape.finish(width=width, color=color)
        elif kind == "rect":
            _, ax, ay, bx, by, stroke, fill, width = op
            shape.draw_rect(pymupdf.Rect(ax, ay, bx, by))
            shape.finish(width=width, color=stroke, fill=fill)
        elif kind == "poly":
            _, points, fill = op
            shape.draw_polyline(points)
            shape.finish(width=0.5, color=fill, fill=fill, closePath=True)
    shape.commit()
    for op in ops:
        if op[0] == "image":
            page.insert_image(pymupdf.Rect(op[1]), pixmap=images[op[2]])


def build_truth(outline: list[Section], placed: dict[str, Placed],
                page_count: int, toc_pages: list[int]) -> dict:
    def node(sec: Section) -> dict:
        info = placed[sec.number]
        lists = [b for b in sec.blocks if isinstance(b, NumberedList)]
        return {
            "number": sec.number,
            "title": sec.title,
            "level": sec.level,
            "page": info.page,
            "paragraphs": [b.text for b in sec.blocks if isinstance(b, Para)],
            "list_items": [it for lst in lists for it in lst.labelled()],
            "tables": info.tables,
            "images": info.images,
            "references": references_of(sec),
            "subsections": [],
        }

    roots: list[dict] = []
    by_number: dict[str, dict] = {}
    for sec in outline:
        n = node(sec)
        by_number[sec.number] = n
        parent = sec.number.rpartition(".")[0]
        (by_number[parent]["subsections"] if parent else roots).append(n)
    return {
        "title": PROTOCOL_TITLE,
        "protocol_number": PROTOCOL_NUMBER,
        "page_count": page_count,
        "toc_pages": toc_pages,
        "running_header": list(RUNNING_HEADER),
        "running_footer": [FOOTER_LEFT, PAGE_LABEL],
        "sections": roots,
    }


def build(pdf_path: Path, outline: list[Section] = OUTLINE) -> dict:
    """Write the protocol PDF to `pdf_path` and return its ground truth."""
    check_outline(outline)
    # Pass 1: the TOC length depends only on the number of entries, so the
    # body can be laid out first to learn every heading's page number.
    n_toc = toc_page_count(outline)
    toc_pages = list(range(2, 2 + n_toc))
    body_pages, placed = layout_body(outline, first_page=2 + n_toc)
    # Pass 2: with the page numbers known, draw the TOC and render everything.
    pages = [title_page_ops()] + toc_pages_ops(outline, placed) + body_pages
    total = len(pages)
    images = {"timeline": timeline_pixmap()}

    doc = pymupdf.open()
    for n, ops in enumerate(pages, 1):
        running = running_ops(n, total) if n > 1 else []
        render_page(doc, running + ops, images)
    doc.set_metadata({
        "title": PROTOCOL_TITLE,
        "author": SPONSOR,
        "subject": f"Clinical Study Protocol {PROTOCOL_NUMBER}",
        "keywords": "synthetic, test fixture",
        "creator": "ClinParser examples/make_protocol.py",
        "producer": "PyMuPDF",
        "creationDate": FIXED_PDF_DATE,
        "modDate": FIXED_PDF_DATE,
        "trapped": "",
    })
    pdf_path = Path(pdf_path)
    pdf_path.parent.mkdir(parents=True, exist_ok=True)
    # no_new_id: no random /ID; garbage=4 + deflate: compact, stable objects.
    doc.save(pdf_path, garbage=4, deflate=True, no_new_id=True)
    doc.close()
    return build_truth(outline, placed, total, toc_pages)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path,
                        default=Path(__file__).resolve().parent / "input",
                        help="output directory (default: examples/input)")
    args = parser.parse_args(argv)
    pdf_path = args.out / "protocol_001.pdf"
    truth = build(pdf_path)
    truth_path = args.out / "protocol_001.truth.json"
    truth_path.write_text(
        json.dumps(truth, indent=1, sort_keys=True, ensure_ascii=False) + "\n",
        encoding="utf-8", newline="\n")
    print(f"wrote {pdf_path} ({truth['page_count']} pages) and {truth_path}")


if __name__ == "__main__":
    main()
