"""A LangGraph store and a thread's checkpoints, made and dumped by the real `langgraph`
package into the file `import_memories --format langgraph` reads (docs/importing.md
shows the same dump). No model is called: the graph's nodes answer deterministically."""

import json
from pathlib import Path

from langchain_core.messages import AIMessage, HumanMessage, ToolMessage, message_to_dict
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, MessagesState, StateGraph
from langgraph.store.base import BaseStore
from langgraph.store.memory import InMemoryStore

THREAD = "t_support_1"


def filled_store() -> InMemoryStore:
    store = InMemoryStore()
    store.put(("user", "u_1024", "prefs"), "diet", {"diet": "vegetarian", "allergies": ["nuts"]})
    store.put(("user", "u_1024"), "address.city", {"city": "Beijing", "district": "Chaoyang"})
    store.put(("memories", "u_7"), "note-1", {"text": "Prefers tea in the afternoon"})
    return store


# Fixed message ids (LangGraph draws random ones otherwise): the imported items' content
# then never varies between runs, and neither does the gate's judgement of it.
def _agent(state: MessagesState) -> dict:
    if len(state["messages"]) == 1:
        call = {"name": "order_status", "args": {"order": "1042"}, "id": "call_1"}
        return {"messages": [AIMessage("", tool_calls=[call], id="msg-ai-call")]}
    return {"messages": [AIMessage("Your order 1042 ships tomorrow.", id="msg-ai-answer")]}


def _tools(state: MessagesState) -> dict:
    answer = ToolMessage(
        '{"status": "packed"}', tool_call_id="call_1", name="order_status", id="msg-tool"
    )
    return {"messages": [answer]}


def _route(state: MessagesState) -> str:
    return "tools" if state["messages"][-1].tool_calls else END


def run_thread() -> tuple[InMemorySaver, dict]:
    """A support thread with a tool call, checkpointed by InMemorySaver."""
    graph = StateGraph(MessagesState)
    graph.add_node("agent", _agent)
    graph.add_node("tools", _tools)
    graph.add_edge(START, "agent")
    graph.add_conditional_edges("agent", _route)
    graph.add_edge("tools", "agent")
    saver = InMemorySaver()
    config = {"configurable": {"thread_id": THREAD}}
    graph.compile(checkpointer=saver).invoke(
        {"messages": [HumanMessage("Where is my order 1042?", id="msg-human")]}, config
    )
    return saver, config


def dump(path: Path, *, store: BaseStore, saver: InMemorySaver, configs: list[dict]) -> None:
    """Write the store's items and each thread's messages as JSON Lines."""
    with path.open("w", encoding="utf-8") as out:
        for namespace in store.list_namespaces():
            for item in store.search(namespace, limit=10_000):  # a prefix search:
                if tuple(item.namespace) == namespace:  # each item once, from its own
                    out.write(json.dumps({"kind": "store", **item.dict()}) + "\n")
        for config in configs:
            thread_id = config["configurable"]["thread_id"]
            seen: set[str] = set()
            for saved in reversed(list(saver.list(config))):  # oldest checkpoint first
                for message in saved.checkpoint["channel_values"].get("messages", []):
                    if message.id in seen:
                        continue
                    seen.add(message.id)
                    line = {
                        "kind": "message",
                        "thread_id": thread_id,
                        "ts": saved.checkpoint["ts"],
                        "message": message_to_dict(message),
                    }
                    out.write(json.dumps(line) + "\n")
