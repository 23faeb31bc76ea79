"""What a name says about the environment it belongs to: production, or a throwaway copy.

``--target prod``, ``kafka-prod-1``, ``acme-production`` name the live system others depend
on; ``pr-42``, ``preview``, ``staging``, ``acme-test`` name a copy made to be changed or
thrown away. The rules that deny a destructive call on a live system and only ask on a copy
read names through these two patterns.
"""

from __future__ import annotations

import re

# A production word standing alone in a name (not ``reproduce`` or ``delivery``).
PRODUCTION = re.compile(r"(^|[^a-z])(prod|production|prd|live)([^a-z]|$)", re.IGNORECASE)
# A name part that marks a copy: a pull request's preview, staging, a test or demo copy.
THROWAWAY = re.compile(
    r"(^|[-_.@])(pr-?\d+|preview|staging|stage|dev|develop|test|tests|tmp|temp|sandbox|demo|"
    r"review|scratch|e2e|ci|qa|uat)([-_.]|\d|$)",
    re.IGNORECASE,
)
