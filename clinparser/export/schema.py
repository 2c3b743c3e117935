"""Check a result against ``schemas/document.schema.json`` (jsonschema does the work)."""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources
from pathlib import Path

import jsonschema

from ..errors import SchemaError

SCHEMA_NAME = "document.schema.json"


@lru_cache(maxsize=1)
def load_schema() -> dict:
    try:  # installed: the top-level schemas/ folder ships as clinparser.schemas
        text = resources.files("clinparser.schemas").joinpath(SCHEMA_NAME).read_text(encoding="utf-8")
    except (ModuleNotFoundError, FileNotFoundError):  # running from a source checkout
        text = (Path(__file__).resolve().parents[2] / "schemas" / SCHEMA_NAME).read_text(encoding="utf-8")
    return json.loads(text)


def errors(result: dict) -> list[str]:
    """Every schema violation, as 'where: what', in a stable order (empty when valid)."""
    validator = jsonschema.Draft202012Validator(load_schema())
    found = sorted(validator.iter_errors(result), key=lambda e: list(map(str, e.absolute_path)))
    return [f"{'/'.join(map(str, e.absolute_path)) or '(root)'}: {e.message}" for e in found]


def check(result: dict) -> None:
    """Raise SchemaError when ``result`` breaks the project's own schema: a file that does not
    match what the project promises is never written as if it did."""
    problems = errors(result)
    if problems:
        raise SchemaError(
            f"the result does not match clinparser's own schema ({len(problems)} problems), "
            f"first: {problems[0]}; nothing was written: please report this with the input file"
        )
