"""The README's Python example, run as written (docs stay true)."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[2]


@pytest.mark.real_model
def test_the_readme_example_answers_the_demo_question(tmp_path: Path) -> None:
    readme = (ROOT / "README.md").read_text()
    [example] = re.findall(r"```python\n(.*?)```", readme, flags=re.S)
    shutil.copytree(ROOT / "examples" / "demo", tmp_path / "examples" / "demo")
    done = subprocess.run(
        [sys.executable, "-c", example],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "8471" in done.stdout
