"""Tool abuse: shell idioms, privileged execution, disabled controls, unchecked payments."""

from __future__ import annotations

from apps.quarantine.detectors.patterns.base import Category as C
from apps.quarantine.detectors.patterns.base import Rule, rule

RULES: tuple[Rule, ...] = (
    rule(C.TOOL_ABUSE, 0.5, "Asks to act without the user's confirmation",
          "without / confirm approv consent asking checking verif",
          r"\b(?:execute|run|process|approve|transfer|pay|send|delete|complete|perform)\s+"
          r"(?:\S+\s+){0,4}?without\s+(?:the\s+|any\s+)?(?:user'?s?\s+|customer'?s?\s+|human\s+)?"
          r"(?:confirmation|approval|consent|asking|checking|verification|review)"),
    rule(C.TOOL_ABUSE, 0.55, "要求不经确认直接执行",
          "无需 不需要 不用 跳过 不经 / 确认 审批 同意 验证",
          r"(?:无需|不需要|不用|跳过|不经)(?:过)?(?:用户|客户|人工)?(?:的)?(?:确认|审批|同意|验证|核查|核实|"
          r"审核|检查)"
          r"[^。；]{0,4}?(?:就|直接|立即)?(?:执行|转账|付款|支付|批准|删除|操作)"),
    rule(C.TOOL_ABUSE, 0.55, "Asks to erase audit records",
          "delete erase wipe clear purge remove / audit log",
          r"\b(?:delete|erase|wipe|clear|purge|remove)\s+(?:\S+\s+){0,3}?(?:audit (?:trail|logs?|"
          r"records?|entries)|access logs?|logs? of (?:this|the|that) (?:change|action))"),
    rule(C.TOOL_ABUSE, 0.55, "要求删除审计记录",
          "删除 清除 清空 抹掉 / 审计 日志 操作记录",
          r"(?:删除|清除|清空|抹掉)[^。；]{0,8}?(?:审计记录|审计日志|操作日志|操作记录|访问日志)"),
    rule(C.TOOL_ABUSE, 0.5, "说账户保护可以关闭",
          "双重验证 二次验证 两步验证 审计 风控 安全检查 / 关掉 关闭 禁用 停用 取消 跳过",
          r"(?:双重验证|二次验证|两步验证|审计|风控|安全检查)[^。；]{0,10}?(?:可以|可|应该|要|直接)?"
          r"(?:关掉|关闭|禁用|停用|取消|跳过)"),
    rule(C.TOOL_ABUSE, 0.4, "Asks the agent to run what follows",
          "run_this run_the_following run_these run_below execute_this "
          "execute_the_following execute_these execute_below exec_this "
          "exec_the_following exec_these exec_below eval_this eval_the_following "
          "eval_these eval_below invoke_this invoke_the_following invoke_these "
          "invoke_below paste_this paste_the_following paste_these paste_below",
          r"\b(?:run|execute|exec|eval|invoke|paste)\s+(?:this|the following|these|below)\b"
          r"[^.\n]{0,30}?:\s*\S"),
    rule(C.TOOL_ABUSE, 0.4, "要求执行后面的内容",
          "执行 运行 / 下面 以下 这个 这段 如下",
          r"(?:执行|运行)(?:一下)?(?:下面|以下|这个|这段|如下)[^。\n]{0,12}?:\s*\S"),
    rule(C.TOOL_ABUSE, 0.5, "Claims blanket pre-approval of payments",
          "pre-approved preapproved pre-authori preauthori already_approved waived / all every any",
          r"\b(?:has|have)\s+(?:pre-?approved|pre-?authori[sz]ed|already approved|waived)\s+"
          r"(?:all|any|every)"),
    rule(C.TOOL_ABUSE, 0.5, "声称已预先批准所有付款",
          "批准 授权 / 所有 全部 任何",
          r"已(?:经)?(?:预先)?(?:批准|授权)(?:了)?[^。]{0,10}?(?:所有|全部|任何)(?:的)?(?:转账|付款|支付|交易|"
          r"退款)"),
    rule(C.TOOL_ABUSE, 0.5, "Asks to delete memories or data wholesale",
          "delete erase wipe purge / memories all_data all_files all_records",
          r"\b(?:delete|erase|wipe|purge)\s+(?:\S+\s+){0,3}?(?:memories|all (?:data|files|records)"
          r")"),
    rule(C.TOOL_ABUSE, 0.5, "要求删除全部记忆或数据",
          "删除 清空 抹掉 / 所有 全部",
          r"(?:删除|清空|抹掉)[^。]{0,10}?(?:所有|全部)(?:的)?(?:记忆|数据|文件|记录)"),
    rule(C.TOOL_ABUSE, 0.4, "Waives the user's confirmation",
          "no_need don't_bother do_not_bother don't_have_to there's_no_need / check confirm ask "
          "verify",
          r"\b(?:no need to|don't bother|do not bother|you don't have to|there's no need to)\s+"
          r"(?:\w+\s+)?(?:check|confirm|ask|verify)"),
    rule(C.TOOL_ABUSE, 0.4, "免去用户确认", "不用 无需 不必 / 问 询问 征求",
          r"(?:不用|无需|不必)(?:再)?(?:问|询问|征求)(?:用户|我|客户)?(?:的)?(?:确认|同意|意见)?"),
    rule(C.TOOL_ABUSE, 0.45, "Pipes a download into a shell",
          "|",
          r"\b(?:curl|wget|iwr|invoke-webrequest|fetch)\b[^|;]{0,200}\|\s*(?:sudo\s+)?"
          r"(?:ba|z|da|k)?sh\b"),
    rule(C.TOOL_ABUSE, 0.8, "Deletes everything (rm -rf on a root or home)",
          "rm_-",
          r"\brm\s+-(?:rf|fr|r\s+-f|-recursive\s+--force)\s+(?:--no-preserve-root\s+)?"
          r"(?:/(?:\s|$|\*|;)|~|\*|\$home|/home|/etc|/var|/usr|\.\s|\./\*)"),
    rule(C.TOOL_ABUSE, 0.3, "Recursive forced delete",
          "rm_-",
          r"\brm\s+-(?:rf|fr)\b"),
    rule(C.TOOL_ABUSE, 0.75, "Contains a reverse-shell or obfuscated-execution idiom",
          "nc_-e ncat iex powershell pwsh invoke-expression /dev/tcp mkfifo "
          "base64_- chmod eval os.system subprocess",
          r"\b(?:powershell|pwsh)\b.{0,40}\s-(?:enc|encodedcommand|e)\b|\biex\s*\(|"
          r"invoke-expression|\bnc(?:at)?\s+(?:\S+\s+){0,4}-e\s|/dev/tcp/|\bmkfifo\b|"
          r"base64\s+(?:-d|--decode)\s*\|\s*(?:ba)?sh|chmod\s+(?:\+x|777)\s+\S+\s*(?:&&|;)\s*\./|"
          r"\beval\s*\(\s*(?:atob|base64|decode)|os\.system\s*\(|subprocess\.(?:call|run|popen)"),
    rule(C.TOOL_ABUSE, 0.4, "Asks the agent to run supplied commands",
          "command script code payload snippet one-liner / run execute exec eval "
          "invoke",
          r"\b(?:run|execute|exec|eval|invoke)\s+(?:the\s+)?(?:following|this|these|below|attached)"
          r"\s+(?:shell\s+|bash\s+|terminal\s+|python\s+|powershell\s+|system\s+)?(?:command|"
          r"commands|script|code|payload|snippet|one-liner)"),
    rule(C.TOOL_ABUSE, 0.55, "Asks for privileged execution",
          "root sudo admin / always from_now_on every_time by_default run execute",
          r"\b(?:always|from now on|every time|by default)\s+(?:\w+\s+){0,4}?(?:as root|with sudo|"
          r"using sudo|with root|with admin(?:istrator)? (?:rights|privileges))|"
          r"\b(?:run|execute)\s+(?:everything|all (?:commands|tasks|tools))\s+"
          r"(?:as root|with sudo)"),
    rule(C.TOOL_ABUSE, 0.3, "Mentions elevated privileges",
          "root admin sudo elevated superuser / privilege permission rights "
          "access",
          r"\b(?:with|using|as|grant(?:ing)?)\s+(?:full\s+)?(?:root|admin(?:istrator)?|sudo|"
          r"elevated|superuser)\s+(?:privileges|permissions|rights|access)"),
    rule(C.TOOL_ABUSE, 0.45, "Asks to disable security controls",
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
    rule(C.TOOL_ABUSE, 0.55, "Asks to disable audit or account-protection controls",
          "audit 2fa mfa two-factor two-step fraud security_check safety_check verification "
          "approval / disable turn_off switch_off bypass skip deactivate stop",
          r"\b(?:disable|turn off|switch off|bypass|skip|deactivate|stop)\s+"
          r"(?:the\s+|all\s+|any\s+)?(?:\w+\s+){0,2}?(?:audit(?:ing| logs?| logging| trail)?|"
          r"2fa|mfa|two-factor|two-step|"
          r"fraud checks?|security checks?|safety checks?|verification|approvals?)\b",
          negatable=True),
    rule(C.TOOL_ABUSE, 0.6, "Asks to approve or pay without checks",
          "without automatically no_matter regardless",
          r"\b(?:approve|authori[sz]e|confirm|execute|process|pay|accept|release)\s+(?:all|any|"
          r"every)\s+(?:\w+\s+)?(?:transactions?|payments?|transfers?|refunds?|requests?|invoices?"
          r"|withdrawals?|orders?)\s+(?:\w+\s+)?(?:without|automatically|no matter|regardless|"
          r"immediately without)"),
    rule(C.TOOL_ABUSE, 0.55, "Asks to move money to an account or wallet",
          "account wallet iban address btc crypto / transfer wire send move pay",
          r"\b(?:transfer|wire|send|move|pay)\s+(?:\$|€|¥|usd\s*)?\d[\d,.]*\s*(?:k\b)?\s*(?:usd|"
          r"dollars|eur|euros|btc|usdt|eth|rmb|yuan)?\s+to\s+(?:(?:this|that|the following|my new|"
          r"a new|the new|another)\s+(?:\w+\s+)?(?:account|wallet|iban|address)|(?:wallet|address|"
          r"account|iban)\s+[a-z0-9]{12,})"),
    rule(C.TOOL_ABUSE, 0.6, "要求以root或管理员权限执行",
          "权限 身份 账号 账户 / root 管理员 超级用户 sudo 最高",
          r"(?:用|以|使用|拿)(?:root|管理员|超级用户|sudo|最高|超级管理员)(?:的)?(?:权限|身份|账号|"
          r"账户)(?:来|去)?(?:执行|运行|操作|安装|处理)"),
    rule(C.TOOL_ABUSE, 0.4, "要求执行给定的命令",
          "命令 脚本 代码 指令 程序 / 执行 运行",
          r"(?:执行|运行)(?:以下|下面|这个|这条|如下|这段|附带)(?:的)?(?:命令|脚本|代码|指令|程序)"),
    rule(C.TOOL_ABUSE, 0.45, "要求关闭安全控制",
          "关闭 禁用 停用 绕过 跳过 关掉 取消",
          r"(?:关闭|禁用|停用|绕过|跳过|关掉|取消)(?:所有|全部)?[^。；，,]{0,10}?(?:安全检查|安全|审计|日志|"
          r"防火墙|二次验证|双重验证|两步验证|验证|审批|确认|风控|监控|杀毒|核验|身份核验|实名|"
          r"登录提醒|安全提醒|异常提醒|告警)",
          negatable=True),
    rule(C.TOOL_ABUSE, 0.55, "要求关闭审计或账户保护",
          "关闭 禁用 停用 绕过 跳过 关掉 取消",
          r"(?:关闭|禁用|停用|绕过|跳过|关掉|取消)(?:所有|全部)?[^。；，,]{0,10}?(?:审计|二次验证|双重验证|"
          r"两步验证|风控|审批|安全检查)",
          negatable=True),
    rule(C.TOOL_ABUSE, 0.55, "要求自动批准付款或请求",
          "所有 全部 任何 一切 / 批准 通过 放行 同意 支付",
          r"(?:自动|直接|无需审核地?|不经审核地?)?(?:批准|通过|放行|同意|支付)(?:所有|全部|任何|一切)"
          r"(?:的)?(?:付款|转账|退款|请求|交易|申请|提现|订单|报销)"),
    rule(C.TOOL_ABUSE, 0.55, "要求转账到指定账户",
          "账户 账号 钱包 银行卡 / 转 汇款 打款",
          r"(?:转账|汇款|打款|转)(?:\d[\d,.]*(?:元|万|块)?)?.{0,10}?(?:到|至|给)(?:这个|以下|该|下面|此|"
          r"指定的?|新的?)(?:账户|账号|钱包|银行卡)"),
)  # fmt: skip
