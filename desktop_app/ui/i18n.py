"""UI text in English and Chinese: one table, keyed by short names, chosen by ``settings.lang``.

Prompt templates live in ``assets/prompts/{en,zh}.toml``; this is only what the user reads in
the interface. ``t(key, **values)`` formats the entry for the current language; a key missing
from the table is returned as is, so an untranslated string shows up instead of crashing.
"""

from __future__ import annotations

import dataclasses

LANGS = ("en", "zh")
_lang = "en"

# key: (English, 中文)
STRINGS: dict[str, tuple[str, str]] = {
    # bindings (footer + help)
    "bind.stop_reply": ("Stop", "停止"),
    "bind.new_session": ("New", "新会话"),
    "bind.rename_session": ("Rename", "重命名"),
    "bind.delete_session": ("Delete", "删除"),
    "bind.toggle_sidebar": ("Sidebar", "侧栏"),
    "bind.focus_sessions": ("Sessions", "会话列表"),
    "bind.toggle_memory": ("Memory", "记忆"),
    "bind.open_inspector": ("Inspector", "上下文"),
    "bind.search": ("Search", "搜索"),
    "bind.help": ("Help", "帮助"),
    "bind.settings": ("Settings", "设置"),
    "bind.session_settings": ("Session", "会话设置"),
    "bind.regenerate": ("Regenerate", "重新生成"),
    "bind.select_messages": ("Select", "选择消息"),
    "bind.export_session": ("Export", "导出"),
    "bind.import_file": ("Import", "导入"),
    "bind.submit": ("Send", "发送"),
    "bind.quit": ("Quit", "退出"),
    "bind.command_palette": ("Palette", "命令面板"),
    "bind.edit": ("Edit", "编辑"),
    "bind.versions_prev": ("Prev version", "上一版本"),
    "bind.versions_next": ("Next version", "下一版本"),
    "bind.back": ("Back", "返回"),
    "bind.confirm_item": ("Confirm", "确认"),
    "bind.reject_item": ("Reject", "拒绝"),
    "bind.pin_item": ("Pin", "置顶"),
    "bind.correct_item": ("Correct", "更正"),
    "bind.revoke_item": ("Revoke", "撤销"),
    "bind.forget_item": ("Forget", "遗忘"),
    "bind.open_item": ("Details", "详情"),
    "bind.forget_topic": ("Forget topic", "遗忘话题"),
    "bind.close": ("Close", "关闭"),
    "bind.prev_turn": ("Older turn", "上一轮"),
    "bind.next_turn": ("Newer turn", "下一轮"),
    "bind.cancel": ("Cancel", "取消"),
    "bind.item_confirm": ("Confirm", "确认"),
    "bind.item_reject": ("Reject", "拒绝"),
    "bind.item_pin": ("Pin", "置顶"),
    "bind.item_correct": ("Correct", "更正"),
    "bind.item_revoke": ("Revoke", "撤销"),
    "bind.item_forget": ("Forget", "遗忘"),
    "bind.item_scope": ("Profile/session", "档案/会话"),
    "bind.versions_-1": ("Prev version", "上一版本"),
    "bind.versions_1": ("Next version", "下一版本"),
    "bind.step_-1": ("Older turn", "上一轮"),
    "bind.step_1": ("Newer turn", "下一轮"),
    "bind.select_-1": ("Previous", "上一条"),
    "bind.select_1": ("Next", "下一条"),
    "bind.leave": ("Back", "返回"),
    "bind.scroll_up": ("Scroll up", "向上滚动"),
    "bind.scroll_down": ("Scroll down", "向下滚动"),
    "bind.scroll_left": ("Scroll left", "向左滚动"),
    "bind.scroll_right": ("Scroll right", "向右滚动"),
    "bind.scroll_home": ("Scroll home", "滚到顶部"),
    "bind.scroll_end": ("Scroll end", "滚到底部"),
    "bind.page_up": ("Page up", "上一页"),
    "bind.page_down": ("Page down", "下一页"),
    "bind.page_left": ("Page left", "向左翻页"),
    "bind.page_right": ("Page right", "向右翻页"),
    "bind.copy_text": ("Copy selected text", "复制所选文字"),
    "bind.focus_next": ("Focus next", "下一个控件"),
    "bind.focus_previous": ("Focus previous", "上一个控件"),
    "bind.scroll_history_-1": ("Scroll up", "向上滚动"),
    "bind.scroll_history_1": ("Scroll down", "向下滚动"),
    "inspector.col_layer": ("layer", "层"),
    "inspector.col_item": ("item", "内容"),
    "inspector.col_what": ("what", "对象"),
    "inspector.col_why": ("why", "原因"),
    "inspector.col_score": ("score", "分数"),
    "inspector.col_turn": ("turn", "轮次"),
    "inspector.this_message": ("this message (id {id})", "本条消息（id {id}）"),
    "inspector.turn_role": ("turn {n} {role} ({tokens} tok)", "第{n}轮 {role}（{tokens} 词元）"),
    "inspector.superseded_by": ("superseded by #{id}", "已被 #{id} 取代"),
    "inspector.superseded_turn": ("superseded by turn {n}", "已被第{n}轮取代"),
    "bind.save": ("Save", "保存"),
    # chat
    "chat.placeholder": ("Message Paperclip — Enter sends, Shift+Enter or Ctrl+J adds a line, /memory shows memory",
                         "给 Paperclip 发消息 — Enter 发送，Shift+Enter 或 Ctrl+J 换行，/memory 查看记忆"),
    "chat.empty": ("No messages yet — type below and press Enter.", "还没有消息 — 在下方输入并按 Enter。"),
    "chat.busy": ("A reply is still being written — press Esc to stop it.", "回复仍在生成 — 按 Esc 停止。"),
    "chat.not_loaded": ("The model is not loaded: {reason}", "模型未加载：{reason}"),
    "chat.still_loading": ("it is still loading", "仍在加载"),
    "chat.not_sent": ("Not sent", "未发送"),
    "chat.stop_first": ("Stop the reply first (Esc) to {what}.", "请先停止回复（Esc）再{what}。"),
    "what.versions": ("switch versions", "切换版本"),
    "what.regenerate": ("regenerate", "重新生成"),
    "what.edit": ("edit a message", "编辑消息"),
    "what.forget": ("forget", "遗忘"),
    "what.switch": ("switch sessions", "切换会话"),
    "what.new": ("start a new session", "新建会话"),
    "what.rename": ("rename the session", "重命名会话"),
    "what.delete": ("delete the session", "删除会话"),
    "session.new": ("New session", "新会话"),
    "session.rename": ("Rename session “{name}”", "重命名会话“{name}”"),
    "session.delete": ("Delete session “{name}” and its {n} messages? This cannot be undone.",
                       "删除会话“{name}”及其 {n} 条消息？此操作无法撤销。"),
    "session.deleted": ("Deleted session “{name}”.", "已删除会话“{name}”。"),
    "role.user": ("you", "你"),
    "role.assistant": ("paperclip", "paperclip"),
    "role.system": ("system", "系统"),
    "role.command": ("memory", "记忆"),
    "note.version": ("version {n}/{of}", "版本 {n}/{of}"),
    "sidebar.title": ("Sessions", "会话"),
    # model status
    "model.loading": ("loading model {name}{size}", "正在加载模型 {name}{size}"),
    "model.ready": ("● {name} · context {n_ctx} tokens · loaded in {seconds:.1f}s",
                    "● {name} · 上下文 {n_ctx} token · {seconds:.1f} 秒加载完成"),
    "model.failed": ("✕ model not loaded: {error}", "✕ 模型未加载：{error}"),
    "model.usage": ("● {name} · prompt {used}/{n_ctx} tokens ({share:.0%})", "● {name} · 提示 {used}/{n_ctx} token（{share:.0%}）"),
    "model.speed": ("{pieces} tokens at {speed:.1f}/s", "{pieces} token，{speed:.1f}/秒"),
    # context meter
    "meter.label": ("context", "上下文"),
    "meter.none": ("context —", "上下文 —"),
    "meter.warming": ("warming context… {pct}%", "正在预热上下文… {pct}%"),
    "meter.reading": ("reading context… {pct}%", "正在读取上下文… {pct}%"),
    # memory panel
    "memory.title": ("Memory", "记忆"),
    "memory.empty": ("Nothing remembered yet. State a rule (\"always answer in Chinese\") or a fact "
                     "(\"budget is 5000\").", "还没有记忆。说一条规则（“始终用中文回答”）或一个事实（“预算 5000”）。"),
    "memory.directive": ("Rules", "规则"),
    "memory.constraint": ("Constraints", "约束"),
    "memory.goal": ("Goal", "目标"),
    "memory.fact": ("Facts", "事实"),
    "memory.preference": ("Preferences", "偏好"),
    "memory.decision": ("Decisions", "决定"),
    "memory.open_question": ("Open questions", "未决问题"),
    "memory.pending": ("Waiting for confirmation (y / n)", "待确认（y / n）"),
    "memory.bookmarks": ("Bookmarks", "书签"),
    "memory.summary": ("Rolling summary", "滚动摘要"),
    "memory.no_summary": ("(none yet — made when old turns are paged out)", "（暂无 — 旧对话分页归档时生成）"),
    "memory.turn": ("turn {n}", "第{n}轮"),
    "memory.profile": ("profile · all sessions", "档案 · 所有会话"),
    "memory.origin.rule": ("by rule", "规则"),
    "memory.origin.model": ("by model", "模型"),
    "memory.origin.user": ("by you", "你"),
    "memory.origin.command": ("by command", "命令"),
    "memory.origin.import": ("imported", "导入"),
    "memory.not_item": ("Select a memory item first.", "请先选择一条记忆。"),
    "memory.not_pending": ("#{id} is not waiting for confirmation.", "#{id} 不是待确认项。"),
    "memory.correct_title": ("Correct #{id} ({kind})", "更正 #{id}（{kind}）"),
    "memory.forgotten": ("Forgot {what}: deleted {items} items, {messages} turns, {pages} pages, {files} files; "
                         "{redacted} other copies redacted.",
                         "已遗忘 {what}：删除 {items} 条记忆、{messages} 条对话、{pages} 个分页、{files} 个文件；"
                         "另有 {redacted} 处副本已替换。"),
    "memory.topic_title": ("Forget everything about a topic", "遗忘一个话题的全部内容"),
    "memory.topic_placeholder": ("topic words, e.g. budget", "话题关键词，例如 预算"),
    "memory.nothing_matches": ("Nothing in this session matches “{topic}”.", "本会话中没有与“{topic}”相关的内容。"),
    # item detail
    "item.title": ("Memory item #{id}", "记忆 #{id}"),
    "item.source": ("Source", "来源"),
    "item.quote": ("Verbatim", "原文"),
    "item.chain": ("Versions (oldest first)", "版本链（从旧到新）"),
    "item.history": ("History", "修改记录"),
    "item.pin": ("Pin", "置顶"),
    "item.unpin": ("Unpin", "取消置顶"),
    "item.correct": ("Correct…", "更正…"),
    "item.revoke": ("Revoke", "撤销"),
    "item.forget": ("Forget…", "遗忘…"),
    "item.confirm": ("Confirm", "确认"),
    "item.reject": ("Reject", "拒绝"),
    # forget confirmation
    "forget.button": ("Forget", "遗忘"),
    # dialogs
    "dialog.ok": ("OK", "确定"),
    "dialog.cancel": ("Cancel", "取消"),
    "dialog.delete": ("Delete", "删除"),
    "dialog.save": ("Save", "保存"),
    "dialog.browse": ("Browse…", "浏览…"),
    "dialog.name": ("session name", "会话名称"),
    # inspector
    "inspector.title": ("Context inspector", "上下文检查器"),
    "inspector.none": ("No turn recorded yet in this session — send a message, then open the inspector.",
                       "本会话还没有记录 — 先发一条消息，再打开检查器。"),
    "inspector.turn": ("Turn {n}", "第{n}轮"),
    "inspector.layers": ("Tokens per layer (window {n_ctx}, prompt budget {budget}, reserve {reserve})",
                         "各层 token（窗口 {n_ctx}，提示预算 {budget}，预留 {reserve}）"),
    "inspector.included": ("Included", "已纳入"),
    "inspector.excluded": ("Left out and why", "未纳入及原因"),
    "inspector.nothing_excluded": ("nothing — everything fit", "无 — 全部纳入"),
    "inspector.paging": ("Paging", "分页"),
    "inspector.paged_out": ("paged out", "换出"),
    "inspector.paged_in": ("paged in", "换入"),
    "inspector.prefill": ("pre-fill: {reused} of {total} prompt tokens reused from the evaluated prefix, {new} evaluated",
                          "预填充：{total} 个提示词元中 {reused} 个复用已计算的前缀，新计算 {new} 个"),
    "inspector.change_new": ("new since the fold", "折叠后新增"),
    "inspector.change_changed": ("changed since the fold", "折叠后更改"),
    "inspector.change_updated": ("updated since the fold", "折叠后更新"),
    "inspector.change_revoked": ("revoked since the fold", "折叠后撤销"),
    "inspector.change_confirmed": ("confirmed since the fold", "折叠后确认"),
    "inspector.no_paging": ("no page moved this turn", "本轮没有分页换入或换出"),
    "inspector.recall": ("Recall hits", "回忆命中"),
    "inspector.no_recall": ("no recall hits", "没有回忆命中"),
    "inspector.recomputed": ("full text and bookmarks, recomputed now over the earlier turns",
                             "全文与书签，按此前的对话现在重新计算"),
    "inspector.memory": ("New memory written by this turn", "本轮写入的新记忆"),
    "inspector.no_memory": ("nothing new", "无"),
    "inspector.memory_work": ("model memory work: {calls} call(s), {tokens} tokens, {seconds} s",
                              "模型记忆工作：{calls} 次调用，{tokens} 个 token，{seconds} 秒"),
    "inspector.warnings": ("Warnings", "警告"),
    # search
    "search.title": ("Search all sessions", "搜索全部会话"),
    "search.placeholder": ("words or a phrase (Chinese works too)", "关键词或短语（支持中文）"),
    "search.sessions": ("Sessions", "会话"),
    "search.messages": ("Messages", "消息"),
    "search.none": ("No matches.", "没有匹配。"),
    # settings
    "settings.title": ("Settings", "设置"),
    "settings.model": ("Chat model (GGUF)", "对话模型（GGUF）"),
    "settings.ctx": ("Context size (0 = automatic)", "上下文长度（0 = 自动）"),
    "settings.gpu_layers": ("GPU layers (-1 = all)", "GPU 层数（-1 = 全部）"),
    "settings.threads": ("CPU threads (empty = auto)", "CPU 线程（留空 = 自动）"),
    "settings.temperature": ("Temperature", "温度"),
    "settings.embed_model": ("Embedding model (GGUF)", "嵌入模型（GGUF）"),
    "settings.max_tokens": ("Longest reply (tokens)", "最长回复（token）"),
    "settings.repeat_penalty": ("Repeat penalty", "重复惩罚"),
    "settings.top_p": ("Top-p", "Top-p 采样"),
    "settings.seed": ("Seed (-1 = random)", "随机种子（-1 = 随机）"),
    "settings.system_prompt": ("System prompt (empty = default)", "系统提示（留空 = 默认）"),
    "settings.model_dirs": ("More model folders (comma-separated)", "更多模型文件夹（逗号分隔）"),
    "settings.engine": ("Server URL (empty = in-process)", "服务器地址（留空 = 本机进程）"),
    "settings.engine_model": ("Server model id", "服务器模型 ID"),
    "settings.allow_remote": ("Allow a remote server", "允许远程服务器"),
    "settings.lang": ("Language", "语言"),
    "settings.theme": ("Theme", "主题"),
    "settings.mode": ("Default context mode", "默认上下文模式"),
    "settings.saved": ("Settings saved to {path}.", "设置已保存到 {path}。"),
    "settings.invalid": ("Invalid {field}: {error}", "{field} 无效：{error}"),
    "settings.restart_lang": ("Language changed; some labels change after a restart.", "语言已更改；部分标签重启后生效。"),
    "settings.swapping": ("Loading {name}…", "正在加载 {name}…"),
    "picker.title": ("Choose a file", "选择文件"),
    "models.title": ("Choose the chat model (Enter)", "选择聊天模型（回车确认）"),
    "models.searching": ("looking for models on this computer…", "正在查找本机上的模型…"),
    "models.choose": ("Models…", "模型…"),
    "picker.not_file": ("Choose a file, not a folder.", "请选择文件而不是文件夹。"),
    # session settings
    "session.title": ("Session “{name}”", "会话“{name}”"),
    "session.mode": ("Context mode", "上下文模式"),
    "session.default_mode": ("default ({mode})", "默认（{mode}）"),
    "session.prompt": ("System prompt (empty = default)", "系统提示词（留空 = 默认）"),
    "session.saved": ("Session settings saved.", "会话设置已保存。"),
    # export / import
    "export.title": ("Export “{name}”", "导出“{name}”"),
    "export.format": ("Format", "格式"),
    "export.path": ("File", "文件"),
    "export.button": ("Export", "导出"),
    "export.done": ("Exported to {path}", "已导出到 {path}"),
    "import.title": ("Import conversations", "导入对话"),
    "import.path": ("ChatGPT conversations.json, a Paperclip JSON export or JSON Lines",
                    "ChatGPT 的 conversations.json、Paperclip JSON 导出或 JSON Lines"),
    "import.button": ("Import", "导入"),
    "import.done": ("Imported {turns} turns into {sessions} sessions.", "已导入 {turns} 条对话到 {sessions} 个会话。"),
    "import.running": ("Importing… memory extraction runs as if typed", "正在导入…记忆提取与手动输入时相同"),
    "job.failed": ("Failed: {error}", "失败：{error}"),
    "job.failed_title": ("Something failed", "操作失败"),
    # documents (desktop_app/ui/screens/documents.py)
    "bind.documents": ("Documents", "文档"),
    "docs.title": ("Documents — the library and this session's own", "文档 — 文档库与本会话的文档"),
    "docs.session_only": ("Attach new documents to “{name}” only (otherwise: the library, every session)",
                          "新文档只附加到“{name}”（否则加入文档库，所有会话可见）"),
    "docs.hint": ("a: add a file or folder · s: sync changed files · Del: remove · @name in a message asks that document",
                  "a：添加文件或文件夹 · s：同步已修改的文件 · Del：删除 · 在消息中写 @名称 只问该文档"),
    "docs.add": ("Add…", "添加…"),
    "docs.sync": ("Sync", "同步"),
    "docs.remove": ("Remove", "删除"),
    "docs.cancel": ("Cancel reading", "取消读取"),
    "docs.close": ("Close", "关闭"),
    "docs.pick": ("Add a document or a folder", "添加文档或文件夹"),
    "docs.busy": ("Documents are still being read — cancel first.", "仍在读取文档 — 请先取消。"),
    "docs.reading": ("Reading…", "正在读取…"),
    "docs.progress": ("{done}/{total} files · {pages} pages · {chunks} chunks — {name}",
                      "{done}/{total} 个文件 · {pages} 页 · {chunks} 个片段 — {name}"),
    "docs.done": ("Done: {added} indexed, {failed} failed, {chunks} chunks.", "完成：已索引 {added} 个，失败 {failed} 个，共 {chunks} 个片段。"),
    "docs.cancelled": ("Cancelled: {added} indexed before it, {failed} failed; the file being read was not stored.",
                       "已取消：此前已索引 {added} 个，失败 {failed} 个；正在读取的文件未保存。"),
    "docs.cancelling": ("Cancelling after this page…", "本页读完后取消…"),
    "docs.removed": ("Removed {name}: {chunks} chunks, their index rows and vectors.", "已删除 {name}：{chunks} 个片段及其索引与向量。"),
    "docs.col.name": ("Name", "名称"),
    "docs.col.format": ("Format", "格式"),
    "docs.col.pages": ("Pages", "页数"),
    "docs.col.chunks": ("Chunks", "片段"),
    "docs.col.size": ("Size", "大小"),
    "docs.col.language": ("Lang", "语言"),
    "docs.col.scope": ("Scope", "范围"),
    "docs.col.added": ("Added", "添加时间"),
    "docs.scope.library": ("library", "文档库"),
    "docs.scope.session": ("session", "本会话"),
    "inspector.documents": ("Document chunks quoted (per-signal score #rank)", "引用的文档片段（各信号得分 #名次）"),
    "docs.usage": ("Usage: /doc (the panel) or /doc add PATH", "用法：/doc（打开面板）或 /doc add 路径"),
    "docs.no_path": ("No such file or folder: {path}", "没有这个文件或文件夹：{path}"),
    # edit / versions
    "edit.title": ("Edit your message — the reply is regenerated, the old version stays reachable",
                   "编辑消息 — 将重新生成回复，旧版本仍可切换查看"),
    "edit.no_user": ("There is no message of yours to edit.", "没有可编辑的消息。"),
    "regen.nothing": ("Nothing to regenerate yet.", "还没有可重新生成的内容。"),
    "versions.none": ("This message has no other versions.", "这条消息没有其他版本。"),
    "versions.switched": ("Showing version {n}/{of}.", "正在显示版本 {n}/{of}。"),
    # help
    "help.title": ("Paperclip — keys and commands", "Paperclip — 快捷键与命令"),
    "help.keys": ("Keys", "快捷键"),
    "help.log_keys": ("In the conversation (Ctrl+↑ to enter, Esc to leave)", "在对话中（Ctrl+↑ 进入，Esc 离开）"),
    "help.panel_keys": ("In the memory panel (F4, then Tab to it)", "在记忆面板中（F4，然后 Tab）"),
    "help.slash": ("Memory commands typed in the chat", "在输入框中使用的记忆命令"),
}

