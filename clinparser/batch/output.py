"""Where ``clinparser batch`` writes: a local folder, or any URL fsspec resolves (``s3://``,
``gs://``, ``abfs://``, ``file://``, ``memory://``, ...).

A local folder is written as it always was: each document's folder is made under a temporary
name in the output folder and renamed into place, which POSIX makes atomic, so the folder is
never seen half-written.

A URL is written through fsspec. The document's folder is first made in a local temporary
folder, exactly as for a local output (the same bytes), then uploaded under a temporary name
(``.clinparser-partial-*``) and moved into place. What that move gives depends on the store:
on ``file://`` it is one rename (atomic, as for a local folder); on object stores (S3, GCS,
Azure) there are no directories to rename, only objects, and a move is one copy and delete per
object, so the folder can be seen half-moved. That is why the completion marker ``batch.json``
is left out of the upload and written LAST, after the move: a folder counts as complete only
when its marker is there (the same rule a local output uses), and a folder without one is
simply parsed again and replaced on the next run. Replacing a folder removes the old marker
first, for the same reason. The manifest and the combined chunks are single files, written
under a temporary name and moved into place (on object stores one object appears whole).
"""

from __future__ import annotations

import json
import shutil
import tempfile
import time
import uuid
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator, Optional, Union

from ..errors import OutputError

MARKER = "batch.json"  # in each document's folder: what it was made from
PARTIAL = ".clinparser-partial-"
MANIFEST_EVERY = 10.0  # seconds between uploads of a URL's manifest while the batch runs


def is_url(where: Union[str, Path]) -> bool:
    """A ``protocol://`` string (or an fsspec chain, ``simplecache::s3://``); a Path never is."""
    if isinstance(where, Path):
        return False
    from fsspec.core import split_protocol

    return split_protocol(where)[0] is not None


def open_output(where: Union[str, Path]) -> Union["LocalOutput", "UrlOutput"]:
    return UrlOutput(str(where)) if is_url(where) else LocalOutput(Path(where))


def location(where: Union[str, Path], name: str) -> str:
    """``name`` inside the output, as the user would write it (for messages)."""
    return f"{str(where).rstrip('/')}/{name}" if is_url(where) else str(Path(where) / name)


def _one_line(exc: BaseException) -> str:
    text = getattr(exc, "strerror", None) or str(exc) or type(exc).__name__
    return text.strip().splitlines()[0] if text.strip() else type(exc).__name__


class LocalOutput:
    """A folder on this machine (or a mount every node sees at the same place)."""

    shared = True  # other processes, and Ray tasks on this machine, write into it themselves

    def __init__(self, path: Path):
        self.path = path

    def for_tasks(self) -> str:
        return str(self.path.resolve())

    def prepare(self) -> None:
        try:
            self.path.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise OutputError(f"cannot write to {self.path}: {exc.strerror or exc}") from exc

    def markers(self, names: list[str]) -> dict[str, bytes]:
        """The ``batch.json`` of each named folder that has one."""
        found = {}
        for name in names:
            try:
                found[name] = (self.path / name / MARKER).read_bytes()
            except OSError:
                pass
        return found

    def remove_leftovers(self, patterns: tuple[str, ...]) -> None:
        for pattern in patterns:
            for path in self.path.glob(pattern):
                shutil.rmtree(path, ignore_errors=True)

    def read_texts(self, names: list[str]) -> dict[str, str]:
        return {name: (self.path / name).read_text(encoding="utf-8") for name in names if (self.path / name).exists()}

    def write_text(self, name: str, text: str) -> None:
        path = self.path / name
        tmp = path.with_name(f".{path.name}.tmp")
        tmp.write_text(text, encoding="utf-8")
        tmp.replace(path)

    @contextmanager
    def log(self, name: str) -> Iterator:
        """A file the lines are appended to as they are known: a killed run keeps them."""
        with open(self.path / name, "w", encoding="utf-8") as file:
            yield _FileLog(file)


class _FileLog:
    def __init__(self, file):
        self.file = file

    def add(self, text: str) -> None:
        self.file.write(text)
        self.file.flush()


