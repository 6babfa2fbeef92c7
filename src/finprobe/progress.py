"""Progress of slow preparation (parsing and indexing reports) before a run starts.

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


def progress_line(label: str, done: int, total: int, seconds: float, unit: str = "") -> str:
    """'label: 120/374 claims (32%), 12 s', cut to 80 columns (the label gives way)."""
    share = f" ({100 * done // total}%)" if total else ""
    tail = f": {done}/{total}{' ' + unit if unit else ''}{share}, {seconds:.0f} s"
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
) -> Iterator[Callable[[int], None]]:
    """Yields ``advance(n=1)``; shows progress on ``stream`` (default stderr)."""
    stream = stream if stream is not None else sys.stderr
    if total <= 0:
        yield lambda n=1: None
        return
    if stream.isatty():
        from rich.console import Console
        from rich.progress import Progress

        with Progress(console=Console(file=stream), transient=True) as bar:
            task = bar.add_task(label, total=total)
            yield lambda n=1: bar.advance(task, n)
        return
    start = time.monotonic()
    state = {"done": 0, "shown": 0, "at": start}
    step = max(1, total // 10)

    def advance(n: int = 1) -> None:
        state["done"] += n
        now = time.monotonic()
        done = state["done"]
        if done - state["shown"] >= step or now - state["at"] >= interval or done == total:
            print(progress_line(label, done, total, now - start, unit), file=stream, flush=True)
            state["shown"], state["at"] = done, now

    yield advance
