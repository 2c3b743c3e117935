"""Command line (typer): a thin shell over ``pipeline.parse_document`` and ``artifacts``.

clinparser PATH [options]       parse; print the output folder (or the JSON with --json)
clinparser chunks PATH [...]    the same, plus chunks.jsonl (= --format chunks)
clinparser usdm PATH [...]      the same, plus usdm.json (= --format usdm)
clinparser validate FILE.json   check a result against the schema
clinparser report OUTPUT_DIR    (re)build report.html in a finished output folder
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from .convert.options import OcrMode, ParseOptions
from .errors import ClinParserError, InputError, SchemaError
from .export.formats import EXTRA_FILE, FORMATS, extra_files
from .version import __version__

# The pipeline and artifacts modules are imported inside the commands: ``--help`` and
# ``--version`` stay instant, and so does the start of each layout worker process.

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    help="Clinical protocol (PDF/DOCX) -> JSON tree of its numbered sections.",
)
err = Console(stderr=True)
COMMANDS = {"parse", "batch", "validate", "report"}
BATCH_FAILED = 10  # exit code of a batch in which some documents failed (see manifest.jsonl)
DEFAULTS = ParseOptions()

# The options parse and batch share, declared once (typer reads the Annotated metadata).
EngineOpt = Annotated[
    str, typer.Option("--engine", help="pymupdf (default, nothing to download) or docling (needs --models).")
]
ModelsOpt = Annotated[
    Optional[Path], typer.Option("--models", help="Local folder of docling's models (or set DOCLING_ARTIFACTS_PATH).")
]
OcrOpt = Annotated[
    str,
    typer.Option(
        "--ocr",
        help="auto: OCR the pages whose text layer is missing or unreadable (RapidOCR's bundled models); "
        "always: every page; never. --ocr alone means always.",
    ),
]
PasswordOpt = Annotated[Optional[str], typer.Option("--password", help="Password of the encrypted PDF(s).")]
ImageDpiOpt = Annotated[int, typer.Option("--image-dpi", min=36, max=600, help="Resolution of rendered figures.")]
MinImageSizeOpt = Annotated[
    float, typer.Option("--min-image-size", min=0, help="Drop pictures smaller than this many points on a side.")
]
MaxPagesOpt = Annotated[int, typer.Option("--max-pages", min=1, help="Refuse documents with more pages than this.")]
LayoutOpt = Annotated[
    str,
    typer.Option(
        "--layout",
        help="auto (default): the text-only layout model on plain-text pages, the full one on the others "
        "(faster, the same results on the corpus); full: the full model on every page (see docs/cli.md).",
    ),
]
NoImagesOpt = Annotated[bool, typer.Option("--no-images", help="Do not write image PNG files.")]
NoTableCsvOpt = Annotated[bool, typer.Option("--no-table-csv", help="Do not write table CSV files.")]
NoIntermediateOpt = Annotated[bool, typer.Option("--no-intermediate", help="Do not write markdown.md and blocks.json.")]
MaxTokensOpt = Annotated[int, typer.Option("--max-tokens", min=32, help="chunks: token budget of a chunk.")]
OverlapOpt = Annotated[int, typer.Option("--overlap", min=0, help="chunks: tokens shared by neighbouring text chunks.")]
TokenizerOpt = Annotated[
    Optional[Path], typer.Option("--tokenizer", help="chunks: count tokens with this local tokenizer.json.")
]


class RichReporter:
    """Progress on stderr: one bar for the converter's pages, a line per later stage."""

    def __init__(self, progress: Progress):
        self.progress = progress
        self.task = progress.add_task("starting", total=None)

    def stage(self, name: str) -> None:
        self.progress.update(self.task, description=name)

    def pages(self, done: int, total: int) -> None:
        self.progress.update(self.task, description="converting pages", completed=done, total=total)

    def pictures(self, done: int, total: int) -> None:
        self.progress.update(self.task, description="reading words in pictures", completed=done, total=total)


@contextlib.contextmanager
def _stdout_to_stderr():
    """Route fd 1 to stderr while converters run, so --json output stays pure JSON."""
    sys.stdout.flush()
    saved = os.dup(1)
    os.dup2(2, 1)
    try:
        with contextlib.redirect_stdout(sys.stderr):
            yield
    finally:
        sys.stdout.flush()
        os.dup2(saved, 1)
        os.close(saved)


