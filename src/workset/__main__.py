"""``python -m workset`` runs the command line."""

from workset.cli.main import main

main()
