"""The one pipeline both the CLI and the API call: convert -> clean -> sections -> assemble -> write."""

from __future__ import annotations

from dataclasses import dataclass
from importlib import metadata as importlib_metadata
from pathlib import Path
from typing import Optional, Protocol

from .clean.clean_text import clean_blocks, clean_entries, unmapped_warning
from .clean.furniture import mark_furniture
from .content.assemble import Tree, assemble
from .content.references import resolve_references
from .convert import convert
from .convert.inspect_input import sha256_file
from .convert.options import ParseOptions
from .convert.pages.page_recovery import count_pictures_read, ledger_warnings
from .convert.pictures.picture_words import summary as picture_summary
from .convert.pictures.picture_words import unread_warning
from .diagnostics import summarize
from .document_types import Metadata, Study
from .model import Converted
from .schedule.find import attach_schedules
from .shared.numbering import normalize_number
from .structure.bundles import split_documents
from .structure.outline import OutlineIndex, PrintedToc, find_printed_toc, number_bookmarks
from .structure.recover import merge, outline_candidates, outline_titled_candidates
from .structure.sections import Choice, find_candidates, join_title_lines, split_merged_headings, split_outline_headings
from .study.definition import read_study
from .version import __version__


class Reporter(Protocol):
    def stage(self, name: str) -> None: ...
    def pages(self, done: int, total: int) -> None: ...
    def pictures(self, done: int, total: int) -> None: ...  # pictures whose words OCR read, after the pages


class _Silent:
    def stage(self, name: str) -> None:
        pass

    def pages(self, done: int, total: int) -> None:
        pass

    def pictures(self, done: int, total: int) -> None:
        pass


@dataclass
class Parsed:
    """A parse in memory: the tree, its metadata, and the blocks it came from."""

    tree: Tree
    metadata: Metadata
    converted: Converted
    printed_toc: PrintedToc
    study: Optional[Study] = None  # the study definition (clinparser.study), once read

    def to_dict(self) -> dict:
        """The result: ``{"toc": [...], "non_toc": [...], "metadata": {...}, "study": {...}}``."""
        out = {
            "toc": [s.to_dict() for s in self.tree.toc],
            "non_toc": [s.to_dict() for s in self.tree.non_toc],
            "metadata": self.metadata,
        }
        if self.study is not None:
            out["study"] = self.study
        return out


def parse_document(path: Path, options: ParseOptions, reporter: Optional[Reporter] = None) -> Parsed:
    reporter = reporter or _Silent()
    path = Path(path)
    reporter.stage("converting")
    converted = convert(path, options, progress=reporter.pages, picture_progress=reporter.pictures)
    reporter.stage("finding sections")
    blocks = converted.blocks
    unmapped = clean_blocks(blocks)
    converted.bookmarks = number_bookmarks(converted.bookmarks)
    clean_entries(converted.bookmarks)
    mark_furniture(blocks, converted.page_sizes, converted.page_count)
    count_pictures_read(converted.pages, blocks)
    printed = find_printed_toc(blocks)
    for block in blocks:
        if block.page in printed.pages and not block.dropped:
            block.dropped = "toc"
    blocks = converted.blocks = join_title_lines(split_merged_headings(blocks))
    outline_entries = printed.entries + converted.bookmarks
    outline = OutlineIndex(outline_entries)
    blocks = converted.blocks = split_outline_headings(blocks, outline)
    candidates = find_candidates(blocks, outline)
    recovered = outline_candidates(blocks, outline_entries, candidates) + outline_titled_candidates(
        blocks, outline_entries, candidates
    )
    candidates = merge(candidates, recovered)
    choice, documents = split_documents(blocks, candidates, printed.starts)
    reporter.stage("attaching text, tables, images and references")
    tree = assemble(blocks, choice.sections, outline.unnumbered, documents)
    unresolved = resolve_references(tree.toc, tree.non_toc)
    schedule_warnings = attach_schedules(tree, ocr=options.ocr_allowed)
    warnings = (
        list(converted.warnings)
        + ledger_warnings(converted.pages)
        + unread_warning(converted.blocks)
        + unmapped_warning(unmapped)
        + schedule_warnings
    )
    if not tree.toc:
        warnings.append("no numbered sections found: everything is in non_toc")
    for m in choice.missing_parents:
        warnings.append(f"section {m['number']} has no parent section: attached to the nearest ancestor")
    for d in documents:
        warnings.append(f"a bundled document follows or wraps the protocol: {d.title!r}, kept in non_toc")
    metadata = _metadata(path, converted, choice, outline_entries, warnings, documents)
    metadata["diagnostics"]["summary"] = summarize(choice, outline_entries, documents, blocks)
    metadata["pictures"] = {**picture_summary(converted.blocks), "tables": _picture_tables(tree)}
    metadata["diagnostics"]["unresolved_references"] = unresolved
    reporter.stage("reading the study definition")
    parsed = Parsed(tree=tree, metadata=metadata, converted=converted, printed_toc=printed)
    # The readers read the result as it is written (and the blocks as blocks.json lists them).
    parsed.study = read_study(parsed.to_dict(), [b.to_dict() for b in converted.blocks])
    return parsed


def _picture_tables(tree) -> int:
    """Tables read from pictures (``content/picture_tables``)."""
    nodes = [n for top in tree.toc + tree.non_toc for n in top.walk()]
    return sum(t.from_ocr for n in nodes for t in n.tables)


def _version(dist: str) -> Optional[str]:
    try:
        return importlib_metadata.version(dist)
    except importlib_metadata.PackageNotFoundError:
        return None


def _diagnostics(choice: Choice, outline_entries, documents) -> dict:
    # A bundled document's contents list its own headings: found there is found.
    found = {normalize_number(c.number.label) for c in choice.sections + [c for d in documents for c in d.sections]}
    missing, seen = [], set()
    for e in outline_entries:
        key = normalize_number(e.number) if e.number else ""
        if key and key not in found and key not in seen:
            seen.add(key)
            missing.append({"number": e.number, "title": e.title, "page": e.page, "source": e.source})
    return {
        "toc_entries_missing_in_body": missing,
        "numbering_gaps": choice.gaps,
        "missing_parents": choice.missing_parents,
        "duplicate_numbers": choice.duplicates,
        "out_of_order": choice.out_of_order,
        # Sections whose number is not in the text (an image, automatic numbering): read from the outline.
        "numbers_from_outline": [
            {"number": c.number.label, "title": c.title, "page": c.page, "source": c.source}
            for c in choice.sections
            if c.source in ("bookmark", "printed")
        ],
        # Sections whose number is in the text but whose title is not (blacked out): titled from the outline.
        "titles_from_outline": [
            {"number": c.number.label, "title": c.title, "page": c.page, "source": c.title_source}
            for c in choice.sections
            if c.title_source != "text"
        ],
    }


def _metadata(path: Path, converted: Converted, choice: Choice, outline_entries, warnings, documents) -> Metadata:
    return {
        "source": path.name,
        "sha256": sha256_file(path),
        "page_count": converted.page_count,
        "engine": converted.engine,
        "versions": {
            "clinparser": __version__,
            "docling": _version("docling"),
            "pymupdf": _version("pymupdf"),
            "pymupdf4llm": _version("pymupdf4llm"),
        },
        "warnings": warnings,
        "diagnostics": _diagnostics(choice, outline_entries, documents),
        "pages": [record.to_dict() for record in converted.pages],
    }
