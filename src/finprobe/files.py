"""Reading and writing data files, once for every benchmark.

Reads give one-line ``InputError``s that name the file and the problem (missing,
a folder, empty, not JSON, bad line). Writes are atomic: a temporary file in the
same folder, then a rename, so an interrupted write never leaves half a file.
"""

from __future__ import annotations

import gzip
import json
import os
import tempfile
from pathlib import Path
from typing import Any

from finprobe.errors import InputError

DEFAULT_MAX_INPUT_MB = 512


def max_input_bytes() -> int:
    """The largest input file read (after gunzip): $FINPROBE_MAX_INPUT_MB, default 512 MB."""
    value = os.environ.get("FINPROBE_MAX_INPUT_MB", "")
    return (int(value) if value.isdigit() else DEFAULT_MAX_INPUT_MB) * 1024 * 1024


def read_bytes(path: str | Path) -> bytes:
    """The file's bytes (gunzipped for .gz); InputError when missing, a folder, empty or
    over ``max_input_bytes()``."""
    path = Path(path)
    if not path.exists():
        raise InputError(path, "no such file")
    if path.is_dir():
        raise InputError(path, "is a folder, expected a file")
    limit = max_input_bytes()
    try:
        if path.stat().st_size > limit:
            raise InputError(path, f"larger than {limit >> 20} MB (FINPROBE_MAX_INPUT_MB)")
        if path.suffix == ".gz":
            with gzip.open(path, "rb") as handle:  # read at most limit+1: no gzip bomb
                raw = handle.read(limit + 1)
            if len(raw) > limit:
                raise InputError(path, f"unpacks to over {limit >> 20} MB (FINPROBE_MAX_INPUT_MB)")
        else:
            raw = path.read_bytes()
    except (OSError, EOFError) as exc:
        raise InputError(path, f"cannot read ({type(exc).__name__}: {exc})") from exc
    if not raw.strip():
        raise InputError(path, "file is empty")
    return raw


def read_json(path: str | Path) -> Any:
    """A JSON (or .json.gz) file's value."""
    return parse_json_bytes(path, read_bytes(path))


def parse_json_bytes(path: str | Path | None, raw: bytes | str) -> Any:
    """JSON text to a value, with one-line errors (bad text, nesting too deep)."""
    try:
        return json.loads(raw.decode("utf-8-sig") if isinstance(raw, bytes) else raw)
    except UnicodeDecodeError as exc:
        raise InputError(path, "not valid JSON (not UTF-8 text)") from exc
    except json.JSONDecodeError as exc:
        raise InputError(path, f"not valid JSON (line {exc.lineno}: {exc.msg})") from exc
    except RecursionError:
        raise InputError(path, "JSON nested too deeply to be a dataset") from None


def read_records(path: str | Path) -> list[Any]:
    """Rows of a dataset file: JSON list (or {"data": [...]}), JSON lines, or parquet."""
    path = Path(path)
    name = path.name.lower().removesuffix(".gz")
    if name.endswith(".parquet"):
        read_bytes(path)  # the same errors for missing or empty files
        import pyarrow.parquet as pq

        try:
            return pq.read_table(path).to_pylist()
        except Exception as exc:  # pyarrow raises several types for corrupt files
            raise InputError(path, f"not a readable parquet file ({type(exc).__name__})") from None
    if name.endswith(".jsonl"):
        rows = []
        text = read_bytes(path).decode("utf-8-sig", errors="replace")
        for number, line in enumerate(text.splitlines(), 1):
            if line.strip():
                try:
                    rows.append(json.loads(line))
                except json.JSONDecodeError:
                    raise InputError(path, f"line {number} is not JSON") from None
                except RecursionError:
                    raise InputError(path, f"line {number}: JSON nested too deeply") from None
        return _checked_rows(path, rows)
    data = read_json(path)
    if isinstance(data, dict):
        data = data.get("data", data.get("rows"))
    if not isinstance(data, list):
        raise InputError(path, "expected a list of records (or {'data': [...]})")
    return _checked_rows(path, data)


def _checked_rows(path: Path, rows: list[Any]) -> list[Any]:
    """Every row an object of bounded size (see finprobe.schemas)."""
    from finprobe.schemas import _Record, validate_records

    return validate_records(path, rows, _Record, "row")


def _umask() -> int:
    current = os.umask(0)
    os.umask(current)
    return current


def write_bytes_atomic(path: str | Path, data: bytes) -> Path:
    """Write through a temporary file in the same folder, then rename: never a half file."""
    path = Path(path)
    if path.is_dir():
        raise InputError(path, "is a folder; give a file name to write")
    if path.parent.exists() and not path.parent.is_dir():
        raise InputError(path.parent, "is a file, not a folder")
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.chmod(tmp, 0o666 & ~_umask())  # mkstemp makes 0600; give the file normal permissions
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path


def write_text_atomic(path: str | Path, text: str) -> Path:
    """Write UTF-8 text atomically (see write_bytes_atomic)."""
    return write_bytes_atomic(path, text.encode("utf-8"))


def write_json_atomic(path: str | Path, data: Any, indent: int | None = 1) -> Path:
    """Write JSON atomically (see write_text_atomic)."""
    return write_text_atomic(
        path, json.dumps(data, indent=indent, ensure_ascii=False, default=str) + "\n"
    )


def cache_dir() -> Path:
    """Where generated default datasets go: $FINPROBE_HOME, else <temp>/finprobe."""
    home = os.environ.get("FINPROBE_HOME")
    folder = Path(home) if home else Path(tempfile.gettempdir()) / "finprobe"
    folder.mkdir(parents=True, exist_ok=True)
    return folder
