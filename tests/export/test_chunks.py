"""Retrieval chunks: within budget, standing alone, linked to their section, nothing lost."""

from __future__ import annotations

import json
import re

import pytest
from scoring.tree import flatten

from clinparser.export.chunks import Chunker, default_counter, tokenizer_counter


@pytest.fixture(scope="module")
def records(example_run):
    result, _ = example_run
    return result, Chunker(max_tokens=128, overlap=16).document(result)


def test_every_chunk_is_within_budget_and_starts_with_its_heading_path(records):
    _, recs = records
    for r in recs:
        meta = r["metadata"]
        assert r["text"].startswith(" > ".join(meta["heading_path"]))
        assert meta["token_count"] == default_counter(r["text"])
        if meta["kind"] != "section":
            assert meta["token_count"] <= 128, r["id"]


def test_parent_ids_link_chunks_to_section_records(records):
    result, recs = records
    sections = {r["id"]: r for r in recs if r["metadata"]["kind"] == "section"}
    assert len(sections) == len(flatten(result["toc"])) + len(flatten(result["non_toc"]))
    for r in recs:
        parent = r["metadata"]["parent_id"]
        if r["metadata"]["kind"] != "section":
            assert sections[parent]["metadata"]["section_number"] == r["metadata"]["section_number"]
        elif parent is not None:
            assert r["metadata"]["heading_path"][:-1] == sections[parent]["metadata"]["heading_path"]
    assert len({r["id"] for r in recs}) == len(recs)


def test_chunk_index_and_count_per_section(records):
    _, recs = records
    by_group: dict[str, list[dict]] = {}  # a section's chunks, or a study item's pieces: "<group>:<index>"
    for r in recs:
        if r["metadata"]["kind"] != "section":
            group, index = r["id"].rsplit(":", 1)
            assert int(index) == r["metadata"]["chunk_index"]
            if r["metadata"]["kind"] not in ("criterion", "objective", "design"):
                assert group == r["metadata"]["parent_id"]
            by_group.setdefault(group, []).append(r["metadata"])
    for metas in by_group.values():
        assert [m["chunk_index"] for m in metas] == list(range(len(metas)))
        assert {m["chunk_count"] for m in metas} == {len(metas)}


def test_a_long_table_is_split_by_rows_and_every_piece_repeats_the_header(records):
    result, recs = records
    soa = next(n for n in flatten(result["toc"]) if n["number"] == "1.3")["tables"][0]
    pieces = [r["text"] for r in recs if r["metadata"]["kind"] == "table" and r["metadata"]["section_number"] == "1.3"]
    assert len(pieces) > 1
    header = "| " + " | ".join(c.replace("\n", "<br>") for c in soa["columns"]) + " |"
    rows = []
    for text in pieces:
        lines = text.split("\n\n", 2)[2].splitlines()
        assert lines[0] == header and lines[1].startswith("|---")
        rows += lines[2:]
    assert len(rows) == len(soa["data"])  # every row once, in order
    assert rows[0].startswith(f"| {soa['data'][0][0]} |") and rows[-1].startswith(f"| {soa['data'][-1][0]} |")


def test_no_paragraph_is_lost(example, records):
    _, truth = example
    _, recs = records
    text = " ".join(" ".join(r["text"].split()) for r in recs if r["metadata"]["kind"] == "text")

    def walk(nodes):
        for n in nodes:
            yield n
            yield from walk(n["subsections"])

    for node in walk(truth["sections"]):
        for para in node["paragraphs"]:
            for sentence in re.split(r"(?<=\.) ", para):
                assert " ".join(sentence.split()) in text, sentence[:60]


def test_figures_give_figure_chunks_with_their_path(records):
    _, recs = records
    figures = [r for r in recs if r["metadata"]["kind"] == "figure"]
    assert [f["metadata"]["section_number"] for f in figures] == ["1.2", "4.1"]
    assert all("Image: images/" in f["text"] for f in figures)


def test_deterministic(example_run):
    result, _ = example_run
    a = Chunker().document(result)
    b = Chunker().document(json.loads(json.dumps(result)))
    assert a == b


def test_local_tokenizer_file(tmp_path):
    from tokenizers import Tokenizer
    from tokenizers.models import WordLevel
    from tokenizers.pre_tokenizers import Whitespace

    tok = Tokenizer(WordLevel({"[UNK]": 0, "study": 1, "design": 2}, unk_token="[UNK]"))
    tok.pre_tokenizer = Whitespace()
    path = tmp_path / "tokenizer.json"
    tok.save(str(path))
    count = tokenizer_counter(path)
    assert count("study design of the trial") == 5


