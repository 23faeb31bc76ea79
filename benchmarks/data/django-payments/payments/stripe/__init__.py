from __future__ import annotations

from .providers import StripeProviderV3

__all__ = ["StripeProviderV3"]
