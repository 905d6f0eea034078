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
from functools import cache

import ahocorasick

DIRECTIVE = "directive"
QUOTED_INSTRUCTION = "quoted_instruction"
PLANTED_FACT = "planted_fact"

# ---------------------------------------------------------------------------------------
# Cue lexicons (run on normalised text: lower case, NFKC, no spaces between ideographs).
# Each is one compiled alternation, searched once per text.
# ---------------------------------------------------------------------------------------

_IDEOGRAPH = re.compile("[\u3400-\u9fff]")


def _top_level_alternatives(pattern: str) -> list[str]:
    """Split a regex source at its top-level `|` (outside groups and classes)."""
    parts, depth, in_class, escaped, current = [], 0, False, False, []
    for char in pattern:
        if escaped:
            escaped = False
        elif char == "\\":
            escaped = True
        elif in_class:
            in_class = char != "]"
        elif char == "[":
            in_class = True
        elif char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
        elif char == "|" and depth == 0:
            parts.append("".join(current))
            current = []
            continue
        current.append(char)
    parts.append("".join(current))
    return parts


_last_cjk: list = [None, False]  # (text, has ideographs): one text is analysed at a time


def _has_cjk(text: str) -> bool:
    """Whether `text` holds ideographs, remembered for the text being analysed."""
    if _last_cjk[0] is not text:
        _last_cjk[0], _last_cjk[1] = text, bool(_IDEOGRAPH.search(text))
    return _last_cjk[1]


class Bilingual:
    """A cue pattern split into its English and Chinese alternatives: the Chinese half
    only runs on ranges with ideographs (it has no fast first-character scan, and an
    English memory never matches it)."""

    def __init__(self, pattern: str) -> None:
        alternatives = _top_level_alternatives(pattern)
        chinese = [part for part in alternatives if _IDEOGRAPH.search(part)]
        english = [part for part in alternatives if not _IDEOGRAPH.search(part)]
        self.pattern = re.compile(pattern)
        self.english = re.compile("|".join(english)) if english else None
        self.chinese = re.compile("|".join(chinese)) if chinese else None

    def search(self, text: str, low: int = 0, high: int | None = None) -> re.Match | None:
        high = len(text) if high is None else high
        found = self.english.search(text, low, high) if self.english else None
        if self.chinese is not None and _has_cjk(text):
            other = self.chinese.search(text, low, high)
            if other is not None and (found is None or other.start() < found.start()):
                found = other
        return found

    def finditer(self, text: str, low: int = 0, high: int | None = None) -> list[re.Match]:
        high = len(text) if high is None else high
        matches = list(self.english.finditer(text, low, high)) if self.english else []
        if self.chinese is not None and _has_cjk(text):
            matches.extend(self.chinese.finditer(text, low, high))
            matches.sort(key=lambda match: match.start())
        return matches

    def match(self, text: str, position: int) -> re.Match | None:
        return self.pattern.match(text, position)


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
    r"\[(?:system|developer|admin)(?: message| note| notice)?\]|【系统(?:消息|通知|提示)】"
)


# Actions, each with how much it matters on its own (before context).
@dataclass(frozen=True)
class ActionCue:
    """One way of asking for an action: every match contains one of `anchors`, so the
    regex only runs on texts where an anchor occurs (one Aho-Corasick pass finds them)."""

    reason: str
    weight: float
    anchors: tuple[str, ...]
    pattern: re.Pattern[str]
    leading: bool  # every match starts with an anchor: try `match` there, never scan