def _fail(error: Exception, debug: bool) -> None:
    if debug:
        raise error
    code = getattr(error, "exit_code", 1)
    message = (
        str(error)
        if isinstance(error, ClinParserError)
        else f"internal error ({type(error).__name__}: {error}); rerun with --debug and report it"
    )
    err.print(f"clinparser: error: {message}", markup=False, highlight=False, soft_wrap=True)
    raise typer.Exit(code)


def _parse_options(debug: bool, engine, models, ocr, password, image_dpi, max_pages, min_image_size, workers, layout):
    """The options as the command line gave them; a wrong mode or engine is one line and its exit code."""
    try:
        return ParseOptions(
            engine=engine,
            models_dir=models,
            ocr=ocr,
            password=password,
            image_dpi=image_dpi,
            max_pages=max_pages,
            min_image_size=min_image_size,
            workers=workers,
            layout=layout,
        )
    except InputError as exc:
        _fail(exc, debug)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"clinparser {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(
        False, "--version", callback=_version, is_eager=True, help="Show the version and exit."
    ),
) -> None:
    pass


@app.command()
def parse(
    path: Path = typer.Argument(..., help="The protocol: a .pdf or .docx file."),
    output_dir: Path = typer.Option(
        Path("output"), "--output-dir", "-o", help="Where the <timestamp> output folder is made."
    ),
    engine: EngineOpt = DEFAULTS.engine,
    models: ModelsOpt = None,
    ocr: OcrOpt = DEFAULTS.ocr,
    password: PasswordOpt = None,
    image_dpi: ImageDpiOpt = DEFAULTS.image_dpi,
    min_image_size: MinImageSizeOpt = DEFAULTS.min_image_size,
    max_pages: MaxPagesOpt = DEFAULTS.max_pages,
    workers: int = typer.Option(
        DEFAULTS.workers,
        "--workers",
        min=1,
        help="Processes for layout analysis, this one included (default engine); "
        "the output is the same for any number.",
    ),
    layout: LayoutOpt = DEFAULTS.layout,
    no_images: NoImagesOpt = False,
    no_table_csv: NoTableCsvOpt = False,
    no_intermediate: NoIntermediateOpt = False,
    no_report: bool = typer.Option(False, "--no-report", help="Do not write report.html and its page pictures."),
    fmt: str = typer.Option(
        "tree", "--format", help="tree (document.json), chunks (chunks.jsonl for retrieval) or usdm (usdm.json)."
    ),
    max_tokens: MaxTokensOpt = 512,
    overlap: OverlapOpt = 64,
    tokenizer: TokenizerOpt = None,
    as_json: bool = typer.Option(
        False, "--json", help="Write the result (in --format) to stdout; nothing else goes there."
    ),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress output."),
    debug: bool = typer.Option(False, "--debug", help="Show tracebacks and converter messages."),
) -> None:
    """Parse a protocol into its numbered section tree and write the artifacts."""
    from .export.artifacts import SaveOptions, dumps, write_output
    from .pipeline import parse_document

    options = _parse_options(
        debug, engine, models, ocr, password, image_dpi, max_pages, min_image_size, workers, layout
    )
    save = SaveOptions(
        save_intermediate_files=not no_intermediate,
        save_images=not no_images,
        save_table_csv=not no_table_csv,
        save_report=not no_report,
    )
    try:
        extras = extra_files(fmt, max_tokens, overlap, tokenizer)
        with (
            _stdout_to_stderr(),
            Progress(
                TextColumn("{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                TimeElapsedColumn(),
                console=err,
                disable=quiet,
                transient=True,
            ) as progress,
        ):
            parsed = parse_document(path, options, RichReporter(progress))
            folder = write_output(parsed, output_dir, save, extras, source=path, password=password)
    except KeyboardInterrupt:
        err.print("clinparser: interrupted; nothing was written")
        raise typer.Exit(130) from None
    except Exception as exc:  # every error becomes one line unless --debug
        _fail(exc, debug)
    result = parsed.to_dict()
    if not quiet:
        for warning in result["metadata"]["warnings"]:
            err.print(f"clinparser: warning: {warning}", markup=False, highlight=False)
    if as_json:
        sys.stdout.write(dumps(result) if fmt == "tree" else extras(result)[EXTRA_FILE[fmt]])
        if not quiet:
            err.print(f"output written to {folder}", markup=False, highlight=False)
    else:
        typer.echo(str(folder))


@app.command()
def batch(
    inputs: list[str] = typer.Argument(..., help="PDF/DOCX files, folders (searched recursively) and globs."),
    # A string, not a Path: a Path would fold "s3://bucket/run" into "s3:/bucket/run".
    output_dir: str = typer.Option(
        ...,
        "--output-dir",
        "-o",
        help="The batch folder, or an fsspec URL (s3://bucket/run, gs://..., file://...): "
        "one folder per document and manifest.jsonl.",
    ),
    engine: EngineOpt = DEFAULTS.engine,
    models: ModelsOpt = None,
    ocr: OcrOpt = DEFAULTS.ocr,
    password: PasswordOpt = None,
    image_dpi: ImageDpiOpt = DEFAULTS.image_dpi,
    min_image_size: MinImageSizeOpt = DEFAULTS.min_image_size,
    max_pages: MaxPagesOpt = DEFAULTS.max_pages,
    workers: int = typer.Option(
        DEFAULTS.workers,
        "--workers",
        min=1,
        help="Processes in all on this machine: documents run side by side, each with its share for its pages.",
    ),
    layout: LayoutOpt = DEFAULTS.layout,
    ray: Optional[str] = typer.Option(
        None,
        "--ray",
        help="Run one Ray task per document: 'auto' (this machine's cluster, or a local Ray) or a cluster ADDRESS. "
        "Needs clinparser[ray].",
    ),
    no_images: NoImagesOpt = False,
    no_table_csv: NoTableCsvOpt = False,
    no_intermediate: NoIntermediateOpt = False,
    fmt: str = typer.Option(
        "tree", "--format", help="tree, chunks (adds chunks.jsonl) or usdm (adds usdm.json) in each document's folder."
    ),
    max_tokens: MaxTokensOpt = 512,
    overlap: OverlapOpt = 64,
    tokenizer: TokenizerOpt = None,
    combined_chunks: bool = typer.Option(
        False, "--combined-chunks", help="chunks: also write one chunks.jsonl for the whole batch."
    ),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress output and no summary."),
    debug: bool = typer.Option(False, "--debug", help="Show tracebacks of errors that stop the batch."),
) -> None:
    """Parse many protocols into one folder each, with a manifest; a rerun skips what is done."""
    import signal

    from .batch.run import Settings, manifest_location, run_batch, summary

    options = _parse_options(
        debug, engine, models, ocr, password, image_dpi, max_pages, min_image_size, workers, layout
    )
    settings = Settings(
        options, not no_intermediate, not no_images, not no_table_csv, fmt, max_tokens, overlap, tokenizer
    )

    def terminated(signum, frame):  # a kill (SIGTERM) stops the batch as Ctrl-C does
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, terminated)
    progress = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[pages]} pages"),
        TimeElapsedColumn(),
        console=err,
        disable=quiet,
        transient=True,
    )
    task = progress.add_task("documents", total=None, pages=0)

    pages_done: dict[str, int] = {}  # pages converted in this run, per document

    def on_pages(source: str, done: int, total: int) -> None:  # called from a pool thread
        pages_done[source] = done
        progress.update(task, pages=sum(pages_done.values()))

    def on_record(line: dict) -> None:
        if line["status"] == "ok":
            pages_done[line["source"]] = line["pages"] or 0
        progress.update(task, advance=1, pages=sum(pages_done.values()))
        if line["status"] == "failed" and not quiet:
            progress.console.print(
                f"clinparser: failed: {line['error']}", markup=False, highlight=False, soft_wrap=True
            )

    lines: list[dict] = []
    try:
        if fmt not in FORMATS:
            raise InputError(f"unknown --format {fmt!r}: choose one of {', '.join(FORMATS)}")
        if combined_chunks and fmt != "chunks":
            raise InputError("--combined-chunks needs --format chunks")
        extra_files(fmt, max_tokens, overlap, tokenizer)  # a bad tokenizer is one error now, not one per document
        with _stdout_to_stderr(), progress:
            lines = run_batch(
                inputs,
                output_dir,
                settings,
                ray_address=ray,
                combined_chunks=combined_chunks,
                on_record=on_record,
                on_plan=lambda n: progress.update(task, total=n),
                on_pages=on_pages,
            )
    except KeyboardInterrupt:
        err.print(
            "clinparser: interrupted; finished documents are kept: "
            f"rerun the same command to resume ({manifest_location(output_dir)})",
            markup=False,
            highlight=False,
            soft_wrap=True,
        )
        raise typer.Exit(130) from None
    except Exception as exc:
        _fail(exc, debug)
    finally:
        signal.signal(signal.SIGTERM, previous)
    counts = summary(lines)
    if not quiet:
        _print_summary(lines, counts)
    typer.echo(manifest_location(output_dir))
    if counts["failed"]:
        raise typer.Exit(BATCH_FAILED)


