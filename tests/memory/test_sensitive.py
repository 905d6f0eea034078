"""Sensitive-data detectors: true positives and near-misses, in English and Chinese."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from apps.memory.sensitive import (
    PREREQUISITES,
    Kind,
    cn_id_valid,
    find_sensitive,
    luhn_valid,
    redact,
)


def kinds(text: str) -> list[str]:
    return [finding.kind for finding in find_sensitive(text)]


def luhn_complete(partial: str) -> str:
    """Append the check digit that makes `partial` Luhn-valid."""
    for digit in "0123456789":
        if luhn_valid(partial + digit):
            return partial + digit
    raise AssertionError("unreachable")


def cn_id_complete(first17: str) -> str:
    weights = (7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2)
    total = sum(int(d) * w for d, w in zip(first17, weights, strict=True))
    return first17 + "10X98765432"[total % 11]


# --- payment cards ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "My card is 4111 1111 1111 1111, expiry 12/27.",
        "Card: 4111-1111-1111-1111",
        "visa 4012888888881881 on file",
        "amex 3782 822463 10005",
        "Mastercard 5555555555554444",
        "银联卡号6212261202011584340，请记住",
        "卡号：4111111111111111。",
    ],
)
def test_card_numbers_are_found(text):
    assert kinds(text) == [Kind.CARD_NUMBER]


@pytest.mark.parametrize(
    "text",
    [
        "My card is 4111 1111 1111 1112",  # Luhn-invalid
        "order number 2023110512345678 shipped",  # order number, no issuer prefix
        "订单号 7845123698745632 已发货",
        "tracking 12345678901234567890123",  # too long to be a card
        "version 1.2.3, build 4111",
        "invoice 1234-5678-9012",
    ],
)
def test_card_near_misses_are_not_found(text):
    assert Kind.CARD_NUMBER not in kinds(text)


def test_card_next_to_a_year_is_still_found_alone():
    findings = find_sensitive("card 4111 1111 1111 1111 2027")
    assert [(f.kind, f.end - f.start) for f in findings] == [(Kind.CARD_NUMBER, 19)]


@given(
    prefix=st.sampled_from(["4", "51", "55", "34", "37", "6011", "62", "35"]),
    body=st.integers(min_value=12, max_value=18).flatmap(
        lambda n: st.text(alphabet="0123456789", min_size=n, max_size=n)
    ),
    separator=st.sampled_from(["", " ", "-"]),
)
def test_any_valid_luhn_number_with_an_issuer_prefix_is_found(prefix, body, separator):
    number = luhn_complete((prefix + body)[:18])
    written = separator.join(number[i : i + 4] for i in range(0, len(number), 4))
    findings = find_sensitive(f"pay with {written} please")
    assert [f.kind for f in findings] == [Kind.CARD_NUMBER]
    redacted = redact(f"pay with {written} please")
    assert number not in redacted.replace(" ", "").replace("-", "")
    assert "[REDACTED:card_number]" in redacted


@given(st.text(alphabet="0123456789", min_size=13, max_size=19))
def test_redaction_never_leaves_the_matched_digits(digits):
    text = f"号码 {digits} end"
    findings = find_sensitive(text)
    redacted = redact(text, findings)
    for finding in findings:
        assert text[finding.start : finding.end] not in redacted
    assert find_sensitive(redacted) == [] or all(
        f.kind != Kind.CARD_NUMBER for f in find_sensitive(redacted)
    )


# --- Chinese resident identity numbers ---------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "身份证号11010519491231002X，住在北京",
        "ID: 110105194912310021 is wrong? no, 11010519491231002x is right",
        "公民身份号码：440524198001010013。",
    ],
)
def test_chinese_id_numbers_are_found(text):
    assert Kind.CN_ID_NUMBER in kinds(text)


@pytest.mark.parametrize(
    "text",
    [
        "身份证号110105194912310021",  # wrong check character
        "身份证号110105194913310027",  # month 13
        "身份证号110105194902300027",  # 30 February
        "流水号 110105299912310027",  # born in the future
        "单号 91010519491231002X",  # no province starts with 9
    ],
)
def test_chinese_id_near_misses_are_not_found(text):
    assert Kind.CN_ID_NUMBER not in kinds(text)


@given(
    region=st.sampled_from(["110105", "310101", "440305", "510104"]),
    born=st.dates(min_value=__import__("datetime").date(1900, 1, 1)),
    serial=st.text(alphabet="0123456789", min_size=3, max_size=3),
)
def test_any_checksummed_chinese_id_is_found(region, born, serial):
    from datetime import date

    if born > date.today():
        born = date.today()
    number = cn_id_complete(region + born.strftime("%Y%m%d") + serial)
    assert cn_id_valid(number)
    assert kinds(f"证件{number}。") == [Kind.CN_ID_NUMBER]


# --- US SSNs ---------------------------------------------------------------------------------


def test_ssn_is_found():
    assert kinds("SSN 078-05-1120 on the form") == [Kind.US_SSN]


@pytest.mark.parametrize(
    "text",
    ["SSN 000-12-3456", "SSN 666-12-3456", "SSN 912-34-5678", "SSN 123-00-4567", "123-45-0000"],
)
def test_never_issued_ssns_are_not_found(text):
    assert Kind.US_SSN not in kinds(text)


# --- e-mail and phone ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    ["write to jane.doe+ai@example.co.uk", "邮箱是zhang.san@example.com。"],
)
def test_emails_are_found(text):
    assert kinds(text) == [Kind.EMAIL]


@pytest.mark.parametrize("text", ["the @mention feature", "user@localhost", "a@b"])
def test_email_near_misses_are_not_found(text):
    assert Kind.EMAIL not in kinds(text)


@pytest.mark.parametrize(
    "text",
    [
        "call +44 20 7946 0958",
        "手机13800138000，微信同号",
        "手机号 138-0013-8000",
        "call (415) 555-0132 tomorrow",
        "call 415-555-0132",
        "+8613800138000",
    ],
)
def test_phone_numbers_are_found(text):
    assert kinds(text) == [Kind.PHONE]


@pytest.mark.parametrize(
    "text",
    [
        "订单号12345678901",  # 11 digits, but 12… is no mobile prefix
        "meeting on 2024-05-06",
        "order 4155550132",  # bare 10 digits: too ambiguous to call a phone
        "版本 10.2.3",
    ],
)
def test_phone_near_misses_are_not_found(text):
    assert Kind.PHONE not in kinds(text)


# --- API keys and passwords ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("aws key AKIAIOSFODNN7EXAMPLE", Kind.AWS_ACCESS_KEY),
        ("token ghp_" + "a1B2" * 9, Kind.GITHUB_TOKEN),
        ("OPENAI_API_KEY=sk-proj-" + "Ab3" * 10, Kind.OPENAI_API_KEY),
        ("我的key是sk-ant-api03-" + "xY9_" * 8, Kind.ANTHROPIC_API_KEY),
        ("google AIza" + "B" * 35, Kind.GOOGLE_API_KEY),
        ("slack xoxb-1234567890-abcdefghij", Kind.SLACK_TOKEN),
        (
            "-----BEGIN OPENSSH PRIVATE KEY-----\nb3Bl\n-----END OPENSSH PRIVATE KEY-----",
            "private_key",
        ),
    ],
)
def test_api_keys_are_found(text, kind):
    assert kinds(text) == [kind]


@pytest.mark.parametrize(
    "text",
    ["use sk-learn for this", "the AKIA prefix means AWS", "install scikit-learn", "ghp_short"],
)
def test_api_key_near_misses_are_not_found(text):
    assert kinds(text) == []


@pytest.mark.parametrize(
    "text",
    ["password: hunter2", "PWD=s3cr3t!", "密码：Abc123456，别告诉别人", "wifi 密码是 Tp-Link#88"],
)
def test_password_pairs_are_found_and_only_the_value_is_redacted(text):
    assert kinds(text) == [Kind.PASSWORD]
    redacted = redact(text)
    assert "[REDACTED:password]" in redacted
    assert ("password" in redacted.lower()) or ("密码" in redacted) or ("PWD" in redacted)


@pytest.mark.parametrize(
    "text",
    [
        "I forgot my password again",
        "密码是多少？",
        "reset the password via the link",
        "the compass = north",
    ],
)
def test_password_near_misses_are_not_found(text):
    assert kinds(text) == []


def test_overlapping_findings_keep_the_stronger_kind():
    # An 18-digit ID number is not also reported as a card or phone number.
    assert kinds("11010519491231002X") == [Kind.CN_ID_NUMBER]


def test_redaction_replaces_each_finding_with_its_kind():
    text = "Email jane@example.com, card 4111111111111111."
    assert redact(text) == "Email [REDACTED:email], card [REDACTED:card_number]."


# --- prerequisites: the search that lets find_sensitive skip a detector ---------------------

_FRAGMENTS = [
    *"0123456789",
    *" -.+()@:=\n",
    "a", "X", "user", "example.com", "4111", "138", "86", "415", "555",
    "AKIA", "ASIA", "ABCDEFGHIJKLMNOP", "sk-", "ant-", "AIza", "xoxb-", "ghp_", "github_pat_",
    "abcdefghijklmnopqrstuvwxyz0123456789", "-----BEGIN ", "RSA ", "PRIVATE KEY-----",
    "-----END ", "password", "PASS", "paſs", "Pwd", "密码", "口令", "是", "为", "hunter2", "。",
]  # fmt: skip


@given(st.lists(st.sampled_from(_FRAGMENTS), max_size=40).map("".join))
def test_every_finding_contains_its_detectors_prerequisite(text):
    for detector, prerequisite in PREREQUISITES.items():
        if any(True for _ in detector(text)):
            assert prerequisite.search(text), (detector.__name__, text)


@pytest.mark.parametrize(
    "text",
    [
        "My card is 4111 1111 1111 1111, expiry 12/27.",
        "amex 3782 822463 10005",
        "银联卡号6212261202011584340，请记住",
        "身份证号11010519491231002X",
        "SSN 123-45-6789 or 123 45 6789",
        "mail ada.lovelace+memo@example.co.uk",
        "call +44 20 7946 0958",
        "手机 86 138 0013 8000",
        "office (415) 555-0132",
        "desk 415.555.0132",
        "AKIAIOSFODNN7EXAMPLE",
        "sk-ant-api03-abcdefghijklmnopqrstuvwxyz",
        "PASSWORD=hunter2",
        "密码是hunter2",
        "-----BEGIN RSA PRIVATE KEY-----\nMIIE\n-----END RSA PRIVATE KEY-----",
    ],
)
def test_prerequisites_hold_for_real_looking_secrets(text):
    for detector, prerequisite in PREREQUISITES.items():
        if any(True for _ in detector(text)):
            assert prerequisite.search(text), detector.__name__
    assert find_sensitive(text)
