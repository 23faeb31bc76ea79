"""Structured tool results: records follow the structure, recall finds what is buried in it."""

from __future__ import annotations

import itertools
import json

import anyio

from workset.history.base import PolicyContext
from workset.history.pieces import pieces_of
from workset.history.policies import make_policy
from workset.history.structure import records_of
from workset.messages import AssistantMessage, Message, ToolCall, ToolMessage, UserMessage

SITE = {
    "site": {
        "id": "ERASMUS-RTM",
        "address": {"street": "Dr. Molewaterplein 40", "city": "Rotterdam"},
        "receiving": {
            "dock": "Loading dock B",
            "hours": {"days": "Tue-Thu", "from": "08:00", "to": "15:00"},
            "import_permit": {
                "number": "IMP-77831-NL",
                "authority": "NVWA",
                "valid_until": "2027-01-08",
            },
            "previous_permits": [{"number": "IMP-77813-NL", "status": "expired"}],
        },
    },
    "updated": "2026-03-18T10:04:00Z",
}


def _site_session(later: int = 8) -> list[Message]:
    """A fact four levels deep in a pretty-printed JSON result, then ``later`` other turns."""
    call = ToolCall("c1", "get_partner_site", '{"site_id": "ERASMUS-RTM"}')
    history: list[Message] = [
        UserMessage("Get the partner site record."),
        AssistantMessage(None, (call,)),
        ToolMessage("c1", json.dumps(SITE, indent=2), "get_partner_site"),
        AssistantMessage("They receive Tuesday to Thursday; their import permit is on file."),
    ]
    for turn in range(later):
        listing = ToolCall(f"d{turn}", "list_boxes", f'{{"page": {turn + 1}}}')
        history += [
            UserMessage(f"List page {turn + 1} of the boxes."),
            AssistantMessage(None, (listing,)),
            ToolMessage(f"d{turn}", _boxes(turn), "list_boxes"),
            AssistantMessage(f"Page {turn + 1} has one box."),
        ]
    return history


def _boxes(page: int) -> str:
    rows = [f"BX-0{page}{n}7,FRZ-0{n},R{n},baseline,EDTA plasma" for n in range(6)]
    return "\n".join(["box_id,freezer,rack,visit,matrix", *rows])


def test_a_json_object_is_cut_into_its_leaf_objects_with_their_key_paths() -> None:
    rows = json.dumps(SITE, indent=2).splitlines()
    found = {r.path: "\n".join(rows[r.first : r.last + 1]) for r in records_of(rows)}
    permit = found["site.receiving.import_permit"]
    assert permit.lstrip().startswith('"import_permit": {') and "IMP-77831-NL" in permit
    assert "IMP-77813-NL" not in permit  # the expired permit is a record of its own
    assert "IMP-77813-NL" in found["site.receiving.previous_permits[0]"]
    assert "Molewaterplein" in found["site.address"]


def test_a_record_never_cuts_a_line_and_never_overlaps_another() -> None:
    for text in (
        json.dumps(SITE, indent=2),
        '{"ts": "1", "event": "a"}\n{"ts": "2", "event": "box_moved", "to": "FRZ-14"}',
        "aliquot_id,box,flags\nAQ-1,BX-1,\nAQ-2,BX-1,LOW_VOLUME",
        "section: storage\nescalation:\n  in_hours:\n    name: Tomasz\n  out_of_hours:\n"
        "    name: Leona\n    phone: 1",
        "PQ-1  title\n[note]\n  indented\n\nlast",
    ):
        rows = text.splitlines()
        spans = sorted((r.first, r.last) for r in records_of(rows))
        assert all(0 <= first <= last < len(rows) for first, last in spans)
        assert all(a[1] < b[0] for a, b in itertools.pairwise(spans)), spans


def test_each_line_of_a_json_lines_log_and_each_row_of_a_table_is_a_record() -> None:
    log = '{"ts": "1", "event": "reading"}\n{"ts": "2", "event": "box_moved", "to": "FRZ-14"}'
    assert [(r.first, r.last) for r in records_of(log.splitlines())] == [(0, 0), (1, 1)]
    table = "aliquot_id,box,flags\nAQ-1,BX-1,\nAQ-2,BX-1,LOW_VOLUME".splitlines()
    rows = records_of(table)
    assert [(r.first, r.last) for r in rows] == [(1, 1), (2, 2)]
    assert {r.columns for r in rows} == {"aliquot_id,box,flags"}