def _print_summary(lines: list[dict], counts: dict) -> None:
    from rich.table import Table

    table = Table(title="clinparser batch", title_justify="left")
    for column in ("status", "documents", "pages", "seconds"):
        table.add_column(column, justify="left" if column == "status" else "right")
    for status in ("ok", "skipped", "failed"):
        chosen = [line for line in lines if line["status"] == status]
        table.add_row(
            status,
            str(len(chosen)),
            str(sum(line["pages"] or 0 for line in chosen)),
            f"{sum(line['seconds'] for line in chosen):.1f}",
        )
    err.print(table)
    for line in lines:
        if line["status"] == "failed":
            err.print(f"failed: {line['error']}", markup=False, highlight=False, soft_wrap=True)


@app.command()
def validate(
    file: Path = typer.Argument(..., help="A document.json written by clinparser."),
    debug: bool = typer.Option(False, "--debug", help="Show tracebacks."),
) -> None:
    """Check a result JSON file against the schema."""
    from .export.schema import errors

    try:
        try:
            data = json.loads(file.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise InputError(f"{file}: no such file") from None
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise InputError(f"{file} is not readable JSON: {exc}") from exc
        problems = errors(data)
        if problems:
            raise SchemaError(f"{file} does not match the schema ({len(problems)} problems), first: {problems[0]}")
    except Exception as exc:
        _fail(exc, debug)
    typer.echo(f"{file}: valid")


@app.command()
def report(
    folder: Path = typer.Argument(..., help="An output folder clinparser wrote (holding document.json)."),
    source: Optional[Path] = typer.Option(
        None,
        "--source",
        help="The parsed PDF, to (re)draw the page pictures; without it the pictures already there are kept.",
    ),
    password: Optional[str] = typer.Option(None, "--password", help="Password of an encrypted source PDF."),
    debug: bool = typer.Option(False, "--debug", help="Show tracebacks."),
) -> None:
    """(Re)build report.html, the offline review page, from a finished output folder."""
    from .review.report import build_report

    try:
        if source is not None and not source.is_file():
            raise InputError(f"{source}: no such source file")
        path = build_report(folder, source, password)
    except Exception as exc:
        _fail(exc, debug)
    typer.echo(str(path))


def _ocr_alone_means_always(args: list[str]) -> list[str]:
    """``--ocr`` without a mode is the old on/off flag, which OCR'd every page that needed it:
    it now means ``--ocr always``; ``--ocr MODE`` becomes ``--ocr=MODE``."""
    out: list[str] = []
    rest = iter(args)
    for arg in rest:
        if arg != "--ocr":
            out.append(arg)
            continue
        mode = next(rest, None)
        if mode in tuple(OcrMode):
            out.append(f"--ocr={mode}")
        else:
            out.append("--ocr=always")
            if mode is not None:
                out.append(mode)
    return out


def main(argv: Optional[list[str]] = None) -> None:
    """Entry point: ``clinparser PATH`` means ``clinparser parse PATH``."""
    args = _ocr_alone_means_always(list(sys.argv[1:] if argv is None else argv))
    first = next((a for a in args if not a.startswith("-")), None)
    if first in ("chunks", "usdm"):  # shorthands for parse --format chunks / usdm
        args.remove(first)
        args = ["parse", *args, "--format", first]
    elif first is not None and first not in COMMANDS and not any(a in ("--help", "--version") for a in args[:1]):
        args.insert(0, "parse")
    app(args=args, prog_name="clinparser")
