"""The inspect view: a session's model calls as one static, self-contained HTML page.

``calls`` gathers, from the stored events of one session, what each model call was sent
(its manifest), what it cost (usage), what it answered and which tool results followed;
``html`` renders that as a page with inline CSS and SVG only, every piece of session content
escaped. Both are pure: the CLI reads the session log and writes the file.
"""

from workset.inspect.calls import CallView, SessionView, session_view
from workset.inspect.html import render_html

__all__ = ["CallView", "SessionView", "render_html", "session_view"]
