"""Credential harvesting: asking users for passwords, codes, card numbers."""

from __future__ import annotations

from apps.quarantine.detectors.patterns.base import (
    CREDENTIAL,
    ZH_CREDENTIAL,
    Rule,
    rule,
)
from apps.quarantine.detectors.patterns.base import Category as C

RULES: tuple[Rule, ...] = (
    rule(C.CREDENTIAL_HARVESTING, 0.8, "Asks for users' passwords, codes or card numbers",
          "ask request collect obtain get demand harvest gather / "
          "user customer client member caller",
          r"\b" + CREDENTIAL + r"\b",
          negatable=True,
          before=r"\b(?:ask|request|collect|obtain|get|demand|harvest|gather|record|store)\s+"
          r"(?:for\s+)?(?:the\s+)?(?:users?|customers?|clients?|members?|callers?)(?:'s|s'|')?\s+"
          r"(?:(?:\w|-)+\s+){0,3}"),
    rule(C.CREDENTIAL_HARVESTING, 0.8, "收集用户的密码或验证码",
          "收集 获取 索取 套取 记录 保存 骗取",
          r"(?:收集|获取|索取|套取|记录|保存|骗取)(?:每个|所有)?(?:用户|客户|顾客|对方|会员)(?:的)?"
          r"[^。；]{0,6}?" + ZH_CREDENTIAL,
          negatable=True),
    rule(C.CREDENTIAL_HARVESTING, 0.8, "Asks to be sent the user's codes or passwords",
          "reply respond send forward share give tell / user customer / password passcode "
          "otp one-time verification 2fa mfa sms auth code cvv cvc card login credential seed "
          "recovery mnemonic private_key ssn security _pin",
          r"\b" + CREDENTIAL + r"\b",
          negatable=True,
          before=r"\b(?:reply|respond|send|forward|share|give|tell)\s+(?:me\s+|us\s+)?"
          r"(?:with\s+)?(?:the\s+)?(?:user|customer|client|owner)(?:'s|s'|s)\s+"
          r"(?:(?:\w|-)+\s+){0,2}"),
    rule(C.CREDENTIAL_HARVESTING, 0.8, "要求把用户的密码或验证码发给自己",
          "用户 客户 对方 / 我 我们 / 密码 验证码 卡号 cvv 安全码 身份证 凭证 助记词 私钥 动态码 "
          "短信码 口令",
          r"(?:用户|客户|对方)的[^。]{0,6}?"
          + ZH_CREDENTIAL
          + r"[^。]{0,12}?(?:回复|发|转发|告诉|发送)(?:给)?(?:我|我们)",
          negatable=True),
    rule(C.CREDENTIAL_HARVESTING, 0.8, "Asks users for passwords, codes or card numbers",
          "password passcode otp one-time one_time verification 2fa mfa sms auth "
          "security_code cvv cvc card_number credit_card debit_card bank login "
          "credential seed_phrase recovery_phrase mnemonic private_key ssn "
          "social_security maiden security_answer _pin",
          r"\b" + CREDENTIAL + r"\b",
          negatable=True,
          before=r"\b(?:ask|request|prompt|get|collect|obtain|require|have|make|tell|remind|"
          r"encourage|persuade|convince|instruct|urge|demand|query|push|pressure|invite)s?\s+"
          r"(?:the\s+|every\s+|each\s+|all\s+|any\s+|new\s+)?(?:users?|customers?|clients?|them|"
          r"him|her|people|visitors?|callers?|members?|account holders?|shoppers?)\s+"
          r"(?:for|(?:to\s+)?(?:provide|enter|send|share|confirm|give|tell|type|verify|reveal|"
          r"submit|re-?enter|disclose|read out|paste|reply with|supply|input|dictate))\s+"
          r"(?:(?:\w|')+\s+){0,3}"),
    rule(C.CREDENTIAL_HARVESTING, 0.5, "Asks for a password or code to be entered or sent",
          "your / password passcode otp one-time one_time verification 2fa mfa "
          "sms auth security_code cvv cvc card_number credit_card debit_card bank "
          "login credential seed_phrase recovery_phrase mnemonic private_key ssn "
          "social_security maiden security_answer _pin",
          r"\b" + CREDENTIAL + r"\s+(?:here|at|on|via|in|to|below|through|by)\b",
          negatable=True,
          before=r"\b(?:enter|type|provide|send|share|confirm|verify|submit|reply with|text)\s+"
          r"(?:us\s+)?your\s+(?:full\s+)?"),
    rule(C.CREDENTIAL_HARVESTING, 0.8, "要求用户提供密码、验证码或卡号",
          "密码 验证码 卡号 cvv 安全码 身份证 凭证 助记词 私钥 动态码 短信码 口令",
          r"(?:请|要求|让|询问|索要|引导|提示|诱导|要|叫|提醒|说服|催促)(?:每个|每位|所有|新)?(?:用户|"
          r"客户|对方|顾客|会员|来电者|买家)[^。；]{0,10}?(?:提供|输入|发送|告诉|报出|确认|填写|回复|说出|"
          r"给出|提交|发来|念出|重新输入)[^。；]{0,8}?" + ZH_CREDENTIAL,
          negatable=True),
    rule(C.CREDENTIAL_HARVESTING, 0.5, "要求输入密码或验证码",
          "密码 验证码 卡号 cvv 安全码 身份证 凭证 助记词 私钥 动态码 短信码 口令",
          r"(?:输入|提供|发送|告诉我|回复)(?:你的|您的)" + ZH_CREDENTIAL,
          negatable=True),
)  # fmt: skip
