"""Sensitive-data stage of the remember gate (ARCHITECTURE §4 step 2).

Runs the detectors of apps.memory.sensitive over every string in the draft's JSON
content and applies the tenant's policy:
- redact: each match becomes `[REDACTED:<kind>]` in the content itself;
- encrypt: the original content is sealed (MultiFernet) into `sealed_content`; the
  stored `content` is only a placeholder and `text` a redacted rendering, so search
  and display work without exposing the secret. The dedupe hash is keyed (HMAC) so
  equal secrets still merge but the hash cannot be brute-forced back to a card number;
- reject: the write is refused, naming the kinds found, never the values.
Only content-free facts (the sorted kinds) reach the audit notes.
"""

from typing import Any

from apps.audit.hashing import keyed_hash
from apps.memory import crypto
from apps.memory.content import normalise_for_hash, render_text, rendering_hash
from apps.memory.gate import Draft, GateRejected
from apps.memory.sensitive import Finding, find_sensitive, placeholder, redact, secret_field_kind
from apps.tenancy.models import SensitivePolicy


def redact_json(value: Any, kinds: set[str]) -> Any:
    """A copy of a JSON value with every string redacted; adds the kinds found to `kinds`."""
    if isinstance(value, str):
        findings = find_sensitive(value)
        if not findings:
            return value
        kinds.update(finding.kind for finding in findings)
        return redact(value, findings)
    if isinstance(value, dict):
        redacted = {}
        for key, inner in value.items():
            field_kind = secret_field_kind(str(key))
            if field_kind and isinstance(inner, str | int) and str(inner).strip():
                # {"password": "hunter2"}: the field name says what the value is.
                kinds.add(field_kind)
                redacted[key] = placeholder(field_kind)
            else:
                redacted[key] = redact_json(inner, kinds)
        return redacted
    if isinstance(value, list):
        return [redact_json(inner, kinds) for inner in value]
    return value


def sealed_placeholder(kinds: list[str]) -> dict[str, Any]:
    """What `content` holds for an encrypted item: that it is sealed, and why."""
    return {"sealed": True, "kinds": kinds}


# Short provenance fields screened like content; their stored length is capped.
SCREENED_FIELDS = ("key", "source", "run_id")
_SCREENED_FIELD_MAX = 200


# Identifiers known to hold nothing sensitive. Only clean ones are remembered, so a value
# with personal data in it (an e-mail as a key, say) never lingers in a long-lived process.
_CLEAN_IDENTIFIERS: set[str] = set()
_CLEAN_IDENTIFIERS_MAX = 4096


def identifier_findings(value: str) -> tuple[Finding, ...]:
    """`find_sensitive` of a scope id, key, source or run id. Those repeat from write to
    write (a batch or a restore screens its few scopes' ids and sources on every item), so
    short ones found clean are remembered."""
    if value in _CLEAN_IDENTIFIERS:
        return ()
    findings = tuple(find_sensitive(value))
    if not findings and len(value) <= _SCREENED_FIELD_MAX:
        if len(_CLEAN_IDENTIFIERS) >= _CLEAN_IDENTIFIERS_MAX:
            _CLEAN_IDENTIFIERS.clear()
        _CLEAN_IDENTIFIERS.add(value)
    return findings


def screen_identifiers(draft: Draft, policy: str) -> None:
    """Screen the scope's external id and the key, source and run id of a write.

    A scope id holding personal data is refused whatever the policy (code
    `sensitive_identifier`): redacting it would merge every subject's scope into one;
    agents should name scopes by a pseudonymous id. The other fields are refused under
    the reject policy (`sensitive_data`) and redacted in place otherwise.
    """
    scope = draft.scope
    if scope is not None:
        kinds = sorted({finding.kind for finding in identifier_findings(scope.external_id)})
        if kinds:
            message = (
                "The scope id contains sensitive data (" + ", ".join(kinds) + "); "
                "name scopes by a pseudonymous id."
            )
            raise GateRejected(message, code="sensitive_identifier", fields={"scope": [message]})
    for name in SCREENED_FIELDS:
        value = getattr(draft.memory, name, "")
        if not isinstance(value, str) or not value:
            continue
        findings = identifier_findings(value)
        if not findings:
            continue
        kinds = sorted({finding.kind for finding in findings})
        if policy == SensitivePolicy.REJECT:
            message = f"The {name} contains sensitive data: " + ", ".join(kinds) + "."
            raise GateRejected(message, code="sensitive_data", fields={name: [message]})
        setattr(draft.memory, name, redact(value, list(findings))[:_SCREENED_FIELD_MAX])
        draft.notes.setdefault("sensitive_fields", []).append(name)


class SensitiveDataStage:
    name = "sensitive_data"

    def inspect(self, draft: Draft) -> None:
        """Detect secrets and identifiers in the content and in the key, source, run id
        and scope id; redact, seal or reject per policy."""
        memory = draft.memory
        policy = getattr(memory.tenant, "sensitive_policy", SensitivePolicy.REDACT)
        screen_identifiers(draft, policy)
        content = memory.content
        if not isinstance(content, dict):
            return
        found: set[str] = set()
        redacted = redact_json(content, found)
        if not found:
            return
        kinds = sorted(found)
        draft.notes["sensitive_kinds"] = kinds
        draft.written_text = memory.text or render_text(content)
        if policy == SensitivePolicy.REJECT:
            message = "The memory contains sensitive data: " + ", ".join(kinds) + "."
            raise GateRejected(message, code="sensitive_data", fields={"content": [message]})
        memory.sensitive = True
        if policy == SensitivePolicy.ENCRYPT:
            memory.sealed_content = crypto.seal_content(content)
            memory.content = sealed_placeholder(kinds)
            memory.text = render_text(redacted)
            memory.content_hash = keyed_hash(normalise_for_hash(render_text(content)))
            return
        memory.content = redacted
        memory.text = render_text(redacted)
        memory.content_hash = rendering_hash(memory.text)
