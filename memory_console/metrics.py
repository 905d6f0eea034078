"""Prometheus metrics at /metrics (django-prometheus), restricted to allowed addresses.

django-prometheus counts requests and latencies per view (its middlewares wrap the
stack); this module adds the gate's outcomes and the queues' sizes. The endpoint answers
404 unless MEMORY_CONSOLE_METRICS_ENABLED is on and the client's address is inside
MEMORY_CONSOLE_METRICS_ALLOWED_NETWORKS (default: loopback only). Labels never carry a
tenant, user or content.
"""

import ipaddress
from functools import cache

from django.conf import settings
from django.http import Http404
from django_prometheus.exports import ExportToDjangoView
from prometheus_client import REGISTRY, Counter
from prometheus_client.core import GaugeMetricFamily

GATE_OUTCOMES = Counter(
    "memory_console_gate_outcomes_total",
    "Writes through the remember gate by outcome (active, quarantined, pending_review, "
    "merged, rejected_<code>).",
    ["outcome"],
)


def count_gate_outcome(outcome: str) -> None:
    GATE_OUTCOMES.labels(outcome=outcome[:40]).inc()


class QueueSizes:
    """Sizes read at scrape time: pending quarantine entries, open conflicts, recall
    accesses waiting for the broker, denials waiting for the audit chain."""

    def collect(self):
        from apps.audit.models import DenialCounter
        from apps.conflicts.models import Conflict, ConflictStatus
        from apps.memory.models import PendingAccess
        from apps.quarantine.models import EntryStatus, QuarantineEntry

        gauge = GaugeMetricFamily(
            "memory_console_queue_size", "Items waiting in each queue.", labels=["queue"]
        )
        gauge.add_metric(
            ["quarantine_pending"],
            QuarantineEntry.objects.filter(status=EntryStatus.PENDING).count(),
        )
        gauge.add_metric(
            ["conflicts_open"], Conflict.objects.filter(status=ConflictStatus.OPEN).count()
        )
        gauge.add_metric(["recall_accesses_pending"], PendingAccess.objects.count())
        gauge.add_metric(["audit_denials_pending"], DenialCounter.objects.count())
        yield gauge

    def describe(self):
        return []  # collected lazily: registering must not touch the database


@cache
def register_queue_sizes() -> None:
    REGISTRY.register(QueueSizes())


def _allowed(address: str | None) -> bool:
    try:
        client = ipaddress.ip_address(address or "")
    except ValueError:
        return False
    return any(
        client in ipaddress.ip_network(network, strict=False)
        for network in settings.MEMORY_CONSOLE_METRICS_ALLOWED_NETWORKS
    )


def metrics_view(request):
    """Prometheus exposition, for allowed addresses only (404 to everyone else)."""
    if not settings.MEMORY_CONSOLE_METRICS_ENABLED or not _allowed(request.META.get("REMOTE_ADDR")):
        raise Http404
    register_queue_sizes()
    return ExportToDjangoView(request)
