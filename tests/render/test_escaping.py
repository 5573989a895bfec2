"""A rule file's text is shown in every format, and acts in none (render/escape.py; issue 20).

tests/data/rulesets/hostile_words.yaml puts HTML, Markdown links to javascript:, spreadsheet
formulas, a Mermaid %%{init}%% directive, a DOT string that tries to close its node, pipes,
line breaks and control characters into every text field a rule file has; here it goes through
every command and every --format, under a file name that is just as hostile (analyse and
compare print it). Each output is read as its consumer would read it — Markdown rendered by a
CommonMark renderer, CSV parsed cell by cell, HTML and Graphviz's SVG parsed as markup, Mermaid
checked line by line — and must hold none of the constructs, while the words are still there.
Then the escapers themselves, on arbitrary text (hypothesis, derandomised in tests/conftest.py).
"""

from __future__ import annotations

import csv
import html
import io
import json
import re
import shutil
import subprocess
import xml.etree.ElementTree as ElementTree
from fractions import Fraction
from html.parser import HTMLParser
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from hazard_dsl.cli import main
from hazard_dsl.render.escape import csv_cell, dot_html, dot_string, html as escape_html, markdown, \
    markdown_block, mermaid, mermaid_title
from hazard_dsl.render.tables import decimal, exact, percent
from hazard_dsl.render.terminal import printable
from tests.render.test_graph import well_formed_mermaid

HOSTILE = Path(__file__).resolve().parents[1] / "data" / "rulesets" / "hostile_words.yaml"
# The rule file under a name that is itself hostile: analyse's header and compare's columns show it.
FILE_NAME = '=HYPERLINK(1) <img src=x onerror=alert(1)> "];evil[ %%{init: {}}%% |x|.yaml'
BROKEN = "@broken <img src=x onerror=alert(1)>.yaml"

# What must be shown (as text) wherever the rule file's words are.
SHOWN = ("<script>alert(1)</script>", "<img src=x onerror=alert(1)>")
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
NUMBER = re.compile(r"[+-]?[\d,]*\d(\.\d+)?([eE][+-]?\d+)?(/\d+)?%?")  # -0.5, -1/36, +1.11, -1.731%
MARKDOWN = MarkdownIt("commonmark", {"html": True}).enable(["table", "strikethrough"])


class Markup(HTMLParser):
    """Every element and attribute of an HTML text, and its text (entities decoded)."""

    def __init__(self, text: str):
        super().__init__(convert_charrefs=True)
        self.tags, self.attrs, self.data = [], [], []
        self.feed(text)
        self.close()

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        self.attrs += attrs
        if tag == "br":
            self.data.append("\n")

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)

    def handle_data(self, data):
        self.data.append(data)

    @property
    def text(self) -> str:
        return "".join(self.data)


def _no_active_markup(markup: Markup, allowed: set) -> None:
    assert set(markup.tags) <= allowed, set(markup.tags) - allowed
    for name, value in markup.attrs:
        assert not name.startswith("on") and name not in ("href", "src", "srcset", "action"), (name, value)
        assert "javascript:" not in (value or "").lower(), (name, value)


# --------------------------------------------------------------------------- every command, every format

MARKDOWN_TAGS = {"p", "strong", "em", "br", "table", "thead", "tbody", "tr", "th", "td", "h1", "h2", "h3", "ul",
                 "ol", "li"}
HTML_TAGS = {"html", "head", "meta", "title", "style", "body", "h1", "h2", "h3", "p", "table", "caption", "thead",
             "tbody", "tr", "th", "td", "ul", "ol", "li", "b", "footer",
             # the HTML rule sheet's chart (render.sheet_writer.throws_chart): inline SVG of figures alone
             "figure", "figcaption", "svg", "line", "rect", "text"}
SIMULATE = ["--games", "2000", "--seed", "1", "--workers", "1"]
PLAYERS = ["--games", "20", "--seed", "1", "--workers", "1", "--players",
           "=Ann <script>alert(1)</script>,@Ben <img src=x onerror=alert(1)>"]
TABLE_FORMATS = ("text", "json", "markdown", "csv")
COMMANDS = [  # (argv with FILE for the rule file, formats, whether the output carries the file's words)
    (["show", "FILE"], TABLE_FORMATS, True),
    (["analyse", "FILE", "--by", "main", "--throws"], TABLE_FORMATS, True),
    (["compare", "FILE", "cotton"], TABLE_FORMATS, True),
    (["compare", "FILE", "FILE:main=called"], TABLE_FORMATS, True),
    (["simulate", "FILE", *SIMULATE], TABLE_FORMATS, "not csv"),  # the CSV of games holds figures only
    (["simulate", "FILE", *PLAYERS], TABLE_FORMATS, True),
    (["rules", "FILE"], ("text", "json", "markdown", "html"), True),
    (["graph", "FILE", "--bet", "stake"], ("dot", "mermaid", "json", "svg"), True),
    (["check", "BROKEN"], TABLE_FORMATS, True),  # its problems quote the file's text
]
CASES = [pytest.param(argv, fmt, shown, id=f"{argv[0]}{k}-{fmt}")
         for k, (argv, formats, shown) in enumerate(COMMANDS) for fmt in formats]


