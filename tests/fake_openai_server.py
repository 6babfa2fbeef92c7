"""A fault-injecting OpenAI-compatible chat server on 127.0.0.1, for tests and fault runs.

It speaks what vLLM, llama.cpp and Ollama expose (``POST /v1/chat/completions``,
``GET /v1/models``). ``mode`` picks how it answers:

- ``ok``: 200 with ``reply(messages)`` as the assistant's text;
- ``429`` / ``500``: always that HTTP status;
- ``hang``: never answers (holds the connection until the server stops);
- ``flaky``: 40% of prompts (chosen by a hash of the prompt, so the same prompt
  always fails) get HTTP 500, the others are answered;
- ``context``: prompts over ``context_tokens`` (estimated at 4 characters a
  token) get HTTP 400 "maximum context length", as llama.cpp's and vLLM's
  OpenAI servers answer; the others are answered;
- ``empty-choices``: 200 with ``choices: []``;
- ``bad-body``: 200 with a body that is not JSON.

Run it alone for manual fault runs::

    python tests/fake_openai_server.py --mode 429 --port 8765
"""

from __future__ import annotations

import argparse
import hashlib
import json
import threading
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

MODES = ("ok", "429", "500", "hang", "flaky", "context", "empty-choices", "bad-body")


def prompt_text(messages: list) -> str:
    parts = []
    for message in messages:
        content = message.get("content")
        if isinstance(content, list):  # content parts
            content = " ".join(str(p.get("text", "")) for p in content if isinstance(p, dict))
        parts.append(str(content or ""))
    return "\n".join(parts)


def fails_flaky(messages: list, share: float = 0.4) -> bool:
    """The same prompt always fails or always succeeds (its re-asks follow it)."""
    users = [m for m in messages if m.get("role") == "user"]
    first = prompt_text(users[:1])
    digest = hashlib.sha256(first.encode()).digest()
    return digest[0] < 256 * share


class FakeOpenAIServer:
    """``reply(messages) -> str`` decides each answer; ``calls`` records how many
    messages each chat request carried; ``mode`` injects faults (see the module doc)."""

    def __init__(self, port: int = 0, mode: str = "ok", context_tokens: int = 8192) -> None:
        self.reply: Callable[[list], str] = lambda messages: "ok"
        self.calls: list[int] = []
        self.sent_chars: list[int] = []  # prompt size of each chat request
        self.mode = mode
        self.context_tokens = context_tokens
        # OpenAI's code for it; inspect turns such a 400 into a reply that stops
        # for "model_length" (llama.cpp and vLLM send other codes: a plain error)
        self.context_code: str | None = "context_length_exceeded"
        self._stop = threading.Event()
        owner = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: object) -> None:  # keep test output quiet
                pass

            def _send(self, status: int, data: bytes, kind: str = "application/json") -> None:
                self.send_response(status)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def _error(self, status: int, message: str, kind: str, code: str | None = None) -> None:
                body = {"error": {"message": message, "type": kind, "code": code}}
                self._send(status, json.dumps(body).encode())

            def do_GET(self) -> None:  # noqa: N802 - http.server API
                models = {
                    "object": "list",
                    "data": [{"id": "tiny-model", "object": "model", "owned_by": "fake",
                              "max_model_len": owner.context_tokens}],
                }  # fmt: skip
                self._send(200, json.dumps(models).encode())

            def do_POST(self) -> None:  # noqa: N802 - http.server API
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                messages = body["messages"]
                owner.calls.append(len(messages))
                owner.sent_chars.append(len(prompt_text(messages)))
                mode = owner.mode
                if mode == "429":
                    return self._error(429, "Rate limit reached", "rate_limit_error")
                if mode == "500" or (mode == "flaky" and fails_flaky(messages)):
                    return self._error(500, "Internal server error", "server_error")
                if mode == "hang":
                    owner._stop.wait()
                    return None
                if mode == "context":
                    tokens = len(prompt_text(messages)) // 4
                    if tokens > owner.context_tokens:
                        return self._error(
                            400,
                            f"This model's maximum context length is {owner.context_tokens} "
                            f"tokens. However, you requested {tokens} tokens in the messages.",
                            "invalid_request_error",
                            owner.context_code,
                        )
                if mode == "bad-body":
                    return self._send(200, b"<html>502 Bad Gateway</html>")
                choices = []
                if mode != "empty-choices":
                    choices = [
                        {
                            "index": 0,
                            "message": {"role": "assistant", "content": owner.reply(messages)},
                            "finish_reason": "stop",
                        }
                    ]
                reply = {
                    "id": "chatcmpl-1",
                    "object": "chat.completion",
                    "created": 0,
                    "model": body.get("model", "tiny"),
                    "choices": choices,
                    "usage": {"prompt_tokens": 10, "completion_tokens": 10, "total_tokens": 20},
                }
                return self._send(200, json.dumps(reply).encode())

        self.server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
        self.server.daemon_threads = True

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_port}/v1"

    def start(self) -> FakeOpenAIServer:
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self.server.shutdown()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mode", choices=MODES, default="ok")
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--context-tokens", type=int, default=8192)
    options = parser.parse_args()
    fake = FakeOpenAIServer(options.port, options.mode, options.context_tokens)
    fake.reply = lambda messages: "The claim is refuted."
    print(f"fake server ({options.mode}) at {fake.base_url}", flush=True)
    fake.server.serve_forever()


if __name__ == "__main__":
    main()
