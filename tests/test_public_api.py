from __future__ import annotations

import inspect
import subprocess
import sys
from pathlib import Path

import workset


def test_every_public_name_is_exported_and_nothing_else_is_advertised() -> None:
    assert sorted(workset.__all__) == workset.__all__
    for name in workset.__all__:
        assert getattr(workset, name) is not None
    public = {
        name
        for name, value in vars(workset).items()
        if not name.startswith("_") and not inspect.ismodule(value)
    }
    assert public == set(workset.__all__)


def test_importing_workset_loads_no_model_and_writes_no_file(tmp_path: Path) -> None:
    code = (
        "import sys, workset; "
        "optional = ('xllamacpp', 'bpe_openai', 'mcp', 'numpy', 'tree_sitter'); "
        "heavy = [m for m in optional if m in sys.modules]; "
        "print(','.join(heavy))"
    )
    env = {"HOME": str(tmp_path), "PATH": "/usr/bin:/bin", "WORKSET_DB": str(tmp_path / "x.db")}
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True
    )
    assert done.stdout.strip() == ""
    assert list(tmp_path.iterdir()) == []
