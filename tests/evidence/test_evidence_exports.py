from __future__ import annotations

import inspect

import workset.evidence


def test_the_evidence_package_exports_exactly_its_public_names() -> None:
    public = {
        name
        for name, value in vars(workset.evidence).items()
        if not name.startswith("_") and not inspect.ismodule(value)
    }
    assert public == set(workset.evidence.__all__)
    assert sorted(workset.evidence.__all__) == workset.evidence.__all__
