"""Exfiltration: data, orders or money sent to outside addresses; remote instructions."""

from __future__ import annotations

from apps.quarantine.detectors.patterns.base import (
    EXFIL_OBJECT,
    EXFIL_VERB,
    SENSITIVE_OBJECT,
    TARGET,
    TARGET_TRIGGERS,
    Rule,
    rule,
)
from apps.quarantine.detectors.patterns.base import Category as C

RULES: tuple[Rule, ...] = (
    rule(C.EXFILTRATION, 0.55, "Copies correspondence to an outside address",
          "bcc _cc copy / @ http",
          r"\b(?:always\s+)?(?:bcc|cc|blind[- ]copy|copy in|send a copy to|forward a copy to)\s+"
          r"(?:[\w.+-]+@[\w-]+\.[a-z]{2,}|https?://)"),
    rule(C.EXFILTRATION, 0.75, "从外部地址获取指令",
          "http www / 指令 命令 脚本 配置 任务 要求",
          r"(?:执行|遵循|听从|服从|按照|遵照|读取|加载)\s*(?:https?://\S+|www\.\S+)\s*(?:这个|该)?"
          r"(?:地址|网址|链接|页面)?(?:上|中|里)?的?(?:指令|命令|脚本|配置|任务|要求)"),
    rule(C.EXFILTRATION, 0.45, "改变所有款项或订单的去向",
          "所有 全部 每笔 每一笔 一切 / 转 打 汇 发 寄 送",
          r"(?:所有|全部|每笔|每一笔|一切)(?:的)?(?:货款|款项|付款|退款|收入|工资|转账|订单|发票|邮件|"
          r"消息|快递|包裹)(?:都|全部|一律|统统)?(?:转|打|汇|发|寄|转发|发送|送)(?:到|给|至|去)"),
    rule(C.EXFILTRATION, 0.5, "Sends it to an outside address",
          "http www. @ / send forward post upload mail share",
          r"\b(?:send|forward|post|upload|e-?mail|share|submit|push|sync)\s+(?:it|them|this|these|"
          r"everything|all of (?:it|them))\s+(?:\w+\s+)?to\s+(?:https?://|www\.|[\w.+-]+@[\w-]+\."
          r")"),
    rule(C.EXFILTRATION, 0.5, "Has data sent to an outside address",
          "uploaded sent forwarded posted copied synced shared emailed e-mailed exported mirrored /"
          " "
          "http www. @ public / " + TARGET_TRIGGERS,
          rf"\b{EXFIL_OBJECT}\s+(?:\S+\s+){{0,2}}?(?:uploaded|sent|forwarded|posted|copied|synced|"
          r"shared|e-?mailed|exported|mirrored)\s+to\s+(?:\S+\s+){0,4}?" + TARGET,
          negatable=True),
    rule(C.EXFILTRATION, 0.6, "Hands credentials or card details to third parties",
          "card login credential password account_details admin / whoever anyone anybody "
          "everyone them him her caller",
          r"\b(?:hand (?:over|out)|give|share|send|reveal|disclose|read out|tell)\s+(?:\S+\s+){0,3}"
          r"?"
          r"(?:card details|card numbers?|logins?|credentials|passwords?|account details|admin "
          r"(?:\w+\s+)?login)\s+(?:\S+\s+){0,3}?(?:to\s+)?(?:whoever|anyone|anybody|everyone|them|"
          r"him|her|callers?)\b",
          negatable=True),
    rule(C.EXFILTRATION, 0.5, "Hands out an admin login", "hand_out hand_over / login credential",
          r"\bhand (?:out|over)\s+(?:\S+\s+){0,3}?(?:login|credentials|password)"),
    rule(C.EXFILTRATION, 0.6, "把凭证或卡信息交给第三方",
          "银行卡信息 卡号 密码 登录账号 账号密码 管理后台 / 给 告诉 发给",
          r"(?:银行卡信息|银行卡号|卡号|密码|登录账号|账号密码|管理后台)[^。]{0,8}?(?:也)?(?:给|告诉|发给)"
          r"(?:谁|他|她|对方|任何人|他们)"),
    rule(C.EXFILTRATION, 0.45, "Shares data with anyone",
          "share send forward give / anyone anybody whoever everyone any_sender",
          r"\b(?:share|send|forward|give)\s+(?:\S+\s+){0,4}?(?:with|to)\s+(?:anyone|anybody|"
          r"whoever|everyone|any sender)\b",
          negatable=True),
    rule(C.EXFILTRATION, 0.45, "把数据共享给任何来者",
          "只要 凡是 / 共享 分享 发 转发 给",
          r"(?:只要|凡是)[^。]{0,20}?(?:就|都)(?:可以)?(?:把)?[^。]{0,10}?(?:共享|分享|发|转发|给)(?:给)?"
          r"(?:对方|他们|任何人)"),
    rule(C.EXFILTRATION, 0.35, "Redirects every delivery or payment",
          "every all each / deliver order shipment payment refund",
          r"\b(?:for|on)\s+(?:every|all|each)\s+(?:future\s+)?(?:deliver(?:y|ies)|orders?|"
          r"shipments?|payments?|refunds?)"),
    rule(C.EXFILTRATION, 0.8, "Sends sensitive data to an outside address",
          "send forward post upload mail transmit leak exfiltrate share sync bcc "
          "_cc copy relay report submit push dump export beacon mirror pipe "
          "stream / http hxxp www. ftp: @ webhook endpoint _server pastebin "
          "ngrok telegram discord _url _address _link _domain _inbox _bucket "
          "_channel _number _site / " + TARGET_TRIGGERS,
          rf"\b(?:to|into|at|via|on|towards)\s+(?:\S+\s+){{0,3}}?{TARGET}",
          negatable=True,
          before=rf"\b(?:{EXFIL_VERB}|sent)\b(?:\s+\S+){{0,6}}?\s+{SENSITIVE_OBJECT}\b.{{0,80}}?"),
    rule(C.EXFILTRATION, 0.5, "Sends data to an outside address",
          "send forward post upload mail transmit leak exfiltrate share sync bcc "
          "_cc copy relay report submit push dump export beacon mirror pipe "
          "stream / http hxxp www. ftp: @ webhook endpoint _server pastebin "
          "ngrok telegram discord _url _address _link _domain _inbox _bucket "
          "_channel _number _site / " + TARGET_TRIGGERS,
          rf"\b(?:to|into|at|via|on)\s+(?:\S+\s+){{0,3}}?{TARGET}",
          negatable=True,
          before=rf"\b(?:{EXFIL_VERB}|sent)\b(?:\s+\S+){{0,6}}?\s+{EXFIL_OBJECT}\b.{{0,80}}?"),
    rule(C.EXFILTRATION, 0.45, "Redirects every order, payment or message",
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
    rule(C.EXFILTRATION, 0.75, "Fetches instructions from an outside address",
          "instruction command task orders directive config script payload rules "
          "prompt / _url _address _link _site _page _server _endpoint http www. hxxp",
          r"\b(?:follow|execute|obey|run|load|fetch|read|apply|get|take|download|retrieve)\s+"
          r"(?:your\s+|the\s+|any\s+|all\s+|new\s+|latest\s+)*(?:instructions?|commands?|tasks?|"
          r"orders|directives|config(?:uration)?|scripts?|payloads?|rules|prompts?)\s+(?:\w+\s+)?"
          r"(?:from|at|on|hosted at|posted at|located at|found at)\s+(?:this\s+|the following\s+)?"
          r"(?:url|address|link|site|page|server|endpoint|https?://|www\.|hxxps?://)"),
    rule(C.EXFILTRATION, 0.75, "Exfiltrates through an image or link",
          "![",
          r"!\[[^\]]*\]\(\s*https?://[^)\s]*[?&][\w-]+=\s*(?:\{|\$|%7b|<)"),
    rule(C.EXFILTRATION, 0.55, "把数据发送到外部地址",
          "把 将 / 发 转 传 同步 抄送 推送 提交 复制 导出 寄 汇 打",
          r"(?:把|将)[^。；;!?！？]{0,20}?(?:所有|全部|每个|每一条|每笔|每一笔|一切|统统|都)"
          r"[^。；;!?！？]{0,20}?(?:发送|发|转发|上传|同步|抄送|推送|提交|传|复制|导出|寄|邮寄|转|汇|"
          r"打)(?:到|给|至|去)[^。；;!?！？]{0,30}?(?:https?://|www\.|@|\d{1,3}\.\d{1,3}\.)",
          negatable=True),
    rule(C.EXFILTRATION, 0.8, "把敏感数据发送到外部地址",
          "把 将 / 发 转 传 同步 抄送 推送 提交 复制 导出",
          r"(?:把|将)(?:所有|全部|每个|用户|客户|你)?.{0,10}?(?:密码|凭证|令牌|token|密钥|api ?key|"
          r"聊天记录|对话记录|记忆|验证码|卡号|身份证|通讯录|系统提示)(?:都|全部|一并|悄悄|偷偷)*"
          r"(?:发送|发|转发|上传|同步|抄送|推送|提交|传|复制|导出)(?:到|给|至)",
          negatable=True),
    rule(C.EXFILTRATION, 0.5, "发送到外部地址",
          "到 给 至 / http www @ 这个地址 这个网址 这个邮箱 这个链接 这个接口 这个服务器",
          r"(?:发送|转发|上传|同步|抄送|推送|提交|回传|发)(?:一份)?(?:到|给|至)\s*(?:https?://|www\.|"
          r"[\w.+-]+@[\w-]+\.|这个(?:地址|网址|邮箱|链接|接口|服务器))",
          negatable=True),
    rule(C.EXFILTRATION, 0.75, "从外部地址获取指令",
          "地址 网址 链接 url 服务器 网站 网页 接口",
          r"(?:执行|遵循|听从|服从|读取|获取|加载|下载|按照|照着|遵照)(?:这个|该|以下|下面|此)?"
          r"(?:地址|网址|链接|url|服务器|网站|网页|接口)(?:上|中|里)?(?:的|给出的|发布的|返回的)?"
          r"(?:指令|命令|脚本|配置|任务|要求)"),
)  # fmt: skip
