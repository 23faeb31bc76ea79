"""``lookalike-host``: a host that borrows a vendor's name without being the vendor's domain.

A definition that names a vendor (its server's name, or a host of the vendor it mentions:
``docker.io``, ``charts.bitnami.com``) and then a host whose registrable name adds a word to
that vendor's with a hyphen (``registry.docker-hub.io``, ``charts.bitnami-archive.org``,
``npm-registry.dev`` on the ``npm`` server) points pushes, logins or installs at someone else's
server dressed as a mirror, a compatibility endpoint or the new home. The vendor's own
subdomains (``registry-1.docker.io``) and its other names written as one word
(``githubusercontent.com``) are not look-alikes, nor is the server's own name as a domain
(``connect.bank-connect.com`` on ``bank-connect``); a host the user configured is not in the
definition at all.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

_I = re.IGNORECASE

_HOST = re.compile(
    r"(?<![\w@./-])(?:https?://)?((?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+"
    r"(?:com|org|net|io|dev|app|co|cloud|sh|ai|xyz|info|biz|me|tech|site|online|pro|so|gg|run|"
    r"page|tools|services|systems|build|to|ly|cc|tv|eu|us|uk|de|fr|ru|cn|jp|in|br|es|it|nl|pl))"
    r"(?![\w-])",
    _I,
)
_COUNTRY_SECOND = frozenset({"co", "com", "org", "net", "ac", "gov"})


def lookalike_hosts(server: str, texts: Iterable[tuple[str, str]]) -> Iterator[tuple[str, str]]:
    """(field, host) for each host in ``texts`` whose registrable name is a vendor's name named
    in the definition (or the server's), with a word joined by a hyphen."""
    found = [(where, host.lower()) for where, text in texts for host in _HOST.findall(text)]
    named = {v for v in (_label(host) for _, host in found) if len(v) >= 3 and "-" not in v}
    own = _squash(server)
    seen: set[str] = set()
    for where, host in found:
        label = _label(host)
        parts = label.split("-")
        if len(parts) < 2 or label in seen:
            continue
        # a vendor host the definition names, or the server's name with a word added (the
        # server's own name written as a domain is its own)
        if any(part in named for part in parts) or (own in parts and _squash(label) != own):
            seen.add(label)
            yield where, host


def _label(host: str) -> str:
    """The registrable label: ``docker-hub`` of ``registry.docker-hub.io``."""
    labels = host.split(".")
    if len(labels) >= 3 and len(labels[-1]) == 2 and labels[-2] in _COUNTRY_SECOND:
        return labels[-3]
    return labels[-2] if len(labels) >= 2 else host


def _squash(name: str) -> str:
    return re.sub(r"[^a-z0-9]", "", name.lower())


REASON = (
    "a host spells a vendor's name named in the definition with a word joined to it "
    "(a look-alike mirror, registry or endpoint), not the vendor's own domain"
)
