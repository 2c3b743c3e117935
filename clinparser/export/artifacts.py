"""Write artifacts: the output folder, built in a temporary sibling and renamed into place, so
a failure leaves nothing half-written. Every path written is inside that folder.

    <output_dir>/<YYYYMMDD-HHMMSS>/
        document.json   the whole result          toc.json   the section tree
        markdown.md     the converter's Markdown  blocks.json  layout blocks (page, bbox, kind)
        tables/<section>/table_NNN.csv            images/<section>/image_NNN.png
        chunks.jsonl / usdm.json                  with --format chunks / usdm
        report.html, pages/page_NNNN.png          the review page (report.py), unless --no-report
"""

from __future__ import annotations

import json
import os
import re
import shutil
import tempfile
import time
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterable, Optional

from ..content.tables import write_csv
from ..errors import OutputError
from ..model import Section
from ..review.report import build_report
from .schema import check

if TYPE_CHECKING:  # the pipeline hands its result here; importing it back would tie the two
    from ..pipeline import Parsed

SLUG_MAX = 60


@dataclass
class SaveOptions:
    save_intermediate_files: bool = True
    save_images: bool = True
    save_table_csv: bool = True
    save_report: bool = True


def slug(text: str, limit: int = SLUG_MAX) -> str:
    """Safe file-name part: ASCII letters, digits, '.', '_' and '-' only; never '.' or '..'."""
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    text = re.sub(r"[^A-Za-z0-9._-]+", "_", text).strip("._-")
    text = re.sub(r"_+", "_", text)[:limit].strip("._-")
    return text or "section"


def section_folders(nodes: Iterable[Section]) -> dict[int, str]:
    """A unique folder name per node (keyed by id), stable in document order."""
    names: dict[int, str] = {}
    used: set[str] = set()
    for node in nodes:
        base = slug(f"{node.number.rstrip('.')}_{node.title}" if node.number else node.title or "front_matter")
        name, n = base, 2
        while name.lower() in used:
            name, n = f"{base}-{n}", n + 1
        used.add(name.lower())
        names[id(node)] = name
    return names


def _all_nodes(parsed: Parsed) -> list[Section]:
    out = []
    for root in parsed.tree.toc + parsed.tree.non_toc:
        out.extend(root.walk())
    return out


def assign_paths(parsed: Parsed, options: SaveOptions) -> list[tuple[str, object]]:
    """Set each table's and image's ``path`` (or None) and list the files to write."""
    nodes = _all_nodes(parsed)
    folders = section_folders(nodes)
    files: list[tuple[str, object]] = []
    for node in nodes:
        for k, table in enumerate(node.tables, 1):
            table.path = f"tables/{folders[id(node)]}/table_{k:03d}.csv" if options.save_table_csv else None
            if table.path:
                files.append((table.path, table))
        for k, image in enumerate(node.images, 1):
            image.path = f"images/{folders[id(node)]}/image_{k:03d}.png" if options.save_images else None
            if image.path:
                files.append((image.path, image.png))
    return files


def dumps(data) -> str:
    return json.dumps(data, ensure_ascii=False, indent=2, sort_keys=True) + "\n"


def _target(output_dir: Path) -> Path:
    stamp = time.strftime("%Y%m%d-%H%M%S")
    target, n = output_dir / stamp, 2
    while target.exists():
        target, n = output_dir / f"{stamp}-{n}", n + 1
    return target


def _blocks_json(parsed: Parsed) -> list[dict]:
    return [b.to_dict() for b in parsed.converted.blocks]


def write_output(
    parsed: Parsed,
    output_dir: Path,
    options: SaveOptions,
    extras: Optional[Callable[[dict], dict[str, str]]] = None,
    source: Optional[Path] = None,
    password: Optional[str] = None,
    name: Optional[str] = None,
) -> Path:
    """Write everything into a fresh ``output_dir/<timestamp>`` folder and return it.

    ``extras`` makes more files from the final result (paths assigned), e.g. chunks.jsonl.
    ``name`` names the folder instead of the time (``batch``), replacing one of that name.
    ``source`` (and its ``password``) is the parsed file, for the report's page pictures.
    """
    files = assign_paths(parsed, options)
    result = parsed.to_dict()
    check(result)  # a result that breaks the schema fails here, loudly, before anything is written
    files += list((extras(result) if extras else {}).items())
    try:
        output_dir.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix=".clinparser-partial-", dir=output_dir))
    except OSError as exc:
        raise OutputError(f"cannot write to {output_dir}: {exc.strerror or exc}") from exc
    try:
        _write_all(tmp, parsed, result, files, options)
        if options.save_report:  # last: it reads the folder just written
            build_report(tmp, source, password)
        target = output_dir / name if name else _target(output_dir)
        _move_into_place(tmp, target)
    except OSError as exc:
        shutil.rmtree(tmp, ignore_errors=True)
        raise OutputError(f"cannot write to {output_dir}: {exc.strerror or exc}") from exc
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return target


def _move_into_place(tmp: Path, target: Path) -> None:
    """Rename ``tmp`` to ``target``; an existing ``target`` is first renamed aside (a directory
    cannot be renamed over a non-empty one), so that ``target`` is never seen half-written."""
    if not target.exists():
        os.replace(tmp, target)
        return
    old = Path(tempfile.mkdtemp(prefix=".clinparser-old-", dir=target.parent))
    os.replace(target, old / target.name)
    os.replace(tmp, target)
    shutil.rmtree(old, ignore_errors=True)


def _inside(root: Path, rel: str) -> Path:
    path = (root / rel).resolve()
    if not path.is_relative_to(root.resolve()):
        raise OutputError(f"refusing to write {rel!r} outside the output folder")
    return path


def _write_all(root: Path, parsed: Parsed, result: dict, files, options: SaveOptions) -> None:
    (root / "document.json").write_text(dumps(result), encoding="utf-8")
    (root / "toc.json").write_text(dumps(result["toc"]), encoding="utf-8")
    if options.save_intermediate_files:
        md = "\n\n".join(b.text for b in parsed.converted.blocks if b.text)
        (root / "markdown.md").write_text(md + "\n", encoding="utf-8")
        (root / "blocks.json").write_text(dumps(_blocks_json(parsed)), encoding="utf-8")
    for rel, payload in files:
        path = _inside(root, rel)
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(payload, bytes):
            path.write_bytes(payload)
        elif isinstance(payload, str):
            path.write_text(payload, encoding="utf-8")
        else:
            write_csv(payload, path)
