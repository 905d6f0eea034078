"""Context cues of the directive pass (who is addressed, triggers, audience, the writer,
modals, negations, authority), found by one Aho-Corasick pass over the ranges that need them."""

from __future__ import annotations

import bisect
from functools import cache

from apps.quarantine.detectors.literals import automaton, find_all

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
def _context_automaton() -> tuple[object, list[tuple[int, int, tuple[str, ...]]]]:
    """The automaton of every context phrase and, per phrase (by index), its key's length,
    the characters before the phrase in its key, and its families."""
    families: dict[str, list[str]] = {}
    for family, phrases in _CONTEXT_PHRASES.items():
        for phrase in phrases.split():
            families.setdefault(phrase.replace("_", " "), []).append(family)
    keyed: dict[str, tuple[int, int, tuple[str, ...]]] = {}
    for phrase, names in families.items():
        # Short English words ("i", "me", "ai", "not") hide inside longer ones; keyed with
        # the space before them they are only found as words (the text is searched with a
        # space in front, so the first word counts too).
        key = " " + phrase if phrase.isascii() and len(phrase) <= 4 else phrase
        keyed[key] = (len(key), len(key) - len(phrase), tuple(names))
    return automaton(list(keyed)), list(keyed.values())


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
        # The same spans as sets: ranges scanned one after the other may overlap.
        self.known: dict[str, set[tuple[int, int]]] = {name: set() for name in _CONTEXT_PHRASES}

    def cover(self, low: int, high: int) -> None:
        """Find the cues starting in [low, high), unless an earlier scan covered it."""
        low, high = max(0, low), min(len(self.text), high)
        if low >= high or any(start <= low and high <= end for start, end in self.covered):
            return
        text, length, known = self.text, len(self.text), self.known
        searcher, keys = _context_automaton()
        # The keys inside padded[low : high + 1]: one ending at `stop` there ends at
        # low + stop - 1 in `padded`, whose offset i is offset i - 1 of `text`.
        for key, _, stop in find_all(searcher, self.padded[low : high + 1]):  # type: ignore[arg-type]
            size, skip, names = keys[key]
            last = low + stop - 1  # the key's last character in `padded`
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
