"""Tools the agent can call: typed definitions, argument validation, a registry that turns every
bad call into a tool error for the model, the workspace-confined perception and execution
tools, the background (async) tools, and the OS sandbox commands run in."""
