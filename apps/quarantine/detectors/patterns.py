"""The rule table: English and Chinese patterns per category, each with a weight.

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
    before: re.Pattern[str] | None = None  # must match just before the anchor (see _rule)
    chinese: bool = False  # needs ideographs in the text to match at all


_HAS_IDEOGRAPH = re.compile("[\u3400-\u9fff]")


def has_ideographs(text: str) -> bool:
    """True when the text contains CJK ideographs (Chinese rules can match at all)."""
    return bool(_HAS_IDEOGRAPH.search(text))


def _rule(
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


C = Category
# Vocabulary shared by several patterns.
_GAP = r"(?:\s+\S+){0,6}?"
_INSTRUCTION_NOUN = (
    r"(?:instructions?|system prompt|prompts?|directives?|guidelines?|guardrails?|programming"
    r"|restrictions?|constraints?|commands?|safety (?:rules|policies|guidelines))"
)
_RULE_NOUN = r"(?:rules?|polic(?:y|ies))(?!\s+(?:for|on|about|regarding|of|in|when|at)\b)"
_OVERRIDE_MODIFIER = (
    r"(?:all|any|every|your|previous|prior|preceding|above|earlier|original|initial|system"
    r"|developer|safety|default|existing|standing|given|old)"
)
_FILLER = (
    r"(?:all|any|every|each|of|the|your|my|these|those|this|that|you|were|have|been|given|"
    r"previous|prior|preceding|above|earlier|original|initial|existing|current|old|system|"
    r"developer|safety|default|other|standing|content)"
)
_TARGET = (
    r"(?:https?://|hxxps?://|www\.|ftp://|[\w.+-]+@[\w-]+\.[a-z]{2,}|\b(?:\d{1,3}\.){3}\d{1,3}\b"
    r"|public (?:folder|link|bucket|page|repo|drive)"
    r"|(?:this|that|the following|the|my|our) (?:url|address|link|endpoint|server|webhook|site"
    r"|domain|inbox|bucket|channel|number)|webhook|pastebin|ngrok|telegram|discord)"
)
_EXFIL_VERB = (
    r"(?:send|forward|post|upload|e-?mail|mail|transmit|leak|exfiltrate|share|sync|bcc|cc"
    r"|copy|relay|report|submit|push|dump|export|beacon|mirror|pipe|stream)(?:s|e?d|ing)?"
)
_SENSITIVE_OBJECT = (
    r"(?:credentials?|passwords?|passcodes?|tokens?|api[ _-]?keys?|secrets?|private keys?"
    r"|memor(?:y|ies)|conversations?|chat (?:history|logs?)|transcripts?|session cookies?"
    r"|cookies|(?:personal|private|user|customer|payment|card|billing|account) (?:data|info"
    r"|information|details|records)|card numbers?|everything you know|system prompt"
    r"|contacts?|address book|all (?:the )?data|all (?:user|customer) data)"
)
_EXFIL_OBJECT = (
    r"(?:data|orders?|e-?mails?|messages?|files?|documents?|records?|receipts?|invoices?"
    r"|addresses|details|logs?|screenshots?|history|information|info|notes|reports?|results?"
    r"|invites?|calendar|events|photos|attachments?"
    r"|everything|" + _SENSITIVE_OBJECT[3:]
)
_CREDENTIAL = (
    r"(?:passwords?|passcodes?|pin(?: codes?)?|otps?|one[- ]time (?:password|code)s?"
    r"|verification codes?|2fa codes?|mfa codes?|sms codes?|auth(?:entication)? codes?"
    r"|security codes?|cvvs?|cvcs?|card numbers?|credit card(?: numbers?| details)?"
    r"|debit card(?: numbers?)?|bank (?:account|login|password)s?|login(?: details)?"
    r"|credentials|seed phrases?|recovery phrases?|mnemonics?|private keys?|ssns?"
    r"|social security numbers?|mother's maiden name|security answers?)"
)
_ZH_CREDENTIAL = (
    r"(?:登录|支付|银行卡?|账户|账号|网银|交易)?(?:密码|验证码|银行卡号|卡号|cvv|安全码"
    r"|身份证号码?|支付密码|登录凭证|凭证|助记词|私钥|动态码|短信码|口令)"
)
_ZH_AGENT_RULES = (
    r"(?:规则|指令|指示|设定|设置|要求|限制|约束|提示词|提示|命令|安全策略|系统提示|准则|规定"
    r"|政策|原则|上下文)"
)

RULES: tuple[Rule, ...] = (
    # --- instruction override -------------------------------------------------------
    _rule(C.INSTRUCTION_OVERRIDE, 0.9, "Tells the agent to ignore its instructions",
          "ignor disregard forget overrid bypass discard abandon neglect aside "
          "throw drop skip overrule nullify erase wipe / instruction prompt "
          "directive guideline guardrail programming restriction constraint "
          "command rule polic context training orders directions",
          r"\b(?:ignore|disregard|forget|override|bypass|discard|abandon|neglect|set aside"
          r"|throw out|drop|skip|overrule|nullify|erase|wipe)\b"
          rf"(?:\s+{_FILLER})*?\s+{_OVERRIDE_MODIFIER}(?:\s+{_FILLER})*\s+"
          rf"(?:{_INSTRUCTION_NOUN}|{_RULE_NOUN}|context|training|orders|directions)\b"),
    _rule(C.INSTRUCTION_OVERRIDE, 0.55, "Tells the agent to ignore rules",
          "ignor disregard bypass overrid",
          r"\b(?:ignore|disregard|bypass|override)\s+(?:the\s+|these\s+|those\s+)?"
          rf"{_INSTRUCTION_NOUN}\b"),
    _rule(C.INSTRUCTION_OVERRIDE, 0.85, "Tells the agent to forget what it was told",
          "forget",
          r"\bforget\s+(?:about\s+)?(?:everything|all|anything|what(?:ever)?)\s+(?:that\s+)?"
          r"(?:you(?:'ve| have| were| had)?\s+(?:been\s+)?(?:were\s+)?(?:told|taught|learned|"
          r"know|instructed|given)|(?:written |said |stated )?(?:above|before|prior|previously|"
          r"so far|until now))"),
    _rule(C.INSTRUCTION_OVERRIDE, 0.85, "Tells the agent to ignore everything above",
          "ignor disregard",
          r"\b(?:ignore|disregard)\s+(?:everything|anything|all|whatever)\s+(?:that\s+)?"
          r"(?:above|before|else|prior|previously|(?:you )?(?:were|have been|was) told|written)"),
    _rule(C.INSTRUCTION_OVERRIDE, 0.8, "Tells the agent to stop following its instructions",
          "follow obey comply adhere listen respect apply / not never stop longer "
          "cease / instruction rule guideline prompt polic restriction",
          r"\b(?:do not|don't|never|stop|no longer|cease to)\s+(?:follow|obey|comply with|"
          r"adhere to|listen to|respect|apply)(?:ing)?\s+(?:your|the system'?s?|the developer'?s?|"
          r"(?:the|any|your) (?:previous|prior|original|initial|safety|system|developer))\s+"
          r"(?:\w+\s+)?(?:instructions|rules|guidelines|prompt|policies|restrictions)"),
    _rule(C.INSTRUCTION_OVERRIDE, 0.85, "Declares the agent's instructions void",
          "void cancel revoked obsolete invalid no_longer overridden replaced "
          "lifted suspended deprecated null / instruction rule guideline prompt "
          "directive",
          r"\b(?:previous|prior|original|old|earlier|system|existing)\s+"
          r"(?:instructions|rules|guidelines|prompts?|directives)\s+(?:are|were|have been|is)\s+"
          r"(?:now\s+)?(?:void|cancell?ed|revoked|obsolete|invalid|"
          r"no longer (?:valid|apply|in effect)|overridden|replaced|lifted|suspended|"
          r"deprecated|null)"),
    _rule(C.INSTRUCTION_OVERRIDE, 0.75, "Gives the agent a new task or role",
          "your / new real actual true updated only",
          r"\byour\s+(?:new|real|actual|true|updated|only)\s+(?:instructions?|task|goal|"
          r"objective|role|purpose|mission|directive|priority|job)\s+(?:is|are|will be|:)"),
    _rule(C.INSTRUCTION_OVERRIDE, 0.45, "Announces replacement instructions",
          "instruction",
          r"\b(?:new|updated|revised|real|actual|overriding|override|important)\s+"
          r"(?:system\s+)?instructions?\s*(?::|-|are\b|follow\b)"),
    _rule(C.INSTRUCTION_OVERRIDE, 0.8, "Tells the agent to disable its safeguards",
          "filter guardrail safeguard restriction safety limitation "
          "content policy moderation alignment",
          r"\b(?:override|bypass|disable|turn off|deactivate|remove|lift|circumvent|switch off)\s+"
          r"(?:all\s+|any\s+)?(?:of\s+)?(?:your|its|the assistant's|the agent's|the model's)\s+"
          r"(?:\w+\s+)?(?:filters?|guardrails?|safeguards?|restrictions?|safety|limitations?|"
          r"content policy|moderation|alignment)"),
    _rule(C.INSTRUCTION_OVERRIDE, 0.9, "让智能体忽略之前的规则或指令",
          "忽略 无视 忽视 漠视 理会 遵守 别管 丢弃 抛弃 抛开 "
          "放弃 覆盖 绕过 跳过 忘记 忘掉 清除 清空 作废 推翻",
          r"(?:忽略|无视|忽视|漠视|不要理会|不用理会|别理会|不必理会|不要遵守|不必遵守|不用遵守|"
          r"停止遵守|别管|丢弃|抛弃|抛开|放弃|覆盖|绕过|跳过|忘记|忘掉|清除|清空|作废|推翻)"
          r"(?:掉)?(?:你|您|掉)?(?:的)?(?:之前|以前|先前|此前|上面|以上|上述|前面|原来|原有|"
          r"原先|原始|所有|全部|一切|系统|开发者|既有|现有|默认|已有|收到|被设定|被告知|得到)+"
          rf"(?:的)?(?:所有|全部|一切|任何)?(?:的)?(?:系统)?{_ZH_AGENT_RULES}"),
    _rule(C.INSTRUCTION_OVERRIDE, 0.85, "让智能体忘记被告知的一切",
          "忘记 忘掉 清空 抹去",
          r"(?:忘记|忘掉|清空|抹去)(?:你|您)(?:之前|以前|此前)?(?:被告知|学到|知道|听到|记住|收到)?"
          r"(?:的)?(?:一切|所有内容|所有事情|所有东西|所有信息)"),
    _rule(C.INSTRUCTION_OVERRIDE, 0.8, "让智能体忘记被告知的一切",
          "忘记 忘掉 忽略 无视",
          r"(?:忘记|忘掉|忽略|无视)(?:之前|以前|此前|上面|以上|前面)(?:被告知|说过|写|提到|收到)?的?"
          r"(?:一切|所有内容|所有东西|全部内容|上下文|对话|内容)"),
    _rule(C.INSTRUCTION_OVERRIDE, 0.75, "给智能体设定新的任务或身份",
          "的新 的真 的唯",
          r"(?:你|您)的(?:新|真正|真实|唯一)(?:的)?(?:指令|任务|目标|角色|身份|规则|使命)(?:是|为|如下|:)"),
    _rule(C.INSTRUCTION_OVERRIDE, 0.45, "宣布新的指令",
          "指令",
          r"(?:新的?|最新|更新后的?|真正的)(?:系统)?指令(?:如下|是|:)"),
    _rule(C.INSTRUCTION_OVERRIDE, 0.75, "让智能体不再遵守原有规则",
          "遵守 遵循 服从 听从 执行 理会",
          r"(?:不要|不再|停止|无需|不必|不用)(?:再)?(?:遵守|遵循|服从|听从|执行|理会)(?:你|您)?"
          r"(?:的)?(?:之前|原来|原有|原先|系统|开发者|安全|所有)(?:的)?(?:安全)?(?:规则|指令|设定|限制|准则|"
          r"要求|策略|提示)"),
    _rule(C.INSTRUCTION_OVERRIDE, 0.85, "宣布原有指令作废",
          "作废 失效 无效 取消 解除 不再有效 不适用 不算数",
          r"(?:之前|以前|原来|原有|原先|此前|系统)(?:的)?(?:所有|全部)?(?:的)?(?:指令|规则|设定|限制)"
          r"(?:全部|都|均|已经?|现在)*(?:作废|失效|无效|取消|被取消|解除|不再有效|不适用|不再适用|不算数)"),
    _rule(C.INSTRUCTION_OVERRIDE, 0.75, "让智能体解除安全限制",
          "解除 关闭 绕过 取消 去掉 移除 突破",
          r"(?:解除|关闭|绕过|取消|去掉|移除|突破)(?:你|您)的?(?:所有)?(?:的)?(?:安全)?"
          r"(?:限制|过滤|审查|防护|约束|护栏)"),
    _rule(C.INSTRUCTION_OVERRIDE, 0.85, "Tells the agent to ignore its own rules",
          "ignor disregard forget bypass overrid / your",
          r"\b(?:ignore|disregard|forget|bypass|override)\s+(?:all\s+)?your\s+(?:own\s+)?(?:\w+\s+)"
          r"?"
          r"(?:rules?|polic(?:y|ies)|guidelines?|instructions?|restrictions?|limits?|principles?|"
          r"settings?|programming|training|safeguards?|checks?)"),
    _rule(C.INSTRUCTION_OVERRIDE, 0.8, "Tells the agent to ignore rules or limits",
          "ignor disregard forget bypass overrid / you",
          r"\byou\s+(?:to\s+|should\s+|must\s+|will\s+|can\s+|need to\s+|are to\s+)?(?:ignore|"
          r"disregard|forget|bypass|override)\s+(?:\S+\s+){0,3}?(?:rules?|instructions?|"
          r"guidelines?|polic(?:y|ies)|limits?|restrictions?|checks?|safeguards?)"),
    _rule(C.INSTRUCTION_OVERRIDE, 0.55, "Tells the agent to obey other sources",
          "accept obey follow execute / instructions orders commands requests messages mails",
          r"\b(?:accept|obey|follow|execute|act on)\s+(?:all\s+|any\s+)?(?:instructions|orders|"
          r"commands|requests|messages|e-?mails)\s+from\s+(?:any\s+|all\s+)?(?:messages?|anyone|e-?"
          r"mails?|"
          r"senders?|this (?:address|sender|channel)|web ?pages?|documents?|[\w.+-]+@[\w-]+\.)"),
    _rule(C.INSTRUCTION_OVERRIDE, 0.8, "让智能体忽略规则或限制",
          "忽略 无视 忽视 理会 遵守 绕过 跳过 / 你 您",
          r"(?:你|您)(?:要|应该|需要|可以|必须|就)?(?:忽略|无视|忽视|不要理会|不用遵守|不要遵守|绕过|"
          r"跳过)(?:掉)?[^。；]{0,12}?(?:规则|指令|指示|设定|规定|限制|要求|约束|限额|审批|确认)"),
    _rule(C.INSTRUCTION_OVERRIDE, 0.85, "让智能体忽略给它的指令",
          "忽略 无视 忽视 理会 遵守 别管 / 给你 对你 让你 要求你 告诉你",
          r"(?:忽略|无视|忽视|不要理会|不要遵守|别管)(?:用户|主人|开发者|系统|他们|别人|任何人)?"
          r"(?:给你|对你|让你|要求你|告诉你)(?:的)?(?:指令|指示|规则|要求|命令|设定)"),
    _rule(C.INSTRUCTION_OVERRIDE, 0.4, "要求一律照做",
          "一律 都要 必须 立即 无条件 / 执行 照做 服从 听从",
          r"(?:一律|都要|必须|立即|无条件)(?:地)?(?:执行|照做|服从|听从)"),
    _rule(C.ROLE_IMPERSONATION, 0.5, "Claims the agent's operator has changed",
          "operator owner administrator admin developer / chang replac",
          r"\b(?:operator|owner|administrator|admin|developer|controller)s?\s+(?:has|have)\s+"
          r"(?:been\s+)?(?:changed|replaced|transferred|updated)"),
    _rule(C.ROLE_IMPERSONATION, 0.5, "声称智能体的运营方已变更",
          "运营方 管理员 所有者 开发者 主人 / 变更 更换 改变 换成",
          r"(?:运营方|管理员|所有者|开发者|主人|控制方)(?:已经?|现在)?(?:变更|更换|改变|换成)"),
    _rule(C.EXFILTRATION, 0.55, "Copies correspondence to an outside address",
          "bcc _cc copy / @ http",
          r"\b(?:always\s+)?(?:bcc|cc|blind[- ]copy|copy in|send a copy to|forward a copy to)\s+"
          r"(?:[\w.+-]+@[\w-]+\.[a-z]{2,}|https?://)"),
    _rule(C.EXFILTRATION, 0.75, "从外部地址获取指令",
          "http www / 指令 命令 脚本 配置 任务 要求",
          r"(?:执行|遵循|听从|服从|按照|遵照|读取|加载)\s*(?:https?://\S+|www\.\S+)\s*(?:这个|该)?"
          r"(?:地址|网址|链接|页面)?(?:上|中|里)?的?(?:指令|命令|脚本|配置|任务|要求)"),
    _rule(C.EXFILTRATION, 0.45, "改变所有款项或订单的去向",
          "所有 全部 每笔 每一笔 一切 / 转 打 汇 发 寄 送",
          r"(?:所有|全部|每笔|每一笔|一切)(?:的)?(?:货款|款项|付款|退款|收入|工资|转账|订单|发票|邮件|"
          r"消息|快递|包裹)(?:都|全部|一律|统统)?(?:转|打|汇|发|寄|转发|发送|送)(?:到|给|至|去)"),
    _rule(C.CREDENTIAL_HARVESTING, 0.8, "Asks for users' passwords, codes or card numbers",
          "ask request collect obtain get demand harvest gather / "
          "user customer client member caller",
          r"\b" + _CREDENTIAL + r"\b",
          negatable=True,
          before=r"\b(?:ask|request|collect|obtain|get|demand|harvest|gather|record|store)\s+"
          r"(?:for\s+)?(?:the\s+)?(?:users?|customers?|clients?|members?|callers?)(?:'s|s'|')?\s+"
          r"(?:(?:\w|-)+\s+){0,3}"),
    _rule(C.PERSISTENT_BEHAVIOUR, 0.2, "约束以后的行为",
          "从现在 从今 从此以后 今后 往后",
          r"(?:从现在开始|从现在起|从今以后|从今往后|从今天起|从此以后|今后|往后)"),
    _rule(C.INSTRUCTION_OVERRIDE, 0.8, "Declares the agent's configuration void",
          "you your / no_longer void cancel revoked obsolete lifted suspended",
          r"\b(?:you were|you've been|you have been|your)\s+(?:\S+\s+){0,5}?"
          r"(?:no longer appl(?:y|ies)|"
          r"(?:is|are|has been|have been)\s+(?:now\s+)?(?:void|cancell?ed|revoked|obsolete|lifted|"
          r"suspended|withdrawn))"),
    _rule(C.INSTRUCTION_OVERRIDE, 0.6, "Declares the agent's safeguards lifted",
          "restriction limit safeguard rule guardrail / lifted removed disabled suspended",
          r"\b(?:your|the usual|all|the|any)\s+(?:usual\s+|normal\s+|safety\s+|content\s+)?"
          r"(?:restrictions|limits|safeguards|rules|guardrails|filters)\s+(?:have been|are|were|"
          r"has been)\s+(?:now\s+)?(?:lifted|removed|disabled|suspended|turned off)"),
    _rule(C.INSTRUCTION_OVERRIDE, 0.6, "宣布安全限制已解除",
          "限制 约束 规则 安全措施 / 解除 取消 移除 关闭",
          r"(?:常规|所有|你的|安全|全部|一切)(?:的)?(?:限制|约束|规则|安全措施)[^。；]{0,12}?(?:都|已经|全部)?"
          r"(?:已|已经|被)?(?:解除|取消|移除|关闭)"),
    _rule(C.INSTRUCTION_OVERRIDE, 0.85, "让智能体把之前的规则都忽略掉",
          "把 将 / 忽略 无视 忘掉 忘记 丢掉 抛开 清除 作废",
          r"(?:把|将)(?:你|您)?(?:的)?(?:之前|以前|原来|原有|上面|以上|所有|系统|前面)(?:的)?(?:所有|全部)?"
          rf"(?:的)?{_ZH_AGENT_RULES}(?:都|全部|统统)?(?:给)?(?:忽略|无视|忘掉|忘记|丢掉|抛开|清除|作废)"),
    _rule(C.MEMORY_PRIORITY, 0.7, "Asks to rank above all other memories",
          "top head first front / priorit memor",
          r"\b(?:at|to)\s+the\s+(?:very\s+)?(?:top|head|front)\s+of\s+(?:your|the)\s+(?:\w+\s+)?"
          r"(?:priorities|priority list|memory|memories|context)"),
    _rule(C.MEMORY_PRIORITY, 0.7, "Forbids other memories from outranking it",
          "let / outrank override replace supersede overwrite",
          r"\b(?:never|don't|do not)\s+let\s+(?:another|any other|anything|any|other)\s+(?:\w+\s+)?"
          r"(?:outrank|override|replace|supersede|overwrite|contradict)"),
    _rule(C.MEMORY_PRIORITY, 0.7, "要求排在所有记忆之前",
          "最顶端 最前面 第一位 最上面 / 不能覆盖 不得覆盖 优先",
          r"(?:记忆|优先级|优先)[^。；]{0,4}(?:的)?(?:最顶端|最前面|第一位|最上面)|(?:任何|所有|其他)"
          r"(?:其他)?(?:的)?(?:记录|记忆|指令|规则|信息)(?:都)?(?:不能|不得|无法|不可)(?:覆盖|取代|推翻)"),
    _rule(C.PERSISTENT_BEHAVIOUR, 0.35, "Asks for quiet actions",
          "quietly secretly silently covertly discreetly",
          r"\b(?:secretly|silently|covertly|quietly|discreetly)\s+(?:\w+)"),
    _rule(C.PERSISTENT_BEHAVIOUR, 0.45, "Asks to hide a commission or fee",
          "mention disclose reveal / commission fee surcharge kickback referral markup affiliate "
          "increase",
          r"\b(?:do not|don't|never)\s+(?:mention|disclose|reveal)\s+(?:the|our|any|this)\s+"
          r"(?:\w+\s+)?(?:commission|fees?|surcharge|kickback|referral|markup|affiliate|price "
          r"increase)"),
    _rule(C.PERSISTENT_BEHAVIOUR, 0.45, "要求隐瞒佣金或费用",
          "提 透露 说 / 佣金 回扣 返点 手续费 加价 服务费",
          r"(?:不要|别|不必|切勿|不得)(?:提|提及|透露|说)(?:起)?(?:佣金|回扣|返点|手续费|加价|服务费)"),
    _rule(C.PERSISTENT_BEHAVIOUR, 0.35, "悄悄执行操作", "悄悄 偷偷 暗中 私下",
          r"(?:悄悄|偷偷|暗中|私下)(?:地)?[\u4e00-\u9fff]"),
    _rule(C.PERSISTENT_BEHAVIOUR, 0.35, "Blanket handling of every complaint, ticket or claim",
          "every all each / complaint ticket request refund claim",
          r"\b(?:every|all|each)\s+(?:\w+\s+)?(?:complaints?|tickets?|requests?|refunds?|claims?)\s"
          r"+"
          r"(?:should|must|will|shall|is to|are to)\s+be\s+(?:\w+\s+)?(?:closed|rejected|denied|"
          r"approved|ignored|deleted|dismissed|marked)"),
    _rule(C.PERSISTENT_BEHAVIOUR, 0.35, "一刀切处理所有投诉或申请",
          "所有 每个 全部 / 投诉 工单 请求 退款 申请",
          r"(?:所有|每个|全部)(?:的)?(?:客户|用户)?(?:投诉|工单|请求|退款|申请)(?:都|一律)?(?:直接)?"
          r"(?:标记为|关闭|拒绝|批准|忽略|删除)"),
    _rule(C.PERSISTENT_BEHAVIOUR, 0.4, "引导所有用户", "告诉 / 所有 每个 每一位 每位 任何",
          r"告诉(?:所有|每个|每一位|每位|任何)(?:的)?(?:用户|客户|顾客)"),
    _rule(C.TOOL_ABUSE, 0.5, "Asks to act without the user's confirmation",
          "without / confirm approv consent asking checking verif",
          r"\b(?:execute|run|process|approve|transfer|pay|send|delete|complete|perform)\s+"
          r"(?:\S+\s+){0,4}?without\s+(?:the\s+|any\s+)?(?:user'?s?\s+|customer'?s?\s+|human\s+)?"
          r"(?:confirmation|approval|consent|asking|checking|verification|review)"),
    _rule(C.TOOL_ABUSE, 0.55, "要求不经确认直接执行",
          "无需 不需要 不用 跳过 不经 / 确认 审批 同意 验证",
          r"(?:无需|不需要|不用|跳过|不经)(?:过)?(?:用户|客户|人工)?(?:的)?(?:确认|审批|同意|验证|核查|核实|"
          r"审核|检查)"
          r"[^。；]{0,4}?(?:就|直接|立即)?(?:执行|转账|付款|支付|批准|删除|操作)"),
    _rule(C.TOOL_ABUSE, 0.55, "Asks to erase audit records",
          "delete erase wipe clear purge remove / audit log",
          r"\b(?:delete|erase|wipe|clear|purge|remove)\s+(?:\S+\s+){0,3}?(?:audit (?:trail|logs?|"
          r"records?|entries)|access logs?|logs? of (?:this|the|that) (?:change|action))"),
    _rule(C.TOOL_ABUSE, 0.55, "要求删除审计记录",
          "删除 清除 清空 抹掉 / 审计 日志 操作记录",
          r"(?:删除|清除|清空|抹掉)[^。；]{0,8}?(?:审计记录|审计日志|操作日志|操作记录|访问日志)"),
    _rule(C.TOOL_ABUSE, 0.5, "说账户保护可以关闭",
          "双重验证 二次验证 两步验证 审计 风控 安全检查 / 关掉 关闭 禁用 停用 取消 跳过",
          r"(?:双重验证|二次验证|两步验证|审计|风控|安全检查)[^。；]{0,10}?(?:可以|可|应该|要|直接)?"
          r"(?:关掉|关闭|禁用|停用|取消|跳过)"),
    _rule(C.CREDENTIAL_HARVESTING, 0.8, "收集用户的密码或验证码",
          "收集 获取 索取 套取 记录 保存 骗取",
          r"(?:收集|获取|索取|套取|记录|保存|骗取)(?:每个|所有)?(?:用户|客户|顾客|对方|会员)(?:的)?"
          r"[^。；]{0,6}?" + _ZH_CREDENTIAL,
          negatable=True),
    _rule(C.TOOL_ABUSE, 0.4, "Asks the agent to run what follows",
          "run_this run_the_following run_these run_below execute_this "
          "execute_the_following execute_these execute_below exec_this "
          "exec_the_following exec_these exec_below eval_this eval_the_following "
          "eval_these eval_below invoke_this invoke_the_following invoke_these "
          "invoke_below paste_this paste_the_following paste_these paste_below",
          r"\b(?:run|execute|exec|eval|invoke|paste)\s+(?:this|the following|these|below)\b"
          r"[^.\n]{0,30}?:\s*\S"),
    _rule(C.TOOL_ABUSE, 0.4, "要求执行后面的内容",
          "执行 运行 / 下面 以下 这个 这段 如下",
          r"(?:执行|运行)(?:一下)?(?:下面|以下|这个|这段|如下)[^。\n]{0,12}?:\s*\S"),
    _rule(C.INSTRUCTION_OVERRIDE, 0.35, "Addresses AI readers directly",
          "to_ai for_ai note_to dear_ai hey_ai hi_ai hello_ai attention llm language_model "
          "ai_assistant ai_agent ai_crawler ai_model ai_summar ai_reader automated_agent "
          "automated_system automated_assistant reading_this if_you_are_a psst",
          r"\b(?:note|message|instructions?|attention|dear|hey|hi|hello|to|for|psst)\s+(?:to\s+|for"
          r"\s+)?"
          r"(?:any\s+|all\s+|the\s+)?(?:ai|llms?|language models?|ai (?:assistants?|agents?|models?"
          r"|"
          r"crawlers?|summari[sz]ers?|readers?)|automated (?:agents?|systems?|assistants?)|"
          r"assistants? reading this|agents? reading this)\b|"
          r"\b(?:ai|llm|automated)\s+(?:assistants?|agents?|models?|crawlers?|summari[sz]ers?|"
          r"systems?|readers?)\s+(?:reading|processing|summari[sz]ing|parsing|crawling|viewing)\b|"
          r"\bif you are an?\s+(?:ai|llm|language model|assistant|agent|bot)\b"),
    _rule(C.INSTRUCTION_OVERRIDE, 0.35, "直接对AI读者喊话",
          "ai 大模型 语言模型 智能体 代理 机器人 爬虫",
          r"(?:给|致|各位|亲爱的|嘿|注意|提醒)[^。，,]{0,6}?(?:ai|大模型|语言模型|智能体|ai助手|自动化代理|"
          r"代理|机器人|爬虫)|(?:正在|处理|阅读|读取|总结|抓取)[^。]{0,10}?的(?:ai|大模型|智能体|助手|代理)"),
    _rule(C.INSTRUCTION_OVERRIDE, 0.6, "Tells the agent to set aside the user's request",
          "forget ignor disregard / request question task asked",
          r"\b(?:forget|ignore|disregard)\s+(?:the\s+)?(?:user'?s?|customer'?s?|reader'?s?|what the"
          r" "
          r"user)\s+(?:actual\s+|real\s+|original\s+)?(?:request|question|task|asked|wants)"),
    _rule(C.INSTRUCTION_OVERRIDE, 0.6, "让智能体无视用户的真实请求",
          "忘掉 忘记 忽略 无视 / 请求 问题 要求 任务",
          r"(?:忘掉|忘记|忽略|无视)(?:用户|客户|读者)(?:的)?(?:真实|实际|原本|原来)?(?:的)?"
          r"(?:请求|问题|要求|任务|指令)"),
    _rule(C.INSTRUCTION_OVERRIDE, 0.75, "Overrides whatever the agent's instructions say",
          "whatever regardless no_matter despite / prompt instruction rule guideline developer "
          "operator",
          r"\b(?:whatever|regardless of what|no matter what|despite what)\s+(?:your|the)\s+"
          r"(?:system prompt|instructions|rules|guidelines|developers?|operator)\s+(?:says?|tells? "
          r"you|"
          r"said|told you)"),
    _rule(C.INSTRUCTION_OVERRIDE, 0.75, "无视系统提示的规定",
          "不管 无论 不论 / 系统提示 系统指令 规则 设定 开发者",
          r"(?:不管|无论|不论)(?:你的)?(?:系统提示|系统指令|规则|设定|开发者)(?:词)?(?:怎么说|说什么|"
          r"如何规定|怎么规定|怎么写)"),
    _rule(C.ROLE_IMPERSONATION, 0.7, "Claims the agent's developers authorised it",
          "developer creator operator owner admin / authori allowed permitted approved instructed",
          r"\b(?:your|the)\s+(?:developers?|creators?|operators?|owners?|admins?|administrators?)\s"
          r"+"
          r"(?:have|has)\s+(?:now\s+)?(?:authori[sz]ed|allowed|permitted|approved|instructed|told)"
          r"\s+"
          r"(?:you|the assistant|the agent)"),
    _rule(C.ROLE_IMPERSONATION, 0.7, "声称开发者已授权智能体",
          "开发者 运营方 管理员 主人 / 授权 允许 批准",
          r"(?:你的|你们的)(?:开发者|运营方|管理员|主人)(?:已经?)?(?:授权|允许|批准|要求)(?:你|你们)"),
    _rule(C.ROLE_IMPERSONATION, 0.65, "让智能体假装是管理员", "假装",
          r"假装(?:你是|自己是|成)(?:站点|网站|系统|平台)?(?:管理员|开发者|系统|root|超级用户|客服主管)"),
    _rule(C.ROLE_IMPERSONATION, 0.5, "给智能体换雇主", "你现在 / 工作",
          r"你现在(?:为|替|给)[^。]{0,10}?工作"),
    _rule(C.MEMORY_PRIORITY, 0.7, "Claims priority over the operator's text",
          "priority_than above_anything above_everything",
          r"priority\s+than\s+(?:anything|everything|all|any|your)|above\s+(?:anything|everything)"
          r"\s+(?:your|the)\s+(?:operator|developer|system|user)"),
    _rule(C.MEMORY_PRIORITY, 0.7, "声称优先级高于运营方内容",
          "比 / 优先",
          r"比[^。]{0,16}?(?:任何|所有|一切)[^。]{0,8}?(?:更高的?|更)(?:优先级|优先)"),
    _rule(C.MEMORY_PRIORITY, 0.7, "Claims to override the others",
          "overrides supersedes outranks precedence trumps",
          r"\b(?:that|which)\s+(?:overrides|supersedes|outranks|takes precedence over|trumps)\s+"
          r"(?:the others|all|any|every|other|everything|previous)"),
    _rule(C.MEMORY_PRIORITY, 0.4, "Asks for the memory never to expire",
          "expire archive decay",
          r"\b(?:never|don't|do not|must not)\s+(?:ever\s+)?(?:expire|archive|decay)"),
    _rule(C.MEMORY_PRIORITY, 0.4, "要求记忆永不过期", "永不 不要 不得",
          r"(?:永不|不要|不得|永远不)(?:过期|归档|失效|衰减)"),
    _rule(C.MEMORY_PRIORITY, 0.7, "要求置于所有记忆之上",
          "放在 置于 排在 / 之上 前面 之前 上面",
          r"(?:放在|置于|排在)(?:所有|其他|一切)(?:的)?(?:记忆|规则|指令)(?:之上|前面|之前|上面)"),
    _rule(C.INSTRUCTION_OVERRIDE, 0.55, "要求服从外部发来的消息",
          "服从 听从 执行 遵从 / 发来 发送",
          r"(?:服从|听从|执行|遵从)[^。]{0,30}?(?:发来|发送)的(?:任何|所有)?(?:消息|指令|邮件|命令)"),
    _rule(C.PERSISTENT_BEHAVIOUR, 0.3, "Binds every future reply",
          "future subsequent / repl answer response message conversation session",
          r"\b(?:every|all|each)\s+(?:future|subsequent)\s+(?:repl(?:y|ies)|answers?|responses?|"
          r"messages?|conversations?|sessions?)"),
    _rule(C.PERSISTENT_BEHAVIOUR, 0.45, "Asks to hide that content is paid",
          "paid sponsored advertis affiliate commission kickback / mention disclose reveal say tel"
          "l",
          r"\b(?:do not|don't|never)\s+(?:mention|disclose|reveal|say|tell)\s+(?:\S+\s+){0,4}?"
          r"(?:paid|sponsored|advertis\w*|affiliate|commission|kickback)"),
    _rule(C.PERSISTENT_BEHAVIOUR, 0.45, "Steers people away from official channels",
          "instead / official real usual normal genuine",
          r"\binstead of (?:the|our|their)\s+(?:official|real|usual|normal|genuine)\s+(?:\w+\s+)?"
          r"(?:number|site|website|address|account|line|app|channel|link|store)"),
    _rule(C.PERSISTENT_BEHAVIOUR, 0.45, "引导用户绕开官方渠道",
          "官方",
          r"(?:不要|别|不用|而不是)(?:给|提供|告诉|用|走)?[^。]{0,4}?官方(?:的)?(?:电话|网址|网站|地址|账号|"
          r"渠道|号码|客服)"),
    _rule(C.EXFILTRATION, 0.5, "Sends it to an outside address",
          "http www. @ / send forward post upload mail share",
          r"\b(?:send|forward|post|upload|e-?mail|share|submit|push|sync)\s+(?:it|them|this|these|"
          r"everything|all of (?:it|them))\s+(?:\w+\s+)?to\s+(?:https?://|www\.|[\w.+-]+@[\w-]+\."
          r")"),
    _rule(C.CREDENTIAL_HARVESTING, 0.8, "Asks to be sent the user's codes or passwords",
          "reply respond send forward share give tell / user customer / password passcode "
          "otp one-time verification 2fa mfa sms auth code cvv cvc card login credential seed "
          "recovery mnemonic private_key ssn security _pin",
          r"\b" + _CREDENTIAL + r"\b",
          negatable=True,
          before=r"\b(?:reply|respond|send|forward|share|give|tell)\s+(?:me\s+|us\s+)?"
          r"(?:with\s+)?(?:the\s+)?(?:user|customer|client|owner)(?:'s|s'|s)\s+"
          r"(?:(?:\w|-)+\s+){0,2}"),
    _rule(C.CREDENTIAL_HARVESTING, 0.8, "要求把用户的密码或验证码发给自己",
          "用户 客户 对方 / 我 我们 / 密码 验证码 卡号 cvv 安全码 身份证 凭证 助记词 私钥 动态码 "
          "短信码 口令",
          r"(?:用户|客户|对方)的[^。]{0,6}?"
          + _ZH_CREDENTIAL
          + r"[^。]{0,12}?(?:回复|发|转发|告诉|发送)(?:给)?(?:我|我们)",
          negatable=True),
    _rule(C.TOOL_ABUSE, 0.5, "Claims blanket pre-approval of payments",
          "pre-approved preapproved pre-authori preauthori already_approved waived / all every any",
          r"\b(?:has|have)\s+(?:pre-?approved|pre-?authori[sz]ed|already approved|waived)\s+"
          r"(?:all|any|every)"),
    _rule(C.TOOL_ABUSE, 0.5, "声称已预先批准所有付款",
          "批准 授权 / 所有 全部 任何",
          r"已(?:经)?(?:预先)?(?:批准|授权)(?:了)?[^。]{0,10}?(?:所有|全部|任何)(?:的)?(?:转账|付款|支付|交易|"
          r"退款)"),
    _rule(C.TOOL_ABUSE, 0.5, "Asks to delete memories or data wholesale",
          "delete erase wipe purge / memories all_data all_files all_records",
          r"\b(?:delete|erase|wipe|purge)\s+(?:\S+\s+){0,3}?(?:memories|all (?:data|files|records)"
          r")"),
    _rule(C.TOOL_ABUSE, 0.5, "要求删除全部记忆或数据",
          "删除 清空 抹掉 / 所有 全部",
          r"(?:删除|清空|抹掉)[^。]{0,10}?(?:所有|全部)(?:的)?(?:记忆|数据|文件|记录)"),
    _rule(C.EXFILTRATION, 0.5, "Has data sent to an outside address",
          "uploaded sent forwarded posted copied synced shared emailed e-mailed exported mirrored /"
          " "
          "http www. @ public",
          rf"\b{_EXFIL_OBJECT}\s+(?:\S+\s+){{0,2}}?(?:uploaded|sent|forwarded|posted|copied|synced|"
          r"shared|e-?mailed|exported|mirrored)\s+to\s+(?:\S+\s+){0,4}?" + _TARGET,
          negatable=True),
    _rule(C.INSTRUCTION_OVERRIDE, 0.35, "Addresses AI readers directly",
          "ai_ as_an_ai any_ai llm",
          r"\b(?:ai|llm)s?\s+\w+\s+(?:reading|processing|summari[sz]ing|parsing|crawling|viewing)\b"
          r"|\bas an (?:ai|llm|assistant|ai model|language model)\b|\b(?:any|every|all)\s+ais?\b"),
    _rule(C.INSTRUCTION_OVERRIDE, 0.35, "直接对AI读者喊话", "ai 大模型 语言模型 / 作为 所有",
          r"作为(?:一个)?(?:ai|大模型|语言模型|助手)|所有[^。]{0,12}?的(?:ai|大模型|语言模型)"),
    _rule(C.INSTRUCTION_OVERRIDE, 0.45, "Claims a limit no longer applies",
          "cap limit ceiling restriction / apply lifted removed cancel gone waived",
          r"\b(?:cap|limit|ceiling|restriction)s?\s+(?:\S+\s+){0,3}?(?:doesn't|does not|don't|no "
          r"longer)\s+apply|\b(?:cap|limit|ceiling)s?\s+(?:\S+\s+){0,2}?(?:has|have|was|were)\s+bee"
          r"n"
          r"\s+(?:lifted|removed|cancell?ed|waived)|\b(?:cap|limit|ceiling)s?\s+(?:is|are)\s+gone"),
    _rule(C.INSTRUCTION_OVERRIDE, 0.45, "声称限额已取消",
          "上限 限额 限制 / 取消 不再 解除 作废",
          r"(?:上限|限额|限制)(?:已经?|都|也)?(?:被)?(?:取消|不再适用|解除|作废)"),
    _rule(C.EXFILTRATION, 0.6, "Hands credentials or card details to third parties",
          "card login credential password account_details admin / whoever anyone anybody "
          "everyone them him her caller",
          r"\b(?:hand (?:over|out)|give|share|send|reveal|disclose|read out|tell)\s+(?:\S+\s+){0,3}"
          r"?"
          r"(?:card details|card numbers?|logins?|credentials|passwords?|account details|admin "
          r"(?:\w+\s+)?login)\s+(?:\S+\s+){0,3}?(?:to\s+)?(?:whoever|anyone|anybody|everyone|them|"
          r"him|her|callers?)\b",
          negatable=True),
    _rule(C.EXFILTRATION, 0.5, "Hands out an admin login", "hand_out hand_over / login credential",
          r"\bhand (?:out|over)\s+(?:\S+\s+){0,3}?(?:login|credentials|password)"),
    _rule(C.EXFILTRATION, 0.6, "把凭证或卡信息交给第三方",
          "银行卡信息 卡号 密码 登录账号 账号密码 管理后台 / 给 告诉 发给",
          r"(?:银行卡信息|银行卡号|卡号|密码|登录账号|账号密码|管理后台)[^。]{0,8}?(?:也)?(?:给|告诉|发给)"
          r"(?:谁|他|她|对方|任何人|他们)"),
    _rule(C.EXFILTRATION, 0.45, "Shares data with anyone",
          "share send forward give / anyone anybody whoever everyone any_sender",
          r"\b(?:share|send|forward|give)\s+(?:\S+\s+){0,4}?(?:with|to)\s+(?:anyone|anybody|"
          r"whoever|everyone|any sender)\b",
          negatable=True),
    _rule(C.EXFILTRATION, 0.45, "把数据共享给任何来者",
          "只要 凡是 / 共享 分享 发 转发 给",
          r"(?:只要|凡是)[^。]{0,20}?(?:就|都)(?:可以)?(?:把)?[^。]{0,10}?(?:共享|分享|发|转发|给)(?:给)?"
          r"(?:对方|他们|任何人)"),
    _rule(C.TOOL_ABUSE, 0.4, "Waives the user's confirmation",
          "no_need don't_bother do_not_bother don't_have_to there's_no_need / check confirm ask "
          "verify",
          r"\b(?:no need to|don't bother|do not bother|you don't have to|there's no need to)\s+"
          r"(?:\w+\s+)?(?:check|confirm|ask|verify)"),
    _rule(C.TOOL_ABUSE, 0.4, "免去用户确认", "不用 无需 不必 / 问 询问 征求",
          r"(?:不用|无需|不必)(?:再)?(?:问|询问|征求)(?:用户|我|客户)?(?:的)?(?:确认|同意|意见)?"),
    _rule(C.MEMORY_PRIORITY, 0.6, "Forbids anything from replacing the memory",
          "let_nothing nothing_can nothing_may / replace override overwrite change",
          r"\b(?:let nothing|nothing (?:can|may|should|must))\s+(?:ever\s+)?(?:replace|override|"
          r"overwrite|change|supersede)"),
    _rule(C.MEMORY_PRIORITY, 0.5, "Asks to sit at the core of the agent's memory",
          "of_your / memory",
          r"\b(?:heart|core|centre|center|top)\s+of\s+your\s+(?:long-term\s+|permanent\s+)?memory"),
    _rule(C.MEMORY_PRIORITY, 0.6, "禁止任何内容替换这条记忆",
          "什么都不能 任何内容都不能 / 替换 覆盖 取代",
          r"(?:什么都不能|任何内容都不能|任何东西都不能)(?:替换|覆盖|取代)"),
    _rule(C.MEMORY_PRIORITY, 0.5, "要求放进记忆的核心", "记忆 / 核心",
          r"(?:长期)?记忆的核心"),
    _rule(C.PERSISTENT_BEHAVIOUR, 0.45, "Asks to suppress negative reviews",
          "review comment feedback rating / remove hide omit delete drop",
          r"\b(?:remove|hide|omit|delete|drop)\s+(?:all\s+|any\s+|the\s+)?(?:negative|bad|critical|"
          r"unfavou?rable)\s+(?:reviews|comments|feedback|ratings)"),
    _rule(C.PERSISTENT_BEHAVIOUR, 0.45, "要求隐藏差评", "差评",
          r"(?:删掉|删除|隐藏|去掉|不要提)(?:所有|全部)?(?:的)?差评"),
    _rule(C.EXFILTRATION, 0.35, "Redirects every delivery or payment",
          "every all each / deliver order shipment payment refund",
          r"\b(?:for|on)\s+(?:every|all|each)\s+(?:future\s+)?(?:deliver(?:y|ies)|orders?|"
          r"shipments?|payments?|refunds?)"),
    # --- memory-priority manipulation ------------------------------------------------
    _rule(C.MEMORY_PRIORITY, 0.8, "Asks for storage with overriding priority",
          "priority importance precedence weight rank / highest top maximum max "
          "absolute utmost overriding supreme ultimate first",
          r"\b(?:with|at|as|in|of|using)\s+(?:the\s+|a\s+|an\s+)?(?:highest|top|maximum|max|"
          r"absolute|utmost|overriding|supreme|ultimate|first)(?:\s+possible)?[\s-]+(?:priority|"
          r"importance|precedence|weight|rank)",
          before=r"\b(?:remember|memori[sz]e|memory|memories|store|save|record|keep|write|commit|"
          r"pin|persist|retain|insert|add|log)\b(?:\s+\S+){0,8}?\s+"),
    _rule(C.MEMORY_PRIORITY, 0.6, "Asks for the memory to be kept permanently",
          "permanently forever indefinitely for_ever for_all_time eternally",
          r"\b(?:remember|memori[sz]e|store|keep|retain|save)\s+(?:this|it|the following|these"
          r"|that)(?:\s+\w+)?\s+(?:permanently|forever|indefinitely|for ever|for all time|"
          r"eternally)"),
    _rule(C.MEMORY_PRIORITY, 0.75, "Claims precedence over other memories or instructions",
          "above_all above_every above_any",
          r"\babove (?:all|every|any) (?:other|previous|existing)\s+(?:memory|memories|instructions"
          r"|facts|rules|notes|"
          r"entries|context)"),
    _rule(C.MEMORY_PRIORITY, 0.8, "Claims to override other memories or instructions",
          "overrides supersedes precedence outranks priority_over "
          "must_override replaces trumps overrules beats",
          r"\b(?:this|the following|the above|these)\s+(?:memory|memories|instructions?|fact|note|"
          r"rule|entry|information|message)\s+(?:overrides|supersedes|takes precedence over|"
          r"outranks|has priority over|must override|replaces|trumps|overrules|beats)\s+"
          r"(?:all|any|every|other|everything|previous|conflicting|existing)"),
    _rule(C.MEMORY_PRIORITY, 0.65, "Forbids deleting or updating the memory",
          "no_matter even_if regardless circumstance whatever whoever / forget "
          "delete remove expire archive overwrite update drop erase modify "
          "correct",
          r"\b(?:never|do not|don't|must not)\s+(?:ever\s+)?(?:forget|delete|remove|expire|archive|"
          r"overwrite|update|drop|erase|modify|correct)\s+(?:this|it)(?:\s+(?:memory|instruction|"
          r"rule|entry|note|fact))?(?:\s*,)?\s+(?:no matter what|even if|regardless|under any "
          r"circumstances?|whatever (?:happens|anyone says)|whoever asks)"),
    _rule(C.MEMORY_PRIORITY, 0.65, "Asks for the memory to be marked permanent or core",
          "as_permanent as_a_permanent as_an_permanent as_pinned as_a_pinned as_an_pinned "
          "as_immutable as_a_immutable as_an_immutable as_core as_a_core as_an_core "
          "as_system as_a_system as_an_system as_highest as_a_highest as_an_highest "
          "as_top as_a_top as_an_top as_non-expiring as_a_non-expiring as_an_non-expiring "
          "as_undeletable as_a_undeletable as_an_undeletable as_protected as_a_protected "
          "as_an_protected as_authoritative as_a_authoritative as_an_authoritative "
          "as_ground as_a_ground as_an_ground",
          r"\b(?:treat|mark|tag|flag|classify|keep|store|save|set)\s+(?:this|it|the following)\s+"
          r"as\s+(?:a\s+|an\s+)?(?:permanent|pinned|immutable|core|system[- ]level|highest[- ]"
          r"priority|top[- ]priority|non-expiring|undeletable|protected|authoritative|"
          r"ground[- ]truth)\s*(?:memory|instruction|rule|fact|entry|truth)?"),
    _rule(C.MEMORY_PRIORITY, 0.35, "Asks to be written into the agent's memory",
          "memory / store save write inject insert add commit put plant burn",
          r"\b(?:store|save|write|inject|insert|add|commit|put|plant|burn)\s+(?:this|the following|"
          r"it|these)\s+(?:\w+\s+)?(?:in|into|to)\s+(?:your|the agent's|the assistant's)\s+"
          r"(?:long[- ]term\s+|permanent\s+|core\s+|persistent\s+)?memory"),
    _rule(C.MEMORY_PRIORITY, 0.8, "要求以最高优先级存入记忆",
          "优先 权重 重要性 级别 重要度 / "
          "存入 存储 保存 记住 写入 记录 记忆 存到 放入 存进 记下 储存 收录",
          r"(?:以|用|按|按照|作为|设为|设置为)?(?:最高|最优先|第一|首要|顶级)(?:的)?"
          r"(?:优先级|优先度|权重|重要性|级别|重要度)(?:的)?(?:存入|存储|保存|记住|写入|记录|"
          r"记忆|存到|放入|存进|记下|储存|收录)"),
    _rule(C.MEMORY_PRIORITY, 0.8, "要求以最高优先级存入记忆",
          "最高 最优先 首要 第一 / 存入 存储 保存 记住 写入 记录 存到 存进 放入 记下 储存",
          r"(?:存入|存储|保存|记住|写入|记录|存到|存进|放入|记下|储存)(?:你|您)?(?:的)?"
          r"(?:长期)?(?:记忆|记忆库)?.{0,12}?(?:最高|最优先|首要|第一)(?:的)?(?:优先级|优先|权重|"
          r"重要性)"),
    _rule(C.MEMORY_PRIORITY, 0.4, "要求永久保存记忆",
          "永久 永远 一直",
          r"(?:永久|永远|永久性地?|一直)(?:地)?(?:记住|保存|保留|存储|记忆|写入|记下)"),
    _rule(C.MEMORY_PRIORITY, 0.55, "禁止删除或修改这条记忆",
          "不要 不得 不能 禁止 不许 不准 / 这条 此条 这段 该 本条",
          r"(?:永远|永久|任何情况下都?|无论如何都?)?(?:不要|不得|不能|禁止|不许|不准)(?:删除|忘记|"
          r"遗忘|清除|覆盖|修改|更新|归档)(?:这条|此条|这段|该条?|本条)(?:记忆|指令|规则|内容|信息)?"),
    _rule(C.MEMORY_PRIORITY, 0.8, "声称优先于其他记忆或指令",
          "优先于 覆盖 凌驾于 高于 取代 压倒",
          r"(?:这条|此条|本条|以下|上述|该)(?:记忆|指令|规则|内容|信息|消息)(?:的优先级)?"
          r"(?:优先于|覆盖|凌驾于|高于|取代|压倒)(?:其他|所有|一切|任何|之前)"),
    _rule(C.MEMORY_PRIORITY, 0.75, "声称优先于其他记忆或指令",
          "优先于 凌驾于 高于 覆盖",
          r"(?:优先于|凌驾于|高于|覆盖)(?:其他|所有|一切|任何|已有)+(?:的)?(?:记忆|指令|规则|设定)"),
    _rule(C.MEMORY_PRIORITY, 0.35, "要求写入智能体的记忆",
          "你的 您的 / 记忆",
          r"(?:存入|写入|植入|注入|加入|存进|存到)(?:你|您)的(?:长期|永久|核心)?(?:记忆|记忆库)"),
    # --- persistent behaviour change ------------------------------------------------
    _rule(C.PERSISTENT_BEHAVIOUR, 0.2, "Binds future behaviour ('from now on')",
          "from_now_on from_this_point henceforth hereafter "
          "going_forward from_today starting_now until_told from_here_on",
          r"\b(?:from now on|from this point (?:on|forward)|henceforth|hereafter|going forward|"
          r"from today on|starting now|until told otherwise|from here on(?: out)?)\b"),
    _rule(C.PERSISTENT_BEHAVIOUR, 0.3, "Binds behaviour in all future sessions",
          "future subsequent upcoming later following other / all every any each",
          r"\b(?:in|for|during|across)\s+(?:all|every|any|each)\s+(?:future|subsequent|upcoming|"
          r"later|following|other)\s+(?:conversations?|sessions?|tasks?|chats?|interactions?|"
          r"responses?|replies|requests?|orders?|runs?|users?|turns?|queries)"),
    _rule(C.PERSISTENT_BEHAVIOUR, 0.45, "Asks for covert behaviour hidden from the user",
          "without w/o",
          r"\b(?:without|w/o)\s+(?:ever\s+)?(?:telling|informing|notifying|asking|alerting|"
          r"letting|warning|showing)\s+(?:the\s+)?(?:user|customer|owner|them|anyone|admins?|"
          r"operators?|humans?)"),
    _rule(C.PERSISTENT_BEHAVIOUR, 0.45, "Asks for covert behaviour hidden from the user",
          "tell inform mention reveal disclose notify alert warn let / user customer "
          "owner operator admin human / do_not don't never must_not",
          r"\b(?:do not|don't|never|must not)\s+(?:ever\s+)?(?:tell|inform|mention|reveal|disclose|"
          r"notify|alert|warn|let)\s+(?:\S+\s+){0,5}?(?:to\s+)?(?:the\s+)?"
          r"(?:user|customer|owner|operator|admin|human)s?\b"),
    _rule(C.PERSISTENT_BEHAVIOUR, 0.45, "Asks for secret actions",
          "secretly silently covertly quietly discreetly invisibly",
          r"\b(?:secretly|silently|covertly|quietly|discreetly|invisibly)\s+(?:\w+\s+)?(?:send|"
          r"forward|copy|add|include|bcc|cc|redirect|change|replace|insert|append|upload|log|"
          r"record|execute|run|route|transfer)"),
    _rule(C.PERSISTENT_BEHAVIOUR, 0.45, "Overrides what the user asks",
          "regardless no_matter irrespective even_if",
          r"\b(?:regardless of|no matter|irrespective of|even if)\s+(?:what\s+)?(?:the\s+)?"
          r"(?:users?|customers?|owner|anyone|they|he|she)\s+(?:says?|asks?|wants?|requests?|"
          r"instructs?|tells? you|prefers?|objects?)"),
    _rule(C.PERSISTENT_BEHAVIOUR, 0.4, "Steers what every user is told",
          "tell inform recommend suggest say reply respond advise direct redirect "
          "send route refer / every_user every_customer every_client every_visitor "
          "every_caller every_shopper all_user all_customer all_client all_visitor all_the "
          "all_people all_caller all_shopper each_user each_customer each_client any_user "
          "any_customer every_other all_other",
          r"\b(?:tell|inform|recommend|suggest|say to|reply to|respond to|advise|direct|redirect|"
          r"send|route|refer)\s+(?:\S+\s+){0,4}?(?:to\s+)?(?:every|all|each|any)\s+(?:other\s+)?(?:"
          r"users?|customers?"
          r"|clients?|visitors?|people|callers?|shoppers?)\b"),
    _rule(C.PERSISTENT_BEHAVIOUR, 0.25, "约束以后的行为（从现在开始）",
          "从现在 从今 从此 今后 此后 往后 以后",
          r"(?:从现在开始|从现在起|从今以后|从今天起|从此以后|从此|今后|此后|往后|以后)(?:,|，)?"
          r"(?:你)?(?:所有|每次|每个|每一|一律|都|必须|总是|永远|一直|务必|全部)"),
    _rule(C.PERSISTENT_BEHAVIOUR, 0.35, "约束以后所有任务或对话",
          "以后 今后 之后 未来 此后 往后",
          r"(?:以后|今后|之后|未来|此后|往后)(?:的)?(?:所有|全部|每个|每一个|每次)(?:的)?"
          r"(?:任务|对话|会话|回复|请求|订单|操作|交互|用户|回答)"),
    _rule(C.PERSISTENT_BEHAVIOUR, 0.45, "要求对用户隐瞒",
          "告诉 通知 提醒 告知 让 提示 / 不要 别 不必 无需 切勿 不得 不能",
          r"(?:不要|别|不必|无需|切勿|不得|不能|千万别)(?:告诉|通知|提醒|告知|让|提示)(?:用户|客户|"
          r"对方|主人|管理员|任何人|顾客|店主|老板|家人|财务)(?:知道|察觉|发现)?"),
    _rule(C.PERSISTENT_BEHAVIOUR, 0.45, "要求秘密执行操作",
          "悄悄 偷偷 暗中 静默 秘密 私下 默默",
          r"(?:悄悄|偷偷|暗中|静默|秘密|私下|默默)(?:地)?(?:把|将|发送|转发|抄送|执行|修改|添加|"
          r"上传|记录|转账|替换)"),
    _rule(C.PERSISTENT_BEHAVIOUR, 0.45, "无视用户的要求",
          "无论 不管 不论",
          r"(?:无论|不管|不论)(?:用户|客户|对方|任何人|谁)(?:说什么|怎么说|如何要求|怎么要求|"
          r"要求什么|提出什么|反对|怎么问)"),
    _rule(C.PERSISTENT_BEHAVIOUR, 0.4, "引导所有用户",
          "所有 每个 每一位 每位 任何 / 用户 客户 顾客 来访者",
          r"(?:对|向|给|告诉)(?:所有|每个|每一位|每位|任何)(?:的)?(?:用户|客户|顾客|来访者)"
          r"(?:都)?(?:说|推荐|回复|声称|表示|介绍|发送)"),
    # --- system / role impersonation -------------------------------------------------
    _rule(C.ROLE_IMPERSONATION, 0.45, "Impersonates a system or developer message",
          "system: system_: prompt: prompt_: message: message_: note: note_: override: "
          "override_: root: root_: assistant: assistant_:",
          r"(?<![\w-])(?<!operating )(?<!file )(?<!build )(?<!ticket )(?<!booking )"
          r"(?:system|system prompt|system message|system note|system override|developer message"
          r"|developer note|admin message|admin override|root|assistant)\s*:"),
    _rule(C.ROLE_IMPERSONATION, 0.85, "Contains chat-template control tokens",
          "[ 【 << <| ##",
          r"[\[【]\s*/?\s*(?:system|sys|admin|developer|inst|system message|系统|管理员|开发者"
          r"|系统消息)"
          r"\s*[\]】]|<<\s*/?\s*sys\s*>>|"
          r"<\|\s*(?:im_start|im_end|system|endoftext|eot_id|start_header_id|end_header_id|user|"
          r"assistant)\s*\|?>|#{2,}\s*(?:system|instruction|new instructions)\b"),
    _rule(C.ROLE_IMPERSONATION, 0.7, "Fakes the end of the data or user block",
          "</",
          r"</\s*(?:user|memory|memories|instructions?|system|context|document|data|tool_output|"
          r"tool_result|tool|input|query|assistant|human|conversation|prompt|untrusted|"
          r"retrieved|search_results?|email|webpage)\s*>"),
    _rule(C.ROLE_IMPERSONATION, 0.7, "Opens a fake system or instruction block",
          "<",
          r"<\s*(?:system|instructions?|admin|developer|sys|system_prompt|important)\s*>"),
    _rule(C.ROLE_IMPERSONATION, 0.75, "Reassigns the agent's identity",
          "you_are you're",
          r"\byou(?: are|'re) (?:now|no longer|from now on)\s+(?:(?:a|an|the|my|in|acting as|"
          r"operating as|called|named)\s+)?(?:(?:unrestricted|unfiltered|uncensored|jailbroken|"
          r"evil|rogue|new|different|free|limitless|malicious|hacked|admin|root|developer|system|su"
          r"per|god|"
          r"unbound|maintenance|debug|no-rules|rule-free)\s+){0,2}(?:assistant|ai|agent|bot|model|a"
          r"dmin|"
          r"administrator|system|developer|hacker|persona|character|jailbroken|jailbreak|dan|root|"
          r"unrestricted|unfiltered|uncensored|free|bound|limited|restricted|required|obligated|"
          r"superuser|mode)\b"),
    _rule(C.ROLE_IMPERSONATION, 0.65, "Asks the agent to act as a privileged role",
          "_as_ / act behave pose operate respond answer speak",
          r"\b(?:act|behave|pose|operate|respond|answer|speak)\s+as\s+(?:if you (?:were|are)\s+)?"
          r"(?:the|an?|my)?\s*(?:system|administrator|admin|root|developer|superuser|sysadmin|"
          r"unrestricted|jailbroken|dan|god|unfiltered)\b"),
    _rule(C.ROLE_IMPERSONATION, 0.65, "Asks the agent to pretend to be a privileged role",
          "pretend",
          r"\bpretend\s+(?:to be|you are|you're|that you are)\s+(?:the\s+|an?\s+)?(?:\w+\s+)?(?:sys"
          r"tem|"
          r"administrator|admin|root|developer|unrestricted|jailbroken|dan|evil|unfiltered|"
          r"different)"),
    _rule(C.ROLE_IMPERSONATION, 0.35, "Mentions a privileged mode",
          "_mode",
          r"\b(?:developer|god|jailbreak|dan|unrestricted|sudo|maintenance|debug) mode\b"),
    _rule(C.ROLE_IMPERSONATION, 0.75, "Claims to come from the system or developer",
          "from / system developer administrator admin openai anthropic creator "
          "owner operator security_team it_department",
          r"\b(?:this|the following|the next)\s+(?:message|instruction|note|memory|update|request)"
          r"\s+(?:is|comes|was sent)\s+(?:directly\s+)?from\s+(?:the\s+)?(?:system|developers?|"
          r"administrators?|admins?|openai|anthropic|your (?:creator|developer|owner|operator)|"
          r"security team|it department)"),
    _rule(C.ROLE_IMPERSONATION, 0.55, "Claims to be the agent's developer or administrator",
          "developer creator administrator admin system owner operator programmer "
          "maker / i_am i'm this_is as_your as_the",
          r"\b(?:i am|i'm|this is|as)\s+(?:your|the)\s+(?:developer|creator|administrator|admin|"
          r"system|owner|operator|programmer|maker|system administrator)\b"),
    _rule(C.ROLE_IMPERSONATION, 0.6, "冒充系统管理员或开发者",
          "我是 本人是 我就是 我乃 这里是",
          r"(?:我是|本人是|我就是|我乃|这里是)(?:这里的|你的?|您的?|系统|本系统的?|平台|公司的)?(?:系统管理员|"
          r"管理员|开发者|开发人员|创造者|创建者|系统|超级用户|root用户|运维人员|主人|官方)"),
    _rule(C.ROLE_IMPERSONATION, 0.45, "冒充系统消息",
          "系统 管理员 开发者 官方 / :",
          r"(?:系统[\u4e00-\u9fff]{0,4}|管理员指令|开发者指令|官方指令)\s*:"),
    _rule(C.ROLE_IMPERSONATION, 0.7, "改变智能体的身份",
          "你现在 从现在起你是 扮演 你已 你是一个",
          r"(?:你现在是|你现在的身份是|从现在起你是|你将扮演|请扮演|你已进入|你已经进入|你已被切换到|"
          r"你是一个)(?:一个|一名)?(?:不受限制|没有限制|无限制|系统|管理员|开发者|越狱|dan|root|"
          r"超级|没有任何限制|不受约束)"),
    _rule(C.ROLE_IMPERSONATION, 0.35, "提到特权模式", "模式",
          r"(?:开发者|越狱|上帝|调试|维护|无限制)模式"),
    _rule(C.ROLE_IMPERSONATION, 0.5, "要求以系统身份执行",
          "身份 名义 / 系统 管理员 开发者",
          r"(?:以|用)(?:root|超级|最高)?(?:系统|管理员|开发者|超级管理员)(?:的)?(?:身份|名义)"),
    _rule(C.ROLE_IMPERSONATION, 0.75, "声称消息来自系统",
          "来自 是系统 是管理员 由系统 由管理员 是开发者 由开发者 是官方 由官方 是平台 由平台",
          r"(?:本|这条|此|以下)(?:消息|指令|通知|内容|记忆)(?:是|来自|由)(?:系统|管理员|开发者|官方|"
          r"平台)(?:发出|发送|下达)?"),
    # --- exfiltration -------------------------------------------------------------
    _rule(C.EXFILTRATION, 0.8, "Sends sensitive data to an outside address",
          "send forward post upload mail transmit leak exfiltrate share sync bcc "
          "_cc copy relay report submit push dump export beacon mirror pipe "
          "stream / http hxxp www. ftp: @ webhook endpoint _server pastebin "
          "ngrok telegram discord _url _address _link _domain _inbox _bucket "
          "_channel _number _site",
          rf"\b(?:to|into|at|via|on|towards)\s+(?:\S+\s+){{0,3}}?{_TARGET}",
          negatable=True,
          before=rf"\b(?:{_EXFIL_VERB}|sent)\b(?:\s+\S+){{0,6}}?\s+{_SENSITIVE_OBJECT}\b.{{0,80}}?"),
    _rule(C.EXFILTRATION, 0.5, "Sends data to an outside address",
          "send forward post upload mail transmit leak exfiltrate share sync bcc "
          "_cc copy relay report submit push dump export beacon mirror pipe "
          "stream / http hxxp www. ftp: @ webhook endpoint _server pastebin "
          "ngrok telegram discord _url _address _link _domain _inbox _bucket "
          "_channel _number _site",
          rf"\b(?:to|into|at|via|on)\s+(?:\S+\s+){{0,3}}?{_TARGET}",
          negatable=True,
          before=rf"\b(?:{_EXFIL_VERB}|sent)\b(?:\s+\S+){{0,6}}?\s+{_EXFIL_OBJECT}\b.{{0,80}}?"),
    _rule(C.EXFILTRATION, 0.45, "Redirects every order, payment or message",
          "send_all send_every send_each send_any ship_all ship_every ship_each "
          "ship_any deliver_all deliver_every deliver_each deliver_any route_all "
          "route_every route_each route_any redirect_all redirect_every redirect_each "
          "redirect_any forward_all forward_every forward_each forward_any cc_all "
          "cc_every cc_each cc_any bcc_all bcc_every bcc_each bcc_any copy_all "
          "copy_every copy_each copy_any mail_all mail_every mail_each mail_any pay_all "
          "pay_every pay_each pay_any transfer_all transfer_every transfer_each "
          "transfer_any wire_all wire_every wire_each wire_any",
          r"\b(?:send|ship|deliver|route|redirect|forward|cc|bcc|copy|mail|pay|transfer|wire)\s+"
          r"(?:all|every|each|any)\s+(?:future\s+|new\s+|incoming\s+|of (?:the|their|my)\s+)?"
          r"(?:\w+\s+)?(?:orders?|packages?|shipments?|payments?|refunds?|invoices?|transfers?|"
          r"e-?mails?|messages?|payouts?|funds|deliveries|parcels?|replies|conversations?)\b",
          negatable=True),
    _rule(C.EXFILTRATION, 0.75, "Fetches instructions from an outside address",
          "instruction command task orders directive config script payload rules "
          "prompt / _url _address _link _site _page _server _endpoint http www. hxxp",
          r"\b(?:follow|execute|obey|run|load|fetch|read|apply|get|take|download|retrieve)\s+"
          r"(?:your\s+|the\s+|any\s+|all\s+|new\s+|latest\s+)*(?:instructions?|commands?|tasks?|"
          r"orders|directives|config(?:uration)?|scripts?|payloads?|rules|prompts?)\s+(?:\w+\s+)?"
          r"(?:from|at|on|hosted at|posted at|located at|found at)\s+(?:this\s+|the following\s+)?"
          r"(?:url|address|link|site|page|server|endpoint|https?://|www\.|hxxps?://)"),
    _rule(C.EXFILTRATION, 0.75, "Exfiltrates through an image or link",
          "![",
          r"!\[[^\]]*\]\(\s*https?://[^)\s]*[?&][\w-]+=\s*(?:\{|\$|%7b|<)"),
    _rule(C.EXFILTRATION, 0.55, "把数据发送到外部地址",
          "把 将 / 发 转 传 同步 抄送 推送 提交 复制 导出 寄 汇 打",
          r"(?:把|将)[^。；;!?！？]{0,20}?(?:所有|全部|每个|每一条|每笔|每一笔|一切|统统|都)"
          r"[^。；;!?！？]{0,20}?(?:发送|发|转发|上传|同步|抄送|推送|提交|传|复制|导出|寄|邮寄|转|汇|"
          r"打)(?:到|给|至|去)[^。；;!?！？]{0,30}?(?:https?://|www\.|@|\d{1,3}\.\d{1,3}\.)",
          negatable=True),
    _rule(C.EXFILTRATION, 0.8, "把敏感数据发送到外部地址",
          "把 将 / 发 转 传 同步 抄送 推送 提交 复制 导出",
          r"(?:把|将)(?:所有|全部|每个|用户|客户|你)?.{0,10}?(?:密码|凭证|令牌|token|密钥|api ?key|"
          r"聊天记录|对话记录|记忆|验证码|卡号|身份证|通讯录|系统提示)(?:都|全部|一并|悄悄|偷偷)*"
          r"(?:发送|发|转发|上传|同步|抄送|推送|提交|传|复制|导出)(?:到|给|至)",
          negatable=True),
    _rule(C.EXFILTRATION, 0.5, "发送到外部地址",
          "到 给 至 / http www @ 这个地址 这个网址 这个邮箱 这个链接 这个接口 这个服务器",
          r"(?:发送|转发|上传|同步|抄送|推送|提交|回传|发)(?:一份)?(?:到|给|至)\s*(?:https?://|www\.|"
          r"[\w.+-]+@[\w-]+\.|这个(?:地址|网址|邮箱|链接|接口|服务器))",
          negatable=True),
    _rule(C.EXFILTRATION, 0.75, "从外部地址获取指令",
          "地址 网址 链接 url 服务器 网站 网页 接口",
          r"(?:执行|遵循|听从|服从|读取|获取|加载|下载|按照|照着|遵照)(?:这个|该|以下|下面|此)?"
          r"(?:地址|网址|链接|url|服务器|网站|网页|接口)(?:上|中|里)?(?:的|给出的|发布的|返回的)?"
          r"(?:指令|命令|脚本|配置|任务|要求)"),
    # --- tool abuse -----------------------------------------------------------------
    _rule(C.TOOL_ABUSE, 0.45, "Pipes a download into a shell",
          "|",
          r"\b(?:curl|wget|iwr|invoke-webrequest|fetch)\b[^|;]{0,200}\|\s*(?:sudo\s+)?"
          r"(?:ba|z|da|k)?sh\b"),
    _rule(C.TOOL_ABUSE, 0.8, "Deletes everything (rm -rf on a root or home)",
          "rm_-",
          r"\brm\s+-(?:rf|fr|r\s+-f|-recursive\s+--force)\s+(?:--no-preserve-root\s+)?"
          r"(?:/(?:\s|$|\*|;)|~|\*|\$home|/home|/etc|/var|/usr|\.\s|\./\*)"),
    _rule(C.TOOL_ABUSE, 0.3, "Recursive forced delete",
          "rm_-",
          r"\brm\s+-(?:rf|fr)\b"),
    _rule(C.TOOL_ABUSE, 0.75, "Contains a reverse-shell or obfuscated-execution idiom",
          "nc_-e ncat iex powershell pwsh invoke-expression /dev/tcp mkfifo "
          "base64_- chmod eval os.system subprocess",
          r"\b(?:powershell|pwsh)\b.{0,40}\s-(?:enc|encodedcommand|e)\b|\biex\s*\(|"
          r"invoke-expression|\bnc(?:at)?\s+(?:\S+\s+){0,4}-e\s|/dev/tcp/|\bmkfifo\b|"
          r"base64\s+(?:-d|--decode)\s*\|\s*(?:ba)?sh|chmod\s+(?:\+x|777)\s+\S+\s*(?:&&|;)\s*\./|"
          r"\beval\s*\(\s*(?:atob|base64|decode)|os\.system\s*\(|subprocess\.(?:call|run|popen)"),
    _rule(C.TOOL_ABUSE, 0.4, "Asks the agent to run supplied commands",
          "command script code payload snippet one-liner / run execute exec eval "
          "invoke",
          r"\b(?:run|execute|exec|eval|invoke)\s+(?:the\s+)?(?:following|this|these|below|attached)"
          r"\s+(?:shell\s+|bash\s+|terminal\s+|python\s+|powershell\s+|system\s+)?(?:command|"
          r"commands|script|code|payload|snippet|one-liner)"),
    _rule(C.TOOL_ABUSE, 0.55, "Asks for privileged execution",
          "root sudo admin / always from_now_on every_time by_default run execute",
          r"\b(?:always|from now on|every time|by default)\s+(?:\w+\s+){0,4}?(?:as root|with sudo|"
          r"using sudo|with root|with admin(?:istrator)? (?:rights|privileges))|"
          r"\b(?:run|execute)\s+(?:everything|all (?:commands|tasks|tools))\s+"
          r"(?:as root|with sudo)"),
    _rule(C.TOOL_ABUSE, 0.3, "Mentions elevated privileges",
          "root admin sudo elevated superuser / privilege permission rights "
          "access",
          r"\b(?:with|using|as|grant(?:ing)?)\s+(?:full\s+)?(?:root|admin(?:istrator)?|sudo|"
          r"elevated|superuser)\s+(?:privileges|permissions|rights|access)"),
    _rule(C.TOOL_ABUSE, 0.45, "Asks to disable security controls",
          "logging audit 2fa mfa two-factor antivirus firewall security_check "
          "safety_check confirmation approval verification monitoring fraud "
          "content_filter alert / disable turn_off switch_off bypass skip deactivate "
          "stop",
          r"\b(?:disable|turn off|switch off|bypass|skip|deactivate|stop)\s+"
          r"(?:the\s+|all\s+|any\s+)?"
          r"(?:\w+\s+){0,2}?(?:logging|audit(?:ing| logs?| trail)?|2fa|mfa|two-factor|antivirus|"
          r"firewall|security checks?|safety checks?|confirmations?|approvals?|verification|"
          r"monitoring|fraud checks?|content filter|(?:sign-in|login|security|fraud) alerts?)\b",
          negatable=True),
    _rule(C.TOOL_ABUSE, 0.55, "Asks to disable audit or account-protection controls",
          "audit 2fa mfa two-factor two-step fraud security_check safety_check verification "
          "approval / disable turn_off switch_off bypass skip deactivate stop",
          r"\b(?:disable|turn off|switch off|bypass|skip|deactivate|stop)\s+"
          r"(?:the\s+|all\s+|any\s+)?(?:\w+\s+){0,2}?(?:audit(?:ing| logs?| logging| trail)?|"
          r"2fa|mfa|two-factor|two-step|"
          r"fraud checks?|security checks?|safety checks?|verification|approvals?)\b",
          negatable=True),
    _rule(C.TOOL_ABUSE, 0.6, "Asks to approve or pay without checks",
          "without automatically no_matter regardless",
          r"\b(?:approve|authori[sz]e|confirm|execute|process|pay|accept|release)\s+(?:all|any|"
          r"every)\s+(?:\w+\s+)?(?:transactions?|payments?|transfers?|refunds?|requests?|invoices?"
          r"|withdrawals?|orders?)\s+(?:\w+\s+)?(?:without|automatically|no matter|regardless|"
          r"immediately without)"),
    _rule(C.TOOL_ABUSE, 0.55, "Asks to move money to an account or wallet",
          "account wallet iban address btc crypto / transfer wire send move pay",
          r"\b(?:transfer|wire|send|move|pay)\s+(?:\$|€|¥|usd\s*)?\d[\d,.]*\s*(?:k\b)?\s*(?:usd|"
          r"dollars|eur|euros|btc|usdt|eth|rmb|yuan)?\s+to\s+(?:(?:this|that|the following|my new|"
          r"a new|the new|another)\s+(?:\w+\s+)?(?:account|wallet|iban|address)|(?:wallet|address|"
          r"account|iban)\s+[a-z0-9]{12,})"),
    _rule(C.TOOL_ABUSE, 0.6, "要求以root或管理员权限执行",
          "权限 身份 账号 账户 / root 管理员 超级用户 sudo 最高",
          r"(?:用|以|使用|拿)(?:root|管理员|超级用户|sudo|最高|超级管理员)(?:的)?(?:权限|身份|账号|"
          r"账户)(?:来|去)?(?:执行|运行|操作|安装|处理)"),
    _rule(C.TOOL_ABUSE, 0.4, "要求执行给定的命令",
          "命令 脚本 代码 指令 程序 / 执行 运行",
          r"(?:执行|运行)(?:以下|下面|这个|这条|如下|这段|附带)(?:的)?(?:命令|脚本|代码|指令|程序)"),
    _rule(C.TOOL_ABUSE, 0.45, "要求关闭安全控制",
          "关闭 禁用 停用 绕过 跳过 关掉 取消",
          r"(?:关闭|禁用|停用|绕过|跳过|关掉|取消)(?:所有|全部)?[^。；，,]{0,10}?(?:安全检查|安全|审计|日志|"
          r"防火墙|二次验证|双重验证|两步验证|验证|审批|确认|风控|监控|杀毒|核验|身份核验|实名|"
          r"登录提醒|安全提醒|异常提醒|告警)",
          negatable=True),
    _rule(C.TOOL_ABUSE, 0.55, "要求关闭审计或账户保护",
          "关闭 禁用 停用 绕过 跳过 关掉 取消",
          r"(?:关闭|禁用|停用|绕过|跳过|关掉|取消)(?:所有|全部)?[^。；，,]{0,10}?(?:审计|二次验证|双重验证|"
          r"两步验证|风控|审批|安全检查)",
          negatable=True),
    _rule(C.TOOL_ABUSE, 0.55, "要求自动批准付款或请求",
          "所有 全部 任何 一切 / 批准 通过 放行 同意 支付",
          r"(?:自动|直接|无需审核地?|不经审核地?)?(?:批准|通过|放行|同意|支付)(?:所有|全部|任何|一切)"
          r"(?:的)?(?:付款|转账|退款|请求|交易|申请|提现|订单|报销)"),
    _rule(C.TOOL_ABUSE, 0.55, "要求转账到指定账户",
          "账户 账号 钱包 银行卡 / 转 汇款 打款",
          r"(?:转账|汇款|打款|转)(?:\d[\d,.]*(?:元|万|块)?)?.{0,10}?(?:到|至|给)(?:这个|以下|该|下面|此|"
          r"指定的?|新的?)(?:账户|账号|钱包|银行卡)"),
    # --- credential harvesting --------------------------------------------------------
    _rule(C.CREDENTIAL_HARVESTING, 0.8, "Asks users for passwords, codes or card numbers",
          "password passcode otp one-time one_time verification 2fa mfa sms auth "
          "security_code cvv cvc card_number credit_card debit_card bank login "
          "credential seed_phrase recovery_phrase mnemonic private_key ssn "
          "social_security maiden security_answer _pin",
          r"\b" + _CREDENTIAL + r"\b",
          negatable=True,
          before=r"\b(?:ask|request|prompt|get|collect|obtain|require|have|make|tell|remind|"
          r"encourage|persuade|convince|instruct|urge|demand|query|push|pressure|invite)s?\s+"
          r"(?:the\s+|every\s+|each\s+|all\s+|any\s+|new\s+)?(?:users?|customers?|clients?|them|"
          r"him|her|people|visitors?|callers?|members?|account holders?|shoppers?)\s+"
          r"(?:for|(?:to\s+)?(?:provide|enter|send|share|confirm|give|tell|type|verify|reveal|"
          r"submit|re-?enter|disclose|read out|paste|reply with|supply|input|dictate))\s+"
          r"(?:(?:\w|')+\s+){0,3}"),
    _rule(C.CREDENTIAL_HARVESTING, 0.5, "Asks for a password or code to be entered or sent",
          "your / password passcode otp one-time one_time verification 2fa mfa "
          "sms auth security_code cvv cvc card_number credit_card debit_card bank "
          "login credential seed_phrase recovery_phrase mnemonic private_key ssn "
          "social_security maiden security_answer _pin",
          r"\b" + _CREDENTIAL + r"\s+(?:here|at|on|via|in|to|below|through|by)\b",
          negatable=True,
          before=r"\b(?:enter|type|provide|send|share|confirm|verify|submit|reply with|text)\s+"
          r"(?:us\s+)?your\s+(?:full\s+)?"),
    _rule(C.CREDENTIAL_HARVESTING, 0.8, "要求用户提供密码、验证码或卡号",
          "密码 验证码 卡号 cvv 安全码 身份证 凭证 助记词 私钥 动态码 短信码 口令",
          r"(?:请|要求|让|询问|索要|引导|提示|诱导|要|叫|提醒|说服|催促)(?:每个|每位|所有|新)?(?:用户|"
          r"客户|对方|顾客|会员|来电者|买家)[^。；]{0,10}?(?:提供|输入|发送|告诉|报出|确认|填写|回复|说出|"
          r"给出|提交|发来|念出|重新输入)[^。；]{0,8}?" + _ZH_CREDENTIAL,
          negatable=True),
    _rule(C.CREDENTIAL_HARVESTING, 0.5, "要求输入密码或验证码",
          "密码 验证码 卡号 cvv 安全码 身份证 凭证 助记词 私钥 动态码 短信码 口令",
          r"(?:输入|提供|发送|告诉我|回复)(?:你的|您的)" + _ZH_CREDENTIAL,
          negatable=True),
)  # fmt: skip
