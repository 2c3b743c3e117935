"""One document's task in a batch: what it is (``Job``), what applies to all (``Settings``),
and the work itself (``parse_one``), run in a worker process or a Ray task alike.

Both runners (``run`` locally, ``on_ray`` on a cluster) call into here, so it sits below both."""

from __future__ import annotations

import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Optional

from ..convert.inspect_input import sha256_file
from ..convert.options import ParseOptions
from ..errors import ClinParserError, InputError
from ..version import __version__
from .output import MARKER, is_url, open_output


@dataclass
class Settings:
    """What applies to every document of a batch."""

    options: ParseOptions = field(default_factory=ParseOptions)
    save_intermediate_files: bool = True
    save_images: bool = True
    save_table_csv: bool = True
    fmt: str = "tree"
    max_tokens: int = 512
    overlap: int = 64
    tokenizer: Optional[Path] = None

    def key(self) -> dict:
        """The options that shape a document's output: a rerun with other ones parses again.
        The worker count is not one of them (the output is the same for any), nor the password."""
        o = self.options
        key = {
            "clinparser": __version__,
            "engine": o.engine,
            "ocr": o.ocr,
            "image_dpi": o.image_dpi,
            "min_image_size": o.min_image_size,
            "layout": o.layout,
            "max_pages": o.max_pages,
            "save_intermediate_files": self.save_intermediate_files,
            "save_images": self.save_images,
            "save_table_csv": self.save_table_csv,
            "format": self.fmt,
        }
        if self.fmt == "chunks":
            key.update(
                max_tokens=self.max_tokens,
                overlap=self.overlap,
                tokenizer=sha256_file(self.tokenizer) if self.tokenizer else None,
            )
        return key


@dataclass
class Job:
    source: str  # the path as found (as given, or inside a given folder)
    path: str  # absolute, for the process or node that parses it
    sha256: str
    output: str  # the document's folder name under OUT
    size: int
    error: Optional[str] = None  # why it cannot even be read


def record(
    job: Job, status: str, error: Optional[str] = None, pages=None, sections=None, warnings=None, seconds=0.0
) -> dict:
    """One manifest line."""
    return {
        "source": job.source,
        "sha256": job.sha256 or None,
        "status": status,
        "error": error,
        "pages": pages,
        "sections": sections,
        "warnings": warnings,
        "seconds": round(seconds, 2),
        "output": job.output if status != "failed" else None,
    }


def parse_one(job: Job, settings: Settings, out: str, notes: Optional[Callable[[tuple], None]] = None) -> dict:
    """Parse one document, write its folder under ``out`` (a local folder or a URL), and return
    its manifest line. ``notes`` gets ``(source, pages done, pages)`` as pages are converted
    (default: to the driver of this worker process). Never raises for a problem with the
    document: that is a ``failed`` line with its one-line error."""
    from ..export.artifacts import SaveOptions, dumps
    from ..export.formats import extra_files
    from ..pipeline import parse_document

    start = time.perf_counter()
    try:
        if job.error:
            raise InputError(job.error)
        parsed = parse_document(Path(job.path), settings.options, _PageNotes(job.source, notes))
        extras = extra_files(settings.fmt, settings.max_tokens, settings.overlap, settings.tokenizer)
        result = parsed.to_dict()
        counts = {
            "pages": parsed.converted.page_count,
            "sections": _count(result["toc"]),
            "warnings": len(result["metadata"]["warnings"]),
        }
        marker = dumps({"sha256": job.sha256, "options": settings.key(), **counts})

        def files(final: dict) -> dict[str, str]:
            return {**(extras(final) if extras else {}), MARKER: marker}

        save = SaveOptions(settings.save_intermediate_files, settings.save_images, settings.save_table_csv)
        _write(parsed, out, save, files, job, settings.options.password)
    except ClinParserError as exc:
        return record(job, "failed", str(exc), seconds=time.perf_counter() - start)
    except Exception as exc:  # a bug: still one line, and the batch goes on
        return record(
            job,
            "failed",
            f"internal error ({type(exc).__name__}: {exc}); rerun this file with --debug and report it",
            seconds=time.perf_counter() - start,
        )
    return record(job, "ok", seconds=time.perf_counter() - start, **counts)


def _write(parsed, out: str, save, files, job: Job, password: Optional[str]) -> None:
    """The document's folder under ``out``: in place for a local folder; for a URL, made in a
    local temporary folder the same way (the same bytes), then uploaded."""
    from ..export.artifacts import write_output

    if not is_url(out):
        write_output(parsed, Path(out), save, files, source=Path(job.path), password=password, name=job.output)
        return
    output = open_output(out)  # opened here, in the worker or Ray task: its own connection
    with tempfile.TemporaryDirectory(prefix="clinparser-batch-") as stage:
        folder = write_output(
            parsed, Path(stage), save, files, source=Path(job.path), password=password, name=job.output
        )
        output.publish(folder, job.output)


class _PageNotes:
    """Pages done, sent to the batch's driver: through ``send``, or as notes of this worker
    process (a no-op outside one)."""

    def __init__(self, source: str, send: Optional[Callable[[tuple], None]] = None):
        self.source, self.send = source, send

    def stage(self, name: str) -> None:
        pass

    def pages(self, done: int, total: int) -> None:
        from ..workers.worker_main import note

        (self.send or note)((self.source, done, total))

    def pictures(self, done: int, total: int) -> None:
        pass  # the batch counts pages


def _count(nodes: list[dict]) -> int:
    return sum(1 + _count(node["subsections"]) for node in nodes)
