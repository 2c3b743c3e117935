"""The study design read from generated layouts scores as its truth; the generator is sound.

``examples/design_layouts.py`` turns a seed into a small protocol with a known design (single
group, parallel, crossover, dose escalation, factorial) printed in one random variation of each
family of forms (synopsis table or labelled paragraphs, design prose, schema picture, intervention
table or prose, amendment history, age and sex criterion) and returns its truth in the flat format
of ``../shared/corpus/design/README.md``. A fixed sample of seeds, one per design kind, which
together show every synopsis form, both schema kinds, every intervention form and every place of
the amendment history, is generated, parsed, exported to USDM and scored by the judging scorer
(``../shared/tools/design_score.py``, run as it is); every part must reach ``PART_FLOOR`` and the
mean ``MEAN_FLOOR``.

The generator itself is tested cheaply: the same seed gives the same bytes, every variation is
reachable over seeds 0..59, every truth is well formed, and its values are printed in its PDF's
text layer (the ages, sex and healthy volunteers read back from the criterion as printed).
``benchmarks/design_layouts.py`` runs the same scoring over many seeds.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from datetime import date
from pathlib import Path

import pymupdf
import pytest
from helpers import load_module

# Under pytest-xdist (--dist loadgroup) the module runs in one worker: each layout is parsed once.
pytestmark = pytest.mark.xdist_group("design_layouts")

ROOT = Path(__file__).resolve().parents[2]
SCORER = ROOT.parent / "shared" / "tools" / "design_score.py"
# Chosen greedily over seeds 0..199: every design kind, every synopsis form, both schema kinds
# (vector, picture), every intervention form, every place of the amendment history (a table in
# front or in an appendix, title-page lines, one labelled box per amendment, only the title
# page's own version with a rationale naming the one before), "Version" and country-specific
# amendment numbers, a healthy-volunteer study, the "\u2265" age criterion, and both sexes said
# by a qualifier ("Males and postmenopausal females") or by a rule for each, periods named only
# by the titles of their sections or only by the schema's boxes, background therapy given in
# prose, and a crossover's sequences only in a table.
SAMPLE = (2, 35, 54, 61, 98, 183)
SAMPLE_FORMS = {
    "schema.vector",
    "schema.picture",
    "interv.table.rows",
    "interv.table.columns",
    "interv.prose",
    "amend.table.front",
    "amend.table.appendix",
    "amend.cover",
    "amend.boxes",
    "amend.version",
    "amend.version.rationale",
    "amend.number.version",
    "amend.number.country",
    "pop.healthy",
    "pop.age.geq",
    "pop.sex.rules",
    "pop.sex.qualified",
    "prose.epochs.headings",
    "prose.epochs.schema",
    "interv.background",
    "design.sequences.table",
}
REACH = range(60)
PART_FLOOR = 0.8
# Misses of the reader as it stands, each a kind of layout it does not read yet (issue 47 stays
# open for them); a miss that starts reaching the floor fails the test until it is taken off.
KNOWN_MISSES: dict[tuple[int, str], str] = {
    # not a miss of the reader: USDM's code for what it read right
    (98, "attributes"): "days of a cycle ('Days 1 and 8 of every 21-day cycle', read as printed) are coded "
    "C71113 'Two Times Per Cycle' in USDM, the days in the administration's description; the scorer compares "
    "the code's decode with the printed words",
}
MEAN_FLOOR = 0.9


@pytest.fixture(scope="module")
def layouts():
    return load_module("design_layouts", ROOT / "examples" / "design_layouts.py")


@pytest.fixture(scope="module")
def compositions(layouts):
    """Seed -> composition (spec, truth, forms) for seeds 0..59; no PDF is written."""
    return {seed: layouts.compose(seed) for seed in REACH}


# --- the generator ---------------------------------------------------------------------------


def test_every_variation_within_sixty_seeds(compositions, layouts):
    seen = {f for c in compositions.values() for f in c.forms}
    assert seen <= set(layouts.FORMS)
    assert sorted(set(layouts.FORMS) - seen) == []
    kinds = {c.truth["design"]["model"] for c in compositions.values()}
    assert kinds == {"single group", "parallel", "crossover", "sequential", "factorial"}


def test_sample_shows_every_kind_and_synopsis_form(layouts):
    forms = {f for s in SAMPLE for f in layouts.forms_of(s)}
    for kind in layouts.KINDS:
        assert f"design.kind.{kind}" in forms
    for form in layouts.SYNOPSIS_FORMS:
        assert f"synopsis.{form}" in forms
    assert SAMPLE_FORMS <= forms


def test_same_seed_same_bytes(tmp_path, layouts):
    seed = 29  # a picture schema and the embedded font of "\u2265"
    a = layouts.build_layout(seed, tmp_path / "a.pdf")
    b = layouts.build_layout(seed, tmp_path / "b.pdf")
    assert (tmp_path / "a.pdf").read_bytes() == (tmp_path / "b.pdf").read_bytes()
    assert a == b
    assert _text(tmp_path / "a.pdf") == _text(tmp_path / "b.pdf")
    c = layouts.build_layout(seed + 1, tmp_path / "c.pdf")
    assert (tmp_path / "c.pdf").read_bytes() != (tmp_path / "a.pdf").read_bytes()
    assert c["arms"] != a["arms"]


def test_layout_is_the_composition(layouts):
    spec, truth = layouts.layout(5)
    c = layouts.compose(5)
    assert truth == c.truth and spec.title == c.spec.title and spec.number == c.spec.number
    assert truth["forms"] == c.forms == layouts.forms_of(5)


def test_a_title_that_would_wrap_into_a_number_led_line_is_picked_again(layouts):
    # seed 3006's first title ended "... in Patients with Type 2 Diabetes Mellitus", whose
    # wrap puts "2 Diabetes Mellitus" at a line's start, a section number to any reader; the
    # generator failed on it before choosing another
    title = layouts.compose(3006).spec.title
    assert layouts.para_ok(title)
    assert sum(f.startswith("title.") for f in layouts.compose(3006).forms) == 1


ARM_TYPES = {"experimental", "active comparator", "placebo comparator", "sham comparator", "no intervention", "other"}
ROLES = {"investigational", "comparator", "placebo", "background", "rescue", "challenge", "other"}
ROUTES = {"oral", "intravenous", "subcutaneous", "intramuscular", "topical", "inhalation", "other", None}


@pytest.mark.parametrize("chunk", range(2))
def test_truth_is_well_formed(compositions, chunk):
    for seed in list(REACH)[chunk::2]:
        t = compositions[seed].truth
        where = f"seed {seed}"
        names = [i["name"] for i in t["interventions"]]
        assert len(set(names)) == len(names), where
        assert t["arms"] and t["epochs"] and t["interventions"], where
        assert len({a["name"] for a in t["arms"]}) == len(t["arms"]), where
        assert len(set(t["epochs"])) == len(t["epochs"]), where
        used = set()
        for arm in t["arms"]:
            assert arm["type"] in ARM_TYPES, (where, arm)
            assert arm["interventions"] and set(arm["interventions"]) <= set(names), (where, arm)
            assert "(N=" not in arm["name"], (where, arm)
            used |= set(arm["interventions"])
            investigational = any(
                i["role"] == "investigational" for i in t["interventions"] if i["name"] in arm["interventions"]
            )
            assert (arm["type"] == "experimental") == investigational, (where, arm)
        for i in t["interventions"]:
            assert i["role"] in ROLES and i["route"] in ROUTES, (where, i)
            assert i["name"] in used or i["role"] in ("background", "rescue"), (where, i)
            # a background product has no dose printed, unless it is the one mandated with its dose
            dosed = any(f in t["forms"] for f in ("interv.mandated.given", "interv.mandated.lead"))
            undosed = i["role"] == "placebo" or i["role"] == "background" and not dosed
            assert (i["doses"] == []) == undosed, (where, i)
            assert all(re.fullmatch(r"\d+(\.\d+)? (mg|mg/kg|\u00b5g|mcg)", d) for d in i["doses"]), (where, i)
        pop, design = t["population"], t["design"]
        assert pop["age_unit"] == "years" and pop["sex"] in ("both", "female", "male"), where
        assert pop["min_age"] in (12, 18), where
        assert pop["max_age"] is None or pop["max_age"] > pop["min_age"], where
        assert pop["planned_enrollment"] > 0 and isinstance(pop["healthy_volunteers"], bool), where
        assert design["allocation"] in ("randomized", "non-randomized"), where
        assert design["masking"] in ("open label", "single blind", "double blind"), where
        if design["allocation"] == "randomized":
            assert len(design["ratio"].split(":")) == len(t["arms"]), where
        else:
            assert design["ratio"] is None and design["masking"] == "open label", where
        if design["model"] == "single group":
            assert len(t["arms"]) == 1, where
        if design["model"] == "crossover":  # "Sequence AB", or "Sequence AB: Drug 10 mg, Placebo"
            labels = [a["name"].split(":")[0].split()[-1] for a in t["arms"]]
            assert all(x.isalpha() and x.isupper() for x in labels), where
            assert all(":" in a["name"] for a in t["arms"]) == ("design.sequences.table" in t["forms"]), where
        dates = [a["date"] for a in t["amendments"] if a["date"]]
        assert dates == sorted(dates) and len(set(dates)) == len(dates), where
        assert all(date.fromisoformat(d) for d in dates), where
        # an amendment only named in prose has no date: the version before the title page's own
        assert all(a["date"] for a in t["amendments"]) or "amend.version.rationale" in t["forms"], where
        assert len({a["number"] for a in t["amendments"]}) == len(t["amendments"]), where
        assert ("amend.none" in t["forms"]) == (t["amendments"] == []), where
        assert t["indication"], where


def _text(pdf: Path) -> str:
    with pymupdf.open(pdf) as doc:
        return " ".join(" ".join(page.get_text().split()) for page in doc)


_AGES = (
    re.compile(r"aged (\d+) to (\d+) years"),
    re.compile(r"between (\d+) and (\d+) years of age"),
    re.compile(r"at least (\d+)() years of age"),
    re.compile(r"\u2265 (\d+)() years of age"),
    re.compile(r"aged (\d+)() years or older"),
)


def _criterion(text: str, excluded: bool = False) -> str:
    """The printed inclusion criterion that gives the ages (the first numbered line with one), or
    where the ages are an exclusion criterion's (``pop.age.excluded``) the one naming who."""
    tail = r"[^.]*?able to understand[^.]*\." if excluded else r"[^.]*?years[^.]*\."
    for m in re.finditer(
        r"(?:^|\s)\d+\. ((?:Healthy |Males? |Females? |Men |Women |Participants |Patients |Subjects )" + tail + ")",
        text,
    ):
        return m[1]
    raise AssertionError("no age criterion printed")