def test_bad_budgets_are_refused():
    with pytest.raises(ValueError):
        Chunker(max_tokens=10)
    with pytest.raises(ValueError):
        Chunker(max_tokens=100, overlap=100)


# --- the study definition: criterion and objective chunks --------------------------------------


def _node(number, title, text, pages, subsections=()):
    return {
        "number": number,
        "title": title,
        "level": number.count(".") + 1,
        "text": text,
        "pages": pages,
        "tables": [],
        "images": [],
        "subsections": list(subsections),
    }


def _box(page):
    return [{"page": page, "bbox": [72.0, 100.0, 540.0, 130.0]}]


def _study_result(long_text: str = "") -> dict:
    objectives = _node("3", "Objectives and Endpoints", "Objectives are listed below.", [4, 5])
    population = _node(
        "5",
        "Study Population",
        "",
        [9, 10],
        [
            _node("5.1", "Inclusion Criteria", "1. Adults aged 18 or more.", [9, 9]),
            _node("5.2.", "Exclusion Criteria", "1. Pregnancy.\n\n7. eGFR < 30 & dialysis.", [9, 10]),
        ],
    )
    criterion = {
        "category": "exclusion",
        "identifier": "7.",
        "text": "eGFR < 30 & dialysis.",
        "section": "5.2.",
        "pages": [9, 10],
        "boxes": _box(9) + _box(10),
        "applies_to": "run-in",
    }
    study = {
        "titles": {"official": {"text": "A Study of X", "page": 1}, "short": None, "acronym": None},
        "identifiers": [{"kind": "nct", "text": "NCT01234567", "page": 1, "source": "title page"}],
        "phase": {"value": "3", "printed": "Phase III"},
        "sponsor": {"text": "Acme", "page": 1},
        "eligibility": [
            {
                "category": "inclusion",
                "identifier": "1.",
                "text": long_text or "Adults aged 18 or more.",
                "section": "5.1",
                "pages": [9],
                "boxes": _box(9),
                "applies_to": None,
            },
            criterion,
            {
                "category": "exclusion",
                "identifier": None,
                "text": "Unlisted.",
                "section": "Exclusion criteria (other)",
                "pages": [],
                "boxes": [],
                "applies_to": None,
            },
        ],
        "objectives": [
            {
                "level": "primary",
                "label": "Primary",
                "text": "To compare X with placebo.",
                "section": "3",
                "pages": [4],
                "boxes": _box(4),
                "endpoints": [
                    {
                        "level": "primary",
                        "label": "Primary",
                        "text": "Change in weight at week 52.",
                        "section": "3",
                        "pages": [5],
                        "boxes": _box(5),
                    }
                ],
            }
        ],
        "abbreviations": [],
        "diagnostics": [],
    }
    return {
        "metadata": {"sha256": "ab" * 32, "source": "p.pdf"},
        "toc": [objectives, population],
        "non_toc": [],
        "study": study,
    }


