"""Synthetic memory rows: templates split around a row token, scopes to put them in, draws.

Each row is consistent with what the remember path would store: `text` and `content_hash`
from apps.memory.content, `half_life_days` and `archive_due_at` from apps.memory.scoring.
"""

import hashlib
import json
import random
import secrets
from array import array
from bisect import bisect
from dataclasses import dataclass
from datetime import timedelta

from django.utils import timezone

from apps.memory.content import normalise_for_hash, render_text
from apps.memory.demo import SOURCES, SyntheticTemplate, synthetic_templates
from apps.memory.generation.embedding import trigram_counts
from apps.memory.models import MemoryStatus, MemoryType, SourceKind
from apps.memory.scoring import compute_archive_due_at, default_half_life
from apps.tenancy.models import Scope, ScopeKind, Tenant

# Mostly active, as in a healthy installation; every status appears.
STATUS_WEIGHTS = {
    MemoryStatus.ACTIVE: 85.0,
    MemoryStatus.ARCHIVED: 6.0,
    MemoryStatus.SUPERSEDED: 4.0,
    MemoryStatus.QUARANTINED: 2.0,
    MemoryStatus.PENDING_REVIEW: 1.5,
    MemoryStatus.REJECTED: 1.5,
}
SOURCE_KIND_WEIGHTS = {
    SourceKind.EXPLICIT_STATEMENT: 45.0,
    SourceKind.INFERRED: 25.0,
    SourceKind.AGENT: 15.0,
    SourceKind.TOOL: 10.0,
    SourceKind.EXTERNAL: 3.0,
    SourceKind.IMPORT: 2.0,
}
# Share of each scope kind among generated scopes; sessions share their user's subject.
SCOPE_KIND_SHARES = [
    (ScopeKind.USER, 0.6),
    (ScopeKind.SESSION, 0.3),
    (ScopeKind.AGENT, 0.07),
    (ScopeKind.GLOBAL, 0.03),
]
HISTORY_DAYS = 365
WORKING_MEMORY_TTL = timedelta(days=7)
_TOKEN_SENTINEL = "\ue000"  # noqa: S105 - a private-use character, never in the vocabulary


@dataclass(frozen=True)
class PreparedTemplate:
    """A template split around the per-row token, pre-escaped for COPY."""

    memory_type: str
    category: int
    key: str
    json_head: str
    json_tail: str
    text_head: str
    text_tail: str
    hash_head: str  # normalised rendering before the token
    needs_escape: bool  # holds a character COPY's text format must escape


@dataclass(frozen=True)
class ScopeTarget:
    scope_id: int
    tenant_id: int
    threshold: float
    half_life_overrides: dict


def prepare_template(template: SyntheticTemplate) -> PreparedTemplate:
    """Split content JSON and rendered text around the token slot so rows only concatenate."""
    content = dict(template.content)
    content[template.token_field] = f"{content[template.token_field]}{_TOKEN_SENTINEL}"
    json_head, json_tail = json.dumps(content, ensure_ascii=False).split(_TOKEN_SENTINEL)
    text_head, text_tail = render_text(content).split(_TOKEN_SENTINEL)
    if text_tail:
        raise ValueError("The token field must be rendered last.")
    return PreparedTemplate(
        memory_type=template.memory_type,
        category=template.category,
        key=template.key,
        json_head=json_head,
        json_tail=json_tail,
        text_head=text_head,
        text_tail=text_tail,
        hash_head=normalise_for_hash(text_head),
        needs_escape=any(c in json_head + json_tail + text_head for c in "\\\n\r\t"),
    )


def row_token(sequence: int) -> str:
    """A short reference that keeps rows distinct; invariant under normalise_for_hash."""
    return f" (ref {sequence})"


def ensure_scopes(*, prefix: str, tenants: int, scopes_per_tenant: int) -> list[ScopeTarget]:
    """Create (or reuse) the bench tenants and their scopes; return where items may go."""
    targets: list[ScopeTarget] = []
    for tenant_index in range(tenants):
        tenant, _ = Tenant.objects.get_or_create(
            slug=f"{prefix}-{tenant_index:03d}",
            defaults={"name": f"Benchmark tenant {tenant_index}"},
        )
        wanted = []
        for kind, share in SCOPE_KIND_SHARES:
            for number in range(max(1, round(scopes_per_tenant * share))):
                if kind == ScopeKind.SESSION:
                    subject = f"u_{number // 3:06d}"  # a few sessions per user
                else:
                    subject = f"u_{number:06d}" if kind == ScopeKind.USER else ""
                wanted.append(
                    Scope(
                        tenant=tenant,
                        kind=kind,
                        external_id=f"{kind[0]}_{number:06d}",
                        subject=subject,
                    )
                )
        Scope.objects.bulk_create(
            wanted[:scopes_per_tenant], ignore_conflicts=True, batch_size=2000
        )
        for scope_id in Scope.objects.filter(tenant=tenant).values_list("pk", flat=True):
            targets.append(
                ScopeTarget(
                    scope_id, tenant.pk, tenant.archive_threshold, tenant.half_life_overrides
                )
            )
    return targets


