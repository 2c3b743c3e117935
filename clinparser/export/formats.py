"""The output formats: what ``--format`` makes from a finished result besides the tree.

The CLI and the batch runner both call ``extra_files``, so it lives below both of them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Optional

from ..errors import InputError

FORMATS = ("tree", "chunks", "usdm")  # what --json prints; chunks/usdm also add their file
EXTRA_FILE = {"chunks": "chunks.jsonl", "usdm": "usdm.json"}


def extra_files(fmt: str, max_tokens: int, overlap: int, tokenizer: Optional[Path]):
    """The extra output file a format adds, made from the final result; None for 'tree'."""
    if fmt not in FORMATS:
        raise InputError(f"unknown --format {fmt!r}: choose one of {', '.join(FORMATS)}")
    if fmt == "chunks":
        from .chunks import Chunker, tokenizer_counter

        if tokenizer is not None and not tokenizer.is_file():
            raise InputError(f"{tokenizer}: no such tokenizer file (give a local tokenizer.json)")
        try:
            chunker = Chunker(max_tokens, overlap, tokenizer_counter(tokenizer) if tokenizer else None)
        except ValueError as exc:
            raise InputError(f"{exc}") from exc
        except Exception as exc:  # tokenizers raises its own exception type for a bad file
            raise InputError(f"{tokenizer} is not a tokenizer.json the tokenizers library can load: {exc}") from exc
        return lambda result: {
            "chunks.jsonl": "".join(
                json.dumps(r, ensure_ascii=False, sort_keys=True) + "\n" for r in chunker.document(result)
            )
        }
    if fmt == "usdm":
        from .artifacts import dumps
        from .usdm import to_usdm

        return lambda result: {"usdm.json": dumps(to_usdm(result))}
    return None
