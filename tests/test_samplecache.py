"""Prepared samples kept whole on disk (finprobe.samplecache): a second run of the same
claims and reports reads them back, equal in every field and type, without parsing or
retrieving; any change to an input file, an argument or the code prepares them again."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest
from inspect_ai.dataset import Sample
from inspect_ai.model import ChatMessageSystem, ChatMessageUser
from shared_data import SHARED

import finprobe.benchmarks.findver.task as task_module
from finprobe import samplecache
from finprobe.benchmarks.findver import dataset as fdv
from finprobe.benchmarks.findver.build import build_dataset
from finprobe.benchmarks.findver.dataset import load_claims, report_path
from finprobe.benchmarks.findver.task import findver_samples
from finprobe.files import read_bytes

DEV_CLAIMS = SHARED / "data/findver/testmini-dev.json"


@pytest.fixture
def claims(tmp_path: Path) -> Path:
    """Claims over 3 synthetic reports, in a folder of their own (the test edits them)."""
    out = tmp_path / "data" / "claims.json"
    build_dataset([], out, synthetic=3, seed=4, per_table=1, max_tables=3)
    return out


@pytest.fixture
def prepared(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """One entry per preparation (evidence built claim by claim, not read back)."""
    calls: list[int] = []
    real = task_module._prepare_samples

    def counted(*args, **kwargs):  # type: ignore[no-untyped-def]
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(task_module, "_prepare_samples", counted)
    _new_process()
    yield calls
    _new_process()


def _new_process() -> None:
    """Forget what this process remembers (parsed reports), as a second run would."""
    fdv._report_passages.cache_clear()
    fdv._load_document.cache_clear()


def _shape(value):  # type: ignore[no-untyped-def]
    """A value with every container's type spelled out (a tuple is not a list)."""
    if isinstance(value, dict):
        return {k: _shape(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return (type(value).__name__, [_shape(v) for v in value])
    return (type(value).__name__, value)


def _fields(sample: Sample) -> tuple:
    messages = [(type(m).__name__, m.role, m.content) for m in sample.input]
    return sample.id, messages, sample.target, _shape(sample.metadata)


def test_second_run_reads_equal_samples_without_parsing(
    cache: Path, claims: Path, prepared: list[int]
) -> None:
    first = findver_samples(claims)
    assert prepared == [1]
    entries = list((cache / samplecache.KIND).iterdir())
    assert len(entries) == 1
    _new_process()
    prepared.clear()
    second = findver_samples(claims)
    assert prepared == []  # read back whole: nothing parsed, indexed or retrieved
    assert [_fields(s) for s in second] == [_fields(s) for s in first]
    assert len(second) == len(load_claims(claims)) > 3


def test_any_changed_input_prepares_again(
    cache: Path, claims: Path, prepared: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    base = findver_samples(claims)

    def prepared_again() -> bool:
        _new_process()
        prepared.clear()
        findver_samples(claims)
        return bool(prepared)

    assert not prepared_again()
    findver_samples(claims, top_k=3)  # another argument: another entry
    assert len(list((cache / samplecache.KIND).iterdir())) == 2
    # a report edited in place (same name, same claims file): prepared again
    report = report_path(claims.parent / "reports", load_claims(claims)[0].report)
    data = json.loads(read_bytes(report))
    data["context"][0]["context"] = "A paragraph that was not there before."
    opener = gzip.open if report.suffix == ".gz" else open
    with opener(report, "wt", encoding="utf-8") as handle:
        json.dump(data, handle)
    assert prepared_again()
    assert not prepared_again()
    # a code change (any FinProbe module's source): prepared again
    monkeypatch.setattr(samplecache, "finprobe_source_version", lambda: "another-version")
    assert prepared_again()
    assert [s.id for s in findver_samples(claims)] == [s.id for s in base]


def test_a_damaged_entry_is_prepared_again_never_an_error(
    cache: Path, claims: Path, prepared: list[int]
) -> None:
    first = findver_samples(claims)
    [entry] = (cache / samplecache.KIND).iterdir()
    for damage in (b'{"value": [1, 2', b'{"value": [{"id": 1}]}', b'{"value": 7}'):
        entry.write_bytes(damage)
        _new_process()
        prepared.clear()
        again = findver_samples(claims)
        assert prepared and [_fields(s) for s in again] == [_fields(s) for s in first]
        prepared.clear()  # the entry was replaced whole: the next run reads it
        assert [_fields(s) for s in findver_samples(claims)] == [_fields(s) for s in first]
        assert prepared == []


def test_samples_json_cannot_carry_are_never_stored(cache: Path) -> None:
    def samples(metadata: dict) -> list[Sample]:
        message = [ChatMessageSystem(content="s"), ChatMessageUser(content="u")]
        return [Sample(id="a", input=message, target="t", metadata=metadata)]

    calls: list[int] = []

    def prepare(metadata: dict):  # type: ignore[no-untyped-def]
        return lambda: calls.append(1) or samples(metadata)

    key = samplecache.samples_key("test", [], {"n": 1})
    for _ in range(2):  # a tuple would come back a list: prepared each time, not stored
        got = samplecache.cached_samples(key, prepare({"ids": ("1", "2")}))
        assert got[0].metadata == {"ids": ("1", "2")}
    assert len(calls) == 2 and not (cache / samplecache.KIND).exists()
    key = samplecache.samples_key("test", [], {"n": 2})
    for _ in range(2):
        got = samplecache.cached_samples(key, prepare({"ids": ["1", "2"], "x": None}))
    assert len(calls) == 3  # stored, then read back
    assert _fields(got[0]) == _fields(samples({"ids": ["1", "2"], "x": None})[0])


def test_no_cache_switch_prepares_every_time(
    cache: Path, claims: Path, prepared: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("FINPROBE_NO_CACHE", "1")
    findver_samples(claims)
    _new_process()
    prepared.clear()
    findver_samples(claims)
    assert prepared and not cache.exists()


@pytest.mark.skipif(not DEV_CLAIMS.is_file(), reason="no FinDVer dev data in ../shared")
def test_dev_samples_read_back_equal_to_prepared_ones(cache: Path, prepared: list[int]) -> None:
    first = findver_samples(DEV_CLAIMS, limit=30)
    _new_process()
    second = findver_samples(DEV_CLAIMS, limit=30)
    assert prepared == [1]  # the second call read the entry
    assert len(first) == 30
    assert [_fields(s) for s in second] == [_fields(s) for s in first]


def test_a_relative_reports_folder_typed_from_another_folder(
    cache: Path, claims: Path, prepared: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same folder typed from two working folders: one entry, whose samples name the
    reports by absolute path, so they are found from either folder."""
    data = claims.parent
    (data / "sub").mkdir()
    monkeypatch.chdir(data)
    first = findver_samples(claims, reports="reports")
    monkeypatch.chdir(data / "sub")
    second = findver_samples(claims, reports="../reports")
    for samples in (first, second):
        assert all(Path(s.metadata["report_path"]).is_absolute() for s in samples)
        assert all(Path(s.metadata["report_path"]).is_file() for s in samples)
    assert prepared == [1]  # the second read the first's entry: the same reports


def test_old_entries_are_pruned(cache: Path, claims: Path) -> None:
    for top_k in range(1, samplecache.KEEP + 3):
        findver_samples(claims, top_k=top_k)
    assert len(list((cache / samplecache.KIND).iterdir())) == samplecache.KEEP


def test_the_default_synthetic_data_is_read_back(cache: Path, prepared: list[int]) -> None:
    from finprobe.benchmarks.findver.task import default_data

    findver_samples(default_data())
    _new_process()
    findver_samples(default_data())  # rebuilt byte for byte: the same entry
    assert prepared == [1]
