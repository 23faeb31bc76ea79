"""Execution safety: command analysis, the sidecar classifier, permission policy, approvals and
the gate every call passes (the OS sandbox the tools run in is ``workset.tools.sandbox``)."""