class UrlOutput:
    """An fsspec URL. The filesystem is opened where it is used (the driver, each worker
    process, each Ray task): credentials come from that machine's environment, as the
    filesystem's package reads them (for s3fs: AWS_* variables, ~/.aws, an instance role)."""

    def __init__(self, url: str):
        self.url = url.rstrip("/")
        self.fs, self.root = _filesystem(self.url)
        self.root = self.root.rstrip("/")
        # memory:// lives in one process's memory: a worker process or a Ray task writing there
        # writes to its own, which the driver never sees. The driver uploads those folders itself.
        self.shared = "memory" not in _protocols(self.fs)

    def _path(self, name: str) -> str:
        return f"{self.root}/{name}"

    def _fail(self, exc: BaseException) -> OutputError:
        return OutputError(f"cannot write to {self.url}: {_one_line(exc)}")

    def for_tasks(self) -> str:
        return self.url

    def prepare(self) -> None:
        try:
            self.fs.makedirs(self.root, exist_ok=True)
        except Exception as exc:  # each filesystem has its own errors: network, credentials, ...
            raise self._fail(exc) from exc

    def markers(self, names: list[str]) -> dict[str, bytes]:
        # One call for all: object stores' filesystems (s3fs, gcsfs) fetch them concurrently.
        paths = [self._path(f"{name}/{MARKER}") for name in names]
        try:
            found = self.fs.cat(paths, on_error="omit") if paths else {}
        except Exception as exc:
            raise self._fail(exc) from exc
        return {key.rstrip("/").rsplit("/", 2)[-2]: data for key, data in found.items()}

    def remove_leftovers(self, patterns: tuple[str, ...]) -> None:
        for pattern in patterns:
            try:
                paths = self.fs.glob(self._path(pattern))
            except Exception:
                continue
            for path in paths:
                try:
                    self.fs.rm(path, recursive=True)
                except Exception:  # gone already, or not ours to remove: the next run tries again
                    pass

    def read_texts(self, names: list[str]) -> dict[str, str]:
        try:
            found = self.fs.cat([self._path(name) for name in names], on_error="omit") if names else {}
        except Exception as exc:
            raise self._fail(exc) from exc
        by_path = {key.rstrip("/"): data for key, data in found.items()}
        return {name: by_path[self._path(name)].decode("utf-8") for name in names if self._path(name) in by_path}

    def write_text(self, name: str, text: str) -> None:
        # Under a temporary name, then moved: file:// renames it; an object store copies the
        # object, which appears whole or not at all.
        tmp = self._path(f".{name}.tmp")
        try:
            self.fs.pipe_file(tmp, text.encode("utf-8"))
            self.fs.mv(tmp, self._path(name))
        except Exception as exc:
            raise self._fail(exc) from exc

    @contextmanager
    def log(self, name: str) -> Iterator:
        """The lines as they are known, uploaded whole at most every ``MANIFEST_EVERY`` seconds
        (an object cannot be appended to), and once more if the run is interrupted."""
        log = _UploadedLog(self, name)
        log.upload()  # now: a target that cannot be written stops the batch before any parse
        try:
            yield log
        except BaseException:
            try:
                log.upload()
            except OutputError:
                pass
            raise

    def publish(self, folder: Path, name: str) -> None:
        """Upload a finished local document folder to ``name``: under a temporary name, moved
        into place, its marker last (see the module's note on what is atomic where)."""
        marker = (folder / MARKER).read_bytes()
        (folder / MARKER).unlink()
        partial, target = self._path(f"{PARTIAL}{uuid.uuid4().hex[:12]}"), self._path(name)
        try:
            self.fs.put(str(folder), partial, recursive=True)
            if self.fs.exists(target):  # an older output (other options), or an unfinished one
                if self.fs.exists(f"{target}/{MARKER}"):
                    self.fs.rm(f"{target}/{MARKER}")  # first: from now on it does not count as complete
                self.fs.rm(target, recursive=True)
            self.fs.mv(partial, target, recursive=True)
            self.fs.pipe_file(f"{target}/{MARKER}", marker)  # last: it says the folder is complete
        except Exception as exc:
            try:
                self.fs.rm(partial, recursive=True)
            except Exception:
                pass
            raise self._fail(exc) from exc


class _UploadedLog:
    def __init__(self, output: UrlOutput, name: str):
        self.output, self.name = output, name
        self.lines: list[str] = []
        self.uploaded = 0.0

    def add(self, text: str) -> None:
        self.lines.append(text)
        if time.monotonic() - self.uploaded >= MANIFEST_EVERY:
            self.upload()

    def upload(self) -> None:
        self.output.write_text(self.name, "".join(self.lines))
        self.uploaded = time.monotonic()


@contextmanager
def staging(output) -> Iterator[Optional[Path]]:
    """A local folder the workers write into when they cannot reach ``output`` themselves
    (memory://); None when they write there directly."""
    if output.shared:
        yield None
        return
    folder = Path(tempfile.mkdtemp(prefix="clinparser-batch-"))
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _filesystem(url: str):
    from fsspec.core import url_to_fs

    try:
        return url_to_fs(url)
    except ImportError as exc:  # a known protocol whose package is not installed
        raise OutputError(f"cannot write to {url}: {_missing_package(url, exc)}") from None
    except ValueError as exc:  # "Protocol not known"
        raise OutputError(
            f"cannot write to {url}: no fsspec filesystem for {url.split('://')[0]}:// ({_one_line(exc)})"
        ) from None
    except Exception as exc:  # options or credentials the filesystem refuses
        raise OutputError(f"cannot write to {url}: {_one_line(exc)}") from None


def _missing_package(url: str, exc: ImportError) -> str:
    """``s3:// needs s3fs: pip install s3fs``, from fsspec's registry of implementations (the
    package is the top module of the implementing class, when it is not fsspec itself)."""
    from fsspec.core import split_protocol
    from fsspec.registry import known_implementations

    protocol = (split_protocol(url)[0] or "").split("::")[-1]
    known = known_implementations.get(protocol, {})
    package = known.get("class", "").split(".")[0]
    if package and package != "fsspec":
        return f"{protocol}:// needs {package}, which is not installed: pip install {package}"
    return f"{protocol}:// needs a package that is not installed: {known.get('err') or _one_line(exc)}"


def _protocols(fs) -> tuple[str, ...]:
    return (fs.protocol,) if isinstance(fs.protocol, str) else tuple(fs.protocol)


def load_marker(data: Optional[bytes]) -> Optional[dict]:
    if data is None:
        return None
    try:
        made = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return None
    return made if isinstance(made, dict) else None
