"""Many protocols in one run: ``clinparser batch INPUT... -o OUT``.

    OUT/
        manifest.jsonl            one line per document: source, sha256, status, error, pages,
                                  sections, warnings, seconds, output
        chunks.jsonl              with --format chunks --combined-chunks: every document's chunks
        <name>-<sha256[:12]>/     one folder per document (the files ``clinparser`` writes),
            batch.json            plus what it was made from: sha256, options, counts

OUT is a local folder or any fsspec URL (``s3://bucket/run``, ``gs://...``, ``file://...``;
``batch_output`` says what is atomic where). A document's folder is named from its file name
and content hash, so reruns and same-named files never collide, and it counts as complete only
once its ``batch.json`` is there (in a local folder the whole folder appears at once, written
under a temporary name, then renamed; on a URL the marker is written last). A rerun skips every
document whose folder's ``batch.json`` has the same sha256 and options; leftovers of an
interrupted run are removed. A failure is one ``failed`` line with its one-line error, never
the end of the batch.

Documents run in worker processes (``convert.worker_processes``, the ones the layout converter
uses: nothing of the caller's ``__main__`` is re-run) or, with ``ray``, as one Ray task each
(``batch_ray``). Either way the task (``parse_one``) writes the document's folder itself and
returns its manifest line; the driver alone writes the manifest. Pages converted are reported
to the driver as they go (``on_pages``), from worker processes and from Ray tasks alike.
"""

from __future__ import annotations

import glob
import json
import shutil
from dataclasses import replace
from pathlib import Path
from typing import Callable, Iterable, Iterator, Optional, Union

from ..convert.inspect_input import sha256_file
from ..errors import InputError, OutputError
from .output import PARTIAL, load_marker, location, open_output, staging
from .task import Job, Settings, parse_one, record  # noqa: F401  (Settings: the batch's public options)

SUFFIXES = (".pdf", ".docx")
MANIFEST = "manifest.jsonl"
COMBINED_CHUNKS = "chunks.jsonl"
LEFTOVERS = (PARTIAL + "*", ".clinparser-old-*")  # what an interrupted write leaves
NAME_MAX = 40  # characters of the file name kept in the folder name


# -- what to parse -------------------------------------------------------------------------


def find_inputs(inputs: Iterable[str]) -> list[Path]:
    """Files as given, the PDF/DOCX files under given folders (recursively), and glob matches;
    each once, in the order given (a folder's files sorted). An input matching nothing is an error."""
    found: list[Path] = []
    for given in inputs:
        path = Path(given)
        if path.is_dir():
            matches = sorted(
                p
                for p in path.rglob("*")
                if p.is_file() and p.suffix.lower() in SUFFIXES and not p.name.startswith(".")
            )
        elif path.exists():
            matches = [path]
        else:
            matches = sorted(Path(p) for p in glob.glob(given, recursive=True) if Path(p).is_file())
        if not matches:
            raise InputError(f"{given}: no such file, folder, or matching PDF/DOCX")
        found.extend(matches)
    seen, unique = set(), []
    for path in found:
        if path.resolve() not in seen:
            seen.add(path.resolve())
            unique.append(path)
    return unique


def folder_name(path: Path, sha256: str) -> str:
    from ..export.artifacts import slug

    return f"{slug(path.stem, NAME_MAX)}-{sha256[:12]}"


def plan(paths: list[Path]) -> list[Job]:
    jobs = []
    for path in paths:
        try:
            digest, size = sha256_file(path), path.stat().st_size
        except OSError as exc:  # unreadable: a failed line, like any other document's failure
            jobs.append(
                Job(str(path), str(path.resolve()), "", "", 0, f"{path}: cannot be read: {exc.strerror or exc}")
            )
            continue
        jobs.append(
            Job(source=str(path), path=str(path.resolve()), sha256=digest, output=folder_name(path, digest), size=size)
        )
    return jobs


# -- one document (runs in a worker process or a Ray task) ---------------------------------------


# -- the driver ------------------------------------------------------------------------------


def already_done(job: Job, settings: Settings, out: Union[Path, str]) -> Optional[dict]:
    """The manifest line for a document whose complete output, from these options, is there."""
    return done_line(job, settings, open_output(out).markers([job.output]).get(job.output))


