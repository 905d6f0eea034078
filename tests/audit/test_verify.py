"""audit_verify finds edited, deleted, inserted and reordered events, and an exported
checkpoint catches a rewrite that recomputed the whole chain (CONTRACT.md)."""

import pytest
from django.core.management import CommandError, call_command

from apps.audit.appending import chain_hash
from apps.audit.context import RequestContext, reset_request_context, set_request_context
from apps.audit.models import Action, AuditCheckpoint, AuditEvent, AuditVerification
from apps.audit.services import create_checkpoint, record, verify_chain
from apps.audit.tasks import verify_audit_chain_task
from tests.audit.db import tamper

EVENTS = 8


@pytest.fixture
def chain(db):
    """Eight chained events with metadata, an IPv6 address and a request id."""
    token = set_request_context(RequestContext(ip="2001:0db8::0001", request_id="req-1"))
    try:
        for n in range(EVENTS):
            record(
                actor="test",
                action=Action.JOB_RUN,
                target_type="job",
                target_id=str(n),
                tenant=n % 3 or None,
                data={"n": n, "ratio": n / 7, "label": "ünïcode ✓", "nested": {"b": 1, "a": [n]}},
            )
    finally:
        reset_request_context(token)
    return list(AuditEvent.objects.order_by("sequence"))


def copy_of(event: AuditEvent) -> AuditEvent:
    """An unsaved duplicate of an event, for forging."""
    forged = AuditEvent(**{f.attname: getattr(event, f.attname) for f in AuditEvent._meta.fields})
    forged.pk = None
    return forged


def verify(*args: str) -> str:
    """Run audit_verify like a script would; return its output or raise CommandError."""
    from io import StringIO

    out = StringIO()
    call_command("audit_verify", *args, stdout=out)
    return out.getvalue()


def broken_at(*args: str) -> str:
    with pytest.raises(CommandError) as caught:
        verify(*args)
    assert caught.value.returncode != 0
    return str(caught.value)


def recompute_whole_chain() -> None:
    """What a database superuser who knows the scheme does to hide an edit."""
    prev = "0" * 64
    statements = []
    for event in AuditEvent.objects.order_by("sequence"):
        event.prev_hash = prev
        event.hash = chain_hash(prev, event)
        statements.append(
            (
                "UPDATE audit_auditevent SET prev_hash = %s, hash = %s WHERE id = %s",
                [event.prev_hash, event.hash, event.pk],
            )
        )
        prev = event.hash
    tamper(*statements)


def test_intact_chain_verifies_with_exit_zero_and_the_contract_message(chain):
    assert verify().strip() == f"audit chain OK: {EVENTS} events"


def test_edited_event_is_named(chain):
    tamper(("UPDATE audit_auditevent SET metadata = %s WHERE sequence = 3", ['{"n": 99}']))
    assert "BROKEN at sequence 3" in broken_at()


def test_edited_actor_is_named(chain):
    tamper(("UPDATE audit_auditevent SET actor_label = 'someone-else' WHERE sequence = 6", []))
    assert "BROKEN at sequence 6" in broken_at()


def test_deleted_event_is_named(chain):
    tamper(("DELETE FROM audit_auditevent WHERE sequence = 4", []))
    message = broken_at()
    assert "BROKEN at sequence 4" in message
    assert "missing" in message


def test_inserted_event_is_caught(chain):
    """A forged event slipped in at #5 with a correct hash still breaks the chain at #6."""
    tamper(
        ("UPDATE audit_auditevent SET sequence = -(sequence + 1) WHERE sequence >= 5", []),
        ("UPDATE audit_auditevent SET sequence = -sequence WHERE sequence < 0", []),
    )
    forged = AuditEvent(
        **{f.attname: getattr(chain[4], f.attname) for f in AuditEvent._meta.fields}
    )
    forged.pk = None
    forged.actor_label = "forger"
    forged.prev_hash = chain[3].hash
    forged.hash = chain_hash(forged.prev_hash, forged)
    forged.save(force_insert=True)
    assert "BROKEN at sequence 6" in broken_at()


def test_appended_event_with_a_wrong_prev_hash_is_named(chain):
    forged = AuditEvent(
        **{f.attname: getattr(chain[-1], f.attname) for f in AuditEvent._meta.fields}
    )
    forged.pk = None
    forged.sequence = EVENTS + 1
    forged.prev_hash = "f" * 64
    forged.hash = chain_hash(forged.prev_hash, forged)
    forged.save(force_insert=True)
    message = broken_at()
    assert f"BROKEN at sequence {EVENTS + 1}" in message
    assert "prev_hash" in message


def test_reordered_events_are_named(chain):
    tamper(
        ("UPDATE audit_auditevent SET sequence = -1 WHERE sequence = 3", []),
        ("UPDATE audit_auditevent SET sequence = 3 WHERE sequence = 4", []),
        ("UPDATE audit_auditevent SET sequence = 4 WHERE sequence = -1", []),
    )
    assert "BROKEN at sequence 3" in broken_at()


