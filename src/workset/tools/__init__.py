"""Tools the agent can call: typed definitions, argument validation, a registry that turns every
bad call into a tool error for the model, and the workspace-confined perception tools."""
