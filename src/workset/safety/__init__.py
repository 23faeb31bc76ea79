"""Execution safety: command analysis, the sidecar classifier, permission policy, approvals and
the OS sandbox."""
