"""Run data4knowledge's usdm4 rules engine on USDM files; print one JSON report per file.

    PYTHON312 benchmarks/usdm4_rules.py FILE.json ...

Runs inside a Python >= 3.12 environment that has ``usdm4`` (it needs no ClinParser, and
ClinParser's own environment does not need usdm4): ``benchmarks/usdm_check.py`` and
``tests/export/test_usdm4_rules.py`` start it with the interpreter they find. Offline: usdm4's
controlled terminology and XHTML schema ship in its wheel.

Prints a JSON list, one object per file, in the order given::

    {"file", "loads": bool, "load_error": str|None,
     "objects": {"file": n, "after_round_trip": n}, "dropped": {class: n},
     "extra_keys": [top-level keys the Wrapper does not have],
     "rules_run": n, "findings": [{"rule_id", "level", "klass", "attribute", "path", "message"}],
     "exceptions": [{"rule_id", "message"}]}

"Loads" is whether ``usdm4``'s pydantic ``Wrapper`` takes the file; the object counts (dicts with an
``instanceType``) before and after a round trip through it show what it drops without a word
(pydantic ignores keys it does not know).
"""

from __future__ import annotations

import collections
import json
import sys


def _objects(node, counts):
    if isinstance(node, dict):
        if "instanceType" in node:
            counts[node["instanceType"]] += 1
        for value in node.values():
            _objects(value, counts)
    elif isinstance(node, list):
        for value in node:
            _objects(value, counts)
    return counts


def report(path: str) -> dict:
    from simple_error_log.errors import Errors
    from usdm4 import USDM4
    from usdm4.api.wrapper import Wrapper
    from usdm4.rules.results import RuleStatus

    with open(path, encoding="utf-8") as f:
        raw = json.load(f)
    out: dict = {
        "file": path,
        "loads": False,
        "load_error": None,
        "objects": None,
        "dropped": {},
        "extra_keys": sorted(set(raw) - set(Wrapper.model_fields)) if isinstance(raw, dict) else [],
        "rules_run": 0,
        "findings": [],
        "exceptions": [],
    }
    errors = Errors()
    wrapper = USDM4().load(path, errors)
    if wrapper is None:
        messages = [e["message"].split("\n\nTraceback")[0] for e in errors.to_dict(level=Errors.DEBUG)]
        out["load_error"] = " | ".join(m.replace("\n", " ") for m in messages)[:2000] or "not loaded"
    else:
        before = _objects(raw, collections.Counter())
        after = _objects(json.loads(wrapper.model_dump_json()), collections.Counter())
        out["loads"] = True
        out["objects"] = {"file": sum(before.values()), "after_round_trip": sum(after.values())}
        out["dropped"] = {k: before[k] - after[k] for k in sorted(before) if before[k] != after[k]}
    results = USDM4().validate(path)
    out["rules_run"] = results.count()
    for row in results.to_dict():
        if row["status"] == RuleStatus.EXCEPTION.value:
            out["exceptions"].append(
                {"rule_id": row["rule_id"], "message": (row.get("exception") or "").split("\n")[0]}
            )
            continue
        out["findings"].append(
            {
                "rule_id": row["rule_id"],
                "level": (row.get("level") or "").upper(),
                "klass": row.get("klass"),
                "attribute": row.get("attribute"),
                "path": row.get("path"),
                "message": row.get("message"),
            }
        )
    return out


def main(paths: list[str]) -> int:
    if not paths:
        print("usage: usdm4_rules.py FILE.json ...", file=sys.stderr)
        return 2
    json.dump([report(p) for p in paths], sys.stdout, ensure_ascii=False, indent=1)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
