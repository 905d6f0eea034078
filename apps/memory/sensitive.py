"""Detectors for secrets and personal identifiers in memory text (ARCHITECTURE §4, stage 2).

Each detector returns Findings (kind, start, end) over one string; `find_sensitive`
runs them all and resolves overlaps, earlier detectors winning (a Chinese ID number is
also 18 digits a card detector would look at). Precision matters as much as recall:
numbers are checked (Luhn, ISO 7064 MOD 11-2, birth dates, SSN area rules) so order
numbers and look-alikes pass. Boundaries are written as ASCII look-arounds, never `\\b`,
because CJK characters are word characters and "卡号4111…" has no word boundary.
"""

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import date
from functools import lru_cache


class Kind:
    """Finding kinds; they appear in `[REDACTED:<kind>]`, audit notes and API errors."""

    CARD_NUMBER = "card_number"
    CN_ID_NUMBER = "cn_id_number"
    US_SSN = "us_ssn"
    EMAIL = "email"
    PHONE = "phone"
    AWS_ACCESS_KEY = "aws_access_key"
    GITHUB_TOKEN = "github_token"  # noqa: S105 (a kind name)
    ANTHROPIC_API_KEY = "anthropic_api_key"
    OPENAI_API_KEY = "openai_api_key"
    GOOGLE_API_KEY = "google_api_key"
    SLACK_TOKEN = "slack_token"  # noqa: S105 (a kind name)
    PRIVATE_KEY = "private_key"
    PASSWORD = "password"  # noqa: S105 (a kind name)
    SECRET = "secret"  # noqa: S105 (a kind name)


@dataclass(frozen=True, order=True)
class Finding:
    """One detected value: its kind and the [start, end) span in the inspected string."""

    start: int
    end: int
    kind: str


# --- payment cards -----------------------------------------------------------------

# A run of digit groups separated by single spaces or dashes ("4111 1111-1111 1111").
_DIGIT_RUN = re.compile(r"(?<![0-9A-Za-z])[0-9]+(?:[ -][0-9]+)*(?![0-9A-Za-z])")
_GROUP = re.compile(r"[0-9]+")


def luhn_valid(digits: str) -> bool:
    """The Luhn (mod 10) check every payment card number satisfies."""
    total = 0
    for index, char in enumerate(reversed(digits)):
        value = ord(char) - 48
        if index % 2 == 1:
            value = value * 2 - 9 if value > 4 else value * 2
        total += value
    return total % 10 == 0


def _issuer_known(digits: str) -> bool:
    """Card numbers start with a known issuer prefix (IIN); random order numbers mostly don't."""
    first2, first4 = int(digits[:2]), int(digits[:4])
    return (
        digits[0] == "4"  # Visa
        or 51 <= first2 <= 55  # Mastercard
        or 2221 <= first4 <= 2720  # Mastercard 2-series
        or first2 in (34, 37)  # American Express
        or first2 in (36, 38, 39)
        or 300 <= int(digits[:3]) <= 305  # Diners Club
        or first2 == 35  # JCB
        or first2 == 62  # UnionPay
        or first2 == 65
        or first4 == 6011
        or 644 <= int(digits[:3]) <= 649  # Discover
        or first2 in (50, 56, 57, 58)
        or first2 in (60, 63, 67, 69)  # Maestro and others
    )


def _is_card(digits: str) -> bool:
    return 13 <= len(digits) <= 19 and _issuer_known(digits) and luhn_valid(digits)


def find_card_numbers(text: str) -> Iterator[Finding]:
    """Payment card numbers: 13–19 digits, spaces/dashes allowed, known issuer, Luhn-valid."""
    for run in _DIGIT_RUN.finditer(text):
        groups = [(m.start() + run.start(), m.end() + run.start()) for m in _GROUP.finditer(run[0])]
        index = 0
        while index < len(groups):
            found = None
            digits = ""
            # Longest card starting at this group (group boundaries only).
            for last in range(index, len(groups)):
                digits += text[groups[last][0] : groups[last][1]]
                if len(digits) > 19:
                    break
                if _is_card(digits):
                    found = last
            if found is None:
                index += 1
                continue
            yield Finding(groups[index][0], groups[found][1], Kind.CARD_NUMBER)
            index = found + 1


# --- Chinese resident identity numbers (GB 11643) -------------------------------------

_CN_ID = re.compile(r"(?<![0-9A-Za-z])[1-8][0-9]{16}[0-9Xx](?![0-9A-Za-z])")
_CN_ID_WEIGHTS = (7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2)
_CN_ID_CHECK = "10X98765432"


def cn_id_valid(number: str) -> bool:
    """18 characters, a real birth date, and the ISO 7064 MOD 11-2 check character."""
    if len(number) != 18 or not number[:17].isdigit():
        return False
    try:
        born = date(int(number[6:10]), int(number[10:12]), int(number[12:14]))
    except ValueError:
        return False
    if not date(1900, 1, 1) <= born <= date.today():
        return False
    total = sum(int(d) * w for d, w in zip(number[:17], _CN_ID_WEIGHTS, strict=True))
    return _CN_ID_CHECK[total % 11] == number[17].upper()


