"""The types of document.json (clinparser/document_types.py) against its schema and real output.

Two checks that can each fail on their own: the types name exactly the keys the schema declares
(required ones required, an object closed by the schema closed in the type), and a document the
pipeline wrote holds exactly the keys its types name, with values of the named kinds.
"""

from __future__ import annotations

import json
import types
import typing
from pathlib import Path

import pytest

from clinparser import document_types as dt

ROOT = Path(__file__).resolve().parents[1]
SCHEMA = json.loads((ROOT / "schemas" / "document.schema.json").read_text())
EXAMPLE = ROOT / "examples" / "output" / "document.json"


def _resolve(node: dict) -> dict:
    while "$ref" in node:
        node = SCHEMA["$defs"][node["$ref"].rsplit("/", 1)[1]]
    return node


def _object_of(node: dict) -> dict | None:
    """The object schema inside ``node`` (through a reference, a "null or object" choice, or an
    ``allOf`` that narrows a base object: its properties merged over the base's)."""
    node = _resolve(node)
    if "allOf" in node:
        merged = {"properties": {}, "required": []}
        for part in node["allOf"] + [{k: v for k, v in node.items() if k != "allOf"}]:
            base = _object_of(part) or part
            merged["properties"].update(base.get("properties", {}))
            merged["required"] += base.get("required", [])
            if "additionalProperties" in base:
                merged["additionalProperties"] = base["additionalProperties"]
        return merged
    if "properties" in node:
        return node
    for choice in node.get("anyOf", []) + node.get("oneOf", []):
        found = _object_of(choice)
        if found is not None:
            return found
    return None


def _items_of(node: dict) -> dict | None:
    node = _resolve(node)
    return node.get("items")


def _strip_optional(tp):
    args = typing.get_args(tp)
    if typing.get_origin(tp) in (typing.Union, types.UnionType) and type(None) in args:
        rest = [a for a in args if a is not type(None)]
        return rest[0] if len(rest) == 1 else tp
    return tp


def _hints(tp) -> dict:
    return typing.get_type_hints(tp)


def mismatches(tp, node: dict, path: str, seen: set | None = None) -> list[str]:
    """Where the TypedDict ``tp`` and the schema object ``node`` disagree, recursively (each
    pair once: the section tree refers to itself)."""
    seen = set() if seen is None else seen
    if (tp, id(node)) in seen:
        return []
    seen.add((tp, id(node)))
    schema = _object_of(node)
    if schema is None:
        return [f"{path}: the schema has no object here"]
    declared, hints = set(schema["properties"]), _hints(tp)
    out = []
    closed = schema.get("additionalProperties") is False
    missing = declared - set(hints)
    extra = set(hints) - declared
    if missing:
        out.append(f"{path}: the type lacks {sorted(missing)}")
    if extra and closed:
        out.append(f"{path}: the type adds {sorted(extra)}, which the schema does not allow")
    required = set(schema.get("required", []))
    if required - tp.__required_keys__:
        out.append(f"{path}: required in the schema, optional in the type: {sorted(required - tp.__required_keys__)}")
    for key in sorted(declared & set(hints)):
        out += _compare_value(_strip_optional(hints[key]), schema["properties"][key], f"{path}.{key}", seen)
    return out


def _compare_value(tp, node: dict, path: str, seen: set) -> list[str]:
    if typing.is_typeddict(tp):
        return mismatches(tp, node, path, seen)
    if typing.get_origin(tp) is list:
        (inner,) = typing.get_args(tp)
        items = _items_of(node)
        inner = _strip_optional(inner)
        if typing.is_typeddict(inner):
            return mismatches(inner, items, path + "[]", seen) if items else [f"{path}: the schema has no items"]
    return []


@pytest.mark.parametrize(
    "tp, node, path",
    [
        (dt.Schedule, SCHEMA["$defs"]["schedule"], "schedule"),
        (dt.Study, SCHEMA["$defs"]["study"], "study"),
        (dt.Design, SCHEMA["$defs"]["design"], "design"),
        (dt.Metadata, SCHEMA["$defs"]["metadata"], "metadata"),
        (dt.Document, SCHEMA, "document"),
    ],
)
def test_the_types_name_the_schemas_keys(tp, node, path):
    assert mismatches(tp, node, path) == []


def test_a_key_the_schema_lacks_is_found():
    class Wrong(typing.TypedDict):
        marker: str
        text: str
        colour: str

    node = {
        "type": "object",
        "required": ["marker"],
        "additionalProperties": False,
        "properties": {"marker": {}, "text": {}},
    }
    assert mismatches(Wrong, node, "x") == ["x: the type adds ['colour'], which the schema does not allow"]


# --- real output -------------------------------------------------------------------------------


def conforms(value, tp, path: str) -> list[str]:
    """Where ``value`` (parsed JSON) is not of type ``tp``."""
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if tp is typing.Any:
        return []
    if origin in (typing.Union, types.UnionType):
        results = [conforms(value, a, path) for a in args]
        return [] if any(not r for r in results) else min(results, key=len)
    if tp is type(None):
        return [] if value is None else [f"{path}: {value!r} is not null"]
    if origin is typing.Literal:
        return [] if value in args else [f"{path}: {value!r} is not one of {args}"]
    if typing.is_typeddict(tp):
        if not isinstance(value, dict):
            return [f"{path}: not an object"]
        hints = _hints(tp)
        out = [f"{path}: key {k!r} not in {tp.__name__}" for k in sorted(set(value) - set(hints))]
        out += [f"{path}: {tp.__name__} key {k!r} missing" for k in sorted(tp.__required_keys__ - set(value))]
        for k in sorted(set(value) & set(hints)):
            out += conforms(value[k], hints[k], f"{path}.{k}")
        return out
    if origin is list:
        if not isinstance(value, list):
            return [f"{path}: not a list"]
        return [m for i, v in enumerate(value) for m in conforms(v, args[0], f"{path}[{i}]")]
    if origin is dict:
        if not isinstance(value, dict):
            return [f"{path}: not an object"]
        return [m for k, v in value.items() for m in conforms(v, args[1], f"{path}.{k}")]
    if tp is float:
        ok = isinstance(value, (int, float)) and not isinstance(value, bool)
        return [] if ok else [f"{path}: {value!r} is not a number"]
    if tp is int:
        ok = isinstance(value, int) and not isinstance(value, bool)
        return [] if ok else [f"{path}: {value!r} is not an integer"]
    return [] if isinstance(value, tp) else [f"{path}: {value!r} is not {tp.__name__}"]


def _tables(sections: list[dict]):
    for section in sections:
        yield from section.get("tables", [])
        yield from _tables(section.get("subsections", []))


def test_the_example_output_holds_exactly_the_typed_keys():
    document = json.loads(EXAMPLE.read_text())
    assert conforms(document, dt.Document, "document") == []
    schedules = [t["schedule"] for t in _tables(document["toc"] + document["non_toc"]) if "schedule" in t]
    assert schedules, "the example protocol prints a schedule of activities: its types were checked"
    assert document["study"].get("design"), "the example protocol prints a design"


def test_a_wrong_value_is_found():
    footnote = {"marker": "a", "text": 3}
    assert conforms(footnote, dt.Footnote, "f") == ["f.text: 3 is not str"]
    assert conforms({"marker": "a"}, dt.Footnote, "f") == ["f: Footnote key 'text' missing"]
