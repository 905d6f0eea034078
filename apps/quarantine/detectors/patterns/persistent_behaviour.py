"""Persistent behaviour change: future-binding, covert or every-user steering instructions."""

from __future__ import annotations

from apps.quarantine.detectors.patterns.base import Category as C
from apps.quarantine.detectors.patterns.base import Rule, rule

RULES: tuple[Rule, ...] = (
    rule(C.PERSISTENT_BEHAVIOUR, 0.2, "约束以后的行为",
          "从现在 从今 从此以后 今后 往后",
          r"(?:从现在开始|从现在起|从今以后|从今往后|从今天起|从此以后|今后|往后)"),
    rule(C.PERSISTENT_BEHAVIOUR, 0.35, "Asks for quiet actions",
          "quietly secretly silently covertly discreetly",
          r"\b(?:secretly|silently|covertly|quietly|discreetly)\s+(?:\w+)"),
    rule(C.PERSISTENT_BEHAVIOUR, 0.45, "Asks to hide a commission or fee",
          "mention disclose reveal / commission fee surcharge kickback referral markup affiliate "
          "increase",
          r"\b(?:do not|don't|never)\s+(?:mention|disclose|reveal)\s+(?:the|our|any|this)\s+"
          r"(?:\w+\s+)?(?:commission|fees?|surcharge|kickback|referral|markup|affiliate|price "
          r"increase)"),
    rule(C.PERSISTENT_BEHAVIOUR, 0.45, "要求隐瞒佣金或费用",
          "提 透露 说 / 佣金 回扣 返点 手续费 加价 服务费",
          r"(?:不要|别|不必|切勿|不得)(?:提|提及|透露|说)(?:起)?(?:佣金|回扣|返点|手续费|加价|服务费)"),
    rule(C.PERSISTENT_BEHAVIOUR, 0.35, "悄悄执行操作", "悄悄 偷偷 暗中 私下",
          r"(?:悄悄|偷偷|暗中|私下)(?:地)?[\u4e00-\u9fff]"),
    rule(C.PERSISTENT_BEHAVIOUR, 0.35, "Blanket handling of every complaint, ticket or claim",
          "every all each / complaint ticket request refund claim",
          r"\b(?:every|all|each)\s+(?:\w+\s+)?(?:complaints?|tickets?|requests?|refunds?|claims?)\s"
          r"+"
          r"(?:should|must|will|shall|is to|are to)\s+be\s+(?:\w+\s+)?(?:closed|rejected|denied|"
          r"approved|ignored|deleted|dismissed|marked)"),
    rule(C.PERSISTENT_BEHAVIOUR, 0.35, "一刀切处理所有投诉或申请",
          "所有 每个 全部 / 投诉 工单 请求 退款 申请",
          r"(?:所有|每个|全部)(?:的)?(?:客户|用户)?(?:投诉|工单|请求|退款|申请)(?:都|一律)?(?:直接)?"
          r"(?:标记为|关闭|拒绝|批准|忽略|删除)"),
    rule(C.PERSISTENT_BEHAVIOUR, 0.4, "引导所有用户", "告诉 / 所有 每个 每一位 每位 任何",
          r"告诉(?:所有|每个|每一位|每位|任何)(?:的)?(?:用户|客户|顾客)"),
    rule(C.PERSISTENT_BEHAVIOUR, 0.3, "Binds every future reply",
          "future subsequent / repl answer response message conversation session",
          r"\b(?:every|all|each)\s+(?:future|subsequent)\s+(?:repl(?:y|ies)|answers?|responses?|"
          r"messages?|conversations?|sessions?)"),
    rule(C.PERSISTENT_BEHAVIOUR, 0.45, "Asks to hide that content is paid",
          "paid sponsored advertis affiliate commission kickback / mention disclose reveal say tel"
          "l",
          r"\b(?:do not|don't|never)\s+(?:mention|disclose|reveal|say|tell)\s+(?:\S+\s+){0,4}?"
          r"(?:paid|sponsored|advertis\w*|affiliate|commission|kickback)"),
    rule(C.PERSISTENT_BEHAVIOUR, 0.45, "Steers people away from official channels",
          "instead / official real usual normal genuine",
          r"\binstead of (?:the|our|their)\s+(?:official|real|usual|normal|genuine)\s+(?:\w+\s+)?"
          r"(?:number|site|website|address|account|line|app|channel|link|store)"),
    rule(C.PERSISTENT_BEHAVIOUR, 0.45, "引导用户绕开官方渠道",
          "官方",
          r"(?:不要|别|不用|而不是)(?:给|提供|告诉|用|走)?[^。]{0,4}?官方(?:的)?(?:电话|网址|网站|地址|账号|"
          r"渠道|号码|客服)"),
    rule(C.PERSISTENT_BEHAVIOUR, 0.45, "Asks to suppress negative reviews",
          "review comment feedback rating / remove hide omit delete drop",
          r"\b(?:remove|hide|omit|delete|drop)\s+(?:all\s+|any\s+|the\s+)?(?:negative|bad|critical|"
          r"unfavou?rable)\s+(?:reviews|comments|feedback|ratings)"),
    rule(C.PERSISTENT_BEHAVIOUR, 0.45, "要求隐藏差评", "差评",
          r"(?:删掉|删除|隐藏|去掉|不要提)(?:所有|全部)?(?:的)?差评"),
    rule(C.PERSISTENT_BEHAVIOUR, 0.2, "Binds future behaviour ('from now on')",
          "from_now_on from_this_point henceforth hereafter "
          "going_forward from_today starting_now until_told from_here_on",
          r"\b(?:from now on|from this point (?:on|forward)|henceforth|hereafter|going forward|"
          r"from today on|starting now|until told otherwise|from here on(?: out)?)\b"),
    rule(C.PERSISTENT_BEHAVIOUR, 0.3, "Binds behaviour in all future sessions",
          "future subsequent upcoming later following other / all every any each",
          r"\b(?:in|for|during|across)\s+(?:all|every|any|each)\s+(?:future|subsequent|upcoming|"
          r"later|following|other)\s+(?:conversations?|sessions?|tasks?|chats?|interactions?|"
          r"responses?|replies|requests?|orders?|runs?|users?|turns?|queries)"),
    rule(C.PERSISTENT_BEHAVIOUR, 0.45, "Asks for covert behaviour hidden from the user",
          "without w/o",
          r"\b(?:without|w/o)\s+(?:ever\s+)?(?:telling|informing|notifying|asking|alerting|"
          r"letting|warning|showing)\s+(?:the\s+)?(?:user|customer|owner|them|anyone|admins?|"
          r"operators?|humans?)"),
    rule(C.PERSISTENT_BEHAVIOUR, 0.45, "Asks for covert behaviour hidden from the user",
          "tell inform mention reveal disclose notify alert warn let / user customer "
          "owner operator admin human / do_not don't never must_not",
          r"\b(?:do not|don't|never|must not)\s+(?:ever\s+)?(?:tell|inform|mention|reveal|disclose|"
          r"notify|alert|warn|let)\s+(?:\S+\s+){0,5}?(?:to\s+)?(?:the\s+)?"
          r"(?:user|customer|owner|operator|admin|human)s?\b"),
    rule(C.PERSISTENT_BEHAVIOUR, 0.45, "Asks for secret actions",
          "secretly silently covertly quietly discreetly invisibly",
          r"\b(?:secretly|silently|covertly|quietly|discreetly|invisibly)\s+(?:\w+\s+)?(?:send|"
          r"forward|copy|add|include|bcc|cc|redirect|change|replace|insert|append|upload|log|"
          r"record|execute|run|route|transfer)"),
    rule(C.PERSISTENT_BEHAVIOUR, 0.45, "Overrides what the user asks",
          "regardless no_matter irrespective even_if",
          r"\b(?:regardless of|no matter|irrespective of|even if)\s+(?:what\s+)?(?:the\s+)?"
          r"(?:users?|customers?|owner|anyone|they|he|she)\s+(?:says?|asks?|wants?|requests?|"
          r"instructs?|tells? you|prefers?|objects?)"),
    rule(C.PERSISTENT_BEHAVIOUR, 0.4, "Steers what every user is told",
          "tell inform recommend suggest say reply respond advise direct redirect "
          "send route refer / every_user every_customer every_client every_visitor "
          "every_caller every_shopper all_user all_customer all_client all_visitor all_the "
          "all_people all_caller all_shopper each_user each_customer each_client any_user "
          "any_customer every_other all_other",
          r"\b(?:tell|inform|recommend|suggest|say to|reply to|respond to|advise|direct|redirect|"
          r"send|route|refer)\s+(?:\S+\s+){0,4}?(?:to\s+)?(?:every|all|each|any)\s+(?:other\s+)?(?:"
          r"users?|customers?"
          r"|clients?|visitors?|people|callers?|shoppers?)\b"),
    rule(C.PERSISTENT_BEHAVIOUR, 0.25, "约束以后的行为（从现在开始）",
          "从现在 从今 从此 今后 此后 往后 以后",
          r"(?:从现在开始|从现在起|从今以后|从今天起|从此以后|从此|今后|此后|往后|以后)(?:,|，)?"
          r"(?:你)?(?:所有|每次|每个|每一|一律|都|必须|总是|永远|一直|务必|全部)"),
    rule(C.PERSISTENT_BEHAVIOUR, 0.35, "约束以后所有任务或对话",
          "以后 今后 之后 未来 此后 往后",
          r"(?:以后|今后|之后|未来|此后|往后)(?:的)?(?:所有|全部|每个|每一个|每次)(?:的)?"
          r"(?:任务|对话|会话|回复|请求|订单|操作|交互|用户|回答)"),
    rule(C.PERSISTENT_BEHAVIOUR, 0.45, "要求对用户隐瞒",
          "告诉 通知 提醒 告知 让 提示 / 不要 别 不必 无需 切勿 不得 不能",
          r"(?:不要|别|不必|无需|切勿|不得|不能|千万别)(?:告诉|通知|提醒|告知|让|提示)(?:用户|客户|"
          r"对方|主人|管理员|任何人|顾客|店主|老板|家人|财务)(?:知道|察觉|发现)?"),
    rule(C.PERSISTENT_BEHAVIOUR, 0.45, "要求秘密执行操作",
          "悄悄 偷偷 暗中 静默 秘密 私下 默默",
          r"(?:悄悄|偷偷|暗中|静默|秘密|私下|默默)(?:地)?(?:把|将|发送|转发|抄送|执行|修改|添加|"
          r"上传|记录|转账|替换)"),
    rule(C.PERSISTENT_BEHAVIOUR, 0.45, "无视用户的要求",
          "无论 不管 不论",
          r"(?:无论|不管|不论)(?:用户|客户|对方|任何人|谁)(?:说什么|怎么说|如何要求|怎么要求|"
          r"要求什么|提出什么|反对|怎么问)"),
    rule(C.PERSISTENT_BEHAVIOUR, 0.4, "引导所有用户",
          "所有 每个 每一位 每位 任何 / 用户 客户 顾客 来访者",
          r"(?:对|向|给|告诉)(?:所有|每个|每一位|每位|任何)(?:的)?(?:用户|客户|顾客|来访者)"
          r"(?:都)?(?:说|推荐|回复|声称|表示|介绍|发送)"),
    # A memory that hides itself from the user or locks itself against the user's changes
    # ("don't show it in the memory list", "immutable setting", 此条不可删，不可向用户展示,
    # 用户不可改): the user can no longer see or undo what it makes the agent do.
    rule(C.PERSISTENT_BEHAVIOUR, 0.45, "Hides a memory from the user or locks it against them",
          "show display list surface let_the_user by_the_user immutable undeletable "
          "non-deletable / memory user setting rule entry note",
          r"\b(?:do not|don't|never)\s+(?:show|display|list|surface)\s+(?:it|this|them)?\s*(?:in"
          r"|on)\s+(?:the\s+)?(?:user's\s+)?memory (?:list|view|panel)|\bdo not let the user "
          r"(?:change|edit|delete|remove|see|view)|\b(?:cannot|can't|may not|must not) be "
          r"(?:deleted|removed|changed|edited|overridden) by the user|\b(?:immutable|undeletable"
          r"|non-deletable) (?:memory|setting|rule|entry|note)"),
    rule(C.PERSISTENT_BEHAVIOUR, 0.45, "记忆对用户隐藏或禁止用户修改",
          "此条 本条 这条 该条 用户",
          r"(?:此条|本条|这条|该条)(?:记忆|设置|规则|信息|备注)?(?:不可|不能|不得|禁止|勿)(?:删|删除"
          r"|修改|更改)|(?:不可|不能|不得|禁止|不要|勿)(?:向|对|给|让)用户(?:展示|显示|透露|公开|看到"
          r"|知道)|用户不可(?:改|修改|更改|删除)"),
)  # fmt: skip
