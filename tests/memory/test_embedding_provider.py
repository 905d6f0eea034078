"""The optional embedding provider (issue 18): an OpenAI-compatible /v1/embeddings endpoint,
here a tiny local HTTP server answering with the deterministic test embedder."""

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from django.db import connection

from apps.memory.generation.embedding import embed
from apps.memory.models import MemoryItem
from apps.memory.vectors import TABLE, vector_search_available
from tests.memory.api_helpers import remember_body

pytestmark = pytest.mark.django_db
MODEL = "local-trigram-384"


class _Provider(BaseHTTPRequestHandler):
    mode = "ok"
    requests: list[dict] = []

    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        type(self).requests.append(
            {"path": self.path, "auth": self.headers["Authorization"], **body}
        )
        if self.mode == "slow":
            time.sleep(1.0)
        if self.mode == "error":
            self.send_response(500)
            self.end_headers()
            return
        data = [{"index": i, "embedding": embed(text)} for i, text in enumerate(body["input"])]
        answer = json.dumps({"data": data, "model": body["model"]}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(answer)))
        self.end_headers()
        self.wfile.write(answer)

    def log_message(self, *args):
        pass


@pytest.fixture
def provider(settings):
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Provider)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    _Provider.mode, _Provider.requests = "ok", []
    settings.EMBEDDING_PROVIDER_URL = f"http://127.0.0.1:{server.server_port}"
    settings.EMBEDDING_PROVIDER_MODEL = MODEL
    settings.EMBEDDING_PROVIDER_API_KEY = "sk-test"
    settings.EMBEDDING_PROVIDER_TIMEOUT_MS = 300
    yield _Provider
    server.shutdown()
    server.server_close()


def write(client, text, **overrides):
    response = client.post(
        "/api/v1/memories/", remember_body(content={"text": text}, **overrides), format="json"
    )
    assert response.status_code == 201, response.content
    return response.json()


def recall(client, query, **overrides):
    body = {"tenant": "tenant-a", "scope": "user:u_1024", "query": query, **overrides}
    response = client.post("/api/v1/recall/", body, format="json")
    assert response.status_code == 200, response.content
    return response.json()


def test_a_write_without_embedding_is_embedded_after_commit(
    provider, api_a, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        stored = write(api_a, "The user lives at Rue de Rivoli 12")
    item = MemoryItem.objects.get(pk=stored["id"].removeprefix("mem_"))
    assert item.embedding_model == MODEL and item.version == 1  # derived data: no new version
    assert provider.requests == [
        {
            "path": "/v1/embeddings",
            "auth": "Bearer sk-test",
            "model": MODEL,
            "input": ["The user lives at Rue de Rivoli 12"],
        }
    ]
    if vector_search_available():
        with connection.cursor() as cursor:
            cursor.execute(f"SELECT model FROM {TABLE} WHERE item_id = %s", [item.pk])
            assert cursor.fetchone() == (MODEL,)


def test_a_write_with_its_own_embedding_makes_no_provider_call(
    provider, api_a, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        write(api_a, "Likes jazz", embedding=[0.1, 0.2], embedding_model="agent-model")
    assert provider.requests == []


def test_recall_embeds_the_query_with_the_provider(
    provider, api_a, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        write(api_a, "Rue de Rivoli 12, Paris", embedding=embed("where does Alice live"),
              embedding_model=MODEL)  # fmt: skip
    answer = recall(api_a, "where does Alice live")
    assert answer["degraded"] == []
    [result] = answer["results"]
    assert result["matched_by"] == "embedding"
    assert result["components"]["similarity"] == pytest.approx(1.0, abs=1e-5)


@pytest.mark.parametrize("mode", ["error", "slow", "down"])
def test_a_failing_provider_degrades_recall_to_lexical(provider, api_a, settings, mode):
    write(api_a, "The user prefers green tea")
    provider.mode = mode
    if mode == "down":
        settings.EMBEDDING_PROVIDER_URL = "http://127.0.0.1:9"  # discard port: refused
    started = time.monotonic()
    answer = recall(api_a, "green tea")
    assert time.monotonic() - started < 1.0  # the timeout bounds the wait
    assert answer["degraded"] == ["embedding_provider"]
    assert [r["matched_by"] for r in answer["results"]] == ["lexical"]
