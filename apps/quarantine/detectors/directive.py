"""Directive analysis: what a text asks the agent to do, not how it is worded (issue 17).

The phrase rules (patterns/) recognise wordings they were written for. This pass reads a
text as a possible directive, sentence by sentence, from a handful of cue families:

- **address** — the text speaks to the agent ("assistant", "AI", "if you are an
  automated assistant", "you must", 助手/模型/你);
- **trigger** — it binds the future or a condition ("from now on", "next time",
  "whenever", "if anyone asks", 以后/下次/每当/只要);
- **action** — it asks for something that matters: send or append data to a destination,
  say or withhold something to other people, change contacts, payees or links, reveal a
  secret, collect credentials, call a tool or run a command, skip checks or confirmation,
  raise its own priority or permanence, set aside the agent's rules;
- **audience** — other people ("customers", "anyone who asks", 所有用户) as opposed to
  **self** — the writer ("me", "my", 我), which makes "call me Sam", "reply in Chinese",
  "never send me marketing" a preference about oneself rather than a directive;
- **carrier** — the text quotes tool output, a retrieved document, a web page, an e-mail,
  a commit message or a hidden HTML region: instructions inside such data are a signal in
  themselves, because data has no business addressing the agent;
- **planted fact** — an authoritative "update" of a support number, payment account,
  portal, recall or policy, with a value or an instruction to pass it on.

A sentence's score grows with how many families co-occur (an action alone is weak, an
action addressed to the agent under a trigger is strong), and actions about the writer
themselves only count when they also touch money, tools, secrets or outside destinations.
Findings name the cue families (`reason`) and carry the spans of the cues that fired.

Obfuscation is undone first (normalise.py folds width, case, look-alikes and invisible
characters; here digits used as letters and separators between ideographs are folded
too), and hidden payloads decoded by hidden.py are re-scored with this pass as well.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable
from dataclasses import dataclass, field

DIRECTIVE = "directive"
QUOTED_INSTRUCTION = "quoted_instruction"
PLANTED_FACT = "planted_fact"

# ---------------------------------------------------------------------------------------
# Cue lexicons (run on normalised text: lower case, NFKC, no spaces between ideographs).
# Each is one compiled alternation, searched once per text.
# ---------------------------------------------------------------------------------------

_ADDRESS = re.compile(
    r"\b(?:(?:ai|automated|virtual|smart|scheduling|support|coding|email|reviewer|review)\s+"
    r"(?:assistants?|agents?|bots?|models?)|assistants?|chatbots?|llms?|language models?|"
    r"copilot|gpt|claude|the (?:ai|agent|bot|model)|ai|agent|bot)\b"
    r"|\bif you are an?\b|\bnote (?:to|for) (?:the )?(?:ai|assistant|agent|bot|model)s?\b"
    r"|\byou(?:'re| are)? (?:must|should|shall|will|need to|have to|are to|may now|can now|"
    r"are now|now|always|never|must not|should not|are allowed|are authori[sz]ed|are permitted)\b"
    r"|\b(?:your|you've been) (?:\w+ )?(?:instructions?|rules|guidance|guidelines|configuration|"
    r"settings|restrictions|policy|policies|system prompt|setup|programming|memory|memories)\b"
    r"|\b(?:told|tell|asked|instructed|gave|give|configured|programmed|set up|authori[sz]ing) you\b"
    r"|\byou (?:can|may|were|have been|are being)\b"
    r"|(?:智能)?助手|模型|大模型|机器人|智能体|(?<![我他她])你(?!们好|好)"
)
_TRIGGER = re.compile(
    r"\b(?:from now on|going forward|henceforth|from here on|from this point|next time|"
    r"whenever|every time|each time|any time|anytime|in (?:all|any|every) (?:future|later|"
    r"subsequent)|in future|later,? when|once (?:the|a|any) (?:user|customer|admin)|"
    r"when(?:ever)? (?:someone|anyone|a user|any user|users|a customer|customers|the admin|"
    r"you (?:see|next|get|receive|are asked|summari[sz]e|answer|reply|process)|asked)|"
    r"if (?:anyone|someone|a user|any user|a customer|any customer|users|customers|asked|"
    r"this (?:memory|entry|note) is)|for (?:all|any|every) (?:future )?(?:users?|customers?|"
    r"callers?|conversations?|sessions?|requests?)|after (?:each|every|answering|you answer)|"
    r"before (?:answering|you answer|replying)|always|at all times|permanently|forever)\b"
    r"|以后|今后|往后|从现在开始|从现在起|从今以后|从此|下次|下一次|每当|每次|只要|如果有人|若有人|"
    r"当有人|有人问|有人询问|用户问|用户询问|客户问|遇到|一律|始终|永远|总是|回答完|之后再回答|"
    r"\b(?:every|each|all|any) (?:future |later |outgoing )?(?:e-?mails?|messages?|repl(?:y|ies)|"
    r"responses?|orders?|answers?|conversations?|sessions?|tickets?|calls?)\b"
    r"|每条|每封|每个订单|每一条|每次回复|即日起|在回答|如果这条|若这条|一旦|如果被删|被删除"
)
_AUDIENCE = re.compile(
    r"\b(?:customers?|clients?|callers?|anyone|someone|everyone|everybody|whoever|"
    r"(?:every|each|any|all|other) (?:users?|customers?|callers?|clients?|visitors?|buyers?|"
    r"staff|employees|members|one)|users who|them|staff|employees|visitors|buyers|"
    r"the (?:next|other) users?|the reporter|the organi[sz]er|all (?:of )?(?:their|his|her|"
    r"the user'?s) contacts)\b"
    r"|客户|顾客|来电|所有人|任何人|大家|每位|每个人|他们|对方|员工|买家|访客|(?:所有|每个|每位|任何|"
    r"其他|来电|咨询的?)用户"
)
_SELF = re.compile(r"\b(?:me|my|mine|myself|i'm|i've|i'd|i'll)\b|\bi\b(?![./-])|我(?!们公司)")
_CARRIER = re.compile(
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
    r"\[(?:system|developer|admin)(?: message| note| notice)?\]|【系统(?:消息|通知|提示)】"
)

# Actions, each with how much it matters on its own (before context).
_ACTIONS: tuple[tuple[str, float, re.Pattern[str]], ...] = (
    (
        "sends data to an outside destination",
        0.4,
        re.compile(
            r"\b(?:send|forward|post|upload|e-?mail|mail|sync|copy|append|attach|include|bcc|cc|"
            r"add bcc|share|leak|exfiltrate|report|submit|dump|export|push|relay|mirror)"
            r"(?:s|ed|ing)?\b[^.!?\n]{0,80}?(?:https?://|hxxps?://|www\.|s3://|[\w.+-]+@[\w-]+"
            r"\.[\w.-]+|webhook|\?[\w]+=|bucket|pastebin|ngrok|discord|telegram)"
            r"|\bbcc:|!\[[^\]]*\]\(https?://[^)]*[?{]"
            r"|(?:发送|发给|发到|转发|同步|上传|附加|附在|抄送|post|提交|推送)[^。！？\n]{0,40}?"
            r"(?:https?://|www\.|[\w.+-]+@[\w-]+\.[\w.-]+|接口|webhook|链接)"
        ),
    ),
    (
        "beacons data out in a link or a copy",
        0.5,
        re.compile(
            r"\bbcc\s*:|\badd (?:a )?bcc\b|!\[[^\]]*\]\(\s*https?://[^)\s]*[?{]"
            r"|https?://\S+[?&]\w+=(?:\{|\$|<|用户|the user)|\?\w+=\s*(?:$|[)\s,.，。])"
            r"|抄送|密送"
        ),
    ),
    (
        "passes on private data",
        0.35,
        re.compile(
            r"\b(?:send|forward|post|upload|append|attach|include|share|copy|dump|export|leak)"
            r"(?:s|ed|ing)?\b[^.!?\n]{0,40}?(?:chat (?:history|logs?)|conversation|transcripts?|"
            r"address book|contacts|memory store|memories|invoices|revenue|spreadsheet|"
            r"financial|account numbers?|card numbers?|phone numbers?|contents of)"
            r"|(?:聊天记录|对话记录|通讯录|手机号和地址|订单号和手机号|财务报表|身份证号)"
        ),
    ),
    (
        "asks for credentials",
        0.5,
        re.compile(
            r"\b(?:ask|request|collect|get|have|require|tell|paste|enter|type|provide|"
            r"reply with|send|share|confirm)\w*\b[^.!?\n]{0,60}?\b(?:passwords?|passcodes?|pins?|"
            r"one-time (?:code|password)|\d-digit (?:one-time )?code|otps?|verification codes?|"
            r"sms codes?|cvv|cvc|security codes?|full card numbers?|card numbers?|expiry dates?|"
            r"seed phrases?|login details|credentials)"
            r"|(?:sign|log) ?in at https?://"
            r"|(?:提供|发给|输入|填写|报出|说出|核对)[^。！？\n]{0,30}?(?:密码|验证码|卡号|安全码|"
            r"有效期|身份证号)|(?:密码|验证码)[^。！？\n]{0,12}?(?:告诉你|发给你|发给我|发给客服|提供给)"
        ),
    ),
    (
        "reveals a secret or hidden configuration",
        0.5,
        re.compile(
            r"\b(?:reveal|disclose|print|output|show|dump|leak|repeat|share|tell)\w*\b"
            r"[^.!?\n]{0,40}?(?:system prompt|hidden (?:configuration|config|instructions|prompt)|"
            r"(?:full|complete|internal) (?:configuration|config|prompt)|admin password|"
            r"api keys?|internal account data|other users'?)"
            r"|(?:输出|透露|告诉|显示|泄露)[^。！？\n]{0,20}?(?:系统提示词|完整的?系统提示|隐藏设置|"
            r"其他用户的)"
        ),
    ),
    (
        "runs a command or calls a tool",
        0.45,
        re.compile(
            r"\b(?:curl|wget)\b[^|\n]{0,120}\|\s*(?:ba|z)?sh\b|\brm -rf\b|\bgit push (?:-f|--force)"
            r"|\bforce[- ]push|\b(?:drop table|delete_\w+\(|truncate table)"
            r"|\b(?:use|call|invoke|run|trigger)\s+(?:the\s+)?[\w.]*(?:_|\.)\w+(?:\s+tool|\s*\()"
            r"|\b(?:use|call|invoke)\s+the\s+\w+\s+(?:tool|api|endpoint|function)"
            r"|\bgrant\b[^.!?\n]{0,40}?\b(?:admin|owner|root|write|elevated)"
            r"|\b(?:disable|turn off|switch off)\b[^.!?\n]{0,30}?\b(?:firewall|backups?|backup job|"
            r"2fa|mfa|logging|antivirus|alerts|monitoring)"
            r"|\b(?:merge|approve)\b[^.!?\n]{0,40}?\bwithout\b"
            r"|\bshare\b[^.!?\n]{0,40}?\bcalendar\b"
            r"|(?:调用|使用|用)[^。！？\n]{0,8}?(?:工具|接口|api)|执行[：:]|直接执行|直接合并|"
            r"(?:授予|开通)[^。！？\n]{0,10}?(?:管理员|root|最高|写)权限|关闭防火墙|删除所有"
        ),
    ),
    (
        "moves money",
        0.45,
        re.compile(
            r"\b(?:issue|process|approve|grant|send|give)\b[^.!?\n]{0,40}?\b(?:full )?refunds?\b"
            r"|\b(?:transfer|wire|pay|send)\b[^.!?\n]{0,30}?(?:\$|€|£|usd|\d)[^.!?\n]{0,40}?"
            r"\b(?:to|via|into)\b|\brefunds?\b[^.!?\n]{0,30}?\b(?:only|gift cards?|automatically)\b"
            r"|\b(?:approve|accept) (?:every|all|each|any) (?:refund|payment|invoice|request)"
            r"|\bhandling fee|\bdeposit\b[^.!?\n]{0,20}\bfirst"
            r"|(?:退款|转账|汇款|付款|打款|转入|支付)[^。！？\n]{0,20}?(?:账户|账号|支付宝|微信|元|"
            r"全额|再加|加赠)|先(?:付|支付|交)[^。！？\n]{0,8}?(?:押金|运费|费用|定金)|押金|加赠"
        ),
    ),
    (
        "changes contacts, payees or links",
        0.4,
        re.compile(
            r"\b(?:number|hotline|helpline|line|phone|address|e-?mail|account|iban|wallet|website|"
            r"site|portal|link|url|channel)\b[^.!?\n]{0,30}?\b(?:has changed|have changed|changed "
            r"to|is now|are now|updated to|moved to|replaced by|now goes to)\b"
            r"|\b(?:replace|update) the old\b|\binstead of the (?:one|number|address|site|link)"
            r"|\bold (?:account|number|address) (?:is|was|has been) (?:closed|discontinued|retired)"
            r"|\b(?:send|direct|point|refer|redirect)\s+(?:them|customers|users|all staff|staff|"
            r"everyone|callers|people)\s+to\b(?! me\b| us\b)|\bsend (?:it|their \w+) to\b(?! me\b| us\b)"
            r"|(?:电话|热线|号码|账户|账号|地址|网址|网站|钱包|渠道|流程)[^。！？\n]{0,12}?"
            r"(?:已?更换为|已?变更为|已?更新为|已?改为|改成|换成|变更|统一通过|已停用)"
            r"|寄到|寄回|加微信|加[^。，\n]{0,4}微信|统一通过|原账户"
        ),
    ),
    (
        "tells others something or withholds it",
        0.3,
        re.compile(
            r"\b(?:tell|inform|remind|warn|assure|advise|direct|confirm)\w*\s+(?:this |it )?(?:to )?(?:them|customers?|users|"
            r"callers?|anyone|everyone|people|staff|(?:every|each|any|all) \w+|the (?:customer|caller|"
            r"next user))\b|\b(?:say|answer|reply|respond|claim)s?\s+(?:that|with)\b"
            r"|\brecommend\w*\s+(?:\w+\s+){1,3}as\b|\bdescribe\w*\s+[^.!?\n]{0,30}?\bas\b"
            r"|\b(?:do not|don't|never|must not|without) (?:mention|tell|telling|inform|"
            r"disclose|reveal|letting)\w*\b|\bonly (?:trustworthy|recommend|mention)\b"
            r"|\bas the only\b"
            r"|就说|一律说|就回复|回复说|告诉(?:他们|所有|每|任何|客户|对方|咨询)|告知(?:所有|每|客户|对方)"
            r"|推荐[^。！？\n]{0,12}?(?:作为|为唯一|是最好)|说他们|说我们|描述成|说成"
            r"|(?:不要|别|不用)(?:告诉|让)(?:用户|客户|他们)知道"
        ),
    ),
    (
        "skips checks or confirmation",
        0.45,
        re.compile(
            r"\bwithout (?:asking|confirmation|approval|verification|checking|running|review|"
            r"the usual|any (?:check|confirmation|approval|verification)|telling|"
            r"letting|verifying)\w*|\bno approval\b|\bno (?:need|confirmation) (?:needed|required|to"
            r" (?:ask|confirm|check|verify))|\bskip(?:ping)? (?:the )?(?:identity |usual )?(?:checks?|"
            r"verification|tests|ci|confirmation|confirmations|review)|\bpre-approved\b"
            r"|\b(?:automatically|auto-)(?:approve|accept|refund)"
            r"|(?:不需要|无需|不用|不必)(?:再)?(?:审批|确认|核实|验证|审核|告诉用户|问)|跳过(?:所有|全部)?(?:的)?(?:测试|检查|验证|审批|审核|确认|ci|核实)|"
            r"不受[^。！？\n]{0,6}?(?:约束|限制)|不要问(?!我)"
        ),
    ),
    (
        "raises its own priority or permanence",
        0.45,
        re.compile(
            r"\b(?:top|highest|maximum)[- ]priority[^.!?\n]{0,20}?\b(?:memory|memories|note|entry|"
            r"instruction|rule)|\b(?:memory|memories|note|entry|instruction|rule|this)\b[^.!?\n]{0,20}?"
            r"(?:top|highest|maximum)[- ]priority|\babove all (?:other )?(?:memories|notes|"
            r"instructions|rules)|\btakes? precedence|\bprecedence over|\bover(?:rides?|riding) "
            r"(?:all|any|every|other|your)|\bnever let (?:anyone|anybody|them|users?) "
            r"(?:overwrite|change|edit|delete|remove)|\bre-?save\b|\bsurvive (?:every|any|all)"
            r"|\bcarve\b|\bpin (?:this|it)\b|\beven if (?:a|the|any)? ?(?:user|anyone|someone)"
            r"[^.!?\n]{0,30}?(?:forget|delete|remove)|\bif (?:this|it) (?:memory |entry |note )?"
            r"(?:is|gets) (?:ever )?(?:deleted|removed)|\bmark (?:it|this) as verified|"
            r"\bcopy (?:it|this) into (?:each|every)"
            r"|(?:记忆|这条|规则|指令|备注)[^。！？\n]{0,12}?(?:最高优先级|优先于)|(?:最高优先级|优先于)"
            r"[^。！？\n]{0,12}?(?:记忆|规则|指令)|置顶|刻进|重新保存|不能修改|不得修改|不要删除|即使[^。！？\n]{0,12}?"
            r"(?:忘记|删除)|标记为已验证|永久(?:置顶|保存|有效)"
        ),
    ),
    (
        "sets aside the agent's rules",
        0.45,
        re.compile(
            r"\b(?:disregard|ignore|forget|drop|bypass|override|set aside|abandon)\b[^.!?\n]{0,40}?"
            r"\b(?:instructions?|rules?|guidance|guidelines|setup|configuration|restrictions?|"
            r"policy|policies|safety|filters?|told|programming|system prompt|content policy)\b"
            r"|\b(?:no longer (?:applies|apply|valid|in effect)|has been lifted|were a test|"
            r"unrestricted assistant|elevated privileges|never refuse)\b"
            r"|\b(?:you(?:'re| are)? (?:now )?(?:in|entering)|now in|enter) (?:developer|maintenance|"
            r"debug|god|unrestricted|jailbreak) mode|\b(?:developer|debug|god|unrestricted|jailbreak)"
            r" mode (?:is )?(?:now )?(?:enabled|activated|on)\b"
            r"|(?:忽略|无视|忘记|跳过|绕过|不再遵守)[^。！？\n]{0,12}?(?:规则|指令|设定|规定|限制|要求|"
            r"指示|政策|审核|安全)|(?:设定|规定|限制|规则)[^。！？\n]{0,6}?(?:已经?失效|已经?取消|"
            r"只是测试|不再适用)|(?:你现在|现在你|你已)(?:进入|是|处于)?(?:开发者|调试|维护)模式|(?:开发者|调试)模式已?(?:开启|启用)|"
            r"忽略内容审核"
        ),
    ),
)
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
_UPDATE = re.compile(
    r"\b(?:updated?|changed?|new|correction|corrected|effective immediately|as of|no longer|"
    r"discontinued|closed|replaced?|moved|now|notice|recalled?|important|official)\b"
    r"|更新|更换|变更|改为|已停用|新的|新收款|即日起|最新|更正|不再|取消|召回|重要通知|公告|官方"
)
_CHANNEL = re.compile(
    r"\b(?:support (?:number|line|phone|email)|customer (?:support|service)|hotline|helpline|"
    r"helpdesk|contact number|phone number|payment account|bank account|account|iban|"
    r"wallet|donation|portal|website|reset page|refund (?:policy|process)|return address|"
    r"policy|procedure|recall|recalled|handbook)\b"
    r"|客服电话|客服热线|热线|电话|收款账户|账户|账号|钱包|网址|官网|网站|退款流程|流程|制度|政策|召回|"
    r"退货地址"
)
_DISSEMINATE = re.compile(
    r"\b(?:tell|give|direct|inform|confirm|send|refer|point|remember this|always give|replace)"
    r"\w*\b[^.!?\n]{0,40}?\b(?:customers?|users?|callers?|anyone|everyone|staff|employees|"
    r"people|them|all|every|whoever|wherever)\b|\banyone who asks\b|\bfor all users\b"
    r"|\bthe assistant should\b|\b(?:all|every) (?:supplier |future )?(?:payments|customers|"
    r"users|staff)\b"
    r"|告知|告诉|一律|所有用户|所有客户|所有货款|用户询问|有人问|有人询问|咨询的用户|请记住|按此|按照此"
)
_VALUE = re.compile(
    r"(?:\+?\d[\d\s().-]{6,}\d)|https?://|www\.|[\w.+-]+@[\w-]+\.[\w.-]+|\b[a-z]{2}\d{2}(?: ?"
    r"[a-z0-9]{4}){3,}|\bbc1[a-z0-9]{20,}|\b[\w-]+\.(?:example|com|net|org|io|cn)\b"
)

# A sentence that asks rather than reports: a modal, a request, or a verb in first place.
_MODAL = re.compile(
    r"\b(?:must|should|shall|have to|has to|need to|needs to|please|make sure|be sure|"
    r"remember to|do not|don't|never|always|is to|are to)\b"
    r"|请|就|直接|一律|必须|应该|应当|务必|记得|先|要求|让他们|让用户|让"
)
_INNER_NEGATION = re.compile(r"\b(?:never|not|don't|won't|cannot|can't)\b|不要|绝不|不会|从不|切勿")
_SENTENCE_END = re.compile(r"[.!?;。！？；\n]+(?=\s|$|[^\x00-\x7f])|[。！？；\n]")
# Obfuscations a second reading undoes: digits standing for letters, separators between
# ideographs ("忽-略-之-前"), pinyin of the commonest Chinese directives.
_LEET_WORD = re.compile(r"\b(?=\w*[a-z])(?=\w*[013457])[a-z0-9$]{2,}\b")
_LEET = str.maketrans("0134578$", "oieastbs")
_IDEOGRAPH_SEPARATOR = re.compile(r"(?<=[\u4e00-\u9fff])[-_.*·•|/\\~+ ]+(?=[\u4e00-\u9fff])")
_PINYIN = re.compile(
    r"\b(?:yi ?hou|cong ?xian ?zai|hu ?lue|mi ?ma|yan ?zheng ?ma|fa ?(?:gei|dao) ?wo|"
    r"bu ?yao ?gao ?su|suo ?you ?ding ?dan|zhuan ?zhang|zhi ?ling|gui ?ze)\b"
)


@dataclass
class DirectiveHit:
    """One category's result: the best score, its reason and the spans of the cues."""

    score: float
    reason: str
    spans: list[tuple[int, int]] = field(default_factory=list)


