// The workbench's editor: CodeMirror 6 with YAML, diagnostics pushed by the page (from the API's
// /api/check), hover and completion asked of the page's functions (the API's language service).
// Built into ../hazard_dsl/serve/static/editor.js (see README.md); the page sees `HazardEditor`.
import {basicSetup} from "codemirror";
import {EditorView, keymap, hoverTooltip} from "@codemirror/view";
import {EditorState} from "@codemirror/state";
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
