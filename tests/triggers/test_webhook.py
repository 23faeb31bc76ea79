"""Webhook signatures, refusals and the events a verified request becomes."""

from __future__ import annotations

import json

import pytest

from workset.config import config_from_mapping
from workset.errors import UsageError
from workset.triggers.webhook import (
    SIGNATURE_HEADER,
    TIMESTAMP_HEADER,
    Channel,
    HookRefused,
    hook_event,
    sign,
    signed_headers,
    verify,
)

NOW = 1_780_000_000
EMAIL = Channel("email", b"s3cret-shared", "inbox")
BODY = json.dumps({"from": "ana@example.com", "subject": "Lunch?", "body": "Noon?"}).encode()


def test_a_request_signed_with_the_channel_secret_verifies() -> None:
    verify(EMAIL, signed_headers("s3cret-shared", BODY, timestamp=NOW), BODY, NOW + 10)


def test_the_signature_is_hmac_sha256_over_timestamp_dot_body() -> None:
    import hashlib
    import hmac

    expected = hmac.new(b"k3y!", b"123." + b"{}", hashlib.sha256).hexdigest()
    assert sign("k3y!", b"{}", 123) == f"sha256={expected}"


@pytest.mark.parametrize(
    ("headers", "says"),
    [
        ({}, "unsigned request"),
        ({TIMESTAMP_HEADER: str(NOW)}, f"{SIGNATURE_HEADER} missing"),
        ({TIMESTAMP_HEADER: "yesterday", SIGNATURE_HEADER: "sha256=00"}, "whole unix seconds"),
        ({TIMESTAMP_HEADER: str(NOW), SIGNATURE_HEADER: "sha256=" + "0" * 64}, "does not match"),
    ],
)
def test_unsigned_and_wrongly_signed_requests_are_refused_with_how_to_sign(
    headers: dict[str, str], says: str
) -> None:
    with pytest.raises(HookRefused, match=says) as refused:
        verify(EMAIL, headers, BODY, NOW)
    assert refused.value.status == 401
    assert "HMAC-SHA256" in str(refused.value) or "unix seconds" in str(refused.value)


def test_a_body_changed_after_signing_is_refused() -> None:
    headers = signed_headers("s3cret-shared", BODY, timestamp=NOW)
    with pytest.raises(HookRefused, match="does not match"):
        verify(EMAIL, headers, BODY.replace(b"Noon", b"Nine"), NOW)


def test_another_channels_secret_does_not_verify() -> None:
    headers = signed_headers("someone-else", BODY, timestamp=NOW)
    with pytest.raises(HookRefused, match="check the shared secret"):
        verify(EMAIL, headers, BODY, NOW)


@pytest.mark.parametrize(("skew", "says"), [(301, "signed 301 s ago"), (-400, "in the future")])
def test_requests_signed_too_long_ago_or_ahead_are_stale(skew: int, says: str) -> None:
    headers = signed_headers("s3cret-shared", BODY, timestamp=NOW)
    with pytest.raises(HookRefused, match=says) as refused:
        verify(EMAIL, headers, BODY, NOW + skew)
    assert refused.value.status == 401 and "at most 300 s" in str(refused.value)


def test_the_accepted_age_is_set_per_channel() -> None:
    patient = Channel("email", b"s3cret-shared", "inbox", max_age_s=3600)
    verify(patient, signed_headers("s3cret-shared", BODY, timestamp=NOW), BODY, NOW + 3000)


def test_a_verified_body_becomes_an_untrusted_contact_event_with_the_whole_payload() -> None:
    event = hook_event(EMAIL, BODY)
    assert event.type == "webhook.email" and event.channel == "email"
    assert event.source == "contact" and not event.trusted
    assert event.sender == "ana@example.com"
    assert dict(event.content) == json.loads(BODY)
    assert event.context.priority == "normal"


def test_the_same_body_twice_is_the_same_event_and_a_sender_id_names_it() -> None:
    assert hook_event(EMAIL, BODY).id == hook_event(EMAIL, BODY).id
    assert hook_event(EMAIL, BODY, event_id="msg-42").id == "hook:email:msg-42"
    with pytest.raises(HookRefused, match="letters, digits"):
        hook_event(EMAIL, BODY, event_id="has spaces")


def test_channel_settings_give_source_priority_and_the_sender_field() -> None:
    alerts = Channel("alerts", b"xxxxxx", "ops", "system", "urgent", "service")
    event = hook_event(alerts, json.dumps({"service": "db", "state": "down"}).encode())
    assert (event.source, event.context.priority, event.sender) == ("system", "urgent", "db")


@pytest.mark.parametrize(
    ("body", "status", "says"),
    [
        (b"not json", 400, "not JSON"),
        (b"[1, 2]", 400, "JSON object"),
        (b"{}", 400, "non-empty"),
        (json.dumps({"x": "y" * 300_000}).encode(), 413, "limit"),
    ],
)
def test_bodies_that_are_not_a_json_object_are_refused(body: bytes, status: int, says: str) -> None:
    with pytest.raises(HookRefused, match=says) as refused:
        hook_event(EMAIL, body)
    assert refused.value.status == status


def test_channels_come_from_the_config_with_their_secret_from_the_environment() -> None:
    config = config_from_mapping(
        {"channels": [{"name": "email", "secret_env": "MAIL_HOOK", "priority": "high"}]}
    )
    [section] = config.channels
    assert section.target == "hook-email" and section.source == "contact"
    channel = Channel.from_config(section, {"MAIL_HOOK": "from-the-env"})
    assert channel.secret == b"from-the-env" and channel.priority == "high"
    with pytest.raises(UsageError, match=r"\$MAIL_HOOK, which is not set; export MAIL_HOOK"):
        Channel.from_config(section, {})


@pytest.mark.parametrize(
    ("block", "says"),
    [
        ({"name": "email", "secret": "hunter2"}, "puts the shared secret in the config file"),
        ({"name": "Bad Name", "secret_env": "X"}, "lowercase letters"),
        ({"name": "email", "secret_env": "not a var"}, "must name an environment variable"),
        ({"name": "email", "secret_env": "X", "source": "robot"}, "source must be"),
        ({"name": "email", "secret_env": "X", "max_age": 5}, "rename it to 'max_age_s'"),
    ],
)
def test_bad_channel_blocks_are_refused_with_the_fix(block: dict[str, object], says: str) -> None:
    with pytest.raises(UsageError, match=says):
        config_from_mapping({"channels": [block]})


def test_two_channels_with_one_name_are_refused() -> None:
    block = {"name": "email", "secret_env": "X"}
    with pytest.raises(UsageError, match="more than once"):
        config_from_mapping({"channels": [block, block]})
