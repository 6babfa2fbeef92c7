"""Prompts that fit the model's context, by a stated policy per benchmark.

A prompt's size is estimated (no tokenizer download): 3 characters a token, which
over-counts English prose (about 4) and is close for digit-heavy tables, so a
prompt judged to fit does fit on the tokenizers we measured. The budget is the
context window less the reply's ``max_tokens`` and a margin for the chat template.

Policies (``POLICIES``):
- ``refuse``: a prompt over the budget is not sent; the sample is an error with
  cause ``context_overflow`` (FAITH: any table may hold the answer, and cutting
  one would change what the span's scenario says);
- ``keep-head``: the longest message keeps its start and its last
  ``KEEP_TAIL_CHARS`` characters (where prompts put the question and the answer
  format); the middle is replaced by a marker saying how much was cut (FinED's
  documents, FinAuditing's filings; FinDVer cuts whole passages itself first).
Either way the sample's metadata records ``prompt_fit``: estimated tokens, budget,
policy, whether and how much was cut.
"""

from __future__ import annotations

from typing import Any

CHARS_PER_TOKEN = 3
TEMPLATE_MARGIN_TOKENS = 64
KEEP_TAIL_CHARS = 2_000
POLICIES = ("refuse", "keep-head")
CUT_MARKER = "\n[... {n} characters cut to fit the model's context ...]\n"


def estimate_tokens(text: str) -> int:
    return (len(text) + CHARS_PER_TOKEN - 1) // CHARS_PER_TOKEN


def message_text(message: Any) -> str:
    content = getattr(message, "content", message)
    if isinstance(content, str):
        return content
    return " ".join(str(getattr(part, "text", "")) for part in content or [])


def prompt_tokens(messages: list[Any]) -> int:
    return sum(estimate_tokens(message_text(m)) for m in messages)


def prompt_budget(max_context_tokens: int, max_tokens: int | None) -> int:
    """Tokens the prompt may take: the window less the reply and the template margin."""
    reserve = max_tokens if max_tokens is not None else 1024
    return max(0, max_context_tokens - reserve - TEMPLATE_MARGIN_TOKENS)


def fit_messages(messages: list[Any], budget: int, policy: str) -> tuple[list[Any], dict[str, Any]]:
    """(messages that fit, the record of what was done). ``refuse`` leaves the
    messages as they are and reports ``fits: False``; the caller raises."""
    if policy not in POLICIES:
        raise ValueError(f"unknown truncation policy {policy!r}; choose {', '.join(POLICIES)}")
    tokens = prompt_tokens(messages)
    record: dict[str, Any] = {
        "estimated_tokens": tokens,
        "budget_tokens": budget,
        "policy": policy,
        "truncated": False,
        "cut_chars": 0,
        "fits": tokens <= budget,
    }
    if tokens <= budget or policy == "refuse":
        return messages, record
    # keep-head: cut the middle of the longest message
    longest = max(range(len(messages)), key=lambda i: len(message_text(messages[i])))
    text = message_text(messages[longest])
    excess_chars = (tokens - budget) * CHARS_PER_TOKEN + len(CUT_MARKER) + 16
    tail = min(KEEP_TAIL_CHARS, max(0, len(text) - excess_chars))
    head = len(text) - tail - excess_chars
    if head <= 0:  # even the whole message cut would not make room
        return messages, record
    cut = len(text) - head - tail
    new_text = text[:head] + CUT_MARKER.format(n=f"{cut:,}") + text[len(text) - tail :]
    fitted = list(messages)
    fitted[longest] = messages[longest].model_copy(update={"content": new_text})
    after = prompt_tokens(fitted)
    record.update(truncated=True, cut_chars=cut, estimated_tokens_after=after, fits=after <= budget)
    return fitted, record
