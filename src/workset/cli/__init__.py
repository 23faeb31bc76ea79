"""The ``workset`` command line: a thin layer over the library."""
