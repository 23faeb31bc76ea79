"""Commands fed everything a listing prints: ``docker rm $(docker ps -aq)``, ``kubectl get pods
-o name | xargs kubectl delete``, ``git branch -r | xargs git push origin --delete``.

A delete fed a whole listing deletes everything of a kind; a name, a selector or a filter
(``grep``, ``head``) between the two narrows it. The container, cluster, infrastructure and
git rules ask :func:`fed_whole_listing` before they deny.
"""

from __future__ import annotations

from collections.abc import Callable

from workset.safety.rules.base import Cmd
from workset.safety.rules.known import subcommand

_SELECTORS = ("-l", "--selector", "--field-selector", "-f", "--filter")
_VALUED = {"-n", "--namespace", "-o", "--output", "--context", "--kube-context", "--format"}
_LIST_WORDS = frozenset({"ps", "images", "ls", "list", "state", "branch", "for-each-ref",
                         "container", "image"})  # fmt: skip


def fed_whole_listing(cmd: Cmd, lister: Callable[[Cmd], bool]) -> bool:
    """The words of ``cmd`` come from a listing of everything of a kind, through a pipe into
    xargs or a substitution (``docker rm $(docker ps -aq)``, ``git branch -r | xargs git push
    --delete``): no name, selector or filter (grep, head) narrows it."""
    feeds = [cmd.upstream] if cmd.upstream else []
    feeds += [c for i in range(len(cmd.argv)) if (c := cmd.inner_of(i))]
    for stages in feeds:
        last = stages[-1]
        if not lister(last):
            continue
        _, rest = subcommand(last)
        operands = [a for a in rest if not a.startswith("-")]
        selected = any(a.startswith(_SELECTORS) for a in rest)
        flagged = [a for i, a in enumerate(rest) if i and rest[i - 1] in _VALUED]
        narrowed = [a for a in operands if a not in flagged and a not in _LIST_WORDS]
        if last.name == "kubectl":
            narrowed = narrowed[1:] + [a for a in operands if "/" in a]
        if not selected and not narrowed:
            return True
    return False