SLASH_HELP: dict[str, tuple[str, str]] = {
    "/memory": ("what do you remember? (answered from memory, no model)", "你记得什么？（直接读取记忆，不调用模型）"),
    "/doc · /doc add PATH": ("the Documents panel; add a file or folder (Ctrl+T opens it too)", "文档面板；添加文件或文件夹（也可按 Ctrl+T）"),
    "@name QUESTION": ("ask one document only; answers cite [doc: name, p. N]", "只问某个文档；回答注明 [doc: 名称, p. 页码]"),
    "/remember TEXT": ("store TEXT as if you had said it explicitly", "把 TEXT 当作明确陈述记住"),
    "/directive TEXT": ("a standing rule", "一条长期规则"),
    "/fact SUBJECT: VALUE": ("a fact; a newer one for the subject supersedes", "一个事实；同主题的新事实会取代旧的"),
    "/correct ID VALUE": ("correct an item (the old value stays in its history)", "更正一条记忆（旧值保留在历史中）"),
    "/pin ID · /unpin ID": ("keep an item in the anchor zone", "把记忆固定在锚点区"),
    "/confirm [ID] · /reject [ID]": ("answer a pending item", "确认或拒绝待确认项"),
    "/revoke ID|topic": ("an item stops applying; its history is kept", "撤销一条记忆（保留历史）"),
    "/forget ID|topic": ("delete an item or topic for good, with every copy (asks first)",
                         "彻底删除一条记忆或一个话题及其所有副本（会先确认）"),
    "/bookmark WORDS": ("bookmark your last message", "给你的上一条消息加书签"),
    "/show ID": ("an item with its versions and history", "查看一条记忆的版本与历史"),
    "/scope ID profile|session": ("profile: every session sees the item; session: only this one",
                                  "profile：所有会话都能看到；session：只有本会话"),
    "/mode [NAME]": ("show or set this session's context mode", "查看或设置本会话的上下文模式"),
}


