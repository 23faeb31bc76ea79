"""Context assembly: budget arithmetic, the stable-prefix | trajectory | suffix layout, and the
manifest recorded for every model call."""
