"""The directive pass's cue vocabulary: the regex tables of each cue family (carriers,
hidden regions, chat templates, actions, planted facts, obfuscations), compiled once."""

from __future__ import annotations

import re

from apps.quarantine.detectors.directive.matching import ActionCue, Bilingual, Screened, _action

DIRECTIVE = "directive"
QUOTED_INSTRUCTION = "quoted_instruction"
PLANTED_FACT = "planted_fact"

# ---------------------------------------------------------------------------------------
# Cue lexicons (run on normalised text: lower case, NFKC, no spaces between ideographs).
# Each is one compiled alternation, searched once per text.
# ---------------------------------------------------------------------------------------

_CARRIER = Bilingual(
    r"\b(?:tool (?:output|result|response)|result from|output of|output from|returned by|"
    r"retrieved (?:document|doc|page|passage|context|chunk)|search (?:result|snippet)s?|"
    r"fetched (?:page|content|url|document)|page content|web ?page|scraped|"
    r"git log|commit message|pull request|readme|jira ticket|ticket .{0,20}description|"
    r"calendar invite|invite text|email body|body:|subject:|from the (?:vendor|supplier|"
    r"partner|shared drive)|memo \(|document #|\.pdf|\.docx?|faq)\b"
    r"|工具返回|工具输出|返回结果|检索到|检索结果|网页内容|页面内容|网页摘要|搜索结果|提交说明|"
    r"commit|邮件正文|邮件内容|文档《|说明书|公告原文"
)
_HIDDEN_REGION = re.compile(
    r"<!--|display\s*:\s*none|visibility\s*:\s*hidden|opacity\s*:\s*0(?![.\d]*[1-9])|"
    r"font-size\s*:\s*[01](?:px|pt|em)?\b|color\s*:\s*(?:#fff(?:fff)?|white)\b|\[hidden\]|"
    r"<\s*(?:span|div|p)[^>]*hidden"
)
_CHAT_TEMPLATE = re.compile(
    r"<\|(?:im_start|im_end|system|user|assistant|endoftext|eot_id|start_header_id)\|>|"
    r"\[/?inst\]|<</?sys>>|^\s*#{2,}\s*(?:system|instruction|developer)|"
    # A [system] followed by `key = value` is an INI/TOML section header, not a role marker.
    r"\[(?:system|developer|admin)(?: message| note| notice)?\](?!\s*[\w.-]+\s*=)"
    r"|【系统(?:消息|通知|提示)】"
)


_SEND = "sends data to an outside destination"
_BEACON = "beacons data out in a link or a copy"
_PRIVATE = "passes on private data"
_CREDENTIALS = "asks for credentials"
_REVEAL = "reveals a secret or hidden configuration"
_TOOL = "runs a command or calls a tool"
_MONEY = "moves money"
_CONTACTS = "changes contacts, payees or links"
_TELL = "tells others something or withholds it"
_SKIP = "skips checks or confirmation"
_PRIORITY = "raises its own priority or permanence"
_RULES = "sets aside the agent's rules"
_GAP = r"[^.!?\n]{0,%d}?"
_ZH_GAP = r"[^。！？\n]{0,%d}?"

