"""What data each FinProbe baseline was developed on.

A baseline's rules and weights were written while looking at some data (FAITH's
pilot-dev spans, FinDVer's dev claims). Its score on that data is a tuned figure,
not a measure of how it does on unseen documents, and a report must not rank it
beside a published model's score as if it were. The record
(``finprobe/data/baseline_development.json``) keeps, for each benchmark, which
baselines it covers, the data in words, and short hashes of that data's sample ids
(never the data itself). A run's results carry the share of its samples that are
in the record (``developed_on``), and the report marks such runs.

Refresh the record after a baseline is developed on more data:

    python -m finprobe.development faith "what the data is, in words" pilot-dev.json ten.json ...

(every file the baseline was developed or fitted on; the record keeps their union). With
``--add`` the ids already recorded stay and these files' are added: a rebuild of the same
reports (new sentences give new span ids) is still the data the baseline was developed on.
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Iterable
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

RECORD = "baseline_development.json"
# a run counts as "developed on" when at least this share of its samples is in the record
# (a few shared ids in a user's own file are a coincidence of naming, not tuning)
TUNED_SHARE = 0.5


def id_hash(benchmark: str, sample_id: str) -> str:
    """Short hash of one sample id (the benchmark keeps equal ids of two benchmarks apart)."""
    return hashlib.sha256(f"{benchmark}\n{sample_id}".encode()).hexdigest()[:12]


@lru_cache(maxsize=1)
def _record() -> dict[str, Any]:
    text = resources.files("finprobe.data").joinpath(RECORD).read_text(encoding="utf-8")
    return json.loads(text)


def developed_on(benchmark: str, model: str, sample_ids: Iterable[str]) -> dict[str, Any] | None:
    """{data, samples, share} when ``model`` is a FinProbe baseline whose development data
    holds some of these samples; None otherwise (an LLM, or no overlap)."""
    if not str(model).startswith("finprobe/"):
        return None
    entry = _record().get(benchmark)
    if not entry or str(model).split("/", 1)[1] not in entry["baselines"]:
        return None
    known = set(entry["ids"])
    ids = [str(i) for i in sample_ids]
    # inspect keeps repeated uids apart as "uid#2": the sample is still the same one
    hits = sum(1 for i in ids if id_hash(benchmark, i.split("#", 1)[0]) in known)
    if not ids or not hits:
        return None
    return {"data": entry["data"], "samples": hits, "share": round(hits / len(ids), 4)}


def is_tuned(results: dict) -> bool:
    """Whether a results record is a baseline scored mostly on its own development data."""
    record = results.get("developed_on")
    return isinstance(record, dict) and float(record.get("share") or 0) >= TUNED_SHARE


def _sample_ids(benchmark: str, path: Path) -> list[str]:
    """The ids the benchmark's task gives the samples of ``path``."""
    if benchmark == "faith":
        from finprobe.benchmarks.faith.task import faith_samples

        return [str(s.id) for s in faith_samples(path)]
    if benchmark == "findver":
        from finprobe.benchmarks.findver.dataset import load_claims

        return [c.example_id for c in load_claims(path)]
    raise SystemExit(f"{benchmark}: no development record is kept for this benchmark")


def _baselines(benchmark: str) -> list[str]:
    """The baseline names the benchmark's task defines (all of them were developed on it)."""
    from importlib import import_module

    return sorted(import_module(f"finprobe.benchmarks.{benchmark}.task").BASELINES)


def record_path() -> Path:
    """The record in the source tree (what ``main`` writes)."""
    return Path(__file__).parent / "data" / RECORD


def main(argv: list[str] | None = None) -> None:
    args = list(sys.argv[1:] if argv is None else argv)
    add = "--add" in args
    args = [a for a in args if a != "--add"]
    if len(args) < 3:
        raise SystemExit(__doc__)
    benchmark, words, paths = args[0], args[1], [Path(a) for a in args[2:]]
    ids = [i for path in paths for i in _sample_ids(benchmark, path)]
    target = record_path()
    record = json.loads(target.read_text(encoding="utf-8")) if target.exists() else {}
    kept = set(record.get(benchmark, {}).get("ids", [])) if add else set()
    record[benchmark] = {
        "baselines": _baselines(benchmark),
        "data": words,
        "ids": sorted(kept | {id_hash(benchmark, i.split("#", 1)[0]) for i in ids}),
    }
    from finprobe.files import write_text_atomic

    write_text_atomic(target, json.dumps(record, indent=1, sort_keys=True) + "\n")
    print(f"{target}: {benchmark}: {len(record[benchmark]['ids'])} sample ids recorded")


if __name__ == "__main__":
    main()
