"""Prepared FinDVer samples stay byte-identical when parsing and retrieval get faster.

The digest below is of the first 25 dev claims (19 reports) as the code before the
speed-ups of issue 15 prepared them: prompts, targets and metadata (retrieved passage
ids and texts), parsed afresh (no disk cache). A change meant as a speed-up only must
keep it; perf/findver_samples_identity.py compares all 374 samples the same way.
A change meant to alter parsing or retrieval updates the digest, and says why.
"""

from __future__ import annotations

import hashlib
import json

import pytest
from shared_data import SHARED

CLAIMS = SHARED / "data/findver/testmini-dev.json"
# updated in session 20, a change meant to alter parsing: FinDVer pipe blocks that run
# several tables together are cut into their tables (more, shorter table passages), pipe
# header rows without their label cell are aligned, and an HTML cell "(43)" after a bare
# "$" keeps its value instead of being read as a footnote
FIRST_25_SHA256 = "523272e58b2a168ed1ed192a1fd974714c0af15773f943d1f8d20749f3e9a803"


@pytest.mark.skipif(not CLAIMS.is_file(), reason="no FinDVer dev data in ../shared")
def test_prepared_samples_are_byte_identical_to_the_recorded_ones(monkeypatch) -> None:
    monkeypatch.setenv("FINPROBE_NO_CACHE", "1")
    from finprobe.benchmarks.findver.dataset import _load_document, _report_passages
    from finprobe.benchmarks.findver.task import findver_samples

    _load_document.cache_clear()  # parsed here, not taken from an earlier test
    _report_passages.cache_clear()
    samples = findver_samples(CLAIMS, setting="rag", retriever="bm25", limit=25)
    rows = [{"id": s.id, "input": [m.text for m in s.input], "target": s.target,
             "metadata": s.metadata} for s in samples]  # fmt: skip
    text = json.dumps(rows, sort_keys=True, default=str, ensure_ascii=False, indent=0)
    # report paths are absolute: where ../shared lies is not part of the samples
    # (../shared may be a link: the loader may name its target instead)
    for where in sorted({str(SHARED.resolve()), str(SHARED)}, key=len, reverse=True):
        text = text.replace(where, "<shared>")
    assert len(samples) == 25
    assert hashlib.sha256(text.encode("utf-8")).hexdigest() == FIRST_25_SHA256
