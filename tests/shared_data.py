"""Where the public sample data lives: ../shared beside the repository (tests skip without it)."""

from pathlib import Path

SHARED = Path(__file__).resolve().parents[2] / "shared"