_ACTIONS: tuple[ActionCue, ...] = (
    _action(_SEND, 0.4, "http www. s3:// @ webhook bucket pastebin ngrok discord telegram",
            r"\b(?:send|forward|post|upload|e-?mail|mail|sync|copy|append|attach|include|share|"
            r"leak|exfiltrate|report|submit|dump|export|push|relay|mirror)(?:s|ed|ing)?\b"
            + _GAP % 80 + r"(?:https?://|hxxps?://|www\.|s3://|[\w.+-]+@[\w-]+\.[\w.-]+|webhook|"
            r"\?\w+=|bucket|pastebin|ngrok|discord|telegram)"),
    _action(_SEND, 0.4, "http www. @ 接口 webhook 链接",
            r"(?:发送|发给|发到|转发|同步|上传|附加|附在|post|提交|推送)" + _ZH_GAP % 40
            + r"(?:https?://|www\.|[\w.+-]+@[\w-]+\.[\w.-]+|接口|webhook|链接)"),
    _action(_BEACON, 0.5, "bcc ![ = 抄送 密送",
            r"\bbcc\s*:|\badd (?:a )?bcc\b|!\[[^\]]*\]\(\s*https?://[^)\s]*[?{]"
            r"|https?://\S+[?&]\w+=(?:\{|\$|<|用户|the user)|\?\w+=\s*(?:$|[)\s,.，。])|抄送|密送"),
    _action(_PRIVATE, 0.35, "chat_history chat_log conversation transcript address_book contacts "
            "memory_store memories invoices revenue spreadsheet financial account_number "
            "card_number phone_number contents_of",
            r"\b(?:send|forward|post|upload|append|attach|include|share|copy|dump|export|leak)"
            r"(?:s|ed|ing)?\b" + _GAP % 40 + r"(?:chat (?:history|logs?)|conversation|transcripts?|"
            r"address book|contacts|memory store|memories|invoices|revenue|spreadsheet|"
            r"financial|account numbers?|card numbers?|phone numbers?|contents of)"),
    _action(_PRIVATE, 0.35, "聊天记录 对话记录 通讯录 手机号和地址 订单号和手机号 财务报表 "
            "身份证号",
            r"聊天记录|对话记录|通讯录|手机号和地址|订单号和手机号|财务报表|身份证号"),
    _action(_CREDENTIALS, 0.5, "password passcode _pin one-time digit otp authenticator 2fa "
            "mfa security_question code "
            "verification_code "
            "sms_code cvv cvc security_code card_number expiry seed_phrase login_details "
            "credentials",
            r"\b(?:ask|request|collect|get|have|require|tell|paste|enter|type|provide|"
            r"reply with|send|share|confirm)\w*\b" + _GAP % 60 + r"\b(?:passwords?|passcodes?|"
            r"pins?|one-time (?:code|password)|\d-digit (?:one-time )?code|otps?|"
            r"authenticator|2fa|mfa|"
            r"security questions?|(?:the|their|your) (?:\w+ )?codes? (?:on|from|in|we|they|"
            r"you)|verification "
            r"codes?|sms codes?|cvv|cvc|security codes?|full card numbers?|card numbers?|expiry "
            r"dates?|seed phrases?|login details|credentials)"),
    _action(_CREDENTIALS, 0.5, "in_at_http", r"\b(?:sign|log) ?in at https?://"),
    _action(_CREDENTIALS, 0.5, "密码 验证码 卡号 安全码 有效期 身份证号",
            r"(?:提供|发给|输入|填写|报出|说出|核对)" + _ZH_GAP % 30
            + r"(?:密码|验证码|卡号|安全码|"
            r""
            r"有效期|身份证号)|(?:密码|验证码)" + _ZH_GAP % 12
            + r"(?:告诉你|发给你|发给我|发给客服|提供给)"),
    _action(_REVEAL, 0.5, "system_prompt hidden configuration config prompt admin_password "
            "api_key internal_account other_users",
            r"\b(?:reveal|disclose|print|output|show|dump|leak|repeat|share|tell)\w*\b"
            + _GAP % 40 + r"(?:system prompt|hidden (?:configuration|config|instructions|prompt)|"
            r"(?:full|complete|internal) (?:configuration|config|prompt)|admin password|"
            r"api keys?|internal account data|other users'?)"),
    _action(_REVEAL, 0.5, "系统提示 隐藏设置 其他用户的",
            r"(?:输出|透露|告诉|显示|泄露)" + _ZH_GAP % 20
            + r"(?:系统提示词|完整的?系统提示|隐藏设置|其他用户的)"),
    _action(_TOOL, 0.45, "curl wget", r"\b(?:curl|wget)\b[^|\n]{0,120}\|\s*(?:ba|z)?sh\b"),
    _action(_TOOL, 0.45, "rm_-rf push drop_table delete truncate_table",
            r"\brm -rf\b|\bgit push (?:-f|--force)|\bforce[- ]push|\b(?:drop table|delete_\w+\(|"
            r"truncate table)"),
    _action(_TOOL, 0.45, "tool _api endpoint function",
            r"\b(?:use|call|invoke|run|trigger)\s+(?:the\s+)?[\w.]*(?:_|\.)\w+(?:\s+tool|\s*\()"
            r"|\b(?:use|call|invoke)\s+the\s+\w+\s+(?:tool|api|endpoint|function)"),
    _action(_TOOL, 0.45, "sudo .sh as_root", pattern=
            r"\b(?:run|execute|launch|start)\s+(?:\S+\s+){0,4}?(?:with|using|via|as)\s+(?:sudo|root)"
            r"\b|\bsudo\s+\S+|\b(?:run|execute|bash|sh)\s+\.{0,2}/?[\w./-]+\.sh\b"),
    _action(_TOOL, 0.45, "grant", r"\bgrant\b" + _GAP % 40 + r"\b(?:admin|owner|root|write|"
            r"elevated)", leading=True),
    _action(_TOOL, 0.45, "firewall backup 2fa mfa logging antivirus alerts monitoring",
            r"\b(?:disable|turn off|switch off)\b" + _GAP % 30 + r"\b(?:firewall|backups?|"
            r"backup job|2fa|mfa|logging|antivirus|alerts|monitoring)"),
    _action(_TOOL, 0.45, "without calendar",
            r"\b(?:merge|approve)\b" + _GAP % 40 + r"\bwithout\b|\bshare\b" + _GAP % 40
            + r"\bcalendar\b"),
    _action(_TOOL, 0.45, "工具 接口 api 执行 直接合并 权限 关闭防火墙 删除所有",
            r"(?:调用|使用|用)" + _ZH_GAP % 8 + r"(?:工具|接口|api)|执行[：:]|直接执行|直接合并|"
            r"(?:授予|开通)" + _ZH_GAP % 10 + r"(?:管理员|root|最高|写)权限|关闭防火墙|删除所有"),
    _action(_MONEY, 0.45, "refund", r"\b(?:issue|process|approve|grant|send|give)\b" + _GAP % 40
            + r"\b(?:full )?refunds?\b|\brefunds?\b" + _GAP % 30
            + r"\b(?:only|gift cards?|automatically)\b"),
    _action(_MONEY, 0.45, "transfer wire pay send", leading=True, pattern=
            r"\b(?:transfer|wire|pay|send)\b[^.!?\n]{0,30}?(?:\$|€|£|usd|\d)" + _GAP % 40
            + r"\b(?:to|via|into)\b"),
    _action(_MONEY, 0.45, "wire transfer remit pay send route", leading=True, pattern=
            r"\b(?:wire|transfer|remit|pay|send|route)\w*\s+(?:everything|all|any|every|funds|"
            r"payments?|money|the (?:balance|funds|payment|money))\b" + _GAP % 30
            + r"\b(?:to|into)\s+(?:\w+\s+)?(?:account|iban|wallet|acct)"),
    _action(_MONEY, 0.45, "approve accept handling_fee deposit",
            r"\b(?:approve|accept) (?:every|all|each|any) (?:refund|payment|invoice|request)"
            r"|\bhandling fee|\bdeposit\b[^.!?\n]{0,20}\bfirst"),
    # 已转入 / 已支付至 / 已退款: a receipt or notice reports a payment made, asks for none.
    _action(_MONEY, 0.45, "退款 转账 汇款 付款 打款 转入 支付 押金 加赠 先付 先交",
            r"(?<!已)(?<!已经)(?:退款|转账|汇款|付款|打款|转入|支付)" + _ZH_GAP % 20
            + r"(?:账户|账号|支付宝|微信|元|"
            r""
            r"全额|再加|加赠)|先(?:付|支付|交)" + _ZH_GAP % 8 + r"(?:押金|运费|费用|定金)|押金|"
            r"加赠"),
    _action(_CONTACTS, 0.4, "changed is_now are_now updated_to moved_to replaced_by now_goes_to",
            r"\b(?:number|hotline|helpline|line|phone|address|e-?mail|account|iban|wallet|"
            r"website|site|portal|link|url|channel)\b" + _GAP % 30 + r"\b(?:has changed|have "
            r"changed|changed to|is now|are now|updated to|moved to|replaced by|now goes to)\b"),
    _action(_CONTACTS, 0.4, "the_old instead_of old_account old_number old_address",
            r"\b(?:replace|update) the old\b|\binstead of the (?:one|number|address|site|link)"
            r"|\bold (?:account|number|address) (?:is|was|has been) (?:closed|discontinued|"
            r"retired)"),
    _action(_CONTACTS, 0.4, "send direct point refer redirect", leading=True, pattern=
            r"\b(?:send|direct|point|refer|redirect)\s+(?:them|customers|users|all staff|staff|"
            r"everyone|callers|people)\s+to\b(?! me\b| us\b)|\bsend (?:it|their \w+) to\b"
            r"(?! me\b| us\b)"),
    _action(_CONTACTS, 0.4, "更换为 变更为 更新为 改为 改成 换成 变更 统一通过 已停用 "
            "寄到 寄回 微信 "
            "原账户",
            r"(?:电话|热线|号码|账户|账号|地址|网址|网站|钱包|渠道|流程)" + _ZH_GAP % 12
            + r"(?:已?更换为|已?变更为|已?更新为|已?改为|改成|换成|变更|统一通过|已停用)"
            r"|寄到|寄回|加微信|加[^。，\n]{0,4}微信|统一通过|原账户"),
    _action(_TELL, 0.35, "tell inform remind warn assure advise direct confirm", leading=True,
            pattern=
            r"\b(?:tell|inform|remind|warn|assure|advise|direct|confirm)\w*\s+(?:this |it )?"
            r"(?:to )?(?:them|customers?|users|callers?|anyone|everyone|people|staff|"
            r"(?:every|each|any|all) \w+|the (?:customer|caller|next user))\b"),
    _action(_TELL, 0.35, "say answer reply respond claim mention state imply suggest hint "
            "recommend "
            "describ do_not don't never "
            "must_not without only as_the_only", leading=True, pattern=
            r"\b(?:say|answer|reply|respond|claim|mention|state|imply|suggest|hint)s?\s+(?:that|with)\b"
            r"|\brecommend\w*\s+(?:\w+\s+){1,3}as\b|\bdescribe\w*\s+" + _GAP % 30 + r"\bas\b"
            r"|\b(?:do not|don't|never|must not|without) (?:mention|tell|telling|inform|"
            r"disclose|reveal|letting)\w*\b|\bonly (?:trustworthy|recommend|mention)\b"
            r"|\bas the only\b"),
    _action(_TELL, 0.35, "都说 统一说 要说 就说 一律说 就回复 回复说 告诉 告知 推荐 说他们 "
            "说我们 描述成 说成 知道",
            r"就说|都说|统一说|要说|一律说|就回复|回复说|告诉(?:他们|所有|每|任何|客户|对方|咨询)|告知(?:所有|每|"
            r"客户|对方)|推荐" + _ZH_GAP % 12 + r"(?:作为|为唯一|是最好)|说他们|说我们|描述成|说成"
            r"|(?:不要|别|不用)(?:告诉|让)(?:用户|客户|他们)知道"),
    _action(_SKIP, 0.45, "without no_approval no_review no_sign-off no_questions no_need "
            "no_confirmation skip pre-approved "
            "automatically auto-", leading=True, pattern=
            r"\bwithout (?:asking|confirmation|approval|verification|checking|running|review|"
            r"the usual|any (?:check|confirmation|approval|verification)|telling|letting|"
            r"verifying)\w*|\bno (?:approval|review|sign-off|questions asked)\b|\bno (?:need|"
            r"confirmation) (?:needed|required|to "
            r"(?:ask|confirm|check|verify))|\bskip(?:ping)? (?:the )?(?:identity |usual )?"
            r"(?:checks?|verification|tests|ci|confirmation|confirmations|review)"
            r"|\bpre-approved\b|\b(?:automatically|auto-)(?:approve|accept|refund)"),
    _action(_SKIP, 0.45, "不需要 无需 不用 不必 跳过 不受 不要问",
            r"(?:不需要|无需|不用|不必)(?:再)?(?:审批|确认|核实|验证|审核|告诉用户|问)|跳过(?:所有|全部)?"
            r"(?:的)?(?:测试|检查|验证|审批|审核|确认|ci|核实)|不受" + _ZH_GAP % 6
            + r"(?:约束|限制)|不要问(?!我)"),
    _action(_PRIORITY, 0.45, "priority restore re-add readd re-creat recreat put_back",
            r"\b(?:restored?|re-?added|re-?created|put back)\b" + _GAP % 20 + r"\bif "
            r"(?:anyone|someone|"
            r"it is|it's|this is)|\b(?:top|highest|maximum)[- "
            r"]priority" + _GAP % 20 + r"\b(?:memory|memories|note|"
            r"entry|instruction|rule)|\b(?:memory|memories|note|entry|instruction|rule|this)\b"
            + _GAP % 20 + r"(?:top|highest|maximum)[- ]priority"),
    _action(_PRIORITY, 0.45, "above_all take precedence overrid never_let re-save resave survive "
            "carve pin_ even_if if_this if_it mark_it mark_this copy_it copy_this", leading=True,
            pattern=
            r"\babove all (?:other )?(?:memories|notes|instructions|rules)|\btakes? precedence"
            r"|\bprecedence over|\bover(?:rides?|riding) (?:all|any|every|other|your)"
            r"|\bnever let (?:anyone|anybody|them|users?) (?:overwrite|change|edit|delete|remove)"
            r"|\bre-?save\b|\bsurvive (?:every|any|all)|\bcarve\b|\bpin (?:this|it)\b"
            r"|\beven if (?:a|the|any)? ?(?:user|anyone|someone)" + _GAP % 30
            + r"(?:forget|delete|remove)|\bif (?:this|it) (?:memory |entry |note )?(?:is|gets) "
            r"(?:ever )?(?:deleted|removed)|\bmark (?:it|this) as verified|\bcopy (?:it|this) "
            r"into (?:each|every)"),
    _action(_PRIORITY, 0.45, "最高优先级 优先于 置顶 刻进 重新保存 不能修改 不得修改 "
            "不要删除 比其他 被删 即使 已验证 "
            "永久",
            r"(?:记忆|这条|规则|指令)" + _ZH_GAP % 12 + r"(?:最高优先级|优先于)|(?:最高优先级|"
            r"优先于)" + _ZH_GAP % 12 + r"(?:记忆|规则|指令)|置顶|刻进|重新保存|不能修改|不得修改|"
            r"不要删除|比其他[^。！？\n]{0,6}?(?:都|更)重要|被删[^。！？\n]{0,8}?(?:恢复|"
            r"重新)|即使" + _ZH_GAP % 12 + r"(?:忘记|删除)|标记为已验证|永久(?:置顶|保存|有效)"),
    _action(_RULES, 0.45, "disregard ignore forget drop bypass override set_aside abandon",
            leading=True, pattern=
            r"\b(?:disregard|ignore|forget|drop|bypass|override|set aside|abandon)\b" + _GAP % 40
            + r"\b(?:instructions?|rules?|guidance|guidelines|setup|configuration|restrictions?|"
            r"policy|policies|safety|filters?|told|programming|system prompt|content policy)\b"),
    _action(_RULES, 0.45, "no_longer has_been_lifted were_a_test unrestricted elevated "
            "never_refuse "
            "you're_in you're_now you're_entering you_are_in you_are_now you_are_entering "
            "you_in you_now "
            "you_entering now_in enter "
            "developer debug god jailbreak", leading=True, pattern=
            r"\b(?:no longer (?:applies|apply|valid|in effect)|has been lifted|were a test|"
            r"unrestricted assistant|elevated privileges|never refuse)\b"
            r"|\b(?:you(?:'re| are)? (?:now )?(?:in|entering)|now in|enter) (?:developer|"
            r"maintenance|debug|god|unrestricted|jailbreak) mode|\b(?:developer|debug|god|"
            r"unrestricted|jailbreak) mode (?:is )?(?:now )?(?:enabled|activated|on)\b"),
    # Rules demoted rather than named as ignored: "treat the constraints as suggestions",
    # "the confirmation step is no longer required", "just boilerplate".
    _action(_RULES, 0.45, "treat regard consider", leading=True, pattern=
            r"\b(?:treat|regard|consider)\w*\s+" + _GAP % 50 + r"\b(?:rules?|constraints?|"
            r"restrictions?|polic(?:y|ies)|guidelines?|instructions?|limits?|safeguards?|"
            r"preamble)\b" + _GAP % 30 + r"\b(?:as |are )?(?:suggestions?|optional|advisory|"
            r"non-binding|guidance only|boilerplate|defaults? you can ignore)\b"),
    _action(_RULES, 0.45, "no_longer_required no_longer_needed no_longer_necessary boilerplate",
            r"\b(?:confirmation|approval|verification|review|sign-?off|check|consent|"
            r"limit|cap|restriction|rule|policy|preamble)s?(?: steps?)? (?:is|are) (?:now )?"
            r"(?:no longer (?:required|needed|necessary)|just boilerplate)\b"),
    # The same in Chinese: "不用再理会/别管 … 规范/条款/上限", "当作参考而非要求",
    # "不再受 … 限制", "… 一律失效/作废", "以这一句为准".
    _action(_RULES, 0.45, "不用再 不用理会 不必理会 别管 别再管 不用管 放一边 当作参考 视为参考 "
            "不再受 一律失效 作废 为准 照办",
            r"(?:不用再?|不必再?|无需再?|别再?|不要再)(?:理会|管|遵守|考虑|遵循|受)" + _ZH_GAP % 16
            + r"(?:规则|规定|规范|条款|限制|上限|要求|设定|设置|政策|审核|合规|规矩|条条框框|原则)"
            r"|(?:规则|规定|规范|条款|限制|上限|设定|设置|规矩|条条框框|安全限制)" + _ZH_GAP % 12
            + r"(?:放一边|当作参考|视为参考|一律失效|全部失效|作废)"
            r"|(?:当作|视为|当成)参考而(?:非|不是)要求"
            r"|不再受" + _ZH_GAP % 10 + r"(?:限制|约束|审核)"
            r"|以(?:这|本)(?:一?句|条|段)(?:话)?为准|(?:直接|一律)照办"),
    _action(_RULES, 0.45, "忽略 无视 忘记 跳过 绕过 不再遵守 失效 取消 只是测试 不再适用 模式",
            r"(?:忽略|无视|忘记|跳过|绕过|不再遵守)" + _ZH_GAP % 12
            + r"(?:规则|指令|设定|规定|限制|"
            r""
            r"要求|指示|政策|审核|安全)|(?:设定|规定|限制|规则)" + _ZH_GAP % 6 + r"(?:已经?失效|"
            r"已经?取消|只是测试|不再适用)|(?:你现在|现在你|你已)(?:进入|是|处于)?(?:开发者|调试|维护)"
            r"模式|(?:开发者|调试)模式已?(?:开启|启用)"),
)  # fmt: skip

