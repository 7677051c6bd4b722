"""What recall returns and the knobs that tune it (pydantic: they leave as ``--json``)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from desktop_app.memory.core.models import iso

SIGNALS: tuple[str, ...] = ("bm25", "vector", "bookmark", "stage")  # user_bookmark rides with bookmark


class SignalScore(BaseModel):
    """One signal's view of a hit: its raw score and 1-based rank in that signal's list."""

    model_config = ConfigDict(frozen=True)

    score: float
    rank: int


class RecallHit(BaseModel):
    """One archived turn that recall found, with where it came from and why it ranked."""

    message_id: int
    ext_id: str | None = None
    page_id: int | None = None
    session_id: int
    role: str
    turn: int = Field(description="turn number: user messages up to and including this one")
    created_at: float
    snippet: str
    signals: dict[str, SignalScore] = Field(default_factory=dict, description="bm25 / vector / bookmark")
    fused: float = Field(description="weighted reciprocal-rank fusion of the signals")
    importance: float = 0.0
    score: float = Field(description="final ranking score")
    label: str = ""
    superseded_by: int | None = Field(default=None, description="turn number of a newer hit that disagrees")

    @property
    def time(self) -> str | None:
        return iso(self.created_at)


class RecallWeights(BaseModel):
    """Tunable weights of hybrid search; the defaults are the ones measured best on LoCoMo
    (see ``paperclip bench recall`` and docs/benchmarks/recall.md)."""

    model_config = ConfigDict(frozen=True)

    # Weighted reciprocal-rank fusion. A small k makes the top of each list count much more
    # than its tail (k=60, the textbook value, scored 0.60 recall@5 against 0.70 here).
    rrf_k: float = 5.0
    bm25: float = 1.0
    vector: float = 0.7
    bookmark: float = 0.1  # automatic bookmarks (2-4 keywords per page) are a weak signal on LoCoMo
    # A bookmark the user made is a strong one: its turns enter the fusion a second time with
    # this weight, and its keyword score counts user_bookmark_score times in the bookmark list.
    user_bookmark: float = 2.0
    user_bookmark_score: float = 2.0
    stage: float = 0.1  # the summary chain (stage summaries over every few pages), measured in bench recall
    # Query handling.
    session_stopword_share: float = 0.2  # drop query words found in more than this share of the session's turns
    min_session_for_stopwords: int = 50
    date_boost: float = 0.6  # turns from the date the question names (or up to date_slack_days after)
    date_slack_days: float = 14.0
    when_boost: float = 0.4  # "when …?" questions: turns that place something in time
    # Page context: a turn also scores a share of its neighbours' scores (the answer is often
    # the reply next to the turn that shares the question's words).
    neighbour_1: float = 0.5
    neighbour_2: float = 0.25
    spread_from: int = 50  # how many leading candidates pass score to their neighbours
    # the importance score; ``importance`` is how much it adds to the relevance.
    recency: float = 0.4
    reference: float = 0.35
    relevance: float = 0.25
    importance: float = 0.0
    recency_base: float = 0.85
    recency_unit_turns: float = 50.0  # age is counted in units of this many turns
    candidates: int = 100  # per signal
    # The binary pass keeps candidates*factor turns for re-scoring. sqlite-vec's KNN cost grows
    # faster than k (100k turns: k=200 takes 22 ms, k=800 123 ms; exact float k=100 79 ms).
    coarse_factor: int = 2
    vector_floor: float = 0.2  # cosine below this is "nearest, not related" (MiniLM: top-10 median 0.54)
