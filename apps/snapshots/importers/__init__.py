"""Importers of foreign memory exports (ARCHITECTURE §9): `jsonl` (our item schema),
`mem0` (Mem0's get_all JSON) and `langgraph` (a store's items and threads' messages).

Each format module reads a file incrementally into cleaned `Record`s (cleaning.py); the
runner sends each through the remember gate and counts the outcomes (summary.py).
"""
