"""What comes after the tree, per corpus protocol: chunks, references, USDM validity.

    python benchmarks/exports.py [--corpus ../shared/corpus] [--usdm ../shared/usdm/USDM_API.json]

Prints, per document: chunk records (and text chunks), the largest text chunk's token count
(default counter, 512 budget), section/appendix mentions resolved, table/figure mentions
resolved, the schedules exported as USDM (timelines / encounters / activities) and whether every
USDM object validates against CDISC's schema.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from scoring.tree import flatten

from clinparser import PDFParser
from clinparser.export.chunks import Chunker
from clinparser.export.usdm import (
    document_version,
    narrative_items,
    schema_validator,
    study_design,
    to_usdm,
    usdm_errors,
)

ROOT = Path(__file__).resolve().parent.parent


def share(kinds: set[str], nodes: list[dict]) -> str:
    refs = [r for n in nodes for r in n["references"] if r["kind"] in kinds]
    ok = sum(1 for r in refs if r["target"] is not None)
    return f"{ok}/{len(refs)} ({100 * ok / len(refs):.0f}%)" if refs else "none"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    ap.add_argument("--usdm", type=Path, default=ROOT.parent / "shared" / "usdm" / "USDM_API.json")
    args = ap.parse_args(argv)
    docs = sorted(p for p in args.corpus.iterdir() if p.suffix in (".pdf", ".docx")) if args.corpus.is_dir() else []
    if not docs:
        print(f"no documents under {args.corpus}", file=sys.stderr)
        return 1
    validate = schema_validator(args.usdm) if args.usdm.is_file() else None
    print(
        "| document | chunk records | text chunks | largest text chunk (tokens) | section/appendix refs resolved "
        "| table/figure refs resolved | USDM objects | USDM schedules (timelines/encounters/activities) | USDM valid |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for doc in docs:
        result = PDFParser().parse(doc, output_dir=None)
        records = Chunker(max_tokens=512, overlap=64).document(result)
        texts = [r for r in records if r["metadata"]["kind"] == "text"]
        nodes = flatten(result["toc"]) + flatten(result["non_toc"])
        usdm = to_usdm(result)
        design = study_design(usdm)
        lists = [design.get(k) or [] for k in ("scheduleTimelines", "encounters", "activities")]
        # the narrative and schedule objects, and their document version (the count before issue 47)
        count = len(document_version(usdm)["contents"]) + len(narrative_items(usdm)) + 1
        count += sum(len(design.get(k) or []) for k in ("epochs", "encounters", "activities", "scheduleTimelines"))
        valid = "schema absent" if validate is None else ("yes" if not usdm_errors(usdm, validate) else "NO")
        print(
            f"| {doc.stem} | {len(records)} | {len(texts)} "
            f"| {max((r['metadata']['token_count'] for r in texts), default=0)} "
            f"| {share({'section', 'appendix'}, nodes)} | {share({'table', 'figure'}, nodes)} | {count} "
            f"| {'/'.join(str(len(x)) for x in lists)} | {valid} |",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
