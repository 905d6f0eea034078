"""The OpenAPI schema is clean for client generators (apps.core.schema): it validates with
no warning, its operation ids read like the API, memory content is an object, every
error status an operation can answer is declared with the one error document, and no
developer note leaks into a description. Rules are checked over every operation, so an
endpoint added later is held to them too."""

import re
from pathlib import Path

import jsonschema
import pytest
import yaml
from django.core.management import call_command

from tests.memory.api_helpers import remember_body

ERROR_REF = "#/components/schemas/Error"
DECLARABLE_ERRORS = {"400", "401", "403", "404", "409", "412", "413", "422", "428", "429"}
# Words that belong to the repository, not to the API's readers.
LEAKS = re.compile(r"CONTRACT|apps\.|(?<!manage)\.py\b|\bissue \d|TODO|withheld_representation")


@pytest.fixture(scope="module")
def schema(tmp_path_factory) -> dict:
    """`manage.py spectacular --validate --fail-on-warn`: raises on any warning or error."""
    path = Path(tmp_path_factory.mktemp("schema")) / "schema.yaml"
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(path))
    return yaml.safe_load(path.read_text())


def operations(schema: dict):
    for path, methods in schema["paths"].items():
        for method, operation in methods.items():
            yield path, method, operation


def walk(node, trail=()):
    """Every (trail, dict) in the schema, depth first."""
    if isinstance(node, dict):
        yield trail, node
        for key, value in node.items():
            yield from walk(value, (*trail, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from walk(value, (*trail, index))


def test_operation_ids_are_readable_and_unique(schema):
    ids = [operation["operationId"] for _path, _method, operation in operations(schema)]
    assert len(ids) == len(set(ids))
    for operation_id in ids:
        assert re.fullmatch(r"[a-z][a-z_]*[a-z]", operation_id), operation_id
        assert not operation_id.startswith("v1_"), operation_id
    assert {
        "memories_create",
        "memories_list",
        "memories_retrieve",
        "memories_partial_update",
        "memories_destroy",
        "memories_feedback",
        "memories_merge",
        "recall",
    } <= set(ids)
    tags = {tag for _p, _m, operation in operations(schema) for tag in operation["tags"]}
    assert "v1" not in tags and "memories" in tags


def test_no_developer_note_leaks_into_a_description(schema):
    for trail, node in walk(schema):
        for key in ("description", "summary"):
            if isinstance(node.get(key), str):
                assert not LEAKS.search(node[key]), (trail, node[key])
    memory_operations = [op for path, _m, op in operations(schema) if "/memories/" in path]
    descriptions = {operation.get("description", "") for operation in memory_operations}
    assert "The agent memory API" not in " ".join(descriptions)


def test_content_is_a_json_object_wherever_it_appears(schema):
    components = schema["components"]["schemas"]
    content = components["MemoryContent"]
    assert content["type"] == "object" and content["minProperties"] == 1
    seen = 0
    for trail, node in walk(components):
        properties = node.get("properties") if trail and trail[-1] != "properties" else None
        if not isinstance(properties, dict) or "content" not in properties:
            continue
        seen += 1
        declared = properties["content"]
        refs = [declared.get("$ref")] + [
            option.get("$ref") for option in declared.get("oneOf", []) + declared.get("allOf", [])
        ]
        assert "#/components/schemas/MemoryContent" in refs, (trail, declared)
    assert seen >= 4  # remember, memory, patch, merge (and conflicts) at least


def test_every_error_is_declared_with_the_error_document(schema):
    for path, method, operation in operations(schema):
        responses = operation["responses"]
        where = f"{method.upper()} {path}"
        errors = {code for code in responses if code.startswith("4")}
        assert errors <= DECLARABLE_ERRORS, where
        for code in errors:
            body = responses[code]["content"]["application/json"]["schema"]
            assert body == {"$ref": ERROR_REF}, (where, code)
            assert responses[code]["description"], (where, code)
        assert {"401", "403", "429"} <= errors, where
        assert "Retry-After" in responses["429"]["headers"], where
        if "requestBody" in operation:
            assert {"400", "404", "413"} <= errors, where
        if "{" in path:
            assert "404" in errors, where
        if method in ("patch", "put"):
            assert "409" in errors, where
        names = {(p["in"], p["name"].lower()) for p in operation.get("parameters", [])}
        if ("header", "idempotency-key") in names:
            assert {"409", "422"} <= errors, where
        if ("header", "if-match") in names:
            assert "412" in errors, where
            if method == "patch":
                assert "428" in errors, where
        for code, response in responses.items():
            if code.startswith("2") or code == "429":
                assert "RateLimit-Remaining" in response["headers"], (where, code)
            if code == "201":
                assert "Location" in response["headers"], where
    patch = schema["paths"]["/api/v1/memories/{id}/"]["patch"]["responses"]
    assert {"409", "412", "428"} <= set(patch)
    assert "409" not in schema["paths"]["/api/v1/recall/"]["post"]["responses"]


def test_withheld_memories_fit_the_memory_schema(schema):
    """An agent sees an item the gate held back as `{id, status}`: only those are required."""
    memory = schema["components"]["schemas"]["Memory"]
    assert set(memory["required"]) == {"id", "status"}
    answer = schema["components"]["schemas"]["RememberResponse"]
    assert set(answer["required"]) == {"id", "status", "merged"}


@pytest.mark.django_db
def test_real_errors_match_the_declared_error_document(schema, api_a):
    components = schema["components"]
    error_document = {**components["schemas"]["Error"], "components": components}
    validator = jsonschema.Draft202012Validator(error_document)
    created = api_a.post("/api/v1/memories/", remember_body(), format="json")
    assert created.status_code == 201, created.content
    item = created.json()
    answers = [
        api_a.post("/api/v1/memories/", remember_body(content="not an object"), format="json"),
        api_a.get("/api/v1/memories/mem_0123/"),
        api_a.patch(
            f"/api/v1/memories/{item['id']}/",
            {"version": item["version"] + 5, "importance": 0.2},
            format="json",
        ),
    ]
    assert [answer.status_code for answer in answers] == [400, 404, 409]
    for answer in answers:
        validator.validate(answer.json())
    assert answers[2].json()["error"]["current_version"] == item["version"]
