"""Prepared samples kept on disk, so a second run of the same data starts at once.

Preparing a benchmark's samples (parsing reports, indexing and retrieving evidence)
gives the same samples every time its inputs are the same. The whole prepared list is
therefore kept under a key made of everything that decides it: the content hash of
each input file (the data file and every report it reads), the task's arguments, the
source of every FinProbe module (any code change misses) and the versions of the
libraries that parse and rank (lxml, bm25s, numpy). A hit rebuilds the inspect
Samples from JSON; a miss prepares them as usual and stores them. Entries live in
finprobe.diskcache's folder (``FINPROBE_NO_CACHE=1`` turns them off with the rest).

Only samples that JSON carries exactly are stored: string ids, targets and message
texts, metadata of JSON types (a tuple would come back a list, so such a list is not
stored and is prepared again every run).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping, Sequence
from functools import cache
from importlib import metadata as package_metadata
from pathlib import Path
from typing import Any

from finprobe.diskcache import cache_enabled, cache_root, cached_json, entry_path, file_digest

KIND = "samples"
FORMAT = 1
KEEP = 8  # entries kept (the most recent); a FinDVer dev RAG entry is about 11 MB
# libraries whose output is part of a prepared sample: the HTML parser and the ranker
LIBRARIES = ("lxml", "bm25s", "numpy")


@cache
def finprobe_source_version() -> str:
    """A hash of every FinProbe module's source: any edit is a new version."""
    root = Path(__file__).resolve().parent
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        digest.update(str(path.relative_to(root)).encode() + b"\x00")
        digest.update(path.read_bytes())
    for name in LIBRARIES:
        try:
            version = package_metadata.version(name)
        except package_metadata.PackageNotFoundError:
            version = "absent"
        digest.update(f"{name}={version}\x00".encode())
    return digest.hexdigest()[:16]


def samples_key(kind: str, files: Sequence[str | Path], arguments: Mapping[str, Any]) -> str:
    """The cache key of a prepared list: its kind, each file's path and content hash,
    the arguments (JSON; paths as given) and the code's version."""
    parts = {
        "kind": kind,
        "format": FORMAT,
        "code": finprobe_source_version(),
        "files": [[str(Path(f).resolve()), file_digest(f)] for f in files],
        "arguments": {k: arguments[k] for k in sorted(arguments)},
    }
    text = json.dumps(parts, sort_keys=True, default=str, ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _json_exact(value: Any) -> bool:
    """True when ``json.loads(json.dumps(value)) == value`` with the same types (exact
    types: a str or int enum would come back a plain str or int)."""
    kind = type(value)
    if value is None or kind in (bool, str):
        return True
    if kind in (int, float):
        return value == value and value not in (float("inf"), float("-inf"))
    if kind is list:
        return all(_json_exact(v) for v in value)
    if kind is dict:
        return all(type(k) is str and _json_exact(v) for k, v in value.items())
    return False  # tuples, sets, enums, objects: not carried exactly


def _row(sample: Any) -> dict[str, Any] | None:
    if not isinstance(sample.input, list) or not isinstance(sample.id, str):
        return None
    messages = []
    for message in sample.input:
        if type(message.content) is not str or message.role not in ("system", "user"):
            return None
        if message.source is not None or message.metadata:  # not carried: prepare each run
            return None
        messages.append([message.role, message.content])
    if not isinstance(sample.target, str) or not _json_exact(sample.metadata or {}):
        return None
    extras = (sample.choices, sample.sandbox, sample.files, sample.setup, sample.description,
              getattr(sample, "checkpoint", None))  # fmt: skip
    if any(extras):
        return None
    return {"id": sample.id, "messages": messages, "target": sample.target,
            "metadata": sample.metadata}  # fmt: skip


def _sample(row: Mapping[str, Any]) -> Any:
    from inspect_ai.dataset import Sample
    from inspect_ai.model import ChatMessageSystem, ChatMessageUser

    kinds = {"system": ChatMessageSystem, "user": ChatMessageUser}
    messages = [kinds[role](content=content) for role, content in row["messages"]]
    return Sample(id=row["id"], input=messages, target=row["target"], metadata=row["metadata"])


def cached_samples(key: str, prepare: Callable[[], list[Any]]) -> list[Any]:
    """``prepare()``'s samples, from the cache when an entry for ``key`` is readable.

    A list with a sample JSON cannot carry exactly is returned as prepared and not
    stored. Reading back is checked for shape; a damaged entry is prepared again."""
    if not cache_enabled():
        return prepare()
    prepared: list[Any] = []

    def build() -> list[dict[str, Any]] | None:
        prepared.extend(prepare())
        rows = [_row(s) for s in prepared]
        return None if any(r is None for r in rows) else rows  # type: ignore[return-value]

    rows = cached_json(KIND, FORMAT, key, build, storable=lambda value: value is not None)
    if prepared:  # built in this call: the samples themselves, not a JSON round trip
        _prune()
        return prepared
    try:
        return [_sample(row) for row in rows]
    except (KeyError, TypeError, ValueError, AttributeError):
        # an entry of another shape (valid JSON, so never rebuilt by cached_json):
        # prepare again and replace it
        entry_path(KIND, FORMAT, key, ".json").unlink(missing_ok=True)
        return cached_samples(key, prepare)


def _prune(keep: int = KEEP) -> None:
    """Keep the ``keep`` most recently written entries: each new code version, argument
    or input makes a new one, and old ones are never read again."""
    folder = cache_root() / KIND
    try:
        entries = sorted(folder.glob("*.json"), key=lambda p: p.stat().st_mtime, reverse=True)
        for stale in entries[keep:]:
            stale.unlink(missing_ok=True)
    except OSError:  # another process pruned first, or a read-only cache: nothing lost
        pass
