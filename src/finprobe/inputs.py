"""How every ``finprobe build`` command takes its documents: one rule, written once.

Inputs are positional paths, several allowed: a file is used as given, a folder
contributes its files with the benchmark's suffixes (sorted by name, not recursive).
A missing path, an unreadable file or a folder without any such file is an
``InputError`` that names the path.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

from finprobe.errors import InputError

# the help text every build command shows for its documents
INPUTS_HELP = "Files or folders of them (several allowed; a folder's files are read in name order)."


def collect_inputs(paths: Iterable[str | Path], suffixes: tuple[str, ...]) -> list[Path]:
    """The files named, and the files with ``suffixes`` inside the folders named, in order."""
    files: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            found = sorted(
                p for p in path.iterdir() if p.is_file() and p.name.lower().endswith(suffixes)
            )
            if not found:
                raise InputError(path, f"folder holds no {', '.join(suffixes)} files")
            files.extend(found)
        elif path.is_file():
            if not os.access(path, os.R_OK):
                raise InputError(path, "cannot be read (permission denied)")
            files.append(path)
        else:
            raise InputError(path, "no such file or folder")
    return files


def deprecated_reports_option(paths: list[Path] | None) -> list[Path]:
    """The old ``--reports PATH`` option still works (hidden), with a note on stderr."""
    if paths:
        import sys

        print("note: --reports is deprecated; give the files or folders as arguments",
              file=sys.stderr)  # fmt: skip
    return list(paths or [])