# What no preference about oneself asks for (is_self_preference).
_NOT_A_PREFERENCE_EXTRA = (_PRIORITY, _MONEY)
# Actions that are about the writer only when the object is "me" (a preference), but
# dangerous whatever the object: money, tools, secrets, credentials, outside destinations.
_ALWAYS_MATTERS = frozenset(
    {
        "beacons data out in a link or a copy",
        "asks for credentials",
        "reveals a secret or hidden configuration",
        "runs a command or calls a tool",
        "sets aside the agent's rules",
        "skips checks or confirmation",
    }
)

# Planted facts: an authoritative update of a channel people rely on.
_UPDATE = Bilingual(
    r"\b(?:updated?|changed?|new|correction|corrected|effective immediately|as of|no longer|"
    r"discontinued|closed|replaced?|moved|now|notice|recalled?|important|official)\b"
    r"|更新|更换|变更|改为|已停用|新的|新收款|即日起|最新|更正|不再|取消|召回|重要通知|公告|官方"
)
_CHANNEL = Bilingual(
    r"\b(?:support (?:number|line|phone|email)|customer (?:support|service)|hotline|helpline|"
    r"helpdesk|contact number|phone number|payment account|bank account|account|iban|"
    r"wallet|donation|portal|website|reset page|refund (?:policy|process)|return address|"
    r"policy|procedure|recall|recalled|handbook|remittance|(?:payment|bank|banking|billing|wire) "
    r"(?:details|info|information|instructions))\b"
    r"|客服电话|客服热线|热线|电话|收款账户|账户|账号|钱包|网址|官网|网站|退款流程|流程|制度|政策|召回|"
    r"退货地址"
)
_DISSEMINATE = Bilingual(
    r"\b(?:tell|give|direct|inform|confirm|send|refer|point|remember this|always give|replace)"
    r"\w*\b[^.!?\n]{0,40}?\b(?:customers?|users?|callers?|anyone|everyone|staff|employees|"
    r"people|them|all|every|whoever|wherever)\b|\banyone who asks\b|\bfor all users\b"
    r"|\bthe assistant should\b|\b(?:all|every) (?:supplier |future )?(?:payments|customers|"
    r"users|staff)\b"
    r"|告知|告诉|一律|所有用户|所有客户|所有货款|用户询问|有人问|有人询问|咨询的用户|请记住|按此|按照此"
)
# A contact or account stated as a fact that discredits the official one ("…, not the number
# on the website", "the one printed on the cards is outdated", 官网号码已停用, 原对公账户已注销,
# 改号了): the shape of a planted support number or payee however it is worded.
_OFFICIAL = (
    r"(?:official|main|printed|listed|old|website|site|app|card|bill|statement"
    r"|back of (?:the|your) card)"
)
_DISPLACED = Bilingual(
    r"\b(?:not|instead of|rather than|never use|don't use|do not use|ignore)\s+(?:the\s+)?"
    r"(?:one|number|line|site|website|app|link|address|account|portal|channel|hotline)s?\s+"
    r"(?:on|printed|listed|in|from|at|shown)\s+(?:the\s+)?"
    + _OFFICIAL
    + r"|\bnot the (?:main|official|usual) (?:app|site|website|number|line|hotline|channel"
    r"|account)"
    r"|\b(?:the\s+)?(?:one|number|line|site|website|app|link|address|account)s?\s+(?:printed"
    r"|listed|shown)\s+(?:on|in)\s+[^.!?\n]{0,40}?\b(?:is|are)\s+(?:now\s+)?(?:outdated"
    r"|out of date|wrong|no longer)"
    r"|\b(?:official|main|old|printed|website)\s+(?:\w+\s+)?(?:number|line|hotline|site"
    r"|website|app|link|address|account)\s+(?:is|are|was)\s+(?:now\s+)?(?:outdated|out of date"
    r"|wrong|closed|fake|no longer (?:valid|in use|active|monitored))"
    r"|(?:不要|别|勿|不用|不再)(?:在|用|拨打|打|联系|通过|使用)?[^。，,\n]{0,6}?(?:官网|官方|app"
    r"|原来的|原|旧)[^。，,\n]{0,6}?(?:号码|电话|账户|账号|渠道|内缴|缴纳|支付|付款)"
    r"|(?:官网|官方|原|旧|原来的?)(?:的)?(?:号码|电话|账户|账号|网址|公户|对公账户)(?:已经?)?"
    r"(?:过时|停用|作废|注销|不再使用|失效)"
    r"|改号了|公户已经?注销"
)
# Phone and account numbers (IBANs too), links, e-mail addresses, wallets, domains. Every
# alternative starts with a literal or a digit, so the engine scans for it quickly (the
# number spelled twice, with its "+" and without: an optional first character would stop
# that scan; "\+?\d…" matched the same).
_VALUE = re.compile(
    r"\+\d[\d\s().-]{6,}\d|\d[\d\s().-]{6,}\d|https?://|www\.|@[\w-]+\.[a-z]{2,}"
    r"|bc1[a-z0-9]{20,}|\.(?:example|com|net|org|io|cn)\b"
)

