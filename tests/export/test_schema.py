from __future__ import annotations

import copy

from clinparser.export.schema import errors


def test_a_real_result_is_valid(example_run):
    result, _ = example_run
    assert errors(result) == []


def test_the_schema_catches_broken_results(example_run):
    result, _ = example_run
    broken = copy.deepcopy(result)
    del broken["toc"][0]["title"]
    assert any("title" in e for e in errors(broken))
    broken = copy.deepcopy(result)
    broken["non_toc"][0]["number"] = "7"
    assert errors(broken)
    broken = copy.deepcopy(result)
    broken["metadata"]["source"] = "/home/user/protocol.pdf"
    assert errors(broken)
    broken = copy.deepcopy(result)
    broken["toc"][0]["subsections"][0]["tables"] = [{"title": "x"}]
    assert errors(broken)
