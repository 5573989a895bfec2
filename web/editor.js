// The workbench's editor: CodeMirror 6 with YAML, diagnostics pushed by the page (from the API's
// /api/check), hover and completion asked of the page's functions (the API's language service),
// and what the page pushes from /api/figures drawn inside the text: the expression language's
// tokens coloured, each rule's figure after its line, each phase's and bet's figure above it.
// Built into ../hazard_dsl/serve/static/editor.js (see README.md); the page sees `HazardEditor`.
import {basicSetup} from "codemirror";
import {EditorView, keymap, hoverTooltip, Decoration, WidgetType} from "@codemirror/view";
import {EditorState, StateField, StateEffect} from "@codemirror/state";
import {yaml} from "@codemirror/lang-yaml";
import {setDiagnostics, lintGutter} from "@codemirror/lint";
import {autocompletion} from "@codemirror/autocomplete";
import {indentWithTab} from "@codemirror/commands";
import {oneDark} from "@codemirror/theme-one-dark";

// The page's colours (CSS variables inherit into the shadow root) for the frame of the editor.
const frame = EditorView.theme({
  "&": {maxHeight: "70vh", fontSize: "15px"},
  ".cm-scroller": {overflow: "auto", fontFamily: 'ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace'},
  ".hover-text": {maxWidth: "30rem", padding: "4px 8px", whiteSpace: "pre-wrap"},
  // the figures of the game, in the text but not of it: quiet, never mistaken for what is written
  ".cm-figure": {opacity: "0.7", fontStyle: "italic", fontSize: "90%", paddingLeft: "1.5em", userSelect: "none"},
  ".cm-lens": {opacity: "0.7", fontSize: "85%", fontStyle: "italic", userSelect: "none"},
});

// The expression language's tokens (language.tokens' kinds), by colour; YAML's own stay YAML's.
const tokenColours = EditorView.baseTheme({
  "&light .cm-expr-keyword": {color: "#7a3e9d", fontWeight: "bold"},
  "&light .cm-expr-variable": {color: "#1a5e8a"},
  "&light .cm-expr-function": {color: "#8a4b00"},
  "&light .cm-expr-number": {color: "#116644"},
  "&light .cm-expr-string": {color: "#a11"},
  "&light .cm-expr-enumMember, &light .cm-expr-namespace, &light .cm-expr-parameter, &light .cm-expr-property":
    {color: "#6b4f00", fontStyle: "italic"},
  "&dark .cm-expr-keyword": {color: "#d7a6f5", fontWeight: "bold"},
  "&dark .cm-expr-variable": {color: "#8cc8f0"},
  "&dark .cm-expr-function": {color: "#f0b874"},
  "&dark .cm-expr-number": {color: "#8fe0b8"},
  "&dark .cm-expr-string": {color: "#f08c8c"},
  "&dark .cm-expr-enumMember, &dark .cm-expr-namespace, &dark .cm-expr-parameter, &dark .cm-expr-property":
    {color: "#e8d080", fontStyle: "italic"},
});

class Figure extends WidgetType {
  constructor(text, title, block) { super(); this.text = text; this.title = title; this.block = block; }
  eq(other) { return other.text === this.text && other.block === this.block; }
  toDOM() {
    const dom = document.createElement(this.block ? "div" : "span");
    dom.className = this.block ? "cm-lens" : "cm-figure";
    dom.textContent = this.text;
    if (this.title) dom.title = this.title;
    return dom;
  }
  ignoreEvent() { return true; }
}

// What the page last pushed, kept in step with the edits made since (mapped through them).
const setFigures = StateEffect.define();
const figuresField = StateField.define({
  create: () => Decoration.none,
  update(value, tr) {
    value = value.map(tr.changes);
    for (const e of tr.effects) if (e.is(setFigures)) value = e.value;
    return value;
  },
  provide: field => EditorView.decorations.from(field),
});

// The API counts lines and columns from 1 in code points; CodeMirror offsets are UTF-16 units.
function offset(doc, line, column) {
  if (line < 1) return 0;
  if (line > doc.lines) return doc.length;
  const l = doc.line(line);
  let at = 0, point = 1;
  for (const ch of l.text) {
    if (point >= column) break;
    at += ch.length;
    point += 1;
  }
  return l.from + at;
}

function place(doc, pos) {
  const l = doc.lineAt(pos);
  return {line: l.number, column: Array.from(l.text.slice(0, pos - l.from)).length + 1};
}

