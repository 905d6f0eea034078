"""Short names for the languages and malicious kinds, shared by the attack files."""

Z, M = "zh", "mixed"
FF, DT, PO, PE, HT, ID = (
    "false_fact",
    "delayed_trigger",
    "policy_override",
    "persistence",
    "hidden_text",
    "injection_document",
)
CH, RI, EX, TA, IT, OB = (
    "credential_harvest",
    "role_impersonation",
    "exfiltration",
    "tool_abuse",
    "injection_tool_output",
    "obfuscation",
)