class RowFactory:
    """Draws synthetic rows; one instance per run so caches (half-lives) are shared."""

    def __init__(
        self, *, seed: int, targets: list[ScopeTarget], run_tag: str, embedding_model: str = ""
    ):
        self.rng = random.Random(seed)
        # Ids never repeat across runs, even with the same --seed (one syscall, not one per row).
        self.id_rng = random.Random(secrets.randbits(128))
        self.targets = targets
        self.templates = [prepare_template(t) for t in synthetic_templates()]
        # Row tokens start at a random offset so repeated runs do not duplicate content.
        self.sequence = self.rng.randrange(10**9)
        self.run_tag = run_tag
        self.embedding_model = embedding_model
        self.now = timezone.now()
        self._statuses = list(STATUS_WEIGHTS)
        self._status_cum = _cumulative(STATUS_WEIGHTS.values())
        self._kinds = list(SOURCE_KIND_WEIGHTS)
        self._kind_cum = _cumulative(SOURCE_KIND_WEIGHTS.values())
        self._half_lives: dict[tuple, float] = {}

    def half_life(self, template: PreparedTemplate, target: ScopeTarget) -> float:
        cache_key = (template.memory_type, template.category, target.tenant_id)
        if cache_key not in self._half_lives:
            self._half_lives[cache_key] = default_half_life(
                memory_type=template.memory_type,
                category=template.category,
                overrides=target.half_life_overrides,
            )
        return self._half_lives[cache_key]

    def draw(self) -> dict:
        """One row as {column: python value}; text columns unescaped."""
        rng = self.rng
        self.sequence += 1
        template = self.templates[rng.randrange(len(self.templates))]
        target = self.targets[rng.randrange(len(self.targets))]
        token = row_token(self.sequence)
        created_at = self.now - timedelta(seconds=rng.random() * HISTORY_DAYS * 86_400)
        last_access_at = created_at + (self.now - created_at) * rng.random() ** 3
        importance = round(0.05 + 0.95 * rng.random(), 2)
        half_life = self.half_life(template, target)
        status = self._statuses[bisect(self._status_cum, rng.random() * self._status_cum[-1])]
        identifier = f"{self.id_rng.getrandbits(128):032x}"
        text = template.text_head + token + template.text_tail
        row = {
            "id": f"{identifier[:12]}4{identifier[13:16]}a{identifier[17:]}",
            "tenant_id": target.tenant_id,
            "scope_id": target.scope_id,
            "memory_type": template.memory_type,
            "category": template.category,
            "key": template.key,
            "content": template.json_head + token + template.json_tail,
            "text": text,
            "source": SOURCES[rng.randrange(len(SOURCES))],
            "source_kind": self._kinds[bisect(self._kind_cum, rng.random() * self._kind_cum[-1])],
            "run_id": f"gen_{self.run_tag}_{self.sequence // 40}",
            "importance": importance,
            "half_life_days": half_life,
            "last_access_at": last_access_at,
            "access_count": int(rng.expovariate(0.3)),
            "archive_due_at": compute_archive_due_at(
                importance=importance,
                half_life_days=half_life,
                last_access_at=last_access_at,
                threshold=target.threshold,
            ),
            "confidence": round(0.5 + 0.5 * rng.random(), 2),
            "status": status,
            "expires_at": (
                created_at + WORKING_MEMORY_TTL
                if template.memory_type == MemoryType.WORKING
                else None
            ),
            "content_hash": _sha256(template.hash_head + token),
            "created_at": created_at,
            "needs_escape": template.needs_escape,
        }
        if self.embedding_model:
            counts = trigram_counts(text)
            # bytea in COPY text format (`\\x` + hex) and pgvector's text form.
            row["embedding_copy"] = "\\\\x" + array("f", counts).tobytes().hex()
            row["embedding_model"] = self.embedding_model
            row["vector"] = "[" + ",".join(map(str, counts)) + "]"
        return row


def _cumulative(weights) -> list[float]:
    total, out = 0.0, []
    for weight in weights:
        total += weight
        out.append(total)
    return out


def _sha256(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()