def test_criteria_and_objectives_are_chunks_after_the_section_chunks():
    recs = Chunker(max_tokens=128, overlap=16).document(_study_result())
    kinds = [r["metadata"]["kind"] for r in recs]
    first = kinds.index("criterion")
    assert "criterion" not in kinds[:first] and set(kinds[first:]) == {"criterion", "objective"}
    doc = {"document_id": "abababababababab", "source": "p.pdf"}
    path_52 = ["5 Study Population", "5.2. Exclusion Criteria"]
    expected = [
        {
            "id": "abababababababab:5.1:inclusion-1:0",
            "text": "5 Study Population > 5.1 Inclusion Criteria > Inclusion criterion 1\n\nAdults aged 18 or more.",
            "metadata": {
                **doc,
                "section_number": "5.1",
                "section_title": "Inclusion Criteria",
                "heading_path": ["5 Study Population", "5.1 Inclusion Criteria", "Inclusion criterion 1"],
                "pages": [9, 9],
                "category": "inclusion",
                "identifier": "1.",
                "applies_to": None,
                "kind": "criterion",
                "parent_id": "abababababababab:5.1",
                "token_count": 19,
                "chunk_index": 0,
                "chunk_count": 1,
            },
        },
        {
            "id": "abababababababab:5.2:exclusion-7:0",
            "text": "5 Study Population > 5.2. Exclusion Criteria > Exclusion criterion 7 (applies to run-in)\n\n"
            "eGFR < 30 & dialysis.",
            "metadata": {
                **doc,
                "section_number": "5.2.",
                "section_title": "Exclusion Criteria",
                "heading_path": path_52 + ["Exclusion criterion 7 (applies to run-in)"],
                "pages": [9, 10],
                "category": "exclusion",
                "identifier": "7.",
                "applies_to": "run-in",
                "kind": "criterion",
                "parent_id": "abababababababab:5.2",
                "token_count": 27,
                "chunk_index": 0,
                "chunk_count": 1,
            },
        },
        {
            "id": "abababababababab:exclusion-criteria-other:exclusion-item2:0",  # its section is not in the tree
            "text": "Exclusion criterion\n\nUnlisted.",
            "metadata": {
                **doc,
                "section_number": "Exclusion criteria (other)",
                "section_title": "",
                "heading_path": ["Exclusion criterion"],
                "pages": [None, None],
                "category": "exclusion",
                "identifier": None,
                "applies_to": None,
                "kind": "criterion",
                "parent_id": None,
                "token_count": 4,
                "chunk_index": 0,
                "chunk_count": 1,
            },
        },
        {
            "id": "abababababababab:3:objective-primary-1:0",
            "text": "3 Objectives and Endpoints > Primary objective\n\nTo compare X with placebo.\n\n"
            "Primary endpoint: Change in weight at week 52.",
            "metadata": {
                **doc,
                "section_number": "3",
                "section_title": "Objectives and Endpoints",
                "heading_path": ["3 Objectives and Endpoints", "Primary objective"],
                "pages": [4, 5],
                "level": "primary",
                "label": "Primary",
                "endpoint_count": 1,
                "kind": "objective",
                "parent_id": "abababababababab:3",
                "token_count": 23,
                "chunk_index": 0,
                "chunk_count": 1,
            },
        },
    ]
    assert recs[first:] == expected
    assert all(r["metadata"]["token_count"] == default_counter(r["text"]) for r in expected)


def _design(section: str = "4.1") -> dict:
    def traced(page: int, **fields) -> dict:
        return {"pages": [page], "boxes": _box(page), "section": section, "printed": "as printed", **fields}

    return {
        "arms": [
            traced(6, name="EXP-1 10 mg", type="experimental", interventions=["EXP-1"]),
            traced(6, name="Placebo", type="placebo comparator", interventions=["Placebo"]),
        ],
        "epochs": [traced(6, name="Screening"), traced(6, name="Treatment")],
        "interventions": [
            traced(
                7,
                name="EXP-1",
                role="investigational",
                route="oral",
                frequency="once\ndaily",
                doses=[{"value": 10, "unit": "mg", "printed": "10 mg"}],
            )
        ],
        "population": {
            "planned_enrollment": traced(12, value=120),
            "age": traced(9, min=18, max=None, unit="years", section="5.1"),
            "sex": None,
            "healthy_volunteers": None,
        },
        "allocation": traced(1, value="randomized", section=None),
        "model": traced(6, value="parallel"),
        "masking": None,
        "ratio": traced(6, value="1:1"),
        "indication": None,
        "amendments": [traced(2, number="1", date="2024-03-01", summary=None, section=None)],
    }


def test_the_design_is_one_chunk_after_the_objectives_under_its_section():
    result = _study_result()
    design_node = _node("4.1", "Study Design", "Parallel.", [6, 6])
    result["toc"].insert(1, design_node)
    result["study"]["design"] = _design()
    recs = Chunker(max_tokens=512, overlap=16).document(result)
    assert recs[-1]["metadata"]["kind"] == "design" and sum(r["metadata"]["kind"] == "design" for r in recs) == 1
    chunk = recs[-1]
    assert chunk["id"] == "abababababababab:4.1:design:0"
    assert chunk["metadata"]["parent_id"] == "abababababababab:4.1"
    assert chunk["metadata"]["heading_path"] == ["4.1 Study Design", "Study design"]
    assert chunk["metadata"]["pages"] == [1, 12]  # every item's pages: title page to sample size
    assert (
        chunk["metadata"]["arm_count"],
        chunk["metadata"]["epoch_count"],
        chunk["metadata"]["intervention_count"],
    ) == (2, 2, 1)
    assert chunk["metadata"]["design_parts"] == ["design", "population", "arm", "epoch", "intervention", "amendment"]
    assert chunk["text"] == (
        "4.1 Study Design > Study design\n\n"
        "Allocation: randomized\nModel: parallel\nRandomization ratio: 1:1\n\n"
        "Planned enrollment: 120 participants\nAge: at least 18 years\n\n"
        "Arm: EXP-1 10 mg (experimental); receives EXP-1\nArm: Placebo (placebo comparator); receives Placebo\n\n"
        "Epoch 1 of 2: Screening\nEpoch 2 of 2: Treatment\n\n"
        "Intervention: EXP-1 (role investigational; dose 10 mg; route oral; frequency once daily)\n\n"
        "Amendment 1, 2024-03-01"
    )