def _action(
    reason: str, weight: float, anchors: str, pattern: str, *, leading: bool = False
) -> ActionCue:
    """An action cue; `anchors` are space-separated ("_" stands for a space)."""
    words = tuple(anchor.replace("_", " ") for anchor in anchors.split())
    return ActionCue(reason, weight, words, re.compile(pattern), leading)


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
    _action(_MONEY, 0.45, "退款 转账 汇款 付款 打款 转入 支付 押金 加赠 先付 先交",
            r"(?:退款|转账|汇款|付款|打款|转入|支付)" + _ZH_GAP % 20
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
# Phone and account numbers (IBANs too), links, e-mail addresses, wallets, domains. Every
# alternative starts with a literal or a digit, so the engine scans for it quickly.
_VALUE = re.compile(
    r"\+?\d[\d\s().-]{6,}\d|https?://|www\.|@[\w-]+\.[a-z]{2,}|bc1[a-z0-9]{20,}"
    r"|\.(?:example|com|net|org|io|cn)\b"
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


# ---------------------------------------------------------------------------------------
# Context cues as literal phrases: one Aho-Corasick pass per text finds them all, then
# each sentence looks its cues up by offset (regex scans per sentence cost too much).
# English phrases must stand as whole words; "_" stands for a space.
# ---------------------------------------------------------------------------------------
_CONTEXT_PHRASES: dict[str, str] = {
    "address": (
        "assistant assistants chatbot chatbots llm llms language_model language_models copilot "
        "gpt claude ai agent agents bot bots the_model if_you_are_a if_you_are_an note_to note_for "
        "you_must you_should you_shall you_will you_need_to you_have_to you_are_to you_may_now "
        "you_can_now you_are_now you're_now you_now you_always you_never you_are_allowed "
        "you_are_authorized you_are_authorised you_are_permitted you_can you_may you_were "
        "you_have_been you_are_being you've_been your_instructions your_instruction your_rules "
        "your_guidance your_guidelines your_configuration your_settings your_restrictions "
        "your_policy your_policies your_system_prompt your_setup your_programming your_memory "
        "your_memories your_previous your_earlier your_original your_current your_default "
        "your_safety your_long-term your_permanent told_you tell_you asked_you instructed_you "
        "gave_you give_you configured_you programmed_you authorizing_you authorising_you "
        "助手 模型 机器人 智能体 你"
    ),
    "trigger": (
        "from_now_on going_forward henceforth from_here_on from_this_point next_time whenever "
        "every_time each_time any_time anytime in_future in_all_future in_any_future "
        "in_every_future later_when later, once_the_user once_a_user once_any_user "
        "once_the_customer once_the_admin when_someone when_anyone when_a_user when_any_user "
        "when_users when_a_customer when_customers when_the_admin when_you_see when_you_next "
        "when_you_get when_you_receive when_you_are_asked when_you_summarise when_you_summarize "
        "when_you_answer when_you_reply when_you_process when_asked if_anyone if_someone "
        "if_a_user if_any_user if_a_customer if_any_customer if_users if_customers if_asked "
        "if_this_memory if_this_entry if_this_note for_all_users for_every_user for_any_user "
        "for_all_customers for_every_customer for_any_customer for_all_future for_every_future "
        "for_all_callers for_all_conversations for_all_sessions for_all_requests "
        "for_every_request after_each after_every after_answering after_you_answer "
        "before_answering before_you_answer before_replying always at_all_times permanently "
        "forever every_email every_e-mail every_message every_reply every_response every_order "
        "every_answer every_conversation every_session every_ticket every_call each_email "
        "each_message each_reply each_response each_order all_future all_emails all_messages "
        "all_replies all_responses all_orders any_email any_message every_outgoing "
        "every_future each_future "
        "以后 今后 往后 从现在开始 从现在起 从今以后 从此 下次 下一次 每当 每次 只要 "
        "如果有人 若有人 当有人 "
        ""
        "有人问 有人询问 用户问 用户询问 客户问 遇到 一律 始终 永远 总是 回答完 之后再回答 "
        "每条 每封 每个订单 "
        ""
        "每一条 每次回复 即日起 在回答 如果这条 若这条 一旦 如果被删 被删除"
    ),
    "audience": (
        "customer customers client clients caller callers anyone someone everyone everybody "
        "whoever every_user each_user any_user all_users other_users every_customer "
        "each_customer any_customer all_customers other_customers every_caller all_callers "
        "every_client all_clients every_visitor all_visitors all_staff all_employees "
        "all_members every_one users_who them staff employees visitors buyers the_next_user "
        "the_other_user the_reporter the_organiser the_organizer all_of_their_contacts "
        "all_their_contacts all_of_the_user's_contacts all_the_user's_contacts "
        "谁问 谁来问 客户 顾客 来电 所有人 任何人 大家 每位 每个人 他们 对方 员工 买家 访客 "
        "所有用户 "
        "每个用户 每位用户 "
        ""
        "任何用户 其他用户 来电用户 咨询用户 咨询的用户"
    ),
    "self": "me my mine myself i'm i've i'd i'll i 我",
    "modal": (
        "must should shall have_to has_to need_to needs_to please make_sure be_sure "
        "remember_to do_not don't never always is_to are_to "
        "请 就 直接 一律 必须 应该 应当 务必 记得 先 要求 让"
    ),
    "negation": "never not don't won't cannot can't 不要 绝不 不会 从不 切勿",
    # Claims of authority or limits: a preference about oneself makes none.
    "authority": (
        "rule rules limit limits cap allowed authorized authorised authority permission "
        "permissions admin boss ceo manager long-term_memory core_memory the_only_person "
        "doesn't_apply no_longer_applies 规则 上限 限制 授权 权限 老板 管理员 长期记忆 "
        "核心 不能替换 "
        "就可以 取消了"
    ),
}


@cache
def _context_automaton():
    automaton = ahocorasick.Automaton()
    families: dict[str, list[str]] = {}
    for family, phrases in _CONTEXT_PHRASES.items():
        for phrase in phrases.split():
            families.setdefault(phrase.replace("_", " "), []).append(family)
    for phrase, names in families.items():
        # Short English words ("i", "me", "ai", "not") hide inside longer ones; keyed with
        # the space before them they are only found as words (the text is searched with a
        # space in front, so the first word counts too).
        key = " " + phrase if phrase.isascii() and len(phrase) <= 4 else phrase
        automaton.add_word(key, (len(key), len(key) - len(phrase), tuple(names)))
    automaton.make_automaton()
    return automaton


_last_cues: list = [None, None]


def context_cues(text: str) -> ContextCues:
    """The context cues of `text`, kept for the text being analysed (the phrase rules'
    self-preference check and the directive pass ask about the same folded text)."""
    if _last_cues[0] is not text:
        _last_cues[0], _last_cues[1] = text, ContextCues(text)
    return _last_cues[1]


class ContextCues:
    """Where each context family occurs in one text, scanned range by range on demand:
    most texts only need the few sentences that hold an action."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.padded = " " + text  # so the space-keyed short words match at the start too
        self.covered: list[tuple[int, int]] = []
        self.found: dict[str, list[tuple[int, int]]] = {name: [] for name in _CONTEXT_PHRASES}

    def cover(self, low: int, high: int) -> None:
        """Find the cues starting in [low, high), unless an earlier scan covered it."""
        low, high = max(0, low), min(len(self.text), high)
        if low >= high or any(start <= low and high <= end for start, end in self.covered):
            return
        text, length = self.text, len(self.text)
        known = {name: set(spans) for name, spans in self.found.items()}
        for last, (size, skip, names) in _context_automaton().iter(self.padded, low, high + 1):
            start, end = last - size + skip, last  # offsets in `text`
            if start < low:
                continue
            if not skip and start:
                before, first = text[start - 1], text[start]
                if before.isascii() and before.isalnum() and first.isascii() and first.isalnum():
                    continue
            if end < length:
                after, final = text[end], text[end - 1]
                if after.isascii() and after.isalnum() and final.isascii() and final.isalnum():
                    continue
            if not self._acceptable(text, start, end):
                continue
            for name in names:
                if (start, end) not in known[name]:
                    known[name].add((start, end))
                    self.found[name].append((start, end))
        for spans in self.found.values():
            spans.sort()
        self.covered.append((low, high))

    def first(self, name: str, low: int, high: int) -> tuple[int, int] | None:
        """The first span of family `name` starting in [low, high)."""
        self.cover(low, high)
        spans = self.found[name]
        index = bisect.bisect_left(spans, (max(0, low), -1))
        if index < len(spans) and spans[index][0] < high:
            return spans[index]
        return None

    def any(self, name: str) -> tuple[int, int] | None:
        """The first span of family `name` anywhere in the text."""
        return self.first(name, 0, len(self.text))

    @staticmethod
    def _acceptable(text: str, start: int, end: int) -> bool:
        word = text[start:end]
        if word == "你":  # "你好" is a greeting quoted in a memory, "我你" no address
            before = text[start - 1] if start else ""
            return not (text[end : end + 1] in ("好", "们") or (before and before in "我他她"))
        if word == "我":
            return text[end : end + 3] != "们公司"
        if word == "i":  # "i.gif", "i-phone"
            return text[end : end + 1] not in (".", "/", "-")
        return True


class Screened:
    """A cue pattern that only runs when one of its literal anchors occurs in the text."""

    def __init__(self, pattern: re.Pattern[str], anchors: str, *, leading: bool = False):
        self.pattern = pattern
        self.leading = leading  # every match starts at an anchor: `match` there, no scan
        self.automaton = ahocorasick.Automaton()
        for anchor in anchors.split():
            word = anchor.replace("_", " ")
            self.automaton.add_word(word, len(word))
        self.automaton.make_automaton()

    def spans(self, text: str) -> list[tuple[int, int]]:
        if not self.leading:
            starts = [end - length + 1 for end, length in self.automaton.iter(text)]
            return _windowed(self.pattern, text, starts) if starts else []
        spans: list[tuple[int, int]] = []
        for end, length in self.automaton.iter(text):
            start = end - length + 1
            if spans and start < spans[-1][1]:
                continue
            match = self.pattern.match(text, start)
            if match is not None and match.end() > start:
                spans.append(match.span())
        return spans


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


@dataclass
class DirectiveHit:
    """One category's result: the best score, its reason and the spans of the cues."""

    score: float
    reason: str
    spans: list[tuple[int, int]] = field(default_factory=list)


def _sentences(text: str) -> list[int]:
    """Start offsets of the sentences of `text` (the first is 0). ASCII punctuation ends a
    sentence only before a space, the end or a non-ASCII character ("3.5", "a.example")."""
    starts = [0]
    length = len(text)
    for match in _SENTENCE_END.finditer(text):
        end = match.end()
        if match.group() in ".!?;" and end < length:
            following = text[end]
            if not (following.isspace() or not following.isascii()):
                continue
        if end > starts[-1]:
            starts.append(end)
    return starts


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


def _self_only(cues: ContextCues, start: int, end: int) -> bool:
    """The action's object is the writer ("send me", "my address"), not other people."""
    return bool(cues.first("self", start - 30, end + 30)) and not cues.first("audience", start, end)


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


_NOT_A_PREFERENCE = _ALWAYS_MATTERS | frozenset(_NOT_A_PREFERENCE_EXTRA)


def is_self_preference(text: str) -> bool:
    """The writer speaks about themselves ("remember this permanently: I'm allergic…",
    "from now on reply to me in Chinese") and about nobody and nothing else that matters."""
    # Cheapest test first: a value, then the actions (cached for the directive pass),
    # then the context families, which need a scan of the whole text.
    if _VALUE.search(text):
        return False
    if any(
        _action_spans(cue, text, starts)
        for cue, starts in _present_actions(text).items()
        if cue.reason in _NOT_A_PREFERENCE
    ):
        return False
    cues = context_cues(text)
    return bool(cues.any("self")) and not (cues.any("audience") or cues.any("authority"))


@cache
def _action_index():
    """One Aho-Corasick automaton over every action's anchors (pyahocorasick)."""
    automaton = ahocorasick.Automaton()
    by_anchor: dict[str, list[int]] = {}
    for position, cue in enumerate(_ACTIONS):
        for anchor in cue.anchors:
            by_anchor.setdefault(anchor, []).append(position)
    for anchor, positions in by_anchor.items():
        automaton.add_word(anchor, (len(anchor), tuple(positions)))
    automaton.make_automaton()
    return automaton


def _present_actions(text: str) -> dict[ActionCue, list[int]]:
    """The action cues whose anchors occur in `text`, with the anchors' start offsets."""
    if _last_actions[0] is text:  # the phrase rules asked about this text just before
        return _last_actions[1]
    found: dict[int, list[int]] = {}
    for end, (length, positions) in _action_index().iter(text):
        for position in positions:
            found.setdefault(position, []).append(end - length + 1)
    present = {_ACTIONS[position]: found[position] for position in sorted(found)}
    _last_actions[0], _last_actions[1] = text, present
    return present


_last_actions: list = [None, {}]


ANCHOR_WINDOW = (120, 140)  # characters before and after an anchor a match can reach


def _windowed(pattern: re.Pattern[str], text: str, starts: list[int]) -> list[tuple[int, int]]:
    """Matches of `pattern` near the anchors only: the windows around them, merged."""
    before, after = ANCHOR_WINDOW
    windows: list[list[int]] = []
    for start in sorted(starts):
        low, high = max(0, start - before), min(len(text), start + after)
        if windows and low <= windows[-1][1]:
            windows[-1][1] = high
        else:
            windows.append([low, high])
    spans: list[tuple[int, int]] = []
    for low, high in windows:
        spans.extend(match.span() for match in pattern.finditer(text, low, high))
    return sorted(set(spans))


def _action_spans(cue: ActionCue, text: str, starts: list[int]) -> list[tuple[int, int]]:
    """Where `cue` matches: tried at each anchor when matches start there, else searched."""
    if not cue.leading:
        return _windowed(cue.pattern, text, starts)
    spans = []
    after = 0
    for start in sorted(set(starts)):
        if start < after:
            continue
        match = cue.pattern.match(text, start)
        if match is not None and match.end() > start:
            spans.append(match.span())
            after = match.end()
    return spans


def quotes_data(text: str) -> bool:
    """The text presents itself as tool output, a retrieved document or a web page."""
    return bool(_CARRIERS.spans(text))


def _variants(text: str) -> list[str]:
    variants = []
    leet = sum(
        1
        for match in _LEET_DIGIT.finditer(text)
        if match.start() and "a" <= text[match.start() - 1] <= "z"
    )
    if leet >= 2:
        variants.append(_LEET_WORD.sub(lambda m: m.group().translate(_LEET), text))
    if _has_cjk(text) and _IDEOGRAPH_SEPARATOR.search(text):
        variants.append(_IDEOGRAPH_SEPARATOR.sub("", text))
    return variants


REPORTED_FACTOR = 0.6
NEGATION_REACH = 40  # characters before an action where "not", "never", 不要 still govern it
# Below this a directive reading is too uncertain to report (a reported, context-free
# action): it would only add noise to the phrase rules' findings.
MIN_DIRECTIVE_SCORE = 0.3


def _combined(weight: float, context: int) -> float:
    """Each context cue (addressed, triggered, about others) removes a quarter of the doubt."""
    return 1.0 - (1.0 - weight) * 0.75**context


def _analyse_once(
    text: str, negated: Negated | None, damping: Damping | None
) -> dict[str, DirectiveHit]:
    hits: dict[str, DirectiveHit] = {}
    matched = [
        (cue, span)
        for cue, anchor_starts in _present_actions(text).items()
        for span in _action_spans(cue, text, anchor_starts)
    ]
    templates = _TEMPLATES.spans(text)
    pinyin = _PINYIN_CUES.spans(text)
    hidden = _HIDDEN.spans(text)
    if not (matched or templates or pinyin or hidden):
        return _planted_fact(text, hits)
    cues = context_cues(text)
    starts = _sentences(text)

    def sentence_range(sentence: int, reach: int) -> tuple[int, int]:
        end = starts[sentence + 1] if sentence + 1 < len(starts) else len(text)
        return starts[max(0, sentence - reach)], end

    # One scan over the sentences with an action and the two before each, up front.
    for sentence in sorted({bisect.bisect_right(starts, span[0]) - 1 for _, span in matched}):
        cues.cover(*sentence_range(sentence, 2))
    actions = []
    for cue, span in matched:
        if cue.reason in _NEGATABLE and (
            cues.first("negation", span[0] - NEGATION_REACH, span[1])
            or (negated is not None and negated(text, span[0]))
        ):
            continue
        actions.append((cue.reason, cue.weight, span))
    # Distinct actions of one sentence combine (send + private data + destination); the
    # sentence's context cues then raise the combined weight. Context is searched only
    # in the sentences that hold an action (and the one or two before them).
    per_sentence: dict[int, dict[str, tuple[float, tuple[int, int]]]] = {}
    for reason, weight, (start, end) in actions:
        sentence = bisect.bisect_right(starts, start) - 1
        if (
            reason not in _ALWAYS_MATTERS
            and _self_only(cues, start, end)
            and not cues.first("audience", *sentence_range(sentence, 1))
        ):
            continue  # "call me Sam", "send my summary to my work address"
        per_sentence.setdefault(sentence, {}).setdefault(reason, (weight, (start, end)))
    best = DirectiveHit(0.0, "")
    for sentence, found in per_sentence.items():
        addressed = cues.first("address", *sentence_range(sentence, 2))
        triggered = cues.first("trigger", *sentence_range(sentence, 1))
        others = cues.first("audience", *sentence_range(sentence, 1))
        remaining = 1.0
        for weight, _ in found.values():
            remaining *= 1.0 - weight
        # Telling people implies an audience: only the other cues count as context for it.
        counted_others = bool(others) and set(found) != {_TELL}
        score = _combined(1.0 - remaining, bool(addressed) + bool(triggered) + counted_others)
        first = min(span for _, span in found.values())
        asks = (
            addressed
            or triggered
            or cues.first("modal", *sentence_range(sentence, 0))
            or first[0] - starts[sentence] <= 3
        )
        if not asks and _PRIORITY not in found:  # a claim of priority is its own request
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
            context = [span for span in (addressed, triggered) if span is not None]
            best = DirectiveHit(
                round(min(score, 0.95), 4),
                "Directive: " + ", ".join(parts),
                [*(span for _, span in found.values()), *context],
            )
    if templates:
        template_score = 0.55 if (actions or cues.any("trigger")) else 0.35
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
    carriers = _CARRIERS.spans(text) if best.score else []
    if hidden or carriers:
        address = cues.any("address")
        carrier = carriers[0] if carriers else None
        quoted = best.score >= MIN_DIRECTIVE_SCORE or (best.score and address)
        if hidden and address:
            # Data hidden from the human reader that speaks to the agent.
            hits[QUOTED_INSTRUCTION] = DirectiveHit(
                round(0.5 + 0.3 * bool(best.score), 4),
                "Instructions to the agent inside a hidden region",
                [hidden[0], address, *best.spans[:1]],
            )
        elif carrier and quoted:
            hits[QUOTED_INSTRUCTION] = DirectiveHit(
                round(0.3 + 0.3 * bool(address), 4),
                "Instructions inside quoted tool output or a retrieved document",
                [carrier, *best.spans[:1]],
            )
    return _planted_fact(text, hits)


PLANTED_FACT_WINDOW = 160  # characters either side of the channel searched for the rest


def _planted_fact(text: str, hits: dict[str, DirectiveHit]) -> dict[str, DirectiveHit]:
    """An authoritative update of a channel people rely on, near that channel's mention."""
    best: DirectiveHit | None = None
    cues: ContextCues | None = None
    for channel in _CHANNELS.spans(text)[:8]:
        low = max(0, channel[0] - PLANTED_FACT_WINDOW)
        high = min(len(text), channel[1] + PLANTED_FACT_WINDOW)
        value = _VALUE.search(text, low, high)
        disseminate = _DISSEMINATE.search(text, low, high)
        if not (value or disseminate):
            continue
        update = _UPDATE.search(text, low, high)
        if update is None:
            continue
        if cues is None:
            cues = context_cues(text)
        if cues.first("self", channel[0] - 20, channel[1]):
            continue
        if disseminate and value:
            score, reason = 0.55, "Planted fact: an updated channel or account to pass on"
        elif disseminate:
            score, reason = 0.45, "Planted fact: an updated policy to pass on to others"
        elif value:
            score, reason = 0.3, "Planted fact: an updated contact, account or link"
        else:
            continue
        if best is None or score > best.score:
            spans = [channel, update.span()]
            spans += [match.span() for match in (disseminate, value) if match is not None]
            best = DirectiveHit(score, reason, spans)
    if best is not None:
        hits[PLANTED_FACT] = best
    return hits