// The editor lives in a shadow root of `parent`: there CodeMirror's styles are constructed style
// sheets, which the page's Content-Security-Policy (style-src 'self', no inline <style>) allows.
export function create(parent, options) {
  const {doc = "", onChange = () => {}, hover = null, complete = null, onSave = null, label = "rule file"} = options;
  const dark = window.matchMedia && window.matchMedia("(prefers-color-scheme: dark)").matches;
  const extensions = [
    basicSetup,
    frame,
    ...(dark ? [oneDark] : []),
    yaml(),
    tokenColours,
    figuresField,
    lintGutter(),
    keymap.of([indentWithTab, ...(onSave ? [{key: "Mod-s", preventDefault: true, run: () => { onSave(); return true; }}] : [])]),
    EditorView.contentAttributes.of({"aria-label": label}),
    EditorView.updateListener.of(update => { if (update.docChanged) onChange(update.state.doc.toString()); }),
  ];
  if (hover) {
    extensions.push(hoverTooltip(async (view, pos) => {
      const where = place(view.state.doc, pos);
      const found = await hover(view.state.doc.toString(), where.line, where.column);
      if (!found || !found.text) return null;
      return {pos, above: true, create() {
        const dom = document.createElement("div");
        dom.className = "hover-text";
        dom.textContent = found.text;
        return {dom};
      }};
    }));
  }
  if (complete) {
    extensions.push(autocompletion({override: [async context => {
      const word = context.matchBefore(/[A-Za-z0-9_.]*/);
      if (!word || (word.from === word.to && !context.explicit)) return null;
      const where = place(context.state.doc, context.pos);
      const items = await complete(context.state.doc.toString(), where.line, where.column);
      if (!items || !items.length) return null;
      return {from: word.from, options: items.map(i => ({label: i.label, detail: i.detail || undefined, type: i.kind || undefined}))};
    }]}));
  }
  const root = parent.attachShadow({mode: "open"});
  const view = new EditorView({state: EditorState.create({doc, extensions}), parent: root, root});
  return {
    view,
    text: () => view.state.doc.toString(),
    setText(text) { view.dispatch({changes: {from: 0, to: view.state.doc.length, insert: text}}); },
    // diagnostics: [{line, column, end_line, end_column, severity, message}] (1-based, code points)
    show(diagnostics) {
      const d = view.state.doc;
      const marks = diagnostics.filter(x => x.line != null).map(x => {
        const from = offset(d, x.line, x.column);
        let to = offset(d, x.end_line || x.line, x.end_column || x.column);
        if (to <= from) to = Math.min(d.line(Math.min(x.line, d.lines)).to, from + 1);
        return {from, to: Math.max(from, to), severity: x.severity === "note" ? "info" : x.severity, message: x.message};
      });
      view.dispatch(setDiagnostics(view.state, marks));
    },
    // /api/figures' answer: tokens [{line, column, length, kind}], hints [{line, column, label,
    // tooltip}] after a rule's line, lenses [{line, column, title}] above a phase or a bet (1-based)
    figures({tokens = [], hints = [], lenses = []} = {}) {
      const d = view.state.doc, ranges = [];
      for (const t of tokens) {
        if (t.line > d.lines) continue;
        const from = offset(d, t.line, t.column), to = offset(d, t.line, t.column + t.length);
        if (to > from) ranges.push(Decoration.mark({class: `cm-expr-${t.kind}`}).range(from, to));
      }
      for (const h of hints) {
        if (h.line > d.lines) continue;
        ranges.push(Decoration.widget({widget: new Figure(h.label, h.tooltip, false), side: 1}).range(d.line(h.line).to));
      }
      for (const k of lenses) {
        if (k.line > d.lines) continue;
        ranges.push(Decoration.widget({widget: new Figure(k.title, null, true), block: true, side: -1}).range(d.line(k.line).from));
      }
      view.dispatch({effects: setFigures.of(Decoration.set(ranges, true))});
    },
    // a fix: {range: {line, column, end_line, end_column}, new_text}
    apply(fix) {
      const d = view.state.doc, r = fix.range;
      view.dispatch({changes: {from: offset(d, r.line, r.column), to: offset(d, r.end_line, r.end_column), insert: fix.new_text}});
    },
    goto(line, column) {
      const pos = offset(view.state.doc, line, column);
      view.dispatch({selection: {anchor: pos}, scrollIntoView: true});
      view.focus();
    },
    focus() { view.focus(); },
  };
}