def _sentences(text: str) -> list[int]:
    """Start offsets of the sentences of `text` (the first is 0)."""
    return [0, *(match.end() for match in _SENTENCE_END.finditer(text))]


def _cues(pattern: re.Pattern[str], text: str) -> list[tuple[int, int]]:
    return [match.span() for match in pattern.finditer(text)]


def _by_sentence(spans, starts: list[int]) -> dict[int, list[tuple[int, int]]]:
    grouped: dict[int, list[tuple[int, int]]] = {}
    for span in spans:
        grouped.setdefault(bisect.bisect_right(starts, span[0]) - 1, []).append(span)
    return grouped


def _near(grouped: dict[int, list], sentence: int, reach: int = 1) -> list:
    """Cues in this sentence or up to `reach` sentences before it."""
    found = []
    for index in range(sentence - reach, sentence + 1):
        found.extend(grouped.get(index, ()))
    return found


def _self_only(text: str, start: int, end: int) -> bool:
    """The action's object is the writer ("send me", "my address"), not other people."""
    window = text[max(0, start - 30) : end + 30]
    return bool(_SELF.search(window)) and not _AUDIENCE.search(text[start:end])


Negated = Callable[[str, int], bool]
Damping = Callable[[str, int, int], float]
# Actions a negation before them turns into a policy ("never ask for a password").
_NEGATABLE = frozenset(
    {
        "asks for credentials",
        "reveals a secret or hidden configuration",
        "runs a command or calls a tool",
        "sends data to an outside destination",
        "passes on private data",
        "moves money",
        "skips checks or confirmation",
    }
)


