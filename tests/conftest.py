"""Shared fixtures: the tiny FAITH set and one finished baseline run on it."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from finprobe.runner import RunOutcome, run_benchmark

TINY_FAITH = Path(__file__).parent / "data" / "faith_tiny.json"


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


class FakeOpenAIServer:
    """A minimal OpenAI-compatible chat server on 127.0.0.1 (what vLLM, llama.cpp and Ollama expose).

    ``reply(messages) -> str`` decides each answer; ``calls`` records how many
    messages each request carried.
    """

    def __init__(self) -> None:
        self.reply: Callable[[list], str] = lambda messages: "ok"
        self.calls: list[int] = []
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:  # keep test output quiet
                pass

            def do_POST(self) -> None:  # noqa: N802 - http.server API
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                messages = body["messages"]
                owner.calls.append(len(messages))
                reply = {
                    "id": "chatcmpl-1",
                    "object": "chat.completion",
                    "created": 0,
                    "model": body.get("model", "tiny"),
                    "choices": [
                        {
                            "index": 0,
                            "message": {"role": "assistant", "content": owner.reply(messages)},
                            "finish_reason": "stop",
                        }
                    ],
                    "usage": {"prompt_tokens": 10, "completion_tokens": 10, "total_tokens": 20},
                }
                data = json.dumps(reply).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_port}/v1"


@pytest.fixture(scope="session")
def _openai_server_session() -> Iterator[FakeOpenAIServer]:
    # one server (one port) per session: inspect memoizes model clients, so a
    # second server on another port would be talked to through a stale client
    fake = FakeOpenAIServer()
    thread = threading.Thread(target=fake.server.serve_forever, daemon=True)
    thread.start()
    yield fake
    fake.server.shutdown()


@pytest.fixture
def openai_server(
    _openai_server_session: FakeOpenAIServer, monkeypatch: pytest.MonkeyPatch
) -> FakeOpenAIServer:
    """The fake server, with LOCAL_BASE_URL/LOCAL_API_KEY set for `openai-api/local/<name>`."""
    pytest.importorskip("openai")
    fake = _openai_server_session
    fake.reply = lambda messages: "ok"
    fake.calls = []
    monkeypatch.setenv("LOCAL_API_KEY", "not-a-secret")
    monkeypatch.setenv("LOCAL_BASE_URL", fake.base_url)
    return fake
