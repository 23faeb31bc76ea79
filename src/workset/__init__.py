"""workset: context engineering runtime for AI agents."""