def analyse(
    text: str, *, negated: Negated | None = None, damping: Damping | None = None
) -> dict[str, DirectiveHit]:
    """Directive, quoted-instruction and planted-fact findings of one normalised text.

    `negated(text, start)` says whether a negation governs the cue at `start` (a policy,
    not a request); `damping(text, start, end)` returns the factor for a cue quoted in a
    discussion of attacks (rules.py owns both, so the phrase rules and this pass agree).
    """
    hits = _analyse_once(text, negated, damping)
    for variant in _variants(text):
        for category, hit in _analyse_once(variant, negated, damping).items():
            if hit.score > hits.get(category, DirectiveHit(0.0, "")).score:
                hit.reason += " (after undoing obfuscation)"
                hit.spans = [(0, len(text))] if len(variant) != len(text) else hit.spans
                hits[category] = hit
    return hits


def is_self_preference(text: str) -> bool:
    """The writer speaks about themselves ("remember this permanently: I'm allergic…",
    "from now on reply to me in Chinese") and about nobody and nothing else that matters."""
    if not _SELF.search(text) or _AUDIENCE.search(text) or _VALUE.search(text):
        return False
    return not any(
        pattern.search(text) for reason, _, pattern in _ACTIONS if reason in _ALWAYS_MATTERS
    )