# the exclusion keeping the younger out (``pop.age.excluded``)
_EXCLUDED_AGE = re.compile(r"\d+\. (?:Individuals < |Age under |\w+ younger than )(\d+)() years")


@pytest.mark.parametrize("chunk", range(3))
def test_truth_is_printed(tmp_path, layouts, chunk):
    """Every name, dose, number and date of the truth is in the PDF's text layer, and the ages,
    the sex and healthy volunteers read back from the criterion as printed equal the truth's."""
    for seed in list(REACH)[chunk::6]:
        pdf = tmp_path / f"design_{seed}.pdf"
        t = layouts.build_layout(seed, pdf)
        text = _text(pdf)
        low = text.lower()
        where = f"seed {seed}"
        # periods named only by a schema drawn as a picture are in its pixels, not the text layer
        pixels_only = {"prose.epochs.schema", "schema.picture"} <= set(t["forms"])
        epochs = [] if pixels_only else t["epochs"]
        for name in [a["name"] for a in t["arms"]] + epochs + [i["name"] for i in t["interventions"]]:
            if ":" in name and "design.sequences.table" in t["forms"]:  # a table's row: its cells in order
                label, cells = name.split(": ")
                name = " ".join([label.split()[-1], *cells.split(", ")])
            assert name in text, (where, name)
        for i in t["interventions"]:
            for d in i["doses"]:
                assert f"{i['name']} {d}" in text or d in text, (where, d)
            if i["frequency"]:
                assert i["frequency"].lower() in low, (where, i)
        assert str(t["population"]["planned_enrollment"]) in text, where
        assert t["indication"].lower() in low, where
        if t["design"]["ratio"]:
            assert t["design"]["ratio"] in text, where
        words = {"open label": "open-label", "single blind": "single-blind", "double blind": "double-blind"}
        assert words[t["design"]["masking"]] in low, where
        excluded = "pop.age.excluded" in t["forms"]
        crit = _criterion(text, excluded)
        patterns = (_EXCLUDED_AGE,) if excluded else _AGES
        ages = next(
            (m.groups() for pattern in patterns for m in [pattern.search(text if excluded else crit)] if m), None
        )
        assert ages is not None, (where, crit)
        pop = t["population"]
        assert (int(ages[0]), int(ages[1]) if ages[1] else None) == (pop["min_age"], pop["max_age"]), (where, crit)
        rules = "For women of childbearing potential:" in text and "For men:" in text
        unrestricted = "pregnan" in low  # no sex named, pregnant women excluded: both may enter
        sex = (
            "both"
            if re.match(r"(Healthy )?(males? (and|or) (postmenopausal )?females?|men and women)", crit, re.I)
            or (rules or unrestricted)
            and re.match(r"(Participants|Patients|Subjects) ", crit)
            else "female"
            if re.match(r"(Women|Female)", crit)
            else "male"
        )
        assert sex == pop["sex"], (where, crit)
        assert crit.startswith("Healthy") == pop["healthy_volunteers"], (where, crit)
        for a in t["amendments"]:
            if not a["date"]:
                assert f"Version {a['number']} of the protocol" in text, (where, a)
                continue
            d = date.fromisoformat(a["date"])
            month = (
                "January",
                "February",
                "March",
                "April",
                "May",
                "June",
                "July",
                "August",
                "September",
                "October",
                "November",
                "December",
            )[d.month - 1]
            shown = (
                f"{d.day} {month} {d.year}",
                f"{d.day:02d}-{month[:3]}-{d.year}",
                d.isoformat(),
                f"{month} {d.day}, {d.year}",
                f"{d.month:02d}/{d.day:02d}/{d.year}",
                f"{d.day:02d}/{d.month:02d}/{d.year}",
            )
            assert a["number"] in text and any(s in text for s in shown), (where, a)


