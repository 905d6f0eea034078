"""Degrade, do not fail (issue 12 point 4): with the cache or the broker stopped, the API
keeps answering at its normal speed; limits fall back to the process, recall accesses
wait in the database and are applied later.

Each test runs its OWN redis-server on a free port (the shared one on 6379 is never
touched), points the cache or the broker at it, then stops and restarts it for real.
"""

import logging
import shutil
import socket
import statistics
import subprocess
import time

import pytest
from django.test import override_settings

from apps.core import cache as degrading
from apps.memory import tasks
from apps.memory.models import MemoryItem, PendingAccess
from memory_console.celery import app as celery_app
from tests.factories import MemoryItemFactory, ScopeFactory

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.slow,
    pytest.mark.skipif(not shutil.which("redis-server"), reason="redis-server not installed"),
]


class OwnRedis:
    """A private redis-server that a test can stop and start again on the same port."""

    def __init__(self) -> None:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.process = subprocess.Popen(
            [
                "redis-server",
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            with socket.socket() as probe:
                if probe.connect_ex(("127.0.0.1", self.port)) == 0:
                    return
            time.sleep(0.05)
        raise RuntimeError("redis-server did not start")

    def stop(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait(timeout=10)
            self.process = None

    def queue_length(self, name: str = "celery") -> int:
        import redis

        return redis.Redis.from_url(self.url).llen(name)


@pytest.fixture
def own_redis():
    server = OwnRedis()
    server.start()
    yield server
    server.stop()


@pytest.fixture
def scope_with_items(tenant_a):
    scope = ScopeFactory(tenant=tenant_a, kind="user", external_id="u_77")
    for n in range(5):
        MemoryItemFactory(scope=scope, content={"text": f"refund rule number {n}"})
    return scope


@pytest.fixture
def recall(django_capture_on_commit_callbacks):
    """POST a recall; its on-commit work (sending the accesses) runs inside the call, as
    it does on a real request in autocommit."""

    def call(client):
        with django_capture_on_commit_callbacks(execute=True):
            return client.post(
                "/api/v1/recall/",
                {"tenant": "tenant-a", "scope": "user:u_77", "query": "refund rule"},
                format="json",
            )

    return call


def timed_recalls(recall, client, count: int) -> list[float]:
    durations = []
    for _ in range(count):
        started = time.perf_counter()
        assert recall(client).status_code == 200
        durations.append(time.perf_counter() - started)
    return durations


def typical(durations: list[float]) -> float:
    """The median: a reconnect paid on every call moves it; one scheduler stall does not."""
    return statistics.median(durations)


def forget_broker_connections() -> None:
    """Drop Celery's pooled connections so the next publish connects to the current URL."""
    celery_app._pool = None
    celery_app.amqp._producer_pool = None


@pytest.fixture
def broker_is(own_redis, monkeypatch):
    """Celery really publishing to the private redis (not eager)."""
    saved = {name: celery_app.conf[name] for name in ("task_always_eager", "broker_url")}
    # Celery prefers the environment's CELERY_BROKER_URL over its configuration.
    monkeypatch.delenv("CELERY_BROKER_URL", raising=False)
    celery_app.conf.update(task_always_eager=False, broker_url=own_redis.url)
    monkeypatch.setattr(tasks, "_broker_down_until", 0.0)
    forget_broker_connections()
    yield own_redis
    celery_app.conf.update(saved)
    forget_broker_connections()


def test_recall_answers_at_normal_speed_with_the_broker_stopped_and_loses_no_access(
    api_a, scope_with_items, broker_is, caplog, recall
):
    with_broker = timed_recalls(recall, api_a, 20)
    assert broker_is.queue_length() == 20  # each recall's accesses went to the broker
    assert not PendingAccess.objects.exists()

    broker_is.stop()
    with caplog.at_level(logging.WARNING, logger="memory_console.broker"):
        without_broker = timed_recalls(recall, api_a, 20)
    assert "broker unreachable" in caplog.text
    assert PendingAccess.objects.count() == 20  # kept, not lost
    # "Normal speed": the first call pays one short connection attempt, the rest none.
    assert typical(without_broker) <= max(2 * typical(with_broker), typical(with_broker) + 0.05)
    assert max(without_broker) < 1.5

    before = sum(MemoryItem.objects.values_list("access_count", flat=True))
    assert tasks.apply_pending_accesses() == 20
    after = sum(MemoryItem.objects.values_list("access_count", flat=True))
    assert after - before == 20 * 5
    assert not PendingAccess.objects.exists()

    broker_is.start()
    tasks._broker_down_until = 0.0  # the retry period has passed
    forget_broker_connections()
    assert recall(api_a).status_code == 200
    assert broker_is.queue_length() == 1 and not PendingAccess.objects.exists()


def test_the_api_keeps_answering_with_the_cache_stopped_and_limits_fall_back(
    api_a, scope_with_items, own_redis, caplog, monkeypatch
):
    caches = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": own_redis.url,
        }
    }
    with override_settings(CACHES=caches, MEMORY_CONSOLE_API_KEY_RATE="15/min"):
        assert api_a.get("/api/v1/memories/").status_code == 200
        import redis

        assert redis.Redis.from_url(own_redis.url).dbsize() >= 1  # the throttle used Redis

        own_redis.stop()
        with caplog.at_level(logging.WARNING, logger="memory_console.cache"):
            statuses = [api_a.get("/api/v1/memories/").status_code for _ in range(20)]
        assert "shared cache unreachable" in caplog.text
        assert statuses[:14] == [200] * 14  # answering, not 500
        assert 429 in statuses  # and the per-process fallback still limits the key
        assert degrading.rate_limit_cache.degraded

        own_redis.start()
        monkeypatch.setattr(degrading.rate_limit_cache, "down_until", 0.0)
        assert api_a.get("/api/v1/memories/").status_code in (200, 429)
        assert not degrading.rate_limit_cache.degraded