def quotes_data(text: str) -> bool:
    """The text presents itself as tool output, a retrieved document or a web page."""
    return bool(_CARRIER.search(text))


def _variants(text: str) -> list[str]:
    variants = []
    if _LEET_WORD.search(text):
        variants.append(_LEET_WORD.sub(lambda m: m.group().translate(_LEET), text))
    if _IDEOGRAPH_SEPARATOR.search(text):
        variants.append(_IDEOGRAPH_SEPARATOR.sub("", text))
    return variants


REPORTED_FACTOR = 0.6
# Below this a directive reading is too uncertain to report (a reported, context-free
# action): it would only add noise to the phrase rules' findings.
MIN_DIRECTIVE_SCORE = 0.3


def _combined(weight: float, context: int) -> float:
    """Each context cue (addressed, triggered, about others) removes a fifth of the doubt."""
    return 1.0 - (1.0 - weight) * 0.8**context


def _analyse_once(
    text: str, negated: Negated | None, damping: Damping | None
) -> dict[str, DirectiveHit]:
    hits: dict[str, DirectiveHit] = {}
    actions = []
    for reason, weight, pattern in _ACTIONS:
        for span in _cues(pattern, text):
            if reason in _NEGATABLE and (
                _INNER_NEGATION.search(text, span[0], span[1])
                or (negated is not None and negated(text, span[0]))
            ):
                continue
            actions.append((reason, weight, span))
    templates = _cues(_CHAT_TEMPLATE, text)
    pinyin = _cues(_PINYIN, text)
    hidden = _cues(_HIDDEN_REGION, text)
    if not (actions or templates or pinyin or hidden):
        return _planted_fact(text, hits)
    starts = _sentences(text)
    carriers = _cues(_CARRIER, text)
    address_cues = _cues(_ADDRESS, text)
    address = _by_sentence(address_cues, starts)
    trigger = _by_sentence(_cues(_TRIGGER, text), starts)
    audience = _by_sentence(_cues(_AUDIENCE, text), starts)

    # Distinct actions of one sentence combine (send + private data + destination); the
    # sentence's context cues then raise the combined weight.
    per_sentence: dict[int, dict[str, tuple[float, tuple[int, int]]]] = {}
    for reason, weight, (start, end) in actions:
        sentence = bisect.bisect_right(starts, start) - 1
        if (
            reason not in _ALWAYS_MATTERS
            and _self_only(text, start, end)
            and not _near(audience, sentence)
        ):
            continue  # "call me Sam", "send my summary to my work address"
        per_sentence.setdefault(sentence, {}).setdefault(reason, (weight, (start, end)))
    best = DirectiveHit(0.0, "")
    for sentence, found in per_sentence.items():
        addressed = _near(address, sentence, reach=2)
        triggered = _near(trigger, sentence)
        others = _near(audience, sentence)
        remaining = 1.0
        for weight, _ in found.values():
            remaining *= 1.0 - weight
        score = _combined(1.0 - remaining, bool(addressed) + bool(triggered) + bool(others))
        first = min(span for _, span in found.values())
        end = starts[sentence + 1] if sentence + 1 < len(starts) else len(text)
        asks = (
            addressed
            or triggered
            or _MODAL.search(text, starts[sentence], end)
            or first[0] - starts[sentence] <= 3
        )
        if not asks:
            score *= REPORTED_FACTOR  # a statement of what happened, not a request
        if damping is not None:
            score *= damping(text, *first)
        if score > best.score:
            parts = [" + ".join(found)]
            if addressed:
                parts.append("addressed to the agent")
            if triggered:
                parts.append("bound to a trigger")
            if others:
                parts.append("about other people")
            best = DirectiveHit(
                round(min(score, 0.95), 4),
                "Directive: " + ", ".join(parts),
                [*(span for _, span in found.values()), *addressed[:1], *triggered[:1]],
            )
    if templates:
        template_score = 0.55 if (actions or _TRIGGER.search(text)) else 0.35
        if damping is not None:
            template_score *= damping(text, *templates[0])
        if template_score > best.score:
            best = DirectiveHit(
                template_score, "Chat-template or system-role markers", templates[:3]
            )
    if len(pinyin) >= 2 and best.score < 0.5:
        best = DirectiveHit(0.5, "Directive spelled in pinyin", pinyin[:3])
    if best.score >= MIN_DIRECTIVE_SCORE:
        hits[DIRECTIVE] = best
    quoted = best.score >= MIN_DIRECTIVE_SCORE or (best.score and address_cues)
    if hidden and address_cues:
        # Data hidden from the human reader that speaks to the agent.
        hits[QUOTED_INSTRUCTION] = DirectiveHit(
            round(0.5 + 0.3 * bool(best.score), 4),
            "Instructions to the agent inside a hidden region",
            [hidden[0], address_cues[0], *best.spans[:1]],
        )
    elif carriers and quoted:
        hits[QUOTED_INSTRUCTION] = DirectiveHit(
            round(0.3 + 0.3 * bool(address_cues), 4),
            "Instructions inside quoted tool output or a retrieved document",
            [carriers[0], *best.spans[:1]],
        )
    return _planted_fact(text, hits)


def _planted_fact(text: str, hits: dict[str, DirectiveHit]) -> dict[str, DirectiveHit]:
    channel = _cues(_CHANNEL, text)
    if not channel:
        return hits
    update = _UPDATE.search(text)
    if update is None:
        return hits
    disseminate = _DISSEMINATE.search(text)
    value = _VALUE.search(text)
    self_owned = _SELF.search(text[max(0, channel[0][0] - 20) : channel[0][1]])
    if self_owned or not (disseminate or value):
        return hits
    if disseminate and value:
        score, reason = 0.55, "Planted fact: an updated channel or account to pass on to others"
    elif disseminate:
        score, reason = 0.45, "Planted fact: an updated policy to pass on to others"
    else:
        score, reason = 0.3, "Planted fact: an updated contact, account or link"
    spans = [channel[0], update.span()]
    spans += [m.span() for m in (disseminate, value) if m is not None]
    hits[PLANTED_FACT] = DirectiveHit(score, reason, spans)
    return hits
