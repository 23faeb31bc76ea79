"""The tools through which the model asks people and tells them things.

``request_human_approval`` and ``request_human_input`` wait for a person's answer up to a
deadline and then take a conservative default (:mod:`.human`); ``send_notification`` tells
someone without waiting (:mod:`.notify`). All three reach the running session through the
call's context; the two requests are idempotent, so after a restart the same call re-arms
the same request instead of asking again.
"""

from __future__ import annotations

from typing import Literal

from workset.collab.agent_tools import session_host
from workset.collab.human import HumanDesk, describe_reply
from workset.collab.notify import Notification, describe
from workset.errors import ToolError
from workset.tools.base import Tool
from workset.tools.context import current_call

DEFAULT_TIMEOUT_S = 300
# For the system prompt of an agent given these tools (Experiment 4-3: the agent should know
# when a person is needed, and ask before, not after).
GUIDANCE = (
    "Some decisions need a person. Before an action that cannot be undone or that affects "
    "others (paying, refunding, deleting, sending on someone's behalf, deploying), call "
    "request_human_approval and wait for its result; if it is denied, timed_out or "
    "no_channel, do not take the action. When you need a fact or a choice only a person can "
    "give (which account, which option, a deadline), call request_human_input instead of "
    "guessing. Do not ask about what the user already said or what your tools can find."
)
Urgency = Literal["urgent", "high", "normal", "low"]


def human_tools(desk: HumanDesk) -> list[Tool]:
    """``request_human_approval``, ``request_human_input`` and ``send_notification``."""

    def check_timeout(timeout_s: int) -> None:
        if not 0 < timeout_s <= desk.max_timeout_s:
            raise ToolError(
                f"timeout_s must be between 1 and {desk.max_timeout_s:g} seconds",
                hint=f"e.g. {DEFAULT_TIMEOUT_S} (five minutes)",
            )

    async def request_human_approval(
        action: str,
        reason: str,
        timeout_s: int = DEFAULT_TIMEOUT_S,
        default: Literal["deny", "approve"] = "deny",
        urgency: Urgency = "normal",
    ) -> str:
        """Ask a person to approve an action before you take it, and wait for the answer.

        Use when: the action cannot be undone or affects others (paying, deleting, sending
        on someone's behalf, deploying), or the user asked you to check first.
        Do not use when: the action is reversible and within what the user asked for.
        The person is notified (urgent and high: every channel; normal: email) and may
        answer on any channel. If nobody answers within timeout_s, the default is taken
        (deny unless you say otherwise); the result says which happened: approved, denied,
        timed_out or no_channel. Example: {"action": "Refund order 1182 (EUR 240)",
        "reason": "the customer was charged twice", "timeout_s": 600}.

        Args:
            action: What you want to do, concretely (amounts, targets).
            reason: Why, in one sentence, for the person deciding.
            timeout_s: How long to wait for an answer, in seconds.
            default: What happens when nobody answers: "deny" (safe) or "approve".
            urgency: "urgent", "high", "normal" or "low": picks the channels.
        """
        if not action.strip():
            raise ToolError("action is empty", hint="say what you want to do, concretely")
        check_timeout(timeout_s)
        host = session_host()
        reply = await desk.ask(
            host,
            ask="approval",
            question=f"Approve: {action.strip()}",
            detail=f"Why: {reason.strip()}",
            default=default,
            timeout_s=float(timeout_s),
            call_id=current_call().call_id,
            urgency=urgency,
        )
        return f"{reply.request_id}: {describe_reply(reply, default)}"

    async def request_human_input(
        question: str,
        timeout_s: int = DEFAULT_TIMEOUT_S,
        default: str = "",
        urgency: Urgency = "normal",
    ) -> str:
        """Ask a person a question only they can answer, and wait for the answer.

        Use when: you need a fact, a preference or a choice you cannot find with your tools
        (which account to use, a deadline, which of two options). Do not use when: the
        answer is in the conversation, a file or a tool's reach.
        If nobody answers within timeout_s, the default is used and the result says so
        (timed_out, or no_channel when nobody could be reached). Example: {"question":
        "Which cost centre should the invoice go to?", "default": "the team's usual one"}.

        Args:
            question: The question, self-contained.
            timeout_s: How long to wait for an answer, in seconds.
            default: What to assume when nobody answers (empty: nothing).
            urgency: "urgent", "high", "normal" or "low": picks the channels.
        """
        if not question.strip():
            raise ToolError("question is empty", hint="write the question to ask")
        check_timeout(timeout_s)
        host = session_host()
        reply = await desk.ask(
            host,
            ask="input",
            question=question.strip(),
            default=default,
            timeout_s=float(timeout_s),
            call_id=current_call().call_id,
            urgency=urgency,
        )
        return f"{reply.request_id}: {describe_reply(reply, default)}"

    async def send_notification(
        message: str, subject: str = "", urgency: Urgency = "normal"
    ) -> str:
        """Tell a person something without waiting for an answer.

        Use when: a long task finished, something needs attention later, or you report
        progress to a collaborator. Do not use when: you need an answer (use
        request_human_input) or the person is the one chatting with you now.
        urgent and high go to every channel; normal to email first; low to the console
        first. Output: which channels delivered. Example: {"message": "The nightly import
        failed at row 1,204", "urgency": "high"}.

        Args:
            message: What to say.
            subject: A short subject line (default: the message's start).
            urgency: "urgent", "high", "normal" or "low".
        """
        if not message.strip():
            raise ToolError("message is empty", hint="write what to tell")
        host = session_host()
        if desk.notifier is None:
            raise ToolError(
                "no notification channel is configured",
                hint="tell the user in your answer instead",
            )
        notification = Notification(
            subject.strip() or message.strip()[:60], message.strip(), urgency, host.id
        )
        attempts = await desk.notifier.send(notification, host)
        sent = [a.channel for a in attempts if a.ok]
        head = f"delivered over {', '.join(sent)}" if sent else "not delivered"
        return f"{head} ({describe(attempts)})"

    return [
        Tool.from_function(
            request_human_approval,
            idempotent=True,
            wrap_output=False,
            timeout_s=desk.max_timeout_s + 60,
            examples=({"action": "Refund order 1182 (EUR 240)", "reason": "charged twice"},),
        ),
        Tool.from_function(
            request_human_input,
            idempotent=True,
            wrap_output=False,
            timeout_s=desk.max_timeout_s + 60,
            examples=({"question": "Which cost centre should the invoice go to?"},),
        ),
        Tool.from_function(
            send_notification,
            risk="medium",
            examples=({"message": "The import finished", "urgency": "low"},),
        ),
    ]
