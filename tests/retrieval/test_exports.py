from __future__ import annotations

import inspect

import workset.discovery
import workset.retrieval


def test_the_retrieval_and_discovery_packages_export_exactly_their_public_names() -> None:
    for package in (workset.retrieval, workset.discovery):
        public = {
            name
            for name, value in vars(package).items()
            if not name.startswith("_") and not inspect.ismodule(value)
        }
        assert public == set(package.__all__), package.__name__
        assert len(set(package.__all__)) == len(package.__all__)