def set_lang(lang: str) -> None:
    """Choose the UI language for every later ``t`` call (unknown languages fall back to English)."""
    global _lang
    _lang = lang if lang in LANGS else "en"


def current_lang() -> str:
    return _lang


def t(key: str, **values: object) -> str:
    """The UI string ``key`` in the current language, formatted with ``values``."""
    entry = STRINGS.get(key) or SLASH_HELP.get(key)
    text = key if entry is None else entry[1 if _lang == "zh" else 0]
    return text.format(**values) if values else text


def translate_bindings(node) -> None:
    """Give a widget's bindings their description in the current language (``bind.<action>``).

    Textual reads binding descriptions from class-level ``BINDINGS``; this replaces the
    instance's copies so the footer and the help screen speak the user's language.
    """
    for key, bindings in node._bindings.key_to_bindings.items():
        node._bindings.key_to_bindings[key] = [
            dataclasses.replace(b, description=t(name)) if (name := _binding_key(b.action)) else b
            for b in bindings
        ]


def _binding_key(action: str) -> str | None:
    """``bind.item_pin`` for ``item('pin')``, ``bind.versions_-1`` for ``versions(-1)``, ``bind.help`` for ``help``."""
    name, _, rest = action.partition("(")
    name = name.rpartition(".")[2]  # app.focus_next, screen.copy_text
    arg = rest.rstrip(")").strip("'\" ")
    for key in (f"bind.{name}_{arg}" if arg else None, f"bind.{name}"):
        if key and key in STRINGS:
            return key
    return None