def test_a_yaml_section_is_cut_into_its_leaf_mappings() -> None:
    rows = ["escalation:", "  in_hours:", "    name: Tomasz", "  out_of_hours:", "    name: Leona"]
    paths = {r.path: (r.first, r.last) for r in records_of(rows)}
    assert paths["escalation.out_of_hours"] == (3, 4)
    assert paths["escalation.in_hours"] == (1, 2)


def test_a_piece_of_a_json_result_carries_its_key_path() -> None:
    message = ToolMessage("c1", json.dumps(SITE, indent=2), "get_partner_site")
    pieces = pieces_of(message, 2, 1, lines=8, calls={})
    permit = next(p for p in pieces if "IMP-77831-NL" in p.text)
    assert permit.path == "site.receiving.import_permit"
    assert permit.text.count("\n") == 4  # the whole object, its braces included


def test_the_json_record_that_holds_a_buried_fact_is_recalled_for_a_question_about_it() -> None:
    history = _site_session()
    policy = make_policy("retrieval", dense=False, ledger=False)
    question = "Which import permit number goes on the customs paperwork?"
    view = anyio.run(policy.view, history, PolicyContext(window=8000, query=question))
    block = view.pinned[-1]
    assert "IMP-77831-NL" in block
    assert "at site.receiving.import_permit" in block  # the quote says where it sits
    assert "Molewaterplein" not in block  # the object's neighbours are not quoted with it


def test_a_table_row_is_quoted_with_its_columns() -> None:
    history = _site_session(later=6)
    policy = make_policy("retrieval", dense=False, ledger=False, k=2)
    question = "Which freezer holds box BX-0337?"
    view = anyio.run(policy.view, history, PolicyContext(window=8000, query=question))
    assert "BX-0337,FRZ-03" in view.pinned[-1]
    assert "columns: box_id,freezer,rack,visit,matrix" in view.pinned[-1]


def test_a_revised_fact_is_recalled_as_revised() -> None:
    history: list[Message] = [
        UserMessage("Book it with World Courier, as usual."),
        AssistantMessage("OK, World Courier."),
        UserMessage("Pull the manifest."),
        AssistantMessage("The manifest has 31 aliquots."),
        UserMessage("Change of plan on the courier: switch to Marken instead."),
        AssistantMessage("Switched the draft to Marken."),
        UserMessage("Check the logger."),
        AssistantMessage("Logger LG-20417 is assigned."),
    ]
    policy = make_policy("retrieval", dense=False)
    question = "Which courier carries the shipment?"
    view = anyio.run(policy.view, history, PolicyContext(window=8000, query=question))
    ledger = view.pinned[0]
    current = next(line for line in ledger.splitlines() if "Marken" in line)
    assert current.startswith("- CURRENT")
    # the user's first choice is pinned, folded into the line that corrects it
    assert '[corrects seq 0: "Book it with World Courier' in current
    assert not any(
        "World Courier" in line and line.startswith(("- CURRENT", "- DECISION"))
        for line in ledger.splitlines()
        if line != current
    )


def test_a_request_recalls_fewer_pieces_than_a_question_asking_for_a_value() -> None:
    history = _site_session()
    policy = make_policy("retrieval", dense=False, ledger=False, k=6, request_k=1)
    asks = "Which import permit number and which dock?"
    anyio.run(policy.view, history, PolicyContext(window=20000, query=asks))
    recall = policy.layers[-1]
    asked = len(recall.last)  # type: ignore[attr-defined]
    anyio.run(policy.view, history, PolicyContext(window=20000, query="Pull the boxes again."))
    assert asked > 1 and len(recall.last) == 1  # type: ignore[attr-defined]


def test_a_question_asking_for_no_value_type_recalls_question_k_pieces() -> None:
    # "how is it stored" names no value type the priors know (who, which, when, how much);
    # it is still a question whose answer lies in the past: more than a request's one piece
    history = _site_session()
    policy = make_policy("retrieval", dense=False, ledger=False, k=6, request_k=1, question_k=2)
    question = "How is the shipment kept cold on the way?"
    anyio.run(policy.view, history, PolicyContext(window=20000, query=question))
    assert len(policy.layers[-1].last) == 2  # type: ignore[attr-defined]


def test_a_request_recalls_one_excerpt_by_default() -> None:
    # a request ("Pull the boxes again.") is served by this turn's own results; one old
    # excerpt at most, where a question gets up to eight
    policy = make_policy("retrieval", dense=False, ledger=False)
    anyio.run(policy.view, _site_session(), PolicyContext(20000, query="Pull the boxes again."))
    assert len(policy.layers[-1].last) == 1  # type: ignore[attr-defined]
