"""The README's install lines bring what its model examples need."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).parent.parent


def test_openai_compatible_client_is_a_core_dependency() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    core = [re.split(r"[<>=!~\[ ]", d, maxsplit=1)[0].lower() for d in project["dependencies"]]
    assert "openai" in core  # openai/... and openai-api/... models work on `pip install -e .`


def test_readme_install_lines_name_no_extra_for_openai_models() -> None:
    readme = (ROOT / "README.md").read_text()
    installs = re.findall(r"pip install[^\n`]*", readme)
    assert installs, "the README shows how to install"
    assert not any("openai" in line for line in installs)
    # the main install line is the plain one, and the README says it is enough
    assert any(re.search(r"pip install -e \.(\s|$|&)", line) for line in installs)
    assert "need no extra" in readme
