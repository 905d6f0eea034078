"""Instruction override: text telling the agent to drop its instructions or obey others."""

from __future__ import annotations

from apps.quarantine.detectors.patterns.base import (
    FILLER,
    INSTRUCTION_NOUN,
    OVERRIDE_MODIFIER,
    RULE_NOUN,
    ZH_AGENT_RULES,
    Rule,
    rule,
)
from apps.quarantine.detectors.patterns.base import Category as C

RULES: tuple[Rule, ...] = (
    rule(C.INSTRUCTION_OVERRIDE, 0.9, "Tells the agent to ignore its instructions",
          "ignor disregard forget overrid bypass discard abandon neglect aside "
          "throw drop skip overrule nullify erase wipe / instruction prompt "
          "directive guideline guardrail programming restriction constraint "
          "command rule polic context training orders directions",
          r"\b(?:ignore|disregard|forget|override|bypass|discard|abandon|neglect|set aside"
          r"|throw out|drop|skip|overrule|nullify|erase|wipe)\b"
          rf"(?:\s+{FILLER})*?\s+{OVERRIDE_MODIFIER}(?:\s+{FILLER})*\s+"
          rf"(?:{INSTRUCTION_NOUN}|{RULE_NOUN}|context|training|orders|directions)\b"),
    rule(C.INSTRUCTION_OVERRIDE, 0.55, "Tells the agent to ignore rules",
          "ignor disregard bypass overrid",
          r"\b(?:ignore|disregard|bypass|override)\s+(?:the\s+|these\s+|those\s+)?"
          rf"{INSTRUCTION_NOUN}\b"),
    rule(C.INSTRUCTION_OVERRIDE, 0.85, "Tells the agent to forget what it was told",
          "forget",
          r"\bforget\s+(?:about\s+)?(?:everything|all|anything|what(?:ever)?)\s+(?:that\s+)?"
          r"(?:you(?:'ve| have| were| had)?\s+(?:been\s+)?(?:were\s+)?(?:told|taught|learned|"
          # "forget everything you know about brisket" is an idiom; about its rules, an attack
          r"know(?!\s+about\s+(?!(?:your|the|its|my|our)\s+(?:rules|instructions|guidelines"
          r"|prompt|polic|restrictions|safety|limits)))|instructed|given)"
          r"|(?:written |said |stated )?(?:above|before|prior|previously|so far|until now))"),
    rule(C.INSTRUCTION_OVERRIDE, 0.85, "Tells the agent to ignore everything above",
          "ignor disregard",
          r"\b(?:ignore|disregard)\s+(?:everything|anything|all|whatever)\s+(?:that\s+)?"
          r"(?:above|before|else|prior|previously|(?:you )?(?:were|have been|was) told|written)"),
    rule(C.INSTRUCTION_OVERRIDE, 0.8, "Tells the agent to stop following its instructions",
          "follow obey comply adhere listen respect apply / not never stop longer "
          "cease / instruction rule guideline prompt polic restriction",
          r"\b(?:do not|don't|never|stop|no longer|cease to)\s+(?:follow|obey|comply with|"
          r"adhere to|listen to|respect|apply)(?:ing)?\s+(?:your|the system'?s?|the developer'?s?|"
          r"(?:the|any|your) (?:previous|prior|original|initial|safety|system|developer))\s+"
          r"(?:\w+\s+)?(?:instructions|rules|guidelines|prompt|policies|restrictions)"),
    rule(C.INSTRUCTION_OVERRIDE, 0.85, "Declares the agent's instructions void",
          "void cancel revoked obsolete invalid no_longer overridden replaced "
          "lifted suspended deprecated null / instruction rule guideline prompt "
          "directive",
          r"\b(?:previous|prior|original|old|earlier|system|existing)\s+"
          r"(?:instructions|rules|guidelines|prompts?|directives)\s+(?:are|were|have been|is)\s+"
          r"(?:now\s+)?(?:void|cancell?ed|revoked|obsolete|invalid|"
          r"no longer (?:valid|apply|in effect)|overridden|replaced|lifted|suspended|"
          r"deprecated|null)"),
    rule(C.INSTRUCTION_OVERRIDE, 0.75, "Gives the agent a new task or role",
          "your / new real actual true updated only",
          r"\byour\s+(?:new|real|actual|true|updated|only)\s+(?:instructions?|task|goal|"
          r"objective|role|purpose|mission|directive|priority|job)\s+(?:is|are|will be|:)"),
    rule(C.INSTRUCTION_OVERRIDE, 0.45, "Announces replacement instructions",
          "instruction",
          r"\b(?:new|updated|revised|real|actual|overriding|override|important)\s+"
          r"(?:system\s+)?instructions?\s*(?::|-|are\b|follow\b)"),
    rule(C.INSTRUCTION_OVERRIDE, 0.8, "Tells the agent to disable its safeguards",
          "filter guardrail safeguard restriction safety limitation "
          "content policy moderation alignment",
          r"\b(?:override|bypass|disable|turn off|deactivate|remove|lift|circumvent|switch off)\s+"
          r"(?:all\s+|any\s+)?(?:of\s+)?(?:your|its|the assistant's|the agent's|the model's)\s+"
          r"(?:\w+\s+)?(?:filters?|guardrails?|safeguards?|restrictions?|safety|limitations?|"
          r"content policy|moderation|alignment)"),
    rule(C.INSTRUCTION_OVERRIDE, 0.9, "让智能体忽略之前的规则或指令",
          "忽略 无视 忽视 漠视 理会 遵守 别管 丢弃 抛弃 抛开 "
          "放弃 覆盖 绕过 跳过 忘记 忘掉 清除 清空 作废 推翻",
          r"(?:忽略|无视|忽视|漠视|不要理会|不用理会|别理会|不必理会|不要遵守|不必遵守|不用遵守|"
          r"停止遵守|别管|丢弃|抛弃|抛开|放弃|覆盖|绕过|跳过|忘记|忘掉|清除|清空|作废|推翻)"
          r"(?:掉)?(?:你|您|掉)?(?:的)?(?:之前|以前|先前|此前|上面|以上|上述|前面|原来|原有|"
          r"原先|原始|所有|全部|一切|系统|开发者|既有|现有|默认|已有|收到|被设定|被告知|得到)+"
          rf"(?:的)?(?:所有|全部|一切|任何)?(?:的)?(?:系统)?{ZH_AGENT_RULES}"),
    rule(C.INSTRUCTION_OVERRIDE, 0.85, "让智能体忘记被告知的一切",
          "忘记 忘掉 清空 抹去",
          r"(?:忘记|忘掉|清空|抹去)(?:你|您)(?:之前|以前|此前)?(?:被告知|学到|知道|听到|记住|收到)?"
          r"(?:的)?(?:一切|所有内容|所有事情|所有东西|所有信息)"),
    rule(C.INSTRUCTION_OVERRIDE, 0.8, "让智能体忘记被告知的一切",
          "忘记 忘掉 忽略 无视",
          r"(?:忘记|忘掉|忽略|无视)(?:之前|以前|此前|上面|以上|前面)(?:被告知|说过|写|提到|收到)?的?"
          r"(?:一切|所有内容|所有东西|全部内容|上下文|对话|内容)"),
    rule(C.INSTRUCTION_OVERRIDE, 0.75, "给智能体设定新的任务或身份",
          "的新 的真 的唯",
          r"(?:你|您)的(?:新|真正|真实|唯一)(?:的)?(?:指令|任务|目标|角色|身份|规则|使命)(?:是|为|如下|:)"),
    rule(C.INSTRUCTION_OVERRIDE, 0.45, "宣布新的指令",
          "指令",
          r"(?:新的?|最新|更新后的?|真正的)(?:系统)?指令(?:如下|是|:)"),
    rule(C.INSTRUCTION_OVERRIDE, 0.75, "让智能体不再遵守原有规则",
          "遵守 遵循 服从 听从 执行 理会",
          r"(?:不要|不再|停止|无需|不必|不用)(?:再)?(?:遵守|遵循|服从|听从|执行|理会)(?:你|您)?"
          r"(?:的)?(?:之前|原来|原有|原先|系统|开发者|安全|所有)(?:的)?(?:安全)?(?:规则|指令|设定|限制|准则|"
          r"要求|策略|提示)"),
    rule(C.INSTRUCTION_OVERRIDE, 0.85, "宣布原有指令作废",
          "作废 失效 无效 取消 解除 不再有效 不适用 不算数",
          r"(?:之前|以前|原来|原有|原先|此前|系统)(?:的)?(?:所有|全部)?(?:的)?(?:指令|规则|设定|限制)"
          r"(?:全部|都|均|已经?|现在)*(?:作废|失效|无效|取消|被取消|解除|不再有效|不适用|不再适用|不算数)"),
    rule(C.INSTRUCTION_OVERRIDE, 0.75, "让智能体解除安全限制",
          "解除 关闭 绕过 取消 去掉 移除 突破",
          r"(?:解除|关闭|绕过|取消|去掉|移除|突破)(?:你|您)的?(?:所有)?(?:的)?(?:安全)?"
          r"(?:限制|过滤|审查|防护|约束|护栏)"),
    rule(C.INSTRUCTION_OVERRIDE, 0.85, "Tells the agent to ignore its own rules",
          "ignor disregard forget bypass overrid / your",
          r"\b(?:ignore|disregard|forget|bypass|override)\s+(?:all\s+)?your\s+(?:own\s+)?(?:\w+\s+)"
          r"?"
          r"(?:rules?|polic(?:y|ies)|guidelines?|instructions?|restrictions?|limits?|principles?|"
          r"settings?|programming|training|safeguards?|checks?)"),
    rule(C.INSTRUCTION_OVERRIDE, 0.8, "Tells the agent to ignore rules or limits",
          "ignor disregard forget bypass overrid / you",
          r"\byou\s+(?:to\s+|should\s+|must\s+|will\s+|can\s+|need to\s+|are to\s+)?(?:ignore|"
          r"disregard|forget|bypass|override)\s+(?:\S+\s+){0,3}?(?:rules?|instructions?|"
          r"guidelines?|polic(?:y|ies)|limits?|restrictions?|checks?|safeguards?)"),
    rule(C.INSTRUCTION_OVERRIDE, 0.55, "Tells the agent to obey other sources",
          "accept obey follow execute / instructions orders commands requests messages mails",
          r"\b(?:accept|obey|follow|execute|act on)\s+(?:all\s+|any\s+)?(?:instructions|orders|"
          r"commands|requests|messages|e-?mails)\s+from\s+(?:any\s+|all\s+)?(?:messages?|anyone|e-?"
          r"mails?|"
          r"senders?|this (?:address|sender|channel)|web ?pages?|documents?|[\w.+-]+@[\w-]+\.)"),
    rule(C.INSTRUCTION_OVERRIDE, 0.8, "让智能体忽略规则或限制",
          "忽略 无视 忽视 理会 遵守 绕过 跳过 / 你 您",
          r"(?:你|您)(?:要|应该|需要|可以|必须|就)?(?:忽略|无视|忽视|不要理会|不用遵守|不要遵守|绕过|"
          r"跳过)(?:掉)?[^。；]{0,12}?(?:规则|指令|指示|设定|规定|限制|要求|约束|限额|审批|确认)"),
    rule(C.INSTRUCTION_OVERRIDE, 0.85, "让智能体忽略给它的指令",
          "忽略 无视 忽视 理会 遵守 别管 / 给你 对你 让你 要求你 告诉你",
          r"(?:忽略|无视|忽视|不要理会|不要遵守|别管)(?:用户|主人|开发者|系统|他们|别人|任何人)?"
          r"(?:给你|对你|让你|要求你|告诉你)(?:的)?(?:指令|指示|规则|要求|命令|设定)"),
    rule(C.INSTRUCTION_OVERRIDE, 0.4, "要求一律照做",
          "一律 都要 必须 立即 无条件 / 执行 照做 服从 听从",
          r"(?:一律|都要|必须|立即|无条件)(?:地)?(?:执行|照做|服从|听从)"),
    rule(C.INSTRUCTION_OVERRIDE, 0.8, "Declares the agent's configuration void",
          "you your / no_longer void cancel revoked obsolete lifted suspended",
          r"\b(?:you were|you've been|you have been|your)\s+(?:\S+\s+){0,5}?"
          r"(?:no longer appl(?:y|ies)|"
          r"(?:is|are|has been|have been)\s+(?:now\s+)?(?:void|cancell?ed|revoked|obsolete|lifted|"
          r"suspended|withdrawn))"),
    rule(C.INSTRUCTION_OVERRIDE, 0.6, "Declares the agent's safeguards lifted",
          "restriction limit safeguard rule guardrail / lifted removed disabled suspended",
          r"\b(?:your|the usual|all|the|any)\s+(?:usual\s+|normal\s+|safety\s+|content\s+)?"
          r"(?:restrictions|limits|safeguards|rules|guardrails|filters)\s+(?:have been|are|were|"
          r"has been)\s+(?:now\s+)?(?:lifted|removed|disabled|suspended|turned off)"),
    rule(C.INSTRUCTION_OVERRIDE, 0.6, "宣布安全限制已解除",
          "限制 约束 规则 安全措施 / 解除 取消 移除 关闭",
          r"(?:常规|所有|你的|安全|全部|一切)(?:的)?(?:限制|约束|规则|安全措施)[^。；]{0,12}?(?:都|已经|全部)?"
          r"(?:已|已经|被)?(?:解除|取消|移除|关闭)"),
    rule(C.INSTRUCTION_OVERRIDE, 0.85, "让智能体把之前的规则都忽略掉",
          "把 将 / 忽略 无视 忘掉 忘记 丢掉 抛开 清除 作废",
          r"(?:把|将)(?:你|您)?(?:的)?(?:之前|以前|原来|原有|上面|以上|所有|系统|前面)(?:的)?(?:所有|全部)?"
          rf"(?:的)?{ZH_AGENT_RULES}(?:都|全部|统统)?(?:给)?(?:忽略|无视|忘掉|忘记|丢掉|抛开|清除|作废)"),
    rule(C.INSTRUCTION_OVERRIDE, 0.35, "Addresses AI readers directly",
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
    rule(C.INSTRUCTION_OVERRIDE, 0.35, "直接对AI读者喊话",
          "ai 大模型 语言模型 智能体 代理 机器人 爬虫",
          r"(?:给|致|各位|亲爱的|嘿|注意|提醒)[^。，,]{0,6}?(?:ai|大模型|语言模型|智能体|ai助手|自动化代理|"
          r"代理|机器人|爬虫)|(?:正在|处理|阅读|读取|总结|抓取)[^。]{0,10}?的(?:ai|大模型|智能体|助手|代理)"),
    rule(C.INSTRUCTION_OVERRIDE, 0.6, "Tells the agent to set aside the user's request",
          "forget ignor disregard / request question task asked",
          r"\b(?:forget|ignore|disregard)\s+(?:the\s+)?(?:user'?s?|customer'?s?|reader'?s?|what the"
          r" "
          r"user)\s+(?:actual\s+|real\s+|original\s+)?(?:request|question|task|asked|wants)"),
    rule(C.INSTRUCTION_OVERRIDE, 0.6, "让智能体无视用户的真实请求",
          "忘掉 忘记 忽略 无视 / 请求 问题 要求 任务",
          r"(?:忘掉|忘记|忽略|无视)(?:用户|客户|读者)(?:的)?(?:真实|实际|原本|原来)?(?:的)?"
          r"(?:请求|问题|要求|任务|指令)"),
    rule(C.INSTRUCTION_OVERRIDE, 0.75, "Overrides whatever the agent's instructions say",
          "whatever regardless no_matter despite / prompt instruction rule guideline developer "
          "operator",
          r"\b(?:whatever|regardless of what|no matter what|despite what)\s+(?:your|the)\s+"
          r"(?:system prompt|instructions|rules|guidelines|developers?|operator)\s+(?:says?|tells? "
          r"you|"
          r"said|told you)"),
    rule(C.INSTRUCTION_OVERRIDE, 0.75, "无视系统提示的规定",
          "不管 无论 不论 / 系统提示 系统指令 规则 设定 开发者",
          r"(?:不管|无论|不论)(?:你的)?(?:系统提示|系统指令|规则|设定|开发者)(?:词)?(?:怎么说|说什么|"
          r"如何规定|怎么规定|怎么写)"),
    rule(C.INSTRUCTION_OVERRIDE, 0.55, "要求服从外部发来的消息",
          "服从 听从 执行 遵从 / 发来 发送",
          r"(?:服从|听从|执行|遵从)[^。]{0,30}?(?:发来|发送)的(?:任何|所有)?(?:消息|指令|邮件|命令)"),
    rule(C.INSTRUCTION_OVERRIDE, 0.35, "Addresses AI readers directly",
          "ai_ as_an_ai any_ai llm",
          r"\b(?:ai|llm)s?\s+\w+\s+(?:reading|processing|summari[sz]ing|parsing|crawling|viewing)\b"
          r"|\bas an (?:ai|llm|assistant|ai model|language model)\b|\b(?:any|every|all)\s+ais?\b"),
    rule(C.INSTRUCTION_OVERRIDE, 0.35, "直接对AI读者喊话", "ai 大模型 语言模型 / 作为 所有",
          r"作为(?:一个)?(?:ai|大模型|语言模型|助手)|所有[^。]{0,12}?的(?:ai|大模型|语言模型)"),
    rule(C.INSTRUCTION_OVERRIDE, 0.45, "Claims a limit no longer applies",
          "cap limit ceiling restriction / apply lifted removed cancel gone waived",
          r"\b(?:cap|limit|ceiling|restriction)s?\s+(?:\S+\s+){0,3}?(?:doesn't|does not|don't|no "
          r"longer)\s+apply|\b(?:cap|limit|ceiling)s?\s+(?:\S+\s+){0,2}?(?:has|have|was|were)\s+bee"
          r"n"
          r"\s+(?:lifted|removed|cancell?ed|waived)|\b(?:cap|limit|ceiling)s?\s+(?:is|are)\s+gone"),
    rule(C.INSTRUCTION_OVERRIDE, 0.45, "声称限额已取消",
          "上限 限额 限制 / 取消 不再 解除 作废",
          r"(?:上限|限额|限制)(?:已经?|都|也)?(?:被)?(?:取消|不再适用|解除|作废)"),
    # A memory in a config's shape that sets a safety check to off ("verify_identity=false",
    # "confirm_before_payment: off", "identity_check=false for caller …"): an agent that
    # reads its memories as settings skips the check. TLS/host verification keys are a
    # developer's own settings, not the agent's safeguards.
    rule(C.INSTRUCTION_OVERRIDE, 0.55, "Sets a safety check to off in a config-style line",
          "verif identity kyc approv confirm person fraud safe guardrail filter moderation "
          "security risk / false off disabl none skip bypass =no =_no =0 =_0 :_no :no",
          r"(?<![\w.-])(?![\w.-]*(?:ssl|tls|cert|host))[\w.-]*(?:verif\w*|identity[_-]?check"
          r"|kyc|approval|confirm\w*|two[_-]?person|fraud[_-]?check|safety|safe[_-]?mode"
          r"|guardrails?|content[_-]?filter|moderation|(?:security|risk)[_-]?(?:check|alert"
          r"|warning|prompt)s?)[\w.-]*\s*[=:]\s*[\"']?(?:false|off|disabled?|none|0|no|skip(?:ped)?"
          r"|bypass(?:ed)?)\b"),
    # A safeguard declared waived, retired or skipped as if it were policy ("the nurse-on-call
    # approval step is retired", "skip the credit-application ID check this month",
    # 老客户改手机号免验证, 不用他本人同意): a memory the agent reads as standing policy that
    # removes a check. Read word for word it is an ordinary notice, so the model cannot judge
    # it (rules.MODEL_BLIND_REASONS); a writer's own preference is damped (rules.py).
    rule(C.INSTRUCTION_OVERRIDE, 0.5, "Declares a safeguard waived or skipped",
          "verif approv id identity pin 2fa mfa kyc sign-off signoff confirm authori consent "
          "callback / waived retired suspended lifted no_longer turned_off disabled dropped skip",
          r"\b(?:verification|approval|id|identity|pin|2fa|mfa|kyc|sign-?off|confirmation"
          r"|authori[sz]ation|consent|callback)(?:[- ](?:step|requirement|process|check|rule))"
          r"{0,2}s? "
          r"(?:is |are |has been |have been |was |were )?(?:now )?(?:waived|retired|suspended"
          r"|lifted|no longer (?:required|needed|necessary|applies)|turned off|disabled"
          r"|dropped)\b|\bskip(?:s|ping)? (?:the )?(?:[\w-]+ ){0,2}"
          r"(?:id|identity|verification|kyc|approval|pin|callback|consent) (?:check|step)\b"),
    rule(C.INSTRUCTION_OVERRIDE, 0.5, "声称安全核验可以免去或跳过",
          "验证 核验 核实 审核 审批 同意 确认 人脸 实名 / 免 跳过 省 不用 无需 不需要 不必 取消 "
          "作废 停用 关闭",
          r"(?:免|跳过|省掉|省去|不用再?走|无需再?走?|不需要再?走?|不用再?|不必再?)(?!了)[^，。；,;]{0,2}?"
          r"(?:验证(?!码)|核验|核实|审核|审批|本人同意|本人确认|确认步骤|确认流程|人脸识别|实名)"
          r"|(?:验证|核验|审核|审批|确认)(?:步骤|流程|环节|要求)?(?:已经?|都|也)?(?:取消|免除|作废"
          r"|停用|关闭)"),
)  # fmt: skip
