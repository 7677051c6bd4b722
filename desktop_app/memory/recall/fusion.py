"""Pure ranking functions: weighted reciprocal-rank fusion, neighbour smoothing, the
importance score and newest-wins conflict labelling. No database, no clock, no model."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import UTC
from typing import Any

from desktop_app.memory.core.recall_hits import RecallHit, RecallWeights
from desktop_app.memory.lang.text import canonical_subject, clip, numbers, term_set

Ranked = Sequence[tuple[int, float]]  # (message_id, score), best first


def rrf(lists: Mapping[str, Ranked], weights: Mapping[str, float], k: float = 60.0) -> dict[int, float]:
    """Weighted reciprocal-rank fusion: ``sum_s w_s / (k + rank_s)`` over the signals."""
    fused: dict[int, float] = {}
    for name, ranked in lists.items():
        weight = weights.get(name, 1.0)
        if not weight:
            continue
        for rank, (message_id, _score) in enumerate(ranked, start=1):
            fused[message_id] = fused.get(message_id, 0.0) + weight / (k + rank)
    return fused


def normalised(scores: Mapping[int, float]) -> dict[int, float]:
    """Scores divided by the best one (empty stays empty)."""
    best = max(scores.values(), default=0.0)
    return {m: s / best for m, s in scores.items()} if best > 0 else dict(scores)


def boost(scores: Mapping[int, float], rows: Mapping[int, dict[str, Any]], *, dates: Sequence[tuple[float, float]],
          date_boost: float, slack_seconds: float, asks_when: bool, when_boost: float, mentions_time: Callable[[str], bool],
          month_days: Sequence[tuple[int, int]] = ()) -> dict[int, float]:
    """Add ``date_boost`` to turns stored on a date the question names (or up to the slack after:
    people report events days later; a month and day without a year match that day of any
    year, exactly), and ``when_boost`` to turns that place something in time when the question
    asks "when"."""
    from datetime import datetime

    out = dict(scores)
    for message_id in scores:
        row = rows.get(message_id)
        if row is None:
            continue
        if dates and any(start <= row["created_at"] < end + slack_seconds for start, end in dates):
            out[message_id] += date_boost
        elif month_days:
            day = datetime.fromtimestamp(row["created_at"], tz=UTC)
            if (day.month, day.day) in month_days:
                out[message_id] += date_boost
        if asks_when and mentions_time(row["content"]):
            out[message_id] += when_boost
    return out


def spread_to_neighbours(scores: Mapping[int, float], adjacent: Mapping[int, Mapping[int, int]],
                         weights: Mapping[int, float]) -> dict[int, float]:
    """Page context: each turn in ``adjacent`` passes ``weights[|offset|]`` of its score to the
    turns at that offset, so the reply next to a turn that matches the question's words also
    ranks. Scores are read from ``scores`` as they were before any spreading; a turn takes
    the best share offered at each distance."""
    # The best share at each distance counts (not both sides added up), and a lifted turn
    # stays just below the turn that lifted it: the neighbours of the best match follow it.
    best: dict[int, dict[int, float]] = {}
    source: dict[int, float] = {}
    for message_id, neighbours in adjacent.items():
        score = scores.get(message_id, 0.0)
        for offset, neighbour in neighbours.items():
            share = weights.get(abs(offset), 0.0) * score
            if share > best.setdefault(neighbour, {}).get(abs(offset), 0.0):
                best[neighbour][abs(offset)] = share
                source[neighbour] = max(source.get(neighbour, 0.0), score)
    out = dict(scores)
    for neighbour, by_distance in best.items():
        own = scores.get(neighbour, 0.0)
        lifted = min(own + sum(by_distance.values()), source.get(neighbour, 0.0) * 0.999)
        out[neighbour] = max(own, lifted)
    return out


def importance(*, age_turns: float, references: int, max_references: int, relevance: float,
               weights: RecallWeights) -> float:
    """Seed 002: ``0.4·recency + 0.35·reference frequency + 0.25·task relevance`` (weights tunable);
    recency is ``base ** (age / unit)``, references are scaled by the most-referenced hit."""
    recency: float = weights.recency_base ** (max(age_turns, 0.0) / weights.recency_unit_turns)
    reference = references / max_references if max_references else 0.0
    return weights.recency * recency + weights.reference * reference + weights.relevance * relevance


def _claims(hit: RecallHit) -> tuple[str | None, set[str], set[str]]:
    return canonical_subject(hit.snippet), term_set(hit.snippet), set(numbers(hit.snippet))


def _disagree(a: tuple[str | None, set[str], set[str]], b: tuple[str | None, set[str], set[str]]) -> bool:
    """Two turns disagree when they speak of the same subject (a canonical one, or at least
    two shared content terms) and state different numbers."""
    subject_a, terms_a, nums_a = a
    subject_b, terms_b, nums_b = b
    if not nums_a or not nums_b or nums_a == nums_b:
        return False
    same_subject = (subject_a is not None and subject_a == subject_b) or len(terms_a & terms_b) >= 2
    return same_subject


def label_conflicts(hits: list[RecallHit]) -> list[RecallHit]:
    """Label every hit with its turn number and time; where hits disagree the newest wins:
    it takes the best position of its group and the older ones say which turn replaced them."""
    claims = [_claims(h) for h in hits]
    group_of = list(range(len(hits)))
    for i in range(len(hits)):
        for j in range(i):
            if _disagree(claims[i], claims[j]):
                old, new = group_of[i], group_of[j]
                group_of = [new if g == old else g for g in group_of]
    groups: dict[int, list[int]] = {}
    for index, group in enumerate(group_of):
        groups.setdefault(group, []).append(index)
    ordered: list[RecallHit | None] = [None] * len(hits)
    for members in groups.values():
        newest_first = sorted(members, key=lambda i: (hits[i].created_at, hits[i].turn), reverse=True)
        newest = hits[newest_first[0]]
        for slot, source in zip(sorted(members), newest_first, strict=True):
            hit = hits[source]
            label = f"turn {hit.turn}, {(hit.time or '').replace('T', ' ').replace('+00:00', ' UTC')}"
            update: dict[str, object] = {"label": label}
            if len(members) > 1 and hit is not newest:
                update["superseded_by"] = newest.turn
                update["label"] = f"{label} (older: turn {newest.turn} says otherwise)"
            elif len(members) > 1:
                update["label"] = f"{label} (newest)"
            ordered[slot] = hit.model_copy(update=update)
    return [h for h in ordered if h is not None]


def snippet(text: str, limit: int = 240) -> str:
    return clip(text, limit)