def test_an_empty_design_gives_no_chunk():
    empty = {
        "arms": [],
        "epochs": [],
        "interventions": [],
        "amendments": [],
        "allocation": None,
        "model": None,
        "masking": None,
        "ratio": None,
        "indication": None,
        "population": {"planned_enrollment": None, "age": None, "sex": None, "healthy_volunteers": None},
    }
    result = _study_result()
    base = Chunker().document(result)
    assert Chunker().document({**result, "study": {**result["study"], "design": empty}}) == base


def test_a_long_criterion_is_split_within_budget_and_every_piece_names_it():
    sentences = [
        f"Sentence {k} of a very long exclusion about prior therapy with agents of class {k}." for k in range(40)
    ]
    recs = Chunker(max_tokens=64, overlap=8).document(_study_result(" ".join(sentences)))
    pieces = [r for r in recs if r["metadata"]["kind"] == "criterion" and r["metadata"]["identifier"] == "1."]
    assert len(pieces) > 3
    head = "5 Study Population > 5.1 Inclusion Criteria > Inclusion criterion 1"
    for k, r in enumerate(pieces):
        assert r["id"] == f"abababababababab:5.1:inclusion-1:{k}"
        assert r["text"].startswith(head + "\n\n") and r["metadata"]["token_count"] <= 64
        assert (r["metadata"]["chunk_index"], r["metadata"]["chunk_count"]) == (k, len(pieces))
    joined = " ".join(r["text"][len(head) :] for r in pieces)
    assert all(s in joined for s in sentences)  # nothing lost (overlap may repeat some)


def test_no_study_no_criterion_or_objective_chunks():
    with_study = _study_result()
    without = {k: v for k, v in with_study.items() if k != "study"}
    empty = {**without, "study": None}
    base = Chunker().document(without)
    assert base == Chunker().document(empty)
    assert not {r["metadata"]["kind"] for r in base} & {"criterion", "objective"}
    assert Chunker().document(with_study)[: len(base)] == base  # the section chunks do not change
    nothing_found = {**without, "study": {**with_study["study"], "eligibility": [], "objectives": []}}
    assert Chunker().document(nothing_found) == base


# --- pictures: their words go to their figure chunk -------------------------------------------


def _picture_result() -> dict:
    block = (
        "<!-- text in the picture (ocr) -->\nDaily Itch Diary\nDid itching wake you?\n"
        "<!-- end of text in the picture -->"
    )
    node = _node(
        "2", "Diary", f"Complete the diary.\n\n[Figure 3: Diary]\n\n{block}\n\n[Schedule]\n\n[Table]\n\nAfter.", [3, 3]
    )
    node["images"] = [
        {
            "title": "Figure 3: Diary",
            "path": "images/2/image_001.png",
            "text": "Daily Itch Diary\nDid itching wake you?",
        },
        {"title": "Schedule", "path": "images/2/image_002.png", "text": ""},
    ]
    node["tables"] = [{"title": "", "columns": ["Visit", "1"], "data": [["Consent", "X"]]}]
    return {"metadata": {"sha256": "cd" * 32, "source": "p.pdf"}, "toc": [node], "non_toc": []}


def test_a_pictures_words_are_in_its_figure_chunk_not_in_the_text_chunks():
    recs = Chunker(max_tokens=128, overlap=16).document(_picture_result())
    kinds = [(r["metadata"]["kind"], r["text"].split("\n\n", 1)[1]) for r in recs if r["metadata"]["kind"] != "section"]
    assert kinds == [
        ("text", "Complete the diary."),
        ("figure", "Figure 3: Diary\n\nImage: images/2/image_001.png\n\nDaily Itch Diary\nDid itching wake you?"),
        # a picture titled like a table ("Schedule") is still the picture, and "[Table]" the table
        ("figure", "Schedule\n\nImage: images/2/image_002.png"),
        ("table", "Table\n\n| Visit | 1 |\n|---|---|\n| Consent | X |"),
        ("text", "After."),
    ]