@pytest.fixture
def hostile_dir(tmp_path, monkeypatch):
    """A folder holding the hostile rule file under its hostile name (and a broken one that
    `check` reports on, quoting its text), as the working directory."""
    (tmp_path / FILE_NAME).write_text(HOSTILE.read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / BROKEN).write_text(
        'name: broken\nextends: cotton\n"=HYPERLINK(1) <script>alert(1)</script> [x](javascript:alert(1))": 1\n'
        'labels: {nick: "{<img src=x onerror=alert(1)>}"}\n', encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("COLUMNS", "2000")  # text tables unfolded, so that the words can be found whole
    return tmp_path


@pytest.mark.parametrize("argv, fmt, shown", CASES)
@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_every_command_shows_hostile_words_and_lets_none_act(argv, fmt, shown, hostile_dir, capsys):
    if fmt == "svg" and shutil.which("dot") is None:
        pytest.skip("Graphviz's dot is not installed")
    argv = [{"FILE": FILE_NAME, "BROKEN": BROKEN, "FILE:main=called": f"{FILE_NAME}:main=called"}.get(a, a)
            for a in argv]
    code = main([*argv, "--format", fmt])
    out, err = capsys.readouterr()
    assert code == (1 if argv[0] == "check" else 0), err
    assert "\x1b" not in out + err and "\x07" not in out + err  # control characters shown, never written
    text = CHECKS[fmt](out) + (err if fmt == "text" else "")  # check's text: the problems, on stderr
    if shown is True or (shown == "not csv" and fmt != "csv"):
        assert any(words in text for words in SHOWN), text[:2000]
        if fmt == "csv":  # and a formula of the file's (or the command line's) making, neutralised
            assert re.search(r"(?m)^'[=+@-]", text), text[:2000]


def _text(out: str) -> str:
    return out  # the terminal's tables: rule text shown literally (test_output.py), markup and all


def _json(out: str) -> str:
    data = json.loads(out)  # data: the words kept exactly; whoever shows them escapes them
    return json.dumps(data, ensure_ascii=False)


def _markdown(out: str) -> str:
    assert "<script" not in out and "<img" not in out and not re.search(r"(?<!\\)\]\(javascript:", out)
    markup = Markup(MARKDOWN.render(out))
    _no_active_markup(markup, MARKDOWN_TAGS)
    return markup.text


def _csv(out: str) -> str:
    cells = [cell for row in csv.reader(io.StringIO(out)) for cell in row]
    for cell in cells:
        if cell.lstrip(" ").startswith(FORMULA_START):
            assert NUMBER.fullmatch(cell), f"a spreadsheet would take {cell!r} for a formula"
    return "\n".join(cells)


def _html(out: str) -> str:
    assert "<script" not in out and "<img" not in out
    markup = Markup(out)
    _no_active_markup(markup, HTML_TAGS)
    return markup.text


MERMAID_CODES = {"quot": '"', "lt": "<", "gt": ">", "amp": "&"}


def _mermaid(out: str) -> str:
    assert "%%" not in out and "<script" not in out and "<img" not in out
    well_formed_mermaid(out)  # every line one of our statements: nothing closed a label or began one
    lines = out.splitlines()
    assert json.loads(lines[1].removeprefix("title: ")).startswith("=HYPERLINK(")  # the title, as YAML reads it
    return re.sub(r"#(\w+);", lambda m: MERMAID_CODES.get(m.group(1)) or chr(int(m.group(1))), out) + lines[1]


def _dot(out: str) -> str:
    # a quote in the words is escaped in a string (\") or an HTML-like label (&quot;): none ends one
    assert not re.search(r'(?<!\\)(?<!&quot;)"\];evil\[', out)
    assert "<script" not in out and "<img" not in out
    if shutil.which("dot") is None:
        return html.unescape(out)
    done = subprocess.run(["dot", "-Tsvg"], input=out.encode(), capture_output=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return _svg(done.stdout.decode())


def _svg(out: str) -> str:
    text, nodes = _svg_text(out)
    assert nodes > 3
    return text


def _svg_text(out: str) -> tuple[str, int]:
    """An SVG's text, checked to hold no active element or attribute, and its number of nodes."""
    root = ElementTree.fromstring(out)
    nodes = 0
    for element in root.iter():
        tag = element.tag.rsplit("}", 1)[-1]
        assert tag not in ("script", "img", "a", "foreignObject", "iframe"), tag
        assert not any(name.rsplit("}", 1)[-1].startswith("on") for name in element.attrib)
        nodes += element.get("class") == "node"
        if tag == "title":
            assert "evil" not in (element.text or ""), element.text  # no node named by the words
    return "".join(root.itertext()), nodes


CHECKS = {"text": _text, "json": _json, "markdown": _markdown, "csv": _csv, "html": _html, "mermaid": _mermaid,
          "dot": _dot, "svg": _svg}


def test_the_same_diagram_whatever_the_words(hostile_dir, capsys):
    """The hostile words add no node, edge or attribute to the DOT: it has the statements of the
    same game with plain words."""
    quoted = re.compile(r'"(?:\\.|[^"\\\n])*"')  # a YAML double-quoted string; every one of the words has a blank
    plain = quoted.sub(lambda m: '"plain words"' if " " in m.group(0) else m.group(0), HOSTILE.read_text("utf-8"))
    (hostile_dir / "plain.yaml").write_text(plain, encoding="utf-8")
    shapes = []
    for name in (FILE_NAME, "plain.yaml"):
        assert main(["graph", name, "--bet", "stake", "--format", "dot"]) == 0
        out = capsys.readouterr().out
        shapes.append([re.sub(r"label=(<.*>|\"(?:\\.|[^\"\\])*\")", "label=…", line) for line in out.splitlines()])
    assert len(shapes[0]) == len(shapes[1])
    assert [s for s in shapes[0] if "label=…" not in s] == [s for s in shapes[1] if "label=…" not in s]


@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_a_chart_shows_dollars_and_formulas_as_text(tmp_path):
    """matplotlib's mathtext is off: a ruleset named with `$\\frac{x}$` is drawn, not an internal error."""
    pytest.importorskip("matplotlib")
    path = tmp_path / "dollars.yaml"
    path.write_text('name: "a $\\\\frac{x}$ <script>alert(1)</script>"\nextends: cotton\n', encoding="utf-8")
    chart = tmp_path / "chart.svg"
    assert main(["analyse", str(path), "--plot", str(chart)]) == 0
    svg = chart.read_text(encoding="utf-8")
    assert "<script" not in svg and "$\\frac{x}$ &lt;script&gt;" in svg
    assert "$\\frac{x}$ <script>alert(1)</script>" in _svg_text(svg)[0]
    assert main(["compare", str(path), "cotton", "--plot", str(tmp_path / "compare.png")]) == 0


# --------------------------------------------------------------------------- the escapers, on any text

# Any text, with the characters that matter to some format much more often than chance gives them.
SPECIAL = list("<>&\"'`*_[]()|~$#%!\\=+-@:{}./ \t\r\n1") + ["javascript:", "%%{init: {}}%%", "\x1b", "\u2028"]
TEXT = st.lists(st.one_of(st.sampled_from(SPECIAL), st.characters()), max_size=40).map("".join)


def _cells(rendered: str) -> list:
    return re.findall(r"<td>(.*?)</td>", rendered, re.S)


@given(TEXT)
def test_markdown_text_is_text(text):
    """Inline, in a table cell: no element but our line breaks, one cell, the words as typed."""
    shown = printable(text)
    escaped = markdown(text)
    markup = Markup(MARKDOWN.renderInline(escaped))
    _no_active_markup(markup, {"br"})
    assert "\n" not in escaped
    assert markup.text == shown
    table = MARKDOWN.render(f"| a |\n|---|\n| {escaped} |\n")
    (cell,) = _cells(table)
    markup = Markup(cell)
    _no_active_markup(markup, {"br"})
    assert markup.text.strip() == shown.strip()  # a cell is trimmed of blanks


@given(TEXT)
def test_a_markdown_paragraph_stays_a_paragraph(text):
    """Each line kept from opening a heading, list, quote, rule or code block."""
    markup = Markup(MARKDOWN.render(markdown_block(text)))
    _no_active_markup(markup, {"p", "br"})
    assert markup.text.split() == printable(text).split()


@given(TEXT)
def test_html_round_trips(text):
    escaped = escape_html(text)
    assert not set(escaped) & set("<>\"'")
    assert html.unescape(escaped) == printable(text)
    markup = Markup(f"<p title=\"{escaped}\">{escaped}</p>")
    assert markup.tags == ["p"] and markup.text == printable(text) and markup.attrs == [("title", printable(text))]


@given(TEXT.filter(lambda t: printable(t) == t))
@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_html_of_printable_text_is_the_text(text):
    assert html.unescape(escape_html(text)) == text


@given(TEXT)
def test_a_csv_cell_is_never_a_formula(text):
    cell = csv_cell(text)
    if cell.lstrip(" ").startswith(FORMULA_START + ("\uff1d", "\uff0b", "\uff0d", "\uff20")):
        assert NUMBER.fullmatch(cell), cell
    assert cell.removeprefix("'") == printable(text) or cell == printable(text)
    buffer = io.StringIO()
    csv.writer(buffer).writerow([cell, "x"])
    assert next(csv.reader(io.StringIO(buffer.getvalue()))) == [cell, "x"]


@given(st.fractions(max_denominator=10**12))
def test_numbers_stay_numbers_in_csv(value):
    """How the tables write figures: exact fractions (-1/36), percentages, decimals, signed."""
    for number in (exact(value), percent(value), percent(value, 3), decimal(value), f"{float(value):+.2f}",
                   f"{100 * float(value):+.4f}%", f"{int(value):,}"):
        assert csv_cell(number) == number


@given(TEXT)
def test_mermaid_label_holds_no_directive_quote_or_markup(text):
    label = mermaid(text)
    bare = label.replace("<br/>", "")
    assert not set(bare) & set("%\"|<>&`\n")
    assert re.fullmatch(r"([^#]|#\w+;)*", bare)  # a # only in Mermaid's entity codes
    decoded = re.sub(r"#(\w+);", lambda m: MERMAID_CODES.get(m.group(1)) or chr(int(m.group(1))), bare)
    assert decoded == printable(text).replace("\n", "")
    line = f'    n1["{label}"]'
    well_formed_mermaid(f'---\ntitle: "t"\n---\nflowchart TB\n  subgraph phase_a [a]\n{line}\n  end\n')


@given(TEXT)
def test_mermaid_title_is_one_quoted_line(text):
    title = mermaid_title(text)
    assert not set(title) & set("%<>&#\n")
    assert json.loads(title) == printable(text)


def _undot(quoted: str) -> str:
    """A DOT string's text, its escapes read: only \\\\, \\" and \\n may be there."""
    assert quoted[0] == quoted[-1] == '"' and "\n" not in quoted
    out, body, k = [], quoted[1:-1], 0
    while k < len(body):
        if body[k] == "\\":
            pair = body[k:k + 2]
            assert pair in ("\\\\", '\\"', "\\n"), pair  # never \N, \G, \l… of the words' making
            out.append({"\\\\": "\\", '\\"': '"', "\\n": "\n"}[pair])
            k += 2
        else:
            assert body[k] != '"'
            out.append(body[k])
            k += 1
    return "".join(out)


@given(TEXT)
def test_dot_strings_cannot_be_closed(text):
    assert _undot(dot_string(text)) == printable(text)


@given(TEXT)
def test_dot_html_labels_cannot_be_closed(text):
    escaped = dot_html(text)
    assert not set(escaped) & set("<>\"\ufffe\uffff")
    assert html.unescape(escaped) == printable(text).replace("\ufffe", "\\ufffe").replace("\uffff", "\\uffff")


def test_the_escapers_on_the_issue_examples():
    assert markdown("[x](javascript:alert(1))") == "\\[x\\](javascript:alert(1))"
    assert markdown("<script>a|b</script>") == "&lt;script&gt;a\\|b&lt;/script&gt;"
    assert markdown("Hazard & Craps, &lt; &#60;") == "Hazard & Craps, &amp;lt; &amp;#60;"  # shown as typed
    assert markdown_block("# title\n- item\n1. first") == "\\# title  \n\\- item  \n1\\. first"
    assert csv_cell('=HYPERLINK("http://evil")') == '\'=HYPERLINK("http://evil")'
    assert csv_cell(" @SUM(1)") == "' @SUM(1)" and csv_cell("\t=1") == "' =1"  # a tab is shown as a blank
    assert [csv_cell(n) for n in ("-0.5", "-1/36", "+1.11", "-1.731%", "1,234", "6.616e+42")] == \
        ["-0.5", "-1/36", "+1.11", "-1.731%", "1,234", "6.616e+42"]
    assert csv_cell("-85/5544 (-1.533%)") == "'-85/5544 (-1.533%)"  # two numbers are text, not one
    assert mermaid("%%{init: {}}%%") == "#37;#37;{init: {}}#37;#37;"
    assert dot_string('"];evil[') == '"\\"];evil["'
    assert exact(Fraction(-1, 36)) == "-1/36"
