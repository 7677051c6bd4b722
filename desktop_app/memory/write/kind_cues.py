"""The words in a user's own sentence that settle what kind of memory it is.

A small model often files a choice as a fact or a limit as a preference; the sentence's own cues
("we picked", "at most", "I'd like to") say which it is. Shared by the vetting of the model's
entries (is this sentence a memory at all?) and the merge (which kind is it?).
"""

from __future__ import annotations

from desktop_app.lexicon import alternatives
from desktop_app.memory.write.mood import rx
from desktop_app.memory.write.sentence import DECISION, SPECULATION

# Cues in the user's own sentence that settle a kind the small model often gets wrong (the lexicon's
# ``kind_cue.*``), case-insensitive.
LIKES = rx(alternatives("kind_cue.preference", ("en", "zh")))
AIMS = rx(alternatives("kind_cue.goal", ("en", "zh")))
CHOSE = rx(alternatives("kind_cue.decision", ("en", "zh")))
MUSTS = rx(alternatives("kind_cue.constraint", ("en", "zh")))


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
