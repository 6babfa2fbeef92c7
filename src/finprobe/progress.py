"""Progress of slow work: preparing samples (parsing and indexing reports) and a
direct run's samples (with the run's headline metric so far).

On a terminal: a transient rich bar on stderr. Elsewhere (a pipe, a log file, CI):
plain lines on stderr, at most 80 columns, about every tenth of the work and at
least every 10 seconds, so a redirected run never looks stuck.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TextIO

WIDTH = 80


def progress_line(
    label: str, done: int, total: int, seconds: float, unit: str = "", status: str = ""
) -> str:
    """'label: 120/374 claims (32%), 12 s[, status]', cut to 80 columns (the label gives
    way; ``status`` is a short figure such as the running headline metric)."""
    share = f" ({100 * done // total}%)" if total else ""
    tail = f": {done}/{total}{' ' + unit if unit else ''}{share}, {seconds:.0f} s"
    if status:
        tail += f", {status}"
    room = WIDTH - len(tail)
    if len(label) > room:
        label = label[: max(room - 1, 0)] + "…"
    return label + tail


@contextmanager
def preparing(
    label: str,
    total: int,
    unit: str = "",
    stream: TextIO | None = None,
    interval: float = 10.0,
    status: Callable[[], str] | None = None,
    status_every: float = 2.0,
) -> Iterator[Callable[[int], None]]:
    """Yields ``advance(n=1)``; shows progress on ``stream`` (default stderr).

    ``status()``: a short figure shown beside the count (a run's headline metric so
    far); it may cost a little, so it is asked at most every ``status_every`` seconds
    on a terminal, with each plain line elsewhere, and at the end."""
    stream = stream if stream is not None else sys.stderr
    if total <= 0:
        yield lambda n=1: None
        return
    start = time.monotonic()
    if stream.isatty():
        from rich.console import Console
        from rich.progress import Progress

        with Progress(console=Console(file=stream), transient=True) as bar:
            task = bar.add_task(label, total=total)
            asked = {"at": start, "done": 0}

            def advance_bar(n: int = 1) -> None:
                bar.advance(task, n)
                asked["done"] += n
                now = time.monotonic()
                if status and (now - asked["at"] >= status_every or asked["done"] >= total):
                    bar.update(task, description=f"{label} · {status()}")
                    asked["at"] = now

            yield advance_bar
        return
    state = {"done": 0, "shown": 0, "at": start}
    step = max(1, total // 10)
    figure = {"text": "", "at": start - status_every}

    def advance(n: int = 1) -> None:
        state["done"] += n
        now = time.monotonic()
        done = state["done"]
        if done - state["shown"] >= step or now - state["at"] >= interval or done == total:
            if status and (now - figure["at"] >= status_every or done == total):
                figure["text"], figure["at"] = status(), now
            line = progress_line(label, done, total, now - start, unit, str(figure["text"]))
            print(line, file=stream, flush=True)
            state["shown"], state["at"] = done, now

    yield advance