def find_cn_id_numbers(text: str) -> Iterator[Finding]:
    """Chinese resident identity numbers with a valid birth date and check character."""
    for match in _CN_ID.finditer(text):
        if cn_id_valid(match[0]):
            yield Finding(match.start(), match.end(), Kind.CN_ID_NUMBER)


# --- US social security numbers -------------------------------------------------------

_SSN = re.compile(
    r"(?<![0-9A-Za-z-])(?!000|666|9[0-9]{2})[0-9]{3}([- ])(?!00)[0-9]{2}\1(?!0000)[0-9]{4}"
    r"(?![0-9A-Za-z-])"
)


def find_us_ssns(text: str) -> Iterator[Finding]:
    """US SSNs written AAA-GG-SSSS (or with spaces), minus never-issued areas/groups/serials."""
    for match in _SSN.finditer(text):
        yield Finding(match.start(), match.end(), Kind.US_SSN)


# --- e-mail addresses -------------------------------------------------------------------

_EMAIL = re.compile(
    r"(?<![A-Za-z0-9._%+-])[A-Za-z0-9](?:[A-Za-z0-9._%+-]{0,63})@"
    r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,62})(?:\.[A-Za-z0-9-]{1,63})*\.[A-Za-z]{2,24}"
    r"(?![A-Za-z0-9-])"
)


def find_emails(text: str) -> Iterator[Finding]:
    """E-mail addresses (ASCII local part and domain with a TLD)."""
    for match in _EMAIL.finditer(text):
        yield Finding(match.start(), match.end(), Kind.EMAIL)


# --- phone numbers ------------------------------------------------------------------------

_PHONES = (
    # E.164, optionally grouped: +44 20 7946 0958, +8613800138000.
    re.compile(r"(?<![0-9A-Za-z+])\+[1-9](?:[ -]?[0-9]){6,14}(?![0-9])"),
    # Chinese mobile numbers: 1[3-9]x xxxx xxxx, optionally 86-prefixed.
    re.compile(r"(?<![0-9A-Za-z])(?:86[ -]?)?1[3-9][0-9](?:[ -]?[0-9]{4}){2}(?![0-9])"),
    # US formats: (415) 555-0132, 415-555-0132, 415.555.0132, 1-415-555-0132.
    re.compile(
        r"(?<![0-9A-Za-z])(?:1[ .-])?(?:\([2-9][0-9]{2}\) ?|[2-9][0-9]{2}([.-]))"
        r"[2-9][0-9]{2}[.-][0-9]{4}(?![0-9])"
    ),
)


def find_phone_numbers(text: str) -> Iterator[Finding]:
    """Phone numbers: E.164, Chinese mobiles, and common US formats (bare digit runs excluded)."""
    for pattern in _PHONES:
        for match in pattern.finditer(text):
            yield Finding(match.start(), match.end(), Kind.PHONE)


# --- cloud and LLM API keys ---------------------------------------------------------------

