"""What memory tells the user after a message, in English and Chinese.

A :class:`~desktop_app.memory.write.updates.MemoryOutcome` carries a notice as a key and its values;
whoever shows it picks the language (the TUI its UI language, the CLI its ``lang``). The English
text is also kept as ``notice`` for logs, scripts and ``--json``.
"""

from __future__ import annotations

NOTICES: dict[str, tuple[str, str]] = {
    "conflict": ("New rule #{pid} “{new}” conflicts with active rule #{old} “{old_value}”. Replace it? "
                 "(/confirm {pid} or /reject {pid})",
                 "新规则 #{pid}“{new}”与现行规则 #{old}“{old_value}”冲突。要替换吗？（/confirm {pid} 或 /reject {pid}）"),
    "user_set": ("#{old} “{old_value}” was set by you explicitly; change it to “{new}”? (/confirm {pid} or /reject {pid})",
                 "#{old}“{old_value}”是你明确设定的，要改成“{new}”吗？（/confirm {pid} 或 /reject {pid}）"),
    "updated": ("Updated #{old} → #{new_id}: {value}", "已更新 #{old} → #{new_id}：{value}"),
    "revoked": ("Revoked #{id}: {value}", "已撤销 #{id}：{value}"),
    "drop_one": ("Drop rule #{id} “{value}”? /confirm {id} drops it, /reject {id} keeps it.",
                 "要取消规则 #{id}“{value}”吗？/confirm {id} 取消，/reject {id} 保留。"),
    "which_rule": ("Which rule should I drop? Candidates: {listed}. Use /revoke ID (or /reject {pid} to keep them all).",
                   "要取消哪条规则？候选：{listed}。请用 /revoke ID（或 /reject {pid} 全部保留）。"),
    "several_rules": ("#{id} names several rules; drop one with /revoke ID", "#{id} 涉及多条规则，请用 /revoke ID 逐条取消"),
    "confirmed": ("Confirmed #{id}", "已确认 #{id}"),
    "rejected": ("Kept things as they were (#{id} dropped)", "保持原样（已放弃 #{id}）"),
}


# The answers of memory commands (/memory, /pin …; memory.controls).
REPLIES: dict[str, tuple[str, str]] = {
    "remembered": ("Remembered #{id}: {value}", "已记住 #{id}：{value}"),
    "rule_saved": ("Rule #{id} saved: {value}", "规则 #{id} 已保存：{value}"),
    "rule_replaces": ("Rule #{id} saved (replaces #{old}): {value}", "规则 #{id} 已保存（取代 #{old}）：{value}"),
    "fact_saved": ("Fact #{ids} saved", "事实 #{ids} 已保存"),
    "revoked_item": ("Revoked #{id}: {value} (history kept; /forget {id} deletes it)",
                     "已撤销 #{id}：{value}（保留历史；/forget {id} 可彻底删除）"),
    "several_match": ("Several items match; /revoke ID one of:", "有多条匹配，请用 /revoke ID 指定其中一条："),
    "nothing_to_forget": ("Nothing stored matches {what!r}.", "没有与“{what}”相关的存储内容。"),
    "forget_confirm": ("Nothing deleted yet: add --yes to delete all of this (/forget {arg} --yes).",
                       "尚未删除：加上 --yes 才会全部删除（/forget {arg} --yes）。"),
    "forgotten": ("Forgot {what}: deleted {items} items, {messages} turns, {pages} pages, {files} files; "
                  "{redacted} other copies redacted, {states} saved prompt states cleared.",
                  "已遗忘 {what}：删除 {items} 条记忆、{messages} 条对话、{pages} 个分页、{files} 个文件；"
                  "另有 {redacted} 处副本已替换，清除 {states} 个已保存的提示状态。"),
    "corrected": ("#{old} → #{id}: {value}", "#{old} → #{id}：{value}"),
    "pinned": ("Pinned #{id}: {value}", "已置顶 #{id}：{value}"),
    "unpinned": ("Unpinned #{id}: {value}", "已取消置顶 #{id}：{value}"),
    "bookmarked": ("Bookmark #{id}: {words}", "书签 #{id}：{words}"),
    "confirmed_item": ("Confirmed #{id}: {value}", "已确认 #{id}：{value}"),
    "rejected_item": ("Rejected #{id}: {value}", "已拒绝 #{id}：{value}"),
    "mode_is": ("context mode: {mode}; choose from {modes}", "上下文模式：{mode}；可选 {modes}"),
    "mode_default": ("default (settings)", "默认（设置）"),
    "mode_set": ("context mode for {name!r}: {mode}", "会话 {name!r} 的上下文模式：{mode}"),
    "memory_title": ("Memory of {name!r} (state v{v}):", "{name!r} 的记忆（状态 v{v}）："),
    "memory_goal": ("Goal", "目标"),
    "memory_directive": ("Rules", "规则"),
    "memory_constraint": ("Constraints", "约束"),
    "memory_decision": ("Decisions", "决定"),
    "memory_fact": ("Facts", "事实"),
    "memory_preference": ("Preferences", "偏好"),
    "memory_open_question": ("Open questions (unconfirmed)", "未决问题（未确认）"),
    "memory_waiting": ("Waiting for your confirmation (/confirm ID or /reject ID):", "等待你确认（/confirm ID 或 /reject ID）："),
    "memory_pages": ("{pages} archived pages, {marks} bookmarks", "已归档 {pages} 页，书签 {marks} 个"),
    "memory_latest": ("; latest: {words}", "；最新：{words}"),
    "memory_nothing": ("Nothing remembered yet.", "还没有记住任何内容。"),
    "scope_already": ("#{id} is already in the {scope} scope", "#{id} 已在 {scope} 范围"),
    "scope_moved_profile": ("Moved #{id} to the profile scope: every session sees it",
                            "已将 #{id} 移到个人档案范围：所有会话都能看到"),
    "scope_moved_session": ("Moved #{id} to the session scope: only {name!r} sees it",
                            "已将 #{id} 移到会话范围：只有 {name!r} 能看到"),
    "show_chain": ("Chain (oldest first):", "取代链（从旧到新）："),
    "show_history": ("History:", "历史："),
}


def reply(key: str, lang: str = "en", **args: object) -> str:
    """A memory command's answer ``key`` in ``lang``."""
    texts = REPLIES[key]
    return (texts[1] if lang == "zh" else texts[0]).format(**args)


def render_notice(key: str, args: dict[str, object], lang: str = "en") -> str:
    """The notice ``key`` with ``args``, in ``lang`` (English for unknown languages or keys)."""
    texts = NOTICES.get(key)
    if texts is None:
        return ""
    return (texts[1] if lang == "zh" else texts[0]).format(**args)
