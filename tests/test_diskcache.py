"""Work in proportion: parsed reports and BM25 indexes cached on disk, --limit prepares
only the samples it runs, plain progress lines off a terminal."""

from __future__ import annotations

import io
import json
from pathlib import Path

import numpy as np
import pytest

import finprobe.document as document
from finprobe import diskcache
from finprobe.benchmarks.findver import dataset as fdv
from finprobe.benchmarks.findver.build import build_dataset
from finprobe.benchmarks.findver.dataset import load_claims, report_passages, report_path
from finprobe.benchmarks.findver.task import findver_samples
from finprobe.files import read_bytes
from finprobe.progress import WIDTH, preparing, progress_line
from finprobe.retrieval import BM25Retriever, Passage, analyze


@pytest.fixture(scope="module")
def claims(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("findver-cache") / "claims.json"
    build_dataset([], out, synthetic=3, seed=2, per_table=1, max_tables=3)
    return out


def _new_process() -> None:
    """Forget what this process remembers, as a second run would."""
    fdv._report_passages.cache_clear()
    fdv._load_document.cache_clear()


@pytest.fixture
def parse_calls(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    calls: list[str] = []
    real = document.findver_report_parts  # what preparing passages parses with

    def counted(path):  # type: ignore[no-untyped-def]
        calls.append(str(path))
        return real(path)

    monkeypatch.setattr(document, "findver_report_parts", counted)
    _new_process()
    yield calls
    _new_process()


def test_json_entry_is_built_once_and_a_corrupt_one_is_rebuilt(cache: Path) -> None:
    built: list[int] = []

    def build() -> list[int]:
        built.append(1)
        return [1, 2, 3]

    assert diskcache.cached_json("k", 1, "ab" * 20, build) == [1, 2, 3]
    assert diskcache.cached_json("k", 1, "ab" * 20, build) == [1, 2, 3]
    assert len(built) == 1  # the second call read the disk
    [entry] = (cache / "k").iterdir()
    entry.write_bytes(b'{"value": [1, 2')  # a half-written file
    assert diskcache.cached_json("k", 1, "ab" * 20, build) == [1, 2, 3]
    assert len(built) == 2
    assert json.loads(entry.read_bytes())["value"] == [1, 2, 3]  # rewritten whole
    assert diskcache.cached_json("k", 2, "ab" * 20, build) == [1, 2, 3]  # a new version
    assert len(built) == 3


def test_no_cache_switch_builds_every_time(cache: Path, monkeypatch) -> None:
    monkeypatch.setenv("FINPROBE_NO_CACHE", "1")
    built: list[int] = []
    for _ in range(2):
        diskcache.cached_json("k", 1, "cd" * 20, lambda: built.append(1) or 7)
    assert len(built) == 2 and not cache.exists()


def test_cache_root_defaults_to_the_user_cache(monkeypatch, tmp_path: Path) -> None:
    monkeypatch.delenv("FINPROBE_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert diskcache.cache_root() == tmp_path / "finprobe"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert diskcache.cache_root() == tmp_path / "home" / ".cache" / "finprobe"


def test_second_preparation_reads_the_parsed_report_from_disk(
    cache: Path, claims: Path, parse_calls: list[str]
) -> None:
    path = report_path(claims.parent / "reports", load_claims(claims)[0].report)
    first = report_passages(path)
    assert len(parse_calls) == 1
    _new_process()
    second = report_passages(path)
    assert len(parse_calls) == 1  # not parsed again
    assert second == first and len(first) > 3
    # a damaged entry is ignored and rebuilt, never an error
    for entry in (cache / "findver-passages").iterdir():
        entry.write_bytes(b"\x00garbage")
    _new_process()
    assert report_passages(path) == first
    assert len(parse_calls) == 2


def test_an_edited_report_is_parsed_again(cache: Path, tmp_path: Path, claims: Path,
                                          parse_calls: list[str]) -> None:  # fmt: skip
    source = report_path(claims.parent / "reports", load_claims(claims)[0].report)
    copy = tmp_path / "report.json"
    copy.write_bytes(read_bytes(source))
    report_passages(copy)
    _new_process()
    report_passages(copy)
    assert len(parse_calls) == 1
    data = json.loads(copy.read_bytes())
    data["context"][0]["context"] = "A paragraph that was not there before."
    copy.write_text(json.dumps(data))  # same name: only the content changed
    _new_process()
    passages = report_passages(copy)
    assert len(parse_calls) == 2
    assert passages[0].text == "A paragraph that was not there before."


def _passages() -> list[Passage]:
    texts = [
        "Revenue increased to $6,786,000 in 2023 from $5.2 million.",
        "Operating expenses were flat.",
        "",
        "| Item | 2023 | 2022 |\n| Net income | 1,200 | 900 |",
        "The company repurchased shares during the year.",
    ]
    return [Passage(str(i), t, "paragraph", i) for i, t in enumerate(texts)]


def test_bm25_index_is_read_back_from_disk_with_the_same_rankings(
    cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    builds: list[int] = []
    real = BM25Retriever._build
    monkeypatch.setattr(BM25Retriever, "_build", lambda self, b: builds.append(1) or real(self, b))
    first = BM25Retriever()
    first.index(_passages())
    second = BM25Retriever()
    second.index(_passages())
    assert len(builds) == 1  # the second index came from the cache
    query = "net income 2023 repurchased shares revenue $6.8 million"
    assert first.ranking(query) == second.ranking(query)
    assert np.allclose(first.scores(query), second.scores(query))
    expected = [frozenset(analyze(p.text) or ["\u2205"]) for p in _passages()]
    assert second.token_sets == expected  # read back from the index, exactly
    # other passages, another index
    third = BM25Retriever()
    third.index(_passages()[:3])
    assert len(builds) == 2
    # a damaged entry is rebuilt
    for npy in (cache / "bm25").rglob("*.npy"):
        npy.write_bytes(b"not numpy")
    fourth = BM25Retriever()
    fourth.index(_passages())
    assert len(builds) == 3
    assert fourth.ranking(query) == first.ranking(query)


def test_limit_prepares_only_the_first_claims(
    cache: Path, claims: Path, parse_calls: list[str]
) -> None:
    every = load_claims(claims)
    limited = findver_samples(claims, limit=2)
    assert [s.id for s in limited] == [c.example_id for c in every[:2]]
    assert len(parse_calls) == len({c.report for c in every[:2]})
    assert len({c.report for c in every}) > len(parse_calls)  # the others were not parsed
    _new_process()
    full = findver_samples(claims)
    assert len(full) == len(every)
    assert [[m.text for m in s.input] for s in full[:2]] == [
        [m.text for m in s.input] for s in limited
    ]


def test_run_with_limit_prepares_only_those_samples(
    claims: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import finprobe.benchmarks.findver.task as task_module
    from finprobe.runner import RUN_SETTINGS, run_benchmark

    seen: list[int] = []
    real = task_module.findver_samples

    def recording(*args, **kwargs):  # type: ignore[no-untyped-def]
        samples = real(*args, **kwargs)
        seen.append(len(samples))
        return samples

    monkeypatch.setattr(task_module, "findver_samples", recording)
    outcome = run_benchmark(
        "findver", "mockllm/model", task_args={"data": str(claims)}, limit=3,
        runs_dir=tmp_path / "runs", display="none",
    )  # fmt: skip
    assert seen == [3] and outcome.results["samples"] == 3
    assert RUN_SETTINGS.sample_limit is None  # not left behind for the next task


def test_plain_progress_lines_off_a_terminal() -> None:
    stream = io.StringIO()
    with preparing("FinDVer: preparing evidence from 134 reports", 374, "claims", stream) as step:
        for _ in range(374):
            step(1)
    lines = stream.getvalue().splitlines()
    assert 10 <= len(lines) <= 12
    assert lines[-1].startswith("FinDVer: preparing evidence from 134 reports: 374/374 claims")
    assert all(len(line) <= WIDTH for line in lines)
    long = progress_line("x" * 200, 5, 10, 3.0, "claims")
    assert len(long) == WIDTH and long.endswith(": 5/10 claims (50%), 3 s")


def test_progress_status_is_asked_sparingly_and_shown_at_the_end() -> None:
    stream = io.StringIO()
    asked: list[int] = []

    def status() -> str:
        asked.append(1)
        return f"correct mean {len(asked) / 10:.3f}"

    with preparing("run", 374, "samples", stream, status=status, status_every=3600) as step:
        for _ in range(374):
            step(1)
    lines = stream.getvalue().splitlines()
    assert len(asked) == 2  # the first line, then the last (never more often than asked)
    assert lines[0].endswith("correct mean 0.100") and lines[-1].endswith("correct mean 0.200")
    assert all(line.endswith("correct mean 0.100") for line in lines[1:-1])
    long = progress_line("x" * 200, 5, 10, 3.0, "samples", "f1 0.512, 2 failed")
    assert len(long) == WIDTH and long.endswith(": 5/10 samples (50%), 3 s, f1 0.512, 2 failed")
