from __future__ import annotations

import subprocess
import sys

import workset.skills


def test_the_skills_package_exports_exactly_its_all() -> None:
    assert sorted(workset.skills.__all__) == workset.skills.__all__
    public = {n for n in vars(workset.skills) if not n.startswith("_")}
    modules = {"base", "catalog", "folder", "frontmatter", "install", "loader", "lock", "tools"}
    assert public - modules == set(workset.skills.__all__)


def test_importing_the_skills_package_does_not_import_yaml() -> None:
    code = "import sys, workset.skills; print('yaml' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"