def test_exported_checkpoint_catches_a_rewrite_that_recomputed_the_chain(chain, tmp_path):
    exported = tmp_path / "checkpoint.json"
    call_command("audit_checkpoint", "--export", str(exported), stdout=None)
    signed_sequence = AuditCheckpoint.objects.get().sequence
    tamper(("UPDATE audit_auditevent SET actor_label = 'nobody' WHERE sequence = 2", []))
    recompute_whole_chain()
    AuditCheckpoint.objects.all().delete()  # the attacker also removes stored checkpoints

    assert "audit chain OK" in verify("--full")  # the rewrite is self-consistent…
    message = broken_at("--from-checkpoint", str(exported))  # …but not with the export
    assert f"BROKEN at sequence {signed_sequence}" in message
    assert "checkpoint" in message


def test_exported_checkpoint_catches_events_cut_from_the_end(chain, tmp_path):
    exported = tmp_path / "checkpoint.json"
    call_command("audit_checkpoint", "--export", str(exported), stdout=None)
    signed_sequence = AuditCheckpoint.objects.get().sequence
    tamper(("DELETE FROM audit_auditevent WHERE sequence >= %s", [EVENTS]))
    AuditCheckpoint.objects.all().delete()
    assert "audit chain OK" in verify("--full")  # a shorter chain is still self-consistent
    assert f"BROKEN at sequence {signed_sequence}" in broken_at("--from-checkpoint", str(exported))


def test_stored_checkpoint_catches_a_recomputed_chain_on_the_default_run(chain):
    checkpoint = create_checkpoint(actor="test")
    tamper(("UPDATE audit_auditevent SET action = 'auth.login' WHERE sequence = 1", []))
    recompute_whole_chain()
    assert f"BROKEN at sequence {checkpoint.sequence}" in broken_at()


def test_verification_resumes_after_the_latest_checkpoint(chain):
    checkpoint = create_checkpoint(actor="test")
    record(actor="test", action=Action.JOB_RUN)
    result = verify_chain(actor="test")
    assert result.ok
    assert result.checkpoint_sequence == checkpoint.sequence
    # Hashed: the checkpoint event, the verification before it was signed, and the new event.
    assert result.checked == result.head_sequence - checkpoint.sequence
    assert result.checked < result.head_sequence
    assert verify_chain(actor="test", full=True).checked == result.head_sequence + 1


def test_edit_before_a_checkpoint_is_found_by_a_full_run(chain):
    create_checkpoint(actor="test")
    tamper(("UPDATE audit_auditevent SET target_id = 'x' WHERE sequence = 2", []))
    assert "audit chain OK" in verify()  # resumes after the checkpoint by design
    assert "BROKEN at sequence 2" in broken_at("--full")


def test_edited_checkpoint_file_is_refused(chain, tmp_path):
    exported = tmp_path / "checkpoint.json"
    call_command("audit_checkpoint", "--export", str(exported), stdout=None)
    exported.write_text(exported.read_text().replace('"count": ', '"count": 1'))
    with pytest.raises(CommandError, match="signature is invalid"):
        verify("--from-checkpoint", str(exported))


def test_forged_stored_checkpoint_is_reported(chain):
    AuditCheckpoint.objects.create(
        sequence=3,
        head_hash=chain[2].hash,
        count=3,
        created_at=chain[2].occurred_at,
        signature="0" * 64,
    )
    message = broken_at()
    assert "BROKEN at sequence 3" in message
    assert "signature" in message


def test_checkpoint_refuses_to_sign_a_broken_chain(chain):
    tamper(("DELETE FROM audit_auditevent WHERE sequence = 2", []))
    with pytest.raises(CommandError, match="broken chain"):
        call_command("audit_checkpoint")
    assert not AuditCheckpoint.objects.exists()


def test_each_run_is_kept_and_audited(chain):
    tamper(("UPDATE audit_auditevent SET metadata = '{}' WHERE sequence = 5", []))
    result = verify_chain(actor="test")
    stored = AuditVerification.objects.latest()
    assert (stored.pk, stored.ok, stored.first_bad_sequence) == (result.pk, False, 5)
    assert stored.checked == 4
    event = AuditEvent.objects.order_by("-sequence").first()
    assert event.action == Action.AUDIT_VERIFIED
    assert event.metadata["first_bad_sequence"] == 5


def test_weekly_task_verifies_and_reports(chain):
    outcome = verify_audit_chain_task.delay().get()
    assert outcome["ok"] is True
    assert outcome["head_sequence"] == EVENTS


def test_verification_agrees_with_record_on_awkward_values(db):
    """The walk's fast canonical form must equal record()'s for any value the log may hold."""
    awkward = [
        'quote " backslash \\ tab \t newline \n nul-ish \x01 \x1f del \x7f',
        "ünïcödé ✓ 中文 🙂 \u2028",
        "",
    ]
    token = set_request_context(RequestContext(ip="::ffff:192.0.2.1", request_id=awkward[0][:64]))
    try:
        for n, text in enumerate(awkward):
            record(
                actor=text or "system",
                action=Action.JOB_RUN,
                target_type=text[:64],
                target_id=text[:64],
                tenant=2**62 + n,
                data={
                    text: text,
                    "z": [1, 2.5, -0.0001, 1e-7, 10**18, True, None, {"b": {}, "a": []}],
                    "é": {"Z": 1, "a": 2},
                },
            )
    finally:
        reset_request_context(token)
    result = verify_chain(actor="test", full=True)
    assert result.ok, result.detail
    assert result.checked == len(awkward)
