"""User-facing errors: one line that names the file and the problem."""

from __future__ import annotations

from pathlib import Path


class InputError(Exception):
    """Bad user input (missing, empty or corrupt file, bad option value).

    The CLI prints ``error: <path>: <problem>`` and exits with status 2.
    """

    def __init__(self, path: str | Path | None, problem: str) -> None:
        self.path = str(path) if path is not None else None
        self.problem = problem
        super().__init__(f"{self.path}: {problem}" if self.path else problem)
