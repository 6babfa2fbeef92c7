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


class _Figure:
    """The ``status()`` figure, asked at most every ``every`` seconds (first at
    ``asked_at + every``) and once more when the work is done."""

    def __init__(
        self, status: Callable[[], str] | None, every: float, total: int, asked_at: float
    ) -> None:
        self.status, self.every, self.total, self.at = status, every, total, asked_at
        self.text = ""

    def refresh(self, done: int, now: float) -> bool:
        """Ask for the figure when it is due; True when it was asked."""
        if self.status is None or (now - self.at < self.every and done < self.total):
            return False
        self.text, self.at = self.status(), now
        return True


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
            shown = _Figure(status, status_every, total, asked_at=start)
            done = 0

            def advance_bar(n: int = 1) -> None:
                nonlocal done
                bar.advance(task, n)
                done += n
                if shown.refresh(done, time.monotonic()):
                    bar.update(task, description=f"{label} · {shown.text}")

            yield advance_bar
        return
    state = {"done": 0, "shown": 0, "at": start}
    step = max(1, total // 10)
    figure = _Figure(status, status_every, total, asked_at=start - status_every)  # first line

    def advance(n: int = 1) -> None:
        state["done"] += n
        now = time.monotonic()
        done = state["done"]
        if done - state["shown"] >= step or now - state["at"] >= interval or done == total:
            figure.refresh(done, now)
            line = progress_line(label, done, total, now - start, unit, figure.text)
            print(line, file=stream, flush=True)
            state["shown"], state["at"] = done, now

    yield advance