def done_line(job: Job, settings: Settings, marker: Optional[bytes]) -> Optional[dict]:
    """Complete output means: its folder's marker is there and says these bytes, these options.
    The marker is the last thing written (in a local folder the folder appears with it)."""
    made = load_marker(marker)
    if made is None or made.get("sha256") != job.sha256 or made.get("options") != settings.key():
        return None
    return record(job, "skipped", pages=made.get("pages"), sections=made.get("sections"), warnings=made.get("warnings"))


def remove_leftovers(out: Union[Path, str]) -> None:
    """Temporary folders of writes an earlier run did not finish (killed mid-write)."""
    open_output(out).remove_leftovers(LEFTOVERS)


# (jobs, settings, out, on_pages) -> (job, its line) as each finishes
Runner = Callable[[list[Job], Settings, str, Optional[Callable[[str, int, int], None]]], Iterator[tuple[Job, dict]]]


def run_batch(
    inputs: Iterable[str],
    out: Union[Path, str],
    settings: Settings,
    *,
    ray_address: Optional[str] = None,
    combined_chunks: bool = False,
    on_record: Optional[Callable[[dict], None]] = None,
    on_plan: Optional[Callable[[int], None]] = None,
    on_pages: Optional[Callable[[str, int, int], None]] = None,
) -> list[dict]:
    """Parse every input into ``out`` (a local folder or an fsspec URL); return the manifest
    lines, in input order.

    Local runs use ``settings.options.workers`` processes in all (documents side by side, each
    with its share of them for its pages); with ``ray_address`` ("auto" or a cluster address)
    every document is one Ray task. ``on_record`` is called with each line as it is known, and
    ``on_pages(source, done, total)`` as a document's pages are converted.
    """
    output = open_output(out)
    if ray_address and not output.shared:
        raise OutputError(
            f"{out} is in this process's memory, which Ray tasks cannot write to: "
            "give -o a folder or URL every node reaches"
        )
    jobs = plan(find_inputs(inputs))
    if on_plan:
        on_plan(len(jobs))
    output.prepare()
    output.remove_leftovers(LEFTOVERS)
    lines, todo = _split_done(jobs, settings, output)
    with output.log(MANIFEST) as log:

        def note(k: int, line: dict) -> None:
            lines[k] = line
            log.add(
                json.dumps(line, ensure_ascii=False, sort_keys=True) + "\n"
            )  # a killed run keeps the lines of what it finished
            if on_record:
                on_record(line)

        for k in sorted(lines):
            note(k, lines[k])
        try:
            runner = _ray_runner(ray_address) if ray_address else _local_runner
            index = {id(job): k for k, job in todo}
            ordered = longest_first([job for _, job in todo])
            with staging(output) as staged:
                for job, line in (
                    runner(ordered, settings, str(staged) if staged else output.for_tasks(), on_pages)
                    if ordered
                    else ()
                ):
                    note(index[id(job)], _publish_staged(output, staged, job, line) if staged else line)
        finally:
            output.remove_leftovers(LEFTOVERS)
    ordered_lines = [lines[k] for k in sorted(lines)]
    output.write_text(
        MANIFEST, "".join(json.dumps(line, ensure_ascii=False, sort_keys=True) + "\n" for line in ordered_lines)
    )
    if combined_chunks:
        _combine_chunks(output, ordered_lines)
    return ordered_lines


def manifest_location(out: Union[Path, str]) -> str:
    return location(out, MANIFEST)


def _publish_staged(output, staged: Path, job: Job, line: dict) -> dict:
    """A folder a worker wrote locally, uploaded by the driver (outputs workers cannot reach)."""
    if line["status"] != "ok":
        return line
    try:
        output.publish(staged / job.output, job.output)
    except OutputError as exc:
        return {
            **line,
            "status": "failed",
            "error": str(exc),
            "output": None,
            "pages": None,
            "sections": None,
            "warnings": None,
        }
    finally:
        shutil.rmtree(staged / job.output, ignore_errors=True)
    return line


DOCX_BYTES_PER_PAGE = 50_000  # a Word file has no page count; this guess only orders the work


