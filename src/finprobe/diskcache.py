"""A content-addressed disk cache for work that repeats across runs.

Parsing a report and indexing it for retrieval cost seconds per report and give
the same answer every time the file is the same, so their results are kept on
disk under a key made of the source file's content hash, the kind of entry and
its format version: editing the file, or a code change that bumps the version,
misses the old entry. Entries are JSON or ``.npz`` (no pickle: a cache file is
never code), written atomically; an entry that cannot be read back is ignored,
rebuilt and rewritten, never an error.

Where: ``$FINPROBE_CACHE_DIR``, else ``$XDG_CACHE_HOME/finprobe``, else
``~/.cache/finprobe``. Off: ``FINPROBE_NO_CACHE=1`` (``finprobe eval --no-cache`` turns
off inspect's model-response cache only, not this one).
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import os
import shutil
import tempfile
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from finprobe.files import write_bytes_atomic

_DIGESTS: dict[tuple[str, int, int], str] = {}


def cache_root() -> Path:
    """The cache folder (not created here)."""
    chosen = os.environ.get("FINPROBE_CACHE_DIR")
    if chosen:
        return Path(chosen).expanduser()
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = Path(xdg).expanduser() if xdg else Path.home() / ".cache"
    return base / "finprobe"


def cache_enabled() -> bool:
    return os.environ.get("FINPROBE_NO_CACHE", "").strip().lower() in ("", "0", "false", "no")


def file_digest(path: str | Path) -> str:
    """sha256 of a file's bytes (remembered per path, size and mtime in this process)."""
    path = Path(path)
    stat = path.stat()
    key = (str(path.resolve()), stat.st_size, stat.st_mtime_ns)
    if key not in _DIGESTS:
        digest = hashlib.sha256()
        with open(path, "rb") as handle:
            for chunk in iter(lambda: handle.read(1 << 20), b""):
                digest.update(chunk)
        _DIGESTS[key] = digest.hexdigest()
    return _DIGESTS[key]


def entry_path(kind: str, version: int | str, digest: str, suffix: str) -> Path:
    name = f"{digest[:40]}.v{version}" if version != "" else digest[:40]
    return cache_root() / kind / f"{name}{suffix}"


def cached_json(
    kind: str,
    version: int | str,
    digest: str,
    build: Callable[[], Any],
    storable: Callable[[Any], bool] | None = None,
) -> Any:
    """``build()``'s JSON-able result, read from the cache when present and readable;
    a built value is stored unless ``storable(value)`` says no."""
    if not cache_enabled():
        return build()
    path = entry_path(kind, version, digest, ".json")
    try:
        return json.loads(path.read_bytes())["value"]
    except (OSError, ValueError, KeyError, TypeError):
        pass  # missing, half-written by an old crash, or corrupt: rebuilt below
    value = build()
    if storable is None or storable(value):
        store_json(path, value)
    return value


def store_json(path: Path, value: Any) -> None:
    """Write ``value`` as the entry at ``path``; a value JSON cannot encode (a lone
    surrogate in a report's text) or a disk that refuses costs the entry, never the run."""
    try:
        data = json.dumps({"value": value}, ensure_ascii=False).encode("utf-8")
    except (TypeError, ValueError, UnicodeEncodeError):
        return
    _store(path, data)


def cached_arrays(
    kind: str, version: int | str, digest: str, build: Callable[[], dict[str, np.ndarray]]
) -> dict[str, np.ndarray]:
    """``build()``'s named arrays, from an ``.npz`` entry (pickle off) when readable."""
    if not cache_enabled():
        return build()
    path = entry_path(kind, version, digest, ".npz")
    try:
        with np.load(path, allow_pickle=False) as data:
            return {name: data[name] for name in data.files}
    except Exception:  # noqa: BLE001 - any unreadable entry (zip, header, dtype) is rebuilt
        pass
    arrays = build()
    buffer = io.BytesIO()
    np.savez(buffer, **arrays)
    _store(path, buffer.getvalue())
    return arrays


def _store(path: Path, data: bytes) -> None:
    # a read-only or full disk costs speed, never the run
    with contextlib.suppress(Exception):
        write_bytes_atomic(path, data)


def cached_bm25(key: str, build: Callable[[], Any]) -> Any:
    """A bm25s index saved with bm25s's own ``save``/``load`` (numpy + JSON, no pickle)."""
    if not cache_enabled():
        return build()
    import bm25s

    folder = entry_path("bm25", "", key, "")
    if folder.is_dir():
        try:
            return bm25s.BM25.load(str(folder), show_progress=False)
        except Exception:  # noqa: BLE001 - a damaged entry is rebuilt, never an error
            shutil.rmtree(folder, ignore_errors=True)
    model = build()
    try:
        folder.parent.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=f".{folder.name}.", dir=folder.parent))
        model.save(str(staging), show_progress=False)
        try:
            os.replace(staging, folder)  # atomic: readers see the whole index or none
        except OSError:  # another process stored it first
            shutil.rmtree(staging, ignore_errors=True)
    except Exception:  # noqa: BLE001 - a read-only or full disk costs speed, never the run
        pass
    return model


@cache
def code_version(*modules: str) -> str:
    """A short hash of these modules' source files: any edit to the code that made an
    entry makes a new version, so a stale entry is never read (no version to forget)."""
    import importlib.util

    digest = hashlib.sha256()
    for name in modules:
        spec = importlib.util.find_spec(name)
        origin = spec.origin if spec is not None else None
        digest.update(name.encode() + b"\x00")
        if origin and os.path.isfile(origin):
            digest.update(Path(origin).read_bytes())
    return digest.hexdigest()[:12]