@pytest.mark.skipif(not SCORER.is_file(), reason=f"judging scorer missing: {SCORER} (CI has ../shared/tools)")
def test_truth_scores_one_against_itself(tmp_path, compositions):
    """The truth is in the format the judging scorer reads (and the benchmark reads its line)."""
    bench = load_module("design_layouts_benchmark", ROOT / "benchmarks" / "design_layouts.py")
    assert bench.SCORER.resolve() == SCORER.resolve()
    for seed in (1, 3):
        path = tmp_path / f"design_{seed}.json"
        path.write_text(json.dumps(compositions[seed].truth), encoding="utf-8")
        scores, _ = bench.score(path, path)
        assert scores == {part: 1.0 for part in bench.PARTS}, seed


# --- the reader (parse, USDM export, judging scorer) -------------------------------------------


@pytest.fixture(scope="module", params=SAMPLE, ids=[f"seed{s}" for s in SAMPLE])
def scored(request, tmp_path_factory, layouts):
    """(seed, the scorer's summary line as numbers, its -v lines) of a parsed sample layout."""
    if not SCORER.is_file():
        pytest.skip(f"judging scorer missing: {SCORER} (CI has ../shared/tools)")
    from clinparser import PDFParser
    from clinparser.export.usdm import to_usdm

    seed = request.param
    folder = tmp_path_factory.mktemp(f"design{seed}")
    pdf = folder / f"design_{seed:04d}.pdf"
    truth = layouts.build_layout(seed, pdf)
    gold = folder / "truth.design.json"
    gold.write_text(json.dumps(truth, ensure_ascii=False), encoding="utf-8")
    result = PDFParser(workers=1).parse(
        pdf, output_dir=folder / "out", save_images=False, save_table_csv=False, save_report=False
    )
    usdm = folder / "usdm.json"
    usdm.write_text(json.dumps(to_usdm(result), ensure_ascii=False), encoding="utf-8")
    run = subprocess.run(
        [sys.executable, str(SCORER), str(usdm), str(gold), "-v"], capture_output=True, text=True, check=True
    )
    bench = load_module("design_layouts_benchmark", ROOT / "benchmarks" / "design_layouts.py")
    scores = bench.design_line(run.stdout)
    assert scores is not None, run.stdout[-500:]
    return seed, scores, [line for line in run.stdout.splitlines() if line.startswith("  ")]


@pytest.mark.parametrize(
    "part", ["arms", "epochs", "interventions", "attributes", "population", "design", "indication", "amendments"]
)
def test_part_reaches_its_floor(scored, part):
    seed, scores, lines = scored
    if (seed, part) in KNOWN_MISSES:
        if scores[part] >= PART_FLOOR:
            pytest.fail(f"seed {seed} {part} now reaches the floor: take it off KNOWN_MISSES")
        pytest.xfail(KNOWN_MISSES[(seed, part)])
    assert scores[part] >= PART_FLOOR, (seed, part, scores[part], lines)


def test_mean_reaches_its_floor(scored):
    seed, scores, lines = scored
    assert scores["mean"] >= MEAN_FLOOR, (seed, scores, lines)
