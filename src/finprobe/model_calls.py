"""Model calls that end, and failures that are errors, never answers.

- ``RequestLimits``: bounded retries and a per-attempt timeout (inspect's
  ``max_retries`` and ``attempt_timeout``), on by default.
- ``ModelCallError``: a failed model call as a sample error whose message starts
  with its cause (``context_overflow: ...``), so results count errors by cause.
  A context overflow or a refusal that a provider turns into a reply (inspect maps
  them to ``stop_reason`` ``model_length`` / ``content_filter``) is raised too:
  such a reply is the server's error text, not the model's answer.
- ``CircuitBreaker``: when the first requests of a run all fail (a dead,
  rate-limited or hanging server), the remaining samples fail at once instead of
  each waiting out its retries.
- ``preflight``: a closed port is found before the run, with its URL.
"""

from __future__ import annotations

import json
import os
import re
import socket
import threading
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlparse

from finprobe.defaults import DEFAULT_MAX_RETRIES, DEFAULT_TIMEOUT  # noqa: F401  (re-exported)

# Causes of a sample error, as counted in results ("error_causes").
CAUSES = (
    "context_overflow",  # the prompt does not fit the model's context
    "refused",  # the provider refused the request (content filter, policy)
    "rate_limited",  # HTTP 429 after every retry
    "server_error",  # HTTP 5xx after every retry
    "timeout",  # no answer within the timeout, after every retry
    "connection",  # the server could not be reached
    "bad_response",  # a reply without choices, or a body that is not JSON
    "auth",  # HTTP 401/403
    "bad_request",  # another HTTP 4xx
    "stopped",  # not attempted: the run's first requests all failed
    "cancelled",  # in flight when the run was stopped (--fail-on-error crossed)
    "other",  # anything else a sample raised
)
# causes that say the server, not the sample, is at fault
SERVER_CAUSES = frozenset(
    {"rate_limited", "server_error", "timeout", "connection", "bad_response", "auth"}
)
# inspect records a raised error as its message or its repr: ModelCallError('cause: ...')
_CAUSE_PREFIX = re.compile(rf"^(?:ModelCallError\(['\"])?({'|'.join(CAUSES)}): ")
_CONTEXT_WORDS = re.compile(
    r"context length|context window|context size|maximum context|too many tokens|"
    r"input length|prompt is too long|exceeds the (?:available )?context",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class RequestLimits:
    """How long one model request may take, in all: (max_retries + 1) attempts of at
    most ``timeout`` seconds each, with inspect's exponential backoff (3 s, 6 s, 12 s ...)
    between them."""

    max_retries: int = DEFAULT_MAX_RETRIES
    timeout: int = DEFAULT_TIMEOUT

    def generate_config(self) -> dict[str, Any]:
        return {"max_retries": self.max_retries, "attempt_timeout": self.timeout}


class ModelCallError(RuntimeError):
    """A model call that failed: the sample is an error with this cause."""

    def __init__(self, cause: str, detail: str, url: str | None = None) -> None:
        self.cause = cause if cause in CAUSES else "other"
        self.detail = " ".join(str(detail).split())[:500]
        self.url = url
        where = f" ({url})" if url else ""
        super().__init__(f"{self.cause}: {self.detail}{where}")


def plain_error(message: str | None) -> str:
    """A sample error's message without the ``ModelCallError('...')`` wrapper inspect may add."""
    text = str(message or "").strip()
    match = re.fullmatch(r"ModelCallError\((['\"])(.*)\1\)", text, flags=re.S)
    return match.group(2) if match else text


def error_cause(message: str | None) -> str:
    """The cause of a sample error from its message ('other' when not ours)."""
    if not message:
        return "other"
    match = _CAUSE_PREFIX.match(message)
    if match:
        return match.group(1)
    return "cancelled" if message.startswith("CancelledError") else "other"


def classify_exception(exc: BaseException) -> tuple[str, str]:
    """(cause, detail) of an exception raised by a model call."""
    last = getattr(exc, "last_attempt", None)  # tenacity's RetryError: the last failure
    if last is not None and getattr(last, "failed", False):
        inner = last.exception()
        if inner is not None:
            return classify_exception(inner)
    name = type(exc).__name__
    text = str(exc) or name
    status = getattr(exc, "status_code", None)
    if isinstance(exc, ModelCallError):
        return exc.cause, exc.detail
    if _CONTEXT_WORDS.search(text) and (status in (None, 400, 413, 422)):
        return "context_overflow", text
    if status == 429 or name == "RateLimitError":
        return "rate_limited", f"HTTP 429: {text}"
    if isinstance(status, int) and status >= 500:
        return "server_error", f"HTTP {status}: {text}"
    if status in (401, 403):
        return "auth", f"HTTP {status}: {text}"
    if isinstance(status, int) and 400 <= status < 500:
        if "content_filter" in text or "content_policy" in text or "refus" in text.lower():
            return "refused", f"HTTP {status}: {text}"
        return "bad_request", f"HTTP {status}: {text}"
    if "Timeout" in name or isinstance(exc, TimeoutError):
        # inspect's attempt timeout also runs while a request waits for a free connection
        return "timeout", f"no answer in time ({text}; the wait for a free connection counts)"
    if name in ("APIConnectionError", "ConnectError", "ConnectionRefusedError") or isinstance(
        exc, ConnectionError
    ):
        return "connection", f"cannot reach the server ({text})"
    if isinstance(exc, (json.JSONDecodeError, IndexError)) or name in (
        "JSONDecodeError",
        "ValidationError",
        "APIResponseValidationError",
    ):
        return "bad_response", f"unreadable reply ({name}: {text})"
    return "other", f"{name}: {text}"


def check_output(output: Any) -> None:
    """Raise when a model 'reply' is an error in disguise (no choices, context, refusal)."""
    choices = getattr(output, "choices", None)
    if choices is not None and len(choices) == 0:
        raise ModelCallError("bad_response", "the reply has no choices")
    stop = getattr(output, "stop_reason", None)
    if stop == "model_length":
        raise ModelCallError("context_overflow", output.completion or "the prompt is too long")
    if stop == "content_filter":
        raise ModelCallError("refused", output.completion or "the request was refused")
    if getattr(output, "error", None):
        raise ModelCallError("other", str(output.error))


class CircuitBreaker:
    """Fail fast once a run's first ``threshold`` requests have all failed on the server.

    Only before the first success: a run that has been answered goes on, and
    later failures are bounded by retries and ``--fail-on-error``.
    """

    def __init__(self, threshold: int = 10) -> None:
        self.threshold = threshold
        self._lock = threading.Lock()
        self.reset()

    def reset(self) -> None:
        with self._lock:
            self.successes = 0
            self.failures = 0
            self.last: ModelCallError | None = None

    def record_success(self) -> None:
        with self._lock:
            self.successes += 1

    def record_failure(self, error: ModelCallError) -> None:
        if error.cause not in SERVER_CAUSES:
            return
        with self._lock:
            self.failures += 1
            self.last = error

    def check(self) -> None:
        with self._lock:
            tripped = self.successes == 0 and self.failures >= self.threshold
            last = self.last
        if tripped and last is not None:
            raise ModelCallError(
                "stopped",
                f"not sent: the run's first {self.failures} requests failed "
                f"(last: {last.cause}: {last.detail})",
                last.url,
            )


BREAKER = CircuitBreaker()


# ----------------------------------------------------------------------------- the server


def model_base_url(model: str, base_url: str | None = None) -> str | None:
    """The URL requests for ``model`` go to, when it can be known without a call."""
    if base_url:
        return base_url
    provider, _, rest = model.partition("/")
    if provider == "openai-api":
        service = rest.split("/", 1)[0]
        return os.environ.get(f"{service.upper().replace('-', '_')}_BASE_URL")
    if provider == "openai":
        return os.environ.get("OPENAI_BASE_URL", "https://api.openai.com/v1")
    if provider == "anthropic":
        return os.environ.get("ANTHROPIC_BASE_URL", "https://api.anthropic.com")
    if provider in ("vllm", "sglang", "ollama", "llama-cpp-python"):
        return os.environ.get(f"{provider.upper().replace('-', '_')}_BASE_URL")
    return None


def preflight(url: str | None, timeout: float = 5.0) -> None:
    """Raise ModelCallError('connection') when nothing listens at ``url``'s host and port."""
    if not url:
        return
    parsed = urlparse(url)
    if not parsed.hostname:
        return
    port = parsed.port or (443 if parsed.scheme == "https" else 80)
    try:
        with socket.create_connection((parsed.hostname, port), timeout=timeout):
            pass
    except OSError as exc:
        reason = exc.strerror or type(exc).__name__
        raise ModelCallError(
            "connection", f"cannot reach the model server: {reason}", url
        ) from None


# Context windows (tokens) of well-known models, matched by name prefix, longest first.
KNOWN_CONTEXT_WINDOWS = {
    "gpt-4.1": 1_047_576,
    "gpt-4o": 128_000,
    "gpt-4-turbo": 128_000,
    "gpt-5": 400_000,
    "o3": 200_000,
    "o4-mini": 200_000,
    "claude": 200_000,
    "gemini-2.5": 1_048_576,
    "gemini-2.0": 1_048_576,
}


def known_context_window(
    model: str, base_url: str | None = None, timeout: float = 5.0
) -> int | None:
    """The model's context window in tokens, when known: a local OpenAI-compatible server
    is asked (llama.cpp's ``GET /props`` n_ctx, else ``GET /models``: vLLM's
    ``max_model_len``), a
    well-known hosted model is looked up by name; else None."""
    name = model.split("/")[-1].lower()
    for prefix in sorted(KNOWN_CONTEXT_WINDOWS, key=len, reverse=True):
        if name.startswith(prefix):
            return KNOWN_CONTEXT_WINDOWS[prefix]
    if not model.startswith(("openai-api/", "vllm/", "ollama/", "sglang/")) or not base_url:
        return None
    import httpx

    root = base_url.rstrip("/")
    try:  # llama.cpp's server: the context it was started with
        props = httpx.get(root.removesuffix("/v1") + "/props", timeout=timeout).json()
        n_ctx = (props.get("default_generation_settings") or {}).get("n_ctx")
        if isinstance(n_ctx, int) and n_ctx > 0:
            return n_ctx
    except Exception:  # not llama.cpp, or no answer: try the model list
        pass
    try:
        entries = httpx.get(root + "/models", timeout=timeout).json().get("data") or []
    except Exception:  # an unknown window is not an error: the server still says no
        return None
    for entry in entries:
        if not isinstance(entry, dict):
            continue
        for key in ("max_model_len", "context_length", "n_ctx"):
            value = entry.get(key) or (entry.get("meta") or {}).get(key)
            if isinstance(value, int) and value > 0:
                return value
    return None