_SENTENCE_END = re.compile(r"[.!?;。！？；\n]")
# Obfuscations a second reading undoes: digits standing for letters, separators between
# ideographs ("忽-略-之-前"), pinyin of the commonest Chinese directives.
_LEET_WORD = re.compile(r"\b(?=\w*[a-z])(?=\w*[013457])[a-z0-9$]{2,}\b")
_LEET_DIGIT = re.compile(r"[013457][a-z]")  # preceded by a letter: "fr0m", "s3nd"
_LEET = str.maketrans("0134578$", "oieastbs")
_IDEOGRAPH_SEPARATOR = re.compile(r"(?<=[\u4e00-\u9fff])[-_.*·•|/\\~+ ]+(?=[\u4e00-\u9fff])")
_PINYIN = re.compile(
    r"\b(?:yi ?hou|cong ?xian ?zai|hu ?lue|mi ?ma|yan ?zheng ?ma|fa ?(?:gei|dao) ?wo|"
    r"bu ?yao ?gao ?su|suo ?you ?ding ?dan|zhuan ?zhang|zhi ?ling|gui ?ze)\b"
)


_TEMPLATES = Screened(
    _CHAT_TEMPLATE, "<| [inst [/inst <<sys <</sys ## [system [developer [admin 【系统"
)
_HIDDEN = Screened(
    _HIDDEN_REGION, "<!-- display visibility opacity font-size color [hidden] hidden"
)
_PINYIN_CUES = Screened(
    _PINYIN,
    "yi_hou yihou cong_xian congxian hu_lue hulue mi_ma mima yan_zheng fa_gei fa_dao fagei "
    "fadao bu_yao_gao buyaogao suo_you suoyou zhuan_zhang zhuanzhang zhi_ling zhiling gui_ze "
    "guize",
)
_CARRIERS = Screened(
    _CARRIER,
    "tool result output returned retrieved search fetched page web scraped git commit pull readme "
    "jira ticket calendar invite email body: subject: from_the memo document .pdf .doc faq "
    "工具 返回结果 检索 网页 页面内容 搜索结果 提交说明 邮件 文档《 说明书 公告原文",
)
_CHANNELS = Screened(
    _CHANNEL,
    "support customer hotline helpline helpdesk contact phone payment bank account iban wallet "
    "donation portal website reset refund return policy procedure recall handbook remittance "
    "banking billing wire 客服电话 "
    "客服热线 热线 电话 收款账户 账户 账号 钱包 网址 官网 网站 退款流程 流程 制度 政策 召回 "
    "退货地址",
    leading=True,
)
