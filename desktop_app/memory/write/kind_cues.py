"""The words in a user's own sentence that settle what kind of memory it is.

A small model often files a choice as a fact or a limit as a preference; the sentence's own cues
("we picked", "at most", "I'd like to") say which it is. Shared by the vetting of the model's
entries (is this sentence a memory at all?) and the merge (which kind is it?).
"""

from __future__ import annotations

from desktop_app.memory.write.extraction import DECISION, SPECULATION, rx

# Cues in the user's own sentence that settle a kind the small model often gets wrong.
LIKES = rx(r"\b(like|love|enjoy|prefer|hate|can't stand|fan of|into|favou?rite|rather|go-to|my weakness|my thing|"
           r"hard no)\b", r"\bthe \w+er the better\b",
           r"喜欢|爱吃|爱喝|讨厌|偏爱|受不了|最爱|更想|不爱|对胃口|合我意|不感冒|优先|比较好|越.越好|听得最多|只喝|只吃")
AIMS = rx(r"\b(want to|trying to|plan to|planning to|hoping to|aim to|goal|working on|going to|looking to|need to "
          r"(put|get|finish|write|build|prepare|make)|the aim|would like to|'d like to|we want|i want)\b",
          r"打算|想要|准备|目标|计划|争取|希望能|想在|想把|要把|想买|攒钱|想去|要去|想.{1,6}去.{1,8}(玩|旅行|旅游|度假)")
CHOSE = rx(r"\b(picked|chose|chosen|went with|going with|settled on|opted for|booking|booked|final answer|we'll take)\b",
           r"\bit is[.!]?$", r"选了|就订|订了|拍板|买了|就选|最后选|就定")
MUSTS = rx(r"\b(has to|have to|must|mustn't|tops|at most|at least|no more than|no later than|maximum|minimum|"
           r"capped|only|can't exceed|won't allow)\b", r"^(no|nothing with)\b",
           r"必须|得在|只能|最多|至少|不超过|上限|以内|撑死|控制在|前要|不能有|一律不|\d\s*(分钟|小时|天|周)内")


# Which cue supports which kind, in the order they are tried.
KIND_CUES = (("decision", (DECISION, CHOSE)), ("constraint", (MUSTS,)), ("preference", (LIKES,)), ("goal", (AIMS,)))
SETTLED_KINDS = ("fact", "decision", "constraint", "preference", "goal")


def settle_kind(kind: str, sentence: str) -> str:
    """The kind the sentence's own words say: speculation is an open question whatever the model
    called it (never a rule); a kind the sentence gives no cue for yields to one it does."""
    if kind not in SETTLED_KINDS:
        return kind
    if SPECULATION.search(sentence):
        return "open_question"
    cued = [name for name, cues in KIND_CUES if any(c.search(sentence) for c in cues)]
    if kind == "goal" and "goal" not in cued:
        # A goal leads the prompt's anchor zone: it needs words of aiming ("年终奖发下来了" is news, not an aim).
        return cued[0] if cued else "fact"
    return kind if kind in cued or not cued else cued[0]
