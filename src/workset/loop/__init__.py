"""The agent loop and the one event union it emits to its subscribers (CLI, log, evals)."""
