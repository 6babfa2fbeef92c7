"""Shared fixtures: the tiny FAITH set and one finished baseline run on it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fake_openai_server import FakeOpenAIServer

from finprobe.runner import RunOutcome, run_benchmark

TINY_FAITH = Path(__file__).parent / "data" / "faith_tiny.json"


@pytest.fixture(autouse=True, scope="session")
def _private_disk_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Parsed reports and indexes go to a cache of the test session, not ~/.cache."""
    mp = pytest.MonkeyPatch()
    mp.setenv("FINPROBE_CACHE_DIR", str(tmp_path_factory.mktemp("finprobe-cache")))
    mp.delenv("FINPROBE_NO_CACHE", raising=False)
    yield
    mp.undo()


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A disk cache of this test alone (empty at the start), switched on."""
    folder = tmp_path / "cache"
    monkeypatch.setenv("FINPROBE_CACHE_DIR", str(folder))
    monkeypatch.delenv("FINPROBE_NO_CACHE", raising=False)
    return folder


@pytest.fixture(scope="session")
def tiny_baseline_run(tmp_path_factory: pytest.TempPathFactory) -> RunOutcome:
    """finprobe/faith-solver on tests/data/faith_tiny.json (six hand-made spans)."""
    runs = tmp_path_factory.mktemp("tiny-runs")
    return run_benchmark(
        "faith",
        "finprobe/faith-solver",
        task_args={"data": str(TINY_FAITH)},
        runs_dir=runs,
        display="none",
    )


@pytest.fixture(scope="session")
def _openai_server_session() -> Iterator[FakeOpenAIServer]:
    # one server (one port) per session: inspect memoizes model clients, so a
    # second server on another port would be talked to through a stale client
    fake = FakeOpenAIServer().start()
    yield fake
    fake.stop()


@pytest.fixture
def openai_server(
    _openai_server_session: FakeOpenAIServer, monkeypatch: pytest.MonkeyPatch
) -> FakeOpenAIServer:
    """The fake server, with LOCAL_BASE_URL/LOCAL_API_KEY set for `openai-api/local/<name>`."""
    pytest.importorskip("openai")
    fake = _openai_server_session
    fake.reply = lambda messages: "ok"
    fake.calls = []
    fake.sent_chars = []
    fake.mode = "ok"
    monkeypatch.setenv("LOCAL_API_KEY", "not-a-secret")
    monkeypatch.setenv("LOCAL_BASE_URL", fake.base_url)
    return fake