def work_of(job: Job) -> int:
    """The work a document will take, in pages: a PDF's page count (its bytes say little: a
    0.2 MB text PDF of 97 pages takes longer than a 3.5 MB one of 63 with pictures), a Word
    file's size over ``DOCX_BYTES_PER_PAGE``. Unreadable files count as none: they fail at once."""
    if job.error:
        return 0
    if Path(job.path).suffix.lower() != ".pdf":
        return job.size // DOCX_BYTES_PER_PAGE
    import pymupdf

    try:
        with pymupdf.open(job.path) as pdf:
            return pdf.page_count
    except Exception:  # damaged or encrypted: it will be a failed line, found by its own task
        return 0


def longest_first(jobs: list[Job]) -> list[Job]:
    """The documents in decreasing order of work, ties in input order: the longest does not
    start last and run alone while the other processes idle (longest-processing-time first).
    With one document there is nothing to order, and nothing is opened."""
    if len(jobs) < 2:
        return list(jobs)
    work = {id(job): work_of(job) for job in jobs}
    return sorted(jobs, key=lambda job: -work[id(job)])


def _split_done(jobs: list[Job], settings: Settings, output) -> tuple[dict[int, dict], list[tuple[int, Job]]]:
    """The lines of documents already done (by input position), and the documents to parse."""
    lines: dict[int, dict] = {}
    todo: list[tuple[int, Job]] = []
    first_of: dict[str, int] = {}
    markers = output.markers(sorted({job.output for job in jobs if job.sha256}))  # one look for all
    for k, job in enumerate(jobs):
        done = done_line(job, settings, markers.get(job.output)) if job.sha256 else None
        if job.sha256 and job.output in first_of:  # the same file (name and content) again
            done = {**record(job, "skipped"), "error": f"same file as {jobs[first_of[job.output]].source}"}
        if job.sha256:
            first_of.setdefault(job.output, k)
        if done is not None:
            lines[k] = done
        else:
            todo.append((k, job))
    return lines, todo


def _local_runner(jobs: list[Job], settings: Settings, out: str, on_pages=None) -> Iterator[tuple[Job, dict]]:
    """Documents side by side in worker processes: as many as ``workers`` allows (at most one a
    document), each document's pages on its share of them."""
    from concurrent.futures import FIRST_COMPLETED, wait

    from ..workers.worker_processes import WorkerDied, WorkerPool

    if not jobs:
        return
    total = max(1, settings.options.workers)
    processes = min(len(jobs), total)
    each = replace(settings, options=replace(settings.options, workers=max(1, total // processes)))
    pool = WorkerPool(
        processes, start=processes, on_note=(lambda future, pages: on_pages(*pages)) if on_pages else None
    )
    try:
        pending = {pool.submit(parse_one, job, each, out): job for job in jobs}
        while pending:
            done, _ = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                job = pending.pop(future)
                try:
                    line = future.result()
                except WorkerDied:
                    line = record(
                        job,
                        "failed",
                        f"{job.source}: the process parsing it died (out of memory, or a crash in the converter)",
                    )
                yield job, line
    except BaseException:
        pool.terminate()  # Ctrl-C or a kill: stop now; the unfinished folders are leftovers
        raise
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _ray_runner(address: str) -> Runner:
    from .on_ray import run_on_ray

    return lambda jobs, settings, out, on_pages: run_on_ray(jobs, settings, out, address, on_pages)


def _combine_chunks(output, lines: list[dict]) -> None:
    """One chunks.jsonl for the whole batch, documents in input order, for a bulk loader."""
    names = [
        f"{line['output']}/{COMBINED_CHUNKS}"
        for line in lines
        if line["status"] != "failed" and line["output"] and not line.get("error")
    ]
    found = output.read_texts(names)
    output.write_text(COMBINED_CHUNKS, "".join(found[name] for name in names if name in found))


def summary(lines: list[dict]) -> dict:
    counts = {status: sum(line["status"] == status for line in lines) for status in ("ok", "skipped", "failed")}
    counts["pages"] = sum(line["pages"] or 0 for line in lines if line["status"] == "ok")
    return counts
