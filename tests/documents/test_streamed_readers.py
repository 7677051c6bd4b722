"""The streamed readers read what the old tree-building ones read, and a little more: Word's
hyperlinks, merged cells, nested tables and text boxes (once, not with their fallback copy), but
not deleted text; HTML in the charset it declares, as the old Beautiful Soup tree read it."""

from __future__ import annotations

from desktop_app.bench.hostile_docs import W, write_docx
from desktop_app.memory.documents.parsers import parse_document

_STYLES = (f'<w:styles xmlns:w="{W}">'
           '<w:style w:type="paragraph" w:styleId="1"><w:name w:val="heading 1"/></w:style>'
           '<w:style w:type="paragraph" w:styleId="Quote"><w:name w:val="Quote"/></w:style></w:styles>')
_DOC_RELS = ('<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
             '<Relationship Id="rId9" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" '
             'Target="styles.xml"/></Relationships>')


def _p(text: str, style: str = "") -> str:
    props = f'<w:pPr><w:pStyle w:val="{style}"/></w:pPr>' if style else ""
    return f"<w:p>{props}<w:r><w:t>{text}</w:t></w:r></w:p>"


def test_word_features_the_streamed_reader_keeps(tmp_path):
    body = "".join([
        _p("项目简介", style="1"),  # a localized style id: the name in styles.xml says it is a heading
        "<w:p><w:r><w:t xml:space=\"preserve\">See </w:t></w:r><w:hyperlink><w:r><w:t>the site</w:t></w:r>"
        "</w:hyperlink><w:r><w:tab/><w:t>now</w:t></w:r><w:del><w:r><w:delText>old words</w:delText></w:r></w:del></w:p>",
        "<w:tbl><w:tr><w:tc><w:tcPr><w:gridSpan w:val=\"2\"/></w:tcPr>" + _p("Wide") + "</w:tc></w:tr>"
        "<w:tr><w:tc>" + _p("Outer") + "<w:tbl><w:tr><w:tc>" + _p("inner a") + "</w:tc><w:tc>" + _p("inner b")
        + "</w:tc></w:tr></w:tbl></w:tc><w:tc>" + _p("Right") + "</w:tc></w:tr></w:tbl>",
        "<w:p><w:r><mc:AlternateContent xmlns:mc=\"http://schemas.openxmlformats.org/markup-compatibility/2006\">"
        "<mc:Choice Requires=\"wps\"><w:drawing><w:txbxContent>" + _p("Boxed note") + "</w:txbxContent></w:drawing>"
        "</mc:Choice><mc:Fallback><w:pict><w:txbxContent>" + _p("Boxed note") + "</w:txbxContent></w:pict>"
        "</mc:Fallback></mc:AlternateContent></w:r></w:p>",
        _p("A quotation.", style="Quote"),
    ])
    path = write_docx(tmp_path / "rich.docx", [body.encode()], members=[
        ("word/styles.xml", [_STYLES.encode()]), ("word/_rels/document.xml.rels", [_DOC_RELS.encode()])])
    [section] = list(parse_document(path))
    assert section.heading == "项目简介"
    assert section.text.split("\n\n") == [
        "See the site\tnow", "Wide", "Outer\ninner a | inner b | Right", "Boxed note", "A quotation."]


def test_html_in_its_declared_charset_with_cells_and_entities(tmp_path):
    page = tmp_path / "gbk.html"
    page.write_bytes('<html><head><meta charset="gbk"><title>标题</title></head><body><h2>价格 &amp; 条款</h2>'
                     '<table><tr><th>项目</th><td>费用</td></tr></table><p>每月 4,200&nbsp;欧元。</p></body></html>'
                     .encode("gbk"))
    [section] = list(parse_document(page))
    assert section.heading == "价格 & 条款"
    assert section.text == "项目\n费用\n\n每月 4,200 欧元。"  # as Beautiful Soup's tree gave it
