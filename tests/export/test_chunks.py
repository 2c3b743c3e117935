"""Retrieval chunks: within budget, standing alone, linked to their section, nothing lost."""

from __future__ import annotations

import json
import re

import pytest

from clinparser.export.chunks import Chunker, default_counter, tokenizer_counter
from scoring.tree import flatten


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
    by_parent: dict[str, list[dict]] = {}
    for r in recs:
        if r["metadata"]["kind"] != "section":
            by_parent.setdefault(r["metadata"]["parent_id"], []).append(r["metadata"])
    for metas in by_parent.values():
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
