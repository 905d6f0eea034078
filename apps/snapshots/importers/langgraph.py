"""`--format langgraph`: a LangGraph store's items and threads' checkpointed messages.

LangGraph keeps no export format of its own, so this one is ours (docs/importing.md shows
the few lines that write it from a store and a checkpointer). JSON Lines, one record a
line, in one of two kinds:

    {"kind": "store", "namespace": ["user", "u_1024", "prefs"], "key": "diet",
     "value": {"diet": "vegetarian"}, "created_at": "…", "updated_at": "…"}
        — a store Item as `Item.dict()` gives it;
    {"kind": "message", "thread_id": "t_1", "ts": "…",
     "message": {"type": "ai", "data": {"content": "…", "tool_calls": […], "id": "…"}}}
        — a message of a thread's checkpoint, as langchain's `messages_to_dict` gives it,
          with `ts` the time of the first checkpoint that holds it.

Store items keep namespace and key: a namespace that starts with a scope kind
(`user`, `session`, `agent`, `global`) and an id maps to that scope, the rest of it
prefixes the key (`prefs.diet`); any other namespace maps to `global:<a/b/c>`. The value
is the content; type semantic. Messages become episodic items of `session:<thread_id>`
(run id: the thread id), content `{role, text, tool_calls, tool_call_id, name,
message_id}` — tool calls stay structured, never flattened into the text. Source
`langgraph`.
"""

from collections.abc import Iterator
from typing import IO, Any

from apps.snapshots.importers.cleaning import BadRecord, Record, Refusal, json_lines, to_utc
from apps.tenancy.models import ScopeKind

SOURCE = "langgraph"
DIALOGUE = 20  # the dialogue band of categories (ARCHITECTURE §2)
_SCOPE_KINDS = frozenset(ScopeKind.values)
# Message fields kept beside the role and text, when set.
_MESSAGE_FIELDS = ("tool_calls", "invalid_tool_calls", "tool_call_id", "name", "status")


def read(stream: IO[bytes], *, tenant_slug: str) -> Iterator[Record | Refusal]:
    """Each line of a LangGraph dump as a Record, or a Refusal naming the line."""
    for number, parsed in json_lines(stream):
        position = f"line {number}"
        try:
            if isinstance(parsed, BadRecord):
                raise parsed
            if not isinstance(parsed, dict):
                raise BadRecord("not a JSON object.")
            kind = parsed.get("kind")
            if kind == "store":
                yield _store_record(parsed, position=position)
            elif kind == "message":
                yield _message_record(parsed, position=position)
            else:
                raise BadRecord('kind: expected "store" or "message".')
        except BadRecord as bad:
            yield Refusal(position, str(bad))


def _store_record(line: dict, *, position: str) -> Record:
    namespace, key, value = line.get("namespace"), line.get("key"), line.get("value")
    if not isinstance(namespace, list) or not namespace:
        raise BadRecord("namespace: not a list of labels.")
    if not all(isinstance(label, str) and label for label in namespace):
        raise BadRecord("namespace: labels must be non-empty strings.")
    if not isinstance(key, str) or not key:
        raise BadRecord("key: missing.")
    if not isinstance(value, dict) or not value:
        raise BadRecord("value: not a non-empty JSON object.")
    if namespace[0] in _SCOPE_KINDS and len(namespace) >= 2:
        scope = f"{namespace[0]}:{namespace[1]}"
        subject = namespace[1] if namespace[0] == ScopeKind.USER else ""
        key = ".".join([*namespace[2:], key])
    else:
        scope, subject = f"global:{'/'.join(namespace)}", ""
    body = {
        "scope": scope,
        "subject": subject,
        "key": key,
        "memory_type": "semantic",
        "content": value,
        "source": SOURCE,
    }
    created_at = to_utc(line.get("created_at") or line.get("updated_at"), field="created_at")
    return Record(position, body, created_at)


def _message_record(line: dict, *, position: str) -> Record:
    thread_id, message = line.get("thread_id"), line.get("message")
    if not isinstance(thread_id, str) or not thread_id:
        raise BadRecord("thread_id: missing.")
    if not isinstance(message, dict) or not isinstance(message.get("data"), dict):
        raise BadRecord('message: expected {"type": …, "data": {…}}.')
    data = message["data"]
    role = message.get("type") or data.get("type")
    if not isinstance(role, str) or not role:
        raise BadRecord("message: no type.")
    content: dict[str, Any] = {"role": role}
    text = data.get("content")
    if isinstance(text, str):
        if text:
            content["text"] = text
    elif isinstance(text, list):  # content blocks (multimodal, reasoning): kept as they are
        content["parts"] = text
    for name in _MESSAGE_FIELDS:
        if data.get(name):
            content[name] = data[name]
    if len(content) == 1:
        raise BadRecord("message: empty (no text, parts or tool calls).")
    if data.get("id"):
        content["message_id"] = data["id"]  # two equal replies stay two memories
    body = {
        "scope": f"session:{thread_id}",
        "run_id": thread_id,
        "memory_type": "episodic",
        "category": DIALOGUE,
        "content": content,
        "source": SOURCE,
        "source_kind": "tool" if role == "tool" else "",
    }
    return Record(position, body, to_utc(line.get("ts"), field="ts"))
