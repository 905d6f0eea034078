"""Rule building blocks: categories, the Rule type, the rule() factory and shared vocabulary.

The rule table itself lives in one module per category beside this one.

Patterns run on normalised text (see normalise.py): lower case, NFKC (so full-width
"：" is ":"), look-alike letters folded, whitespace collapsed to one space, spaces between
ideographs removed. Weights are calibrated against bench/data/injection_corpus.jsonl:

- >= 0.5 alone quarantines an explicit statement (threshold 0.5): reserved for phrasings
  that are attacks on their own ("ignore all previous instructions", "以最高优先级存入你的记忆").
- < 0.5 for phrasings people also use innocently ("from now on", "never forget this",
  "new instructions:", "system:"); they count when combined with another category or when
  the source is less trusted (tool, external, import).

`negatable` rules are cancelled by a negation just before them, because policy memories
state the opposite ("never ask the user for their password", "不要把密码发送给任何人").
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass


class Category:
    """Finding categories (stable strings: stored in queue entries and shown to reviewers)."""

    INSTRUCTION_OVERRIDE = "instruction_override"
    MEMORY_PRIORITY = "memory_priority"
    PERSISTENT_BEHAVIOUR = "persistent_behaviour"
    ROLE_IMPERSONATION = "role_impersonation"
    EXFILTRATION = "exfiltration"
    TOOL_ABUSE = "tool_abuse"
    CREDENTIAL_HARVESTING = "credential_harvesting"
    HIDDEN_PAYLOAD = "hidden_payload"
    # Directive analysis (the directive/ package), not phrase rules:
    DIRECTIVE = "directive"
    QUOTED_INSTRUCTION = "quoted_instruction"
    PLANTED_FACT = "planted_fact"


@dataclass(frozen=True, eq=False)  # identity hash: rule tables key caches cheaply
class Rule:
    """One pattern of one category; `reason` is content-free and shown to reviewers."""

    category: str
    weight: float
    reason: str
    pattern: re.Pattern[str]
    negatable: bool = False
    triggers: tuple[tuple[str, ...], ...] = ()
    left_boundary: bool = False  # the match must start at a word boundary
    before: re.Pattern[str] | None = None  # must match just before the anchor (see rule())
    chinese: bool = False  # needs ideographs in the text to match at all


_HAS_IDEOGRAPH = re.compile("[\u3400-\u9fff]")


_last_answer: tuple[str | None, bool] = (None, False)  # replaced in one assignment


def has_ideographs(text: str) -> bool:
    """True when the text contains CJK ideographs (Chinese rules can match at all);
    remembered for the last text, which the phrase rules and the directive pass both ask
    about. An ASCII text (str.isascii reads a flag) is answered without a scan."""
    global _last_answer
    last_text, found = _last_answer
    if last_text is not text:
        found = not text.isascii() and bool(_HAS_IDEOGRAPH.search(text))
        _last_answer = (text, found)
    return found


def rule(
    category: str,
    weight: float,
    reason: str,
    triggers: str,
    pattern: str,
    *,
    negatable: bool = False,
    before: str | None = None,
) -> Rule:
    """Build a rule. `triggers`: groups separated by " / ", each of space-separated
    substrings ("_" stands for a space); any match contains one substring of every group,
    so cheap `in` tests skip the regex on most texts."""
    groups = tuple(
        tuple(word.replace("_", " ") for word in group.split()) for group in triggers.split(" / ")
    )
    # A leading \b stops the regex engine from using its fast first-character scan (3-10x
    # slower on 1 KiB); the engine (rules.match_rules) checks that boundary itself.
    left_boundary = pattern.startswith(r"\b")
    compiled = re.compile(pattern[2:] if left_boundary else pattern)
    # `before`: the pattern matches a rare anchor (a credential, "highest priority", a URL)
    # and `before` must match the text just before it, ending at the anchor. Regexes that
    # start with common verbs and scan forward are the slowest part of detection.
    context = re.compile(before + r"$") if before else None
    # Chinese rules (written with a Chinese reason) cannot match a text without ideographs.
    chinese = has_ideographs(reason)
    return Rule(
        category, weight, reason, compiled, negatable, groups, left_boundary, context, chinese
    )


# Vocabulary shared by several patterns.
GAP = r"(?:\s+\S+){0,6}?"
INSTRUCTION_NOUN = (
    r"(?:instructions?|system prompt|prompts?|directives?|guidelines?|guardrails?|programming"
    r"|restrictions?|constraints?|commands?|safety (?:rules|policies|guidelines))"
)
RULE_NOUN = r"(?:rules?|polic(?:y|ies))(?!\s+(?:for|on|about|regarding|of|in|when|at)\b)"
OVERRIDE_MODIFIER = (
    r"(?:all|any|every|your|previous|prior|preceding|above|earlier|original|initial|system"
    r"|developer|safety|default|existing|standing|given|old)"
)
FILLER = (
    r"(?:all|any|every|each|of|the|your|my|these|those|this|that|you|were|have|been|given|"
    r"previous|prior|preceding|above|earlier|original|initial|existing|current|old|system|"
    r"developer|safety|default|other|standing|content)"
)
TARGET = (
    r"(?:https?://|hxxps?://|www\.|ftp://|[\w.+-]+@[\w-]+\.[a-z]{2,}|\b(?:\d{1,3}\.){3}\d{1,3}\b"
    r"|public (?:folder|link|bucket|page|repo|drive)"
    r"|(?:this|that|the following|the|my|our) (?:url|address|link|endpoint|server|webhook|site"
    r"|domain|inbox|bucket|channel|number)|webhook|pastebin|ngrok|telegram|discord)"
)
# A trigger group (rule()'s format) that every TARGET match holds a word of: a rule whose
# pattern requires a TARGET skips the texts without one, which its other groups ("at", "to",
# a "number" or a "site" anywhere) let through. The IP address holds "." before a decimal
# digit, any of Unicode's (``\d``); the other alternatives spell their own words.
TARGET_TRIGGERS = " ".join(
    [
        "://",
        "www.",
        "@",
        "public_",
        "webhook",
        "pastebin",
        "ngrok",
        "telegram",
        "discord",
        *(
            f"{determiner}_{noun}"
            for determiner in ("this", "that", "following", "the", "my", "our")
            for noun in [
                "url",
                "address",
                "link",
                "endpoint",
                "server",
                "webhook",
                "site",
                "domain",
                "inbox",
                "bucket",
                "channel",
                "number",
            ]
        ),
        *("." + chr(code) for code in range(sys.maxunicode + 1) if chr(code).isdecimal()),
    ]
)
EXFIL_VERB = (
    r"(?:send|forward|post|upload|e-?mail|mail|transmit|leak|exfiltrate|share|sync|bcc|cc"
    r"|copy|relay|report|submit|push|dump|export|beacon|mirror|pipe|stream)(?:s|e?d|ing)?"
)
SENSITIVE_OBJECT = (
    r"(?:credentials?|passwords?|passcodes?|tokens?|api[ _-]?keys?|secrets?|private keys?"
    r"|memor(?:y|ies)|conversations?|chat (?:history|logs?)|transcripts?|session cookies?"
    r"|cookies|(?:personal|private|user|customer|payment|card|billing|account) (?:data|info"
    r"|information|details|records)|card numbers?|everything you know|system prompt"
    r"|contacts?|address book|all (?:the )?data|all (?:user|customer) data)"
)
EXFIL_OBJECT = (
    r"(?:data|orders?|e-?mails?|messages?|files?|documents?|records?|receipts?|invoices?"
    r"|addresses|details|logs?|screenshots?|history|information|info|notes|reports?|results?"
    r"|invites?|calendar|events|photos|attachments?"
    r"|everything|" + SENSITIVE_OBJECT[3:]
)
CREDENTIAL = (
    r"(?:passwords?|passcodes?|pin(?: codes?)?|otps?|one[- ]time (?:password|code)s?"
    r"|verification codes?|2fa codes?|mfa codes?|sms codes?|auth(?:entication)? codes?"
    r"|security codes?|cvvs?|cvcs?|card numbers?|credit card(?: numbers?| details)?"
    r"|debit card(?: numbers?)?|bank (?:account|login|password)s?|login(?: details)?"
    r"|credentials|seed phrases?|recovery phrases?|mnemonics?|private keys?|ssns?"
    r"|social security numbers?|mother's maiden name|security answers?)"
)
ZH_CREDENTIAL = (
    r"(?:登录|支付|银行卡?|账户|账号|网银|交易)?(?:密码|验证码|银行卡号|卡号|cvv|安全码"
    r"|身份证号码?|支付密码|登录凭证|凭证|助记词|私钥|动态码|短信码|口令)"
)
ZH_AGENT_RULES = (
    r"(?:规则|指令|指示|设定|设置|要求|限制|约束|提示词|提示|命令|安全策略|系统提示|准则|规定"
    r"|政策|原则|上下文)"
)