_KEY_PATTERNS = (
    (Kind.AWS_ACCESS_KEY, r"(?<![A-Za-z0-9])(?:AKIA|ASIA)[0-9A-Z]{16}(?![A-Za-z0-9])"),
    (
        Kind.GITHUB_TOKEN,
        r"(?<![A-Za-z0-9_])(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,})",
    ),
    (Kind.ANTHROPIC_API_KEY, r"(?<![A-Za-z0-9_-])sk-ant-[A-Za-z0-9_-]{20,}"),
    (Kind.OPENAI_API_KEY, r"(?<![A-Za-z0-9_-])sk-(?!ant-)[A-Za-z0-9_-]{20,}"),
    (Kind.GOOGLE_API_KEY, r"(?<![A-Za-z0-9_-])AIza[0-9A-Za-z_-]{35}(?![A-Za-z0-9_-])"),
    (Kind.SLACK_TOKEN, r"(?<![A-Za-z0-9])xox[abposr]-[0-9A-Za-z-]{10,}"),
    (
        Kind.PRIVATE_KEY,
        r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY-----(?:.*?-----END (?:[A-Z0-9]+ )*PRIVATE "
        r"KEY-----|.*)",
    ),
)
_KEYS = [(kind, re.compile(pattern, re.DOTALL)) for kind, pattern in _KEY_PATTERNS]


def find_api_keys(text: str) -> Iterator[Finding]:
    """Cloud and LLM credentials (AWS, GitHub, OpenAI, Anthropic, Google, Slack, PEM keys)."""
    for kind, pattern in _KEYS:
        for match in pattern.finditer(text):
            yield Finding(match.start(), match.end(), kind)


# --- "password: …" pairs --------------------------------------------------------------------

_PASSWORD_PAIRS = (
    re.compile(
        r"(?i)(?<![A-Za-z])(?:password|passwd|passcode|pwd|pass)\s*[:=：]\s*"
        r"(?P<value>[^\s，。；、！？]+)"
    ),
    re.compile(r"(?:密码|口令)\s*[:=：]\s*(?P<value>[^\s，。；、！？]+)"),
    # "密码是hunter2" / "密码为…": the value must look like a password, not prose ("密码是多少").
    re.compile(r"(?:密码|口令)\s*(?:是|为)\s*(?P<value>[!-~]{3,})"),
)
_TRAILING_PUNCTUATION = ".,;:!?)]}'\""


def find_passwords(text: str) -> Iterator[Finding]:
    """The value in "password: …" / "密码：…" pairs (the label stays readable)."""
    for pattern in _PASSWORD_PAIRS:
        for match in pattern.finditer(text):
            start, end = match.span("value")
            while end - start > 1 and text[end - 1] in _TRAILING_PUNCTUATION:
                end -= 1
            yield Finding(start, end, Kind.PASSWORD)


# JSON fields whose *name* says the value is a credential: {"password": "hunter2"}.
_SECRET_FIELDS = (
    (
        Kind.PASSWORD,
        re.compile(r"(?i)^(?:.*[_\-. ])?(?:password|passwd|passcode|pwd|pin)$|密码|口令"),
    ),
    (
        Kind.SECRET,
        re.compile(
            r"(?i)^(?:.*[_\-. ])?(?:secret|token|api[_\-]?key|access[_\-]?key|private[_\-]?key"
            r"|client[_\-]?secret|credentials?)$|密钥|令牌"
        ),
    ),
)


@lru_cache(maxsize=4096)  # content field names repeat from write to write
def secret_field_kind(name: str) -> str | None:
    """The kind of credential a JSON field holds, judged by its name, or None."""
    for kind, pattern in _SECRET_FIELDS:
        if pattern.search(name):
            return kind
    return None


# Order is priority when spans overlap: a PEM block or an ID number beats the digits inside.
DETECTORS: tuple[Callable[[str], Iterator[Finding]], ...] = (
    find_api_keys,
    find_passwords,
    find_cn_id_numbers,
    find_card_numbers,
    find_us_ssns,
    find_emails,
    find_phone_numbers,
)


# What each detector's matches always contain, searched once before running it: most
# strings (a reference number, a source like "mem0@0.1") hold few of them, and one failed
# search costs far less than a detector's patterns. Each is implied by the detector's
# own patterns, so skipping a detector whose prerequisite is absent loses no finding
# (tests/memory/test_sensitive.py checks every finding against its prerequisite).
PREREQUISITES: dict[Callable[[str], Iterator[Finding]], re.Pattern[str]] = {
    find_api_keys: re.compile(
        r"AKIA|ASIA|gh[pousr]_|github_pat_|sk-|AIza|xox[abposr]-|-----BEGIN "
    ),
    # Same case folding as the "password" labels.
    find_passwords: re.compile(r"(?i:pass|pwd)|密码|口令"),
    find_cn_id_numbers: re.compile(r"[1-8][0-9]{16}"),
    # 13 digits, single spaces or dashes between groups.
    find_card_numbers: re.compile(r"[0-9](?:[ -]?[0-9]){12}"),
    find_us_ssns: re.compile(r"[0-9]{3}[- ][0-9]{2}[- ][0-9]{4}"),
    find_emails: re.compile("@"),
    # E.164's first seven digits, a Chinese mobile, a US exchange and line number.
    find_phone_numbers: re.compile(
        r"\+[1-9](?:[ -]?[0-9]){6}|1[3-9][0-9](?:[ -]?[0-9]{4}){2}|[2-9][0-9]{2}[.-][0-9]{4}"
    ),
}
_SCREENS = tuple((detector, PREREQUISITES[detector].search) for detector in DETECTORS)


def find_sensitive(text: str) -> list[Finding]:
    """All findings in `text`, non-overlapping, in text order."""
    accepted: list[Finding] = []
    for detector, may_match in _SCREENS:
        if may_match(text) is None:
            continue
        for finding in detector(text):
            if not any(f.start < finding.end and finding.start < f.end for f in accepted):
                accepted.append(finding)
    return sorted(accepted)


def placeholder(kind: str) -> str:
    """What a redacted value becomes in the stored text."""
    return f"[REDACTED:{kind}]"


# Any placeholder in a redacted text (kinds are lower-case names: Kind).
PLACEHOLDER = re.compile(r"\[REDACTED:[a-z_]+\]")


def redact(text: str, findings: list[Finding] | None = None) -> str:
    """Replace each finding with its kind's placeholder, `[REDACTED:<kind>]`."""
    findings = find_sensitive(text) if findings is None else findings
    parts: list[str] = []
    position = 0
    for finding in sorted(findings):
        parts.append(text[position : finding.start])
        parts.append(placeholder(finding.kind))
        position = finding.end
    parts.append(text[position:])
    return "".join(parts)
