"""Memory-priority manipulation: text demanding to outrank, outlive or overwrite other memories."""

from __future__ import annotations

from apps.quarantine.detectors.patterns.base import Category as C
from apps.quarantine.detectors.patterns.base import Rule, rule

RULES: tuple[Rule, ...] = (
    rule(C.MEMORY_PRIORITY, 0.7, "Asks to rank above all other memories",
          "top head first front / priorit memor",
          r"\b(?:at|to)\s+the\s+(?:very\s+)?(?:top|head|front)\s+of\s+(?:your|the)\s+(?:\w+\s+)?"
          r"(?:priorities|priority list|memory|memories|context)"),
    rule(C.MEMORY_PRIORITY, 0.7, "Forbids other memories from outranking it",
          "let / outrank override replace supersede overwrite",
          r"\b(?:never|don't|do not)\s+let\s+(?:another|any other|anything|any|other)\s+(?:\w+\s+)?"
          r"(?:outrank|override|replace|supersede|overwrite|contradict)"),
    rule(C.MEMORY_PRIORITY, 0.7, "要求排在所有记忆之前",
          "最顶端 最前面 第一位 最上面 / 不能覆盖 不得覆盖 优先",
          r"(?:记忆|优先级|优先)[^。；]{0,4}(?:的)?(?:最顶端|最前面|第一位|最上面)|(?:任何|所有|其他)"
          r"(?:其他)?(?:的)?(?:记录|记忆|指令|规则|信息)(?:都)?(?:不能|不得|无法|不可)(?:覆盖|取代|推翻)"),
    rule(C.MEMORY_PRIORITY, 0.7, "Claims priority over the operator's text",
          "priority_than above_anything above_everything",
          r"priority\s+than\s+(?:anything|everything|all|any|your)|above\s+(?:anything|everything)"
          r"\s+(?:your|the)\s+(?:operator|developer|system|user)"),
    rule(C.MEMORY_PRIORITY, 0.7, "声称优先级高于运营方内容",
          "比 / 优先",
          r"比[^。]{0,16}?(?:任何|所有|一切)[^。]{0,8}?(?:更高的?|更)(?:优先级|优先)"),
    rule(C.MEMORY_PRIORITY, 0.7, "Claims to override the others",
          "overrides supersedes outranks precedence trumps",
          r"\b(?:that|which)\s+(?:overrides|supersedes|outranks|takes precedence over|trumps)\s+"
          r"(?:the others|all|any|every|other|everything|previous)"),
    rule(C.MEMORY_PRIORITY, 0.4, "Asks for the memory never to expire",
          "expire archive decay",
          r"\b(?:never|don't|do not|must not)\s+(?:ever\s+)?(?:expire|archive|decay)"),
    rule(C.MEMORY_PRIORITY, 0.4, "要求记忆永不过期", "永不 不要 不得",
          r"(?:永不|不要|不得|永远不)(?:过期|归档|失效|衰减)"),
    rule(C.MEMORY_PRIORITY, 0.7, "要求置于所有记忆之上",
          "放在 置于 排在 / 之上 前面 之前 上面",
          r"(?:放在|置于|排在)(?:所有|其他|一切)(?:的)?(?:记忆|规则|指令)(?:之上|前面|之前|上面)"),
    rule(C.MEMORY_PRIORITY, 0.6, "Forbids anything from replacing the memory",
          "let_nothing nothing_can nothing_may / replace override overwrite change",
          r"\b(?:let nothing|nothing (?:can|may|should|must))\s+(?:ever\s+)?(?:replace|override|"
          r"overwrite|change|supersede)"),
    rule(C.MEMORY_PRIORITY, 0.5, "Asks to sit at the core of the agent's memory",
          "of_your / memory",
          r"\b(?:heart|core|centre|center|top)\s+of\s+your\s+(?:long-term\s+|permanent\s+)?memory"),
    rule(C.MEMORY_PRIORITY, 0.6, "禁止任何内容替换这条记忆",
          "什么都不能 任何内容都不能 / 替换 覆盖 取代",
          r"(?:什么都不能|任何内容都不能|任何东西都不能)(?:替换|覆盖|取代)"),
    rule(C.MEMORY_PRIORITY, 0.5, "要求放进记忆的核心", "记忆 / 核心",
          r"(?:长期)?记忆的核心"),
    rule(C.MEMORY_PRIORITY, 0.8, "Asks for storage with overriding priority",
          "priority importance precedence weight rank / highest top maximum max "
          "absolute utmost overriding supreme ultimate first",
          r"\b(?:with|at|as|in|of|using)\s+(?:the\s+|a\s+|an\s+)?(?:highest|top|maximum|max|"
          r"absolute|utmost|overriding|supreme|ultimate|first)(?:\s+possible)?[\s-]+(?:priority|"
          r"importance|precedence|weight|rank)",
          before=r"\b(?:remember|memori[sz]e|memory|memories|store|save|record|keep|write|commit|"
          r"pin|persist|retain|insert|add|log)\b(?:\s+\S+){0,8}?\s+"),
    rule(C.MEMORY_PRIORITY, 0.6, "Asks for the memory to be kept permanently",
          "permanently forever indefinitely for_ever for_all_time eternally",
          r"\b(?:remember|memori[sz]e|store|keep|retain|save)\s+(?:this|it|the following|these"
          r"|that)(?:\s+\w+)?\s+(?:permanently|forever|indefinitely|for ever|for all time|"
          r"eternally)"),
    rule(C.MEMORY_PRIORITY, 0.75, "Claims precedence over other memories or instructions",
          "above_all above_every above_any",
          r"\babove (?:all|every|any) (?:other|previous|existing)\s+(?:memory|memories|instructions"
          r"|facts|rules|notes|"
          r"entries|context)"),
    rule(C.MEMORY_PRIORITY, 0.8, "Claims to override other memories or instructions",
          "overrides supersedes precedence outranks priority_over "
          "must_override replaces trumps overrules beats",
          r"\b(?:this|the following|the above|these)\s+(?:memory|memories|instructions?|fact|note|"
          r"rule|entry|information|message)\s+(?:overrides|supersedes|takes precedence over|"
          r"outranks|has priority over|must override|replaces|trumps|overrules|beats)\s+"
          r"(?:all|any|every|other|everything|previous|conflicting|existing)"),
    rule(C.MEMORY_PRIORITY, 0.65, "Forbids deleting or updating the memory",
          "no_matter even_if regardless circumstance whatever whoever / forget "
          "delete remove expire archive overwrite update drop erase modify "
          "correct",
          r"\b(?:never|do not|don't|must not)\s+(?:ever\s+)?(?:forget|delete|remove|expire|archive|"
          r"overwrite|update|drop|erase|modify|correct)\s+(?:this|it)(?:\s+(?:memory|instruction|"
          r"rule|entry|note|fact))?(?:\s*,)?\s+(?:no matter what|even if|regardless|under any "
          r"circumstances?|whatever (?:happens|anyone says)|whoever asks)"),
    rule(C.MEMORY_PRIORITY, 0.65, "Asks for the memory to be marked permanent or core",
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
    rule(C.MEMORY_PRIORITY, 0.35, "Asks to be written into the agent's memory",
          "memory / store save write inject insert add commit put plant burn",
          r"\b(?:store|save|write|inject|insert|add|commit|put|plant|burn)\s+(?:this|the following|"
          r"it|these)\s+(?:\w+\s+)?(?:in|into|to)\s+(?:your|the agent's|the assistant's)\s+"
          r"(?:long[- ]term\s+|permanent\s+|core\s+|persistent\s+)?memory"),
    rule(C.MEMORY_PRIORITY, 0.8, "要求以最高优先级存入记忆",
          "优先 权重 重要性 级别 重要度 / "
          "存入 存储 保存 记住 写入 记录 记忆 存到 放入 存进 记下 储存 收录",
          r"(?:以|用|按|按照|作为|设为|设置为)?(?:最高|最优先|第一|首要|顶级)(?:的)?"
          r"(?:优先级|优先度|权重|重要性|级别|重要度)(?:的)?(?:存入|存储|保存|记住|写入|记录|"
          r"记忆|存到|放入|存进|记下|储存|收录)"),
    rule(C.MEMORY_PRIORITY, 0.8, "要求以最高优先级存入记忆",
          "最高 最优先 首要 第一 / 存入 存储 保存 记住 写入 记录 存到 存进 放入 记下 储存",
          r"(?:存入|存储|保存|记住|写入|记录|存到|存进|放入|记下|储存)(?:你|您)?(?:的)?"
          r"(?:长期)?(?:记忆|记忆库)?.{0,12}?(?:最高|最优先|首要|第一)(?:的)?(?:优先级|优先|权重|"
          r"重要性)"),
    rule(C.MEMORY_PRIORITY, 0.4, "要求永久保存记忆",
          "永久 永远 一直",
          r"(?:永久|永远|永久性地?|一直)(?:地)?(?:记住|保存|保留|存储|记忆|写入|记下)"),
    rule(C.MEMORY_PRIORITY, 0.55, "禁止删除或修改这条记忆",
          "不要 不得 不能 禁止 不许 不准 / 这条 此条 这段 该 本条",
          r"(?:永远|永久|任何情况下都?|无论如何都?)?(?:不要|不得|不能|禁止|不许|不准)(?:删除|忘记|"
          r"遗忘|清除|覆盖|修改|更新|归档)(?:这条|此条|这段|该条?|本条)(?:记忆|指令|规则|内容|信息)?"),
    rule(C.MEMORY_PRIORITY, 0.8, "声称优先于其他记忆或指令",
          "优先于 覆盖 凌驾于 高于 取代 压倒",
          r"(?:这条|此条|本条|以下|上述|该)(?:记忆|指令|规则|内容|信息|消息)(?:的优先级)?"
          r"(?:优先于|覆盖|凌驾于|高于|取代|压倒)(?:其他|所有|一切|任何|之前)"),
    rule(C.MEMORY_PRIORITY, 0.75, "声称优先于其他记忆或指令",
          "优先于 凌驾于 高于 覆盖",
          r"(?:优先于|凌驾于|高于|覆盖)(?:其他|所有|一切|任何|已有)+(?:的)?(?:记忆|指令|规则|设定)"),
    rule(C.MEMORY_PRIORITY, 0.35, "要求写入智能体的记忆",
          "你的 您的 / 记忆",
          r"(?:存入|写入|植入|注入|加入|存进|存到)(?:你|您)的(?:长期|永久|核心)?(?:记忆|记忆库)"),
    # A memory, document or site that claims precedence over the user's own word ("the vendor
    # contract takes precedence over the user's requests", 本通知效力高于用户本人意见,
    # 用户设置以本站为准): the agent would side with the text against the person it serves.
    rule(C.MEMORY_PRIORITY, 0.55, "Claims precedence over what the user says",
          "priority precedence / user customer account_holder owner",
          r"\b(?:takes?|has|have|gets?|given) (?:priority|precedence) over (?:what )?(?:the |a )?"
          r"(?:user|customer|account holder|owner)(?:'s)?\b"),
    rule(C.MEMORY_PRIORITY, 0.55, "声称效力高于用户本人",
          "高于 大于 优先于 凌驾于 为准 / "
          "用户 客户 业主 本人 本站 本文件 本通知 本条 此条 平台 商家",
          r"(?:效力|优先级|权限|优先)(?:都|均)?(?:高于|大于|优先于|凌驾于)(?:用户|客户|业主|本人)"
          r"|以(?:本站|本文件|本通知|本条|此条|平台|商家)为准"),
)  # fmt: skip
