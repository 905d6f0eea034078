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
from apps.memory.content import content_hash, normalise_for_hash, render_text
from apps.memory.gate import Draft, GateRejected
from apps.memory.sensitive import find_sensitive, redact, secret_field_kind
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
                redacted[key] = f"[REDACTED:{field_kind}]"
            else:
                redacted[key] = redact_json(inner, kinds)
        return redacted
    if isinstance(value, list):
        return [redact_json(inner, kinds) for inner in value]
    return value


def sealed_placeholder(kinds: list[str]) -> dict[str, Any]:
    """What `content` holds for an encrypted item: that it is sealed, and why."""
    return {"sealed": True, "kinds": kinds}


class SensitiveDataStage:
    name = "sensitive_data"

    def inspect(self, draft: Draft) -> None:
        """Detect secrets and identifiers in the content; redact, seal or reject per policy."""
        memory = draft.memory
        content = memory.content
        if not isinstance(content, dict):
            return
        found: set[str] = set()
        redacted = redact_json(content, found)
        if not found:
            return
        kinds = sorted(found)
        draft.notes["sensitive_kinds"] = kinds
        policy = getattr(memory.tenant, "sensitive_policy", SensitivePolicy.REDACT)
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
        memory.content_hash = content_hash(redacted)
