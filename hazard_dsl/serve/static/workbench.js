// The workbench: open, edit and save a rule file of the folder; its problems as you type (in the
// editor and as a list, a "did you mean" as a one-click fix), and its figures and machine whenever
// it has no errors. Saving never writes over a file changed on disk since it was opened. A request
// a newer one makes useless (the text changed, the cursor moved) is given up, and the server
// stops its work; leaving the page with changes unsaved asks first.
"use strict";

(() => {
  const {api, el, figures, throwsChart, status} = Hz;
  let file = null;      // the open file's name
  let base = null;      // the hash of the version on disk it was opened from (null: a new file)
  let saved = null;     // the text last saved or loaded
  let savesRefused = null;  // why this server saves no rule file (open to the network), or null
  let editor = null;
  let timer = null, asked = 0;
  // Live checks coalesce as the language server's do (issue 39): a burst of keystrokes waits
  // this long after its last key and is one check of the newest text; a check of a text since
  // edited is given up (the server stops its work) and its answer dropped. Short: the check and
  // the analysis themselves take a tenth of a second or more, a key every few hundredths.
  const QUIET_MS = 40;
  // The figures inside the text (and the expressions' colours) are asked once the analysis is
  // answered, or this long after the check if the analysis is not answered by then (a large
  // game's takes seconds: its colours would wait for it).
  const IN_TEXT_WAIT_MS = 300;
  // The figures and the drawing on screen may be of an older version of the text than the
  // editor's: each edit counts one, and each shown part remembers the count and the time of the
  // text it was made from (null: nothing shown). Where they differ the part is dimmed and a line
  // says which version it is of; `now` says, for each, what is known of the text in the editor
  // ({state: "checking" | "errors" | "failed", reason}).
  let edits = 0, editedAt = new Date();
  const shownOf = {figures: null, drawing: null};
  let now = {};
  // each kind of request's latest, to give up when a newer one is asked: the check of the text
  // (with its figures and drawing), a hover, a completion
  const pending = {};
  function latest(kind) {
    if (pending[kind]) pending[kind].abort();
    pending[kind] = new AbortController();
    return pending[kind].signal;
  }
  const givenUp = e => e && e.name === "AbortError";

  const $ = id => document.getElementById(id);

  async function hover(text, line, column) {
    try { return await api("/api/hover", {text, name: file || "untitled.yaml", line, column}, "POST", latest("hover")); } catch (e) { return null; }
  }

  async function complete(text, line, column) {
    try { return (await api("/api/completion", {text, name: file || "untitled.yaml", line, column}, "POST", latest("completion"))).items; } catch (e) { return []; }
  }

  function changed() {
    // the figures inside the older text are given up at once, not when the newer text is
    // checked: waiting their turn in the language service's process, they kept that check
    // waiting behind them (issue 39)
    if (pending.figures) pending.figures.abort();
    edits += 1;
    editedAt = new Date();
    now = {figures: {state: "checking"}, drawing: {state: "checking"}};
    stale();
    later();
  }

  function later() {
    $("save").disabled = !file || editor.text() === saved || savesRefused !== null;
    clearTimeout(timer);
    timer = setTimeout(check, QUIET_MS);
  }

  const clock = when => when.toLocaleTimeString([], {hour: "2-digit", minute: "2-digit", second: "2-digit"});

  // Dims each shown part made from an older version of the text, and says so in plain words;
  // un-dims it once it is of the text in the editor. While the text is being checked the line
  // waits a second: typing on a valid file would otherwise push the page down and up at every
  // key (the dimming itself waits half a second, in site.css).
  let saying = null;
  function stale(waited) {
    clearTimeout(saying);
    const parts = {figures: [$("figures-box"), $("figures-state"), "figures", "They appear", "its figures appear"],
                   drawing: [$("drawing"), $("drawing-state"), "drawing", "It is drawn", "its drawing appears"]};
    for (const [kind, [box, note, word, appear, its]] of Object.entries(parts)) {
      const of = shownOf[kind], old = of !== null && of.edits !== edits;
      box.classList.toggle("stale", old);
      note.classList.toggle("stale-note", old);
      const known = now[kind] || {state: "checking"};
      const after = known.state === "errors" ? `The text now has errors: ${its} once they are fixed.`
        : known.state === "failed" ? `No ${word} for the text now: ${known.reason}`
        : "The text now is being checked.";
      if (of === null) {
        note.textContent = known.state === "failed" ? `No ${word}: ${known.reason}` : `${appear} when the file has no errors.`;
        note.hidden = false;
      } else if (old && known.state === "checking" && note.hidden && !waited) {
        saying = setTimeout(() => stale(true), 1000);
      } else if (old) {
        const ago = edits - of.edits;
        note.textContent = `Dimmed: the ${word} of the last valid version, ${ago} edit${ago === 1 ? "" : "s"} ago ` +
                           `(from ${clock(of.at)}). ${after}`;
        note.hidden = false;
      } else note.hidden = true;
    }
  }

  function diagnosticsList(found) {
    const list = $("diagnostics");
    list.replaceChildren();
    if (!found.length) { list.append(el("li", {class: "quiet", text: "No problems."})); return; }
    for (const d of found) {
      const where = d.line != null ? `line ${d.line}, column ${d.column}` : (d.file && d.file !== file ? d.file : "");
      const item = el("li", {class: `diagnostic severity-${d.severity}`, "data-line": d.line ?? ""});
      if (d.line != null) {
        const go = el("button", {type: "button", class: "where", text: where});
        go.addEventListener("click", () => editor.goto(d.line, d.column));
        item.append(go);
      } else if (where) item.append(el("span", {class: "where quiet", text: where}));
      item.append(el("span", {class: `severity-${d.severity}`, text: d.severity}), el("span", {class: "message", text: d.message}));
      if (d.hint) item.append(el("span", {class: "quiet hint", text: d.hint}));
      for (const fix of d.fixes || []) {
        const button = el("button", {type: "button", class: "fix", text: fix.title});
        button.addEventListener("click", () => { editor.apply(fix); editor.focus(); });
        item.append(button);
      }
      list.append(item);
    }
  }

  // The figures inside the text (each rule's, each phase's and bet's: /api/figures) and the
  // expression language's colours, from the same language service as `hazard-dsl lsp`'s inlay
  // hints, code lenses and semantic tokens; those of an older text are kept, moved with the edits.
  async function inText(text, name) {
    try {
      const found = await api("/api/figures", {text, name}, "POST", latest("figures"));
      if (editor.text() === text) editor.figures(found);
    } catch (e) { /* given up for a newer text, or none: the editor keeps what it shows */ }
  }

  async function check() {
    const mine = ++asked, text = editor.text(), name = file || "untitled.yaml";
    const version = {edits, at: editedAt};
    const signal = latest("check");
    // one thing at a time, what the author waits for first: the check, then the analysis, then
    // the drawing (asked together, they shared the cores and each came later)
    try {
      const {diagnostics} = await api("/api/check", {text, name}, "POST", signal);
      if (mine !== asked) return;
      editor.show(diagnostics);
      diagnosticsList(diagnostics);
      if (diagnostics.some(d => d.severity === "error")) {
        inText(text, name);
        if (version.edits === edits) { now = {figures: {state: "errors"}, drawing: {state: "errors"}}; stale(); }
        return;
      }
      // the figures inside the text once the analysis is answered, not beside it: each solves
      // the game, in a process of its own, and beside it they took a core from the analysis
      // (issue 39, bench_workbench --trace); at the latest IN_TEXT_WAIT_MS after the check
      let inTextAsked = false;
      const askInText = () => { if (!inTextAsked) { inTextAsked = true; inText(text, name); } };
      const meanwhile = setTimeout(() => { if (mine === asked) askInText(); }, IN_TEXT_WAIT_MS);
      const [analysis] = await Promise.allSettled([api("/api/analyse", {text, name}, "POST", signal)]);
      clearTimeout(meanwhile);
      if (mine !== asked || signal.aborted) return;
      askInText();
      if (analysis.status === "fulfilled") {
        figures($("figures"), analysis.value);
        $("throws-chart").replaceChildren(throwsChart(analysis.value.throws));
        shownOf.figures = version;
      } else if (version.edits === edits) now.figures = {state: "failed", reason: analysis.reason.message};
      stale();
      const [drawn] = await Promise.allSettled([api("/api/graph", {text, name, format: "svg"}, "POST", signal)]);
      if (mine !== asked || signal.aborted) return;
      if (drawn.status === "fulfilled") {
        const url = URL.createObjectURL(new Blob([drawn.value.drawing], {type: "image/svg+xml"}));
        const img = el("img", {src: url, alt: "The compiled machine", class: "machine"});
        img.addEventListener("load", () => URL.revokeObjectURL(url));
        $("drawing").replaceChildren(img);
        shownOf.drawing = version;
      } else if (drawn.reason.status === 501) {  // no Graphviz on the server: drawn here from the machine's JSON
        const machine = await api("/api/graph", {text, name, format: "json"}, "POST", signal);
        if (mine === asked) { $("drawing").replaceChildren(Hz.machineSvg(JSON.parse(machine.drawing))); shownOf.drawing = version; }
      } else {
        // the drawing of an older version stays, dimmed, with the reason this one is not drawn
        if (version.edits === edits) now.drawing = {state: "failed", reason: drawn.reason.message};
      }
      stale();
    } catch (e) {
      if (mine === asked && !givenUp(e)) status(`Cannot check the file: ${e.message}`, "error");
    }
  }

  function open(name, text, hash) {
    file = name;
    base = hash;
    saved = hash === null ? null : text;
    $("file-name").textContent = name;
    $("conflict").hidden = true;
    editor.setText(text);
    // another file, or the file read again: what was shown is of no version of this text
    edits = 0;
    editedAt = new Date();
    now = {figures: {state: "checking"}, drawing: {state: "checking"}};
    shownOf.figures = shownOf.drawing = null;
    $("figures").replaceChildren();
    $("throws-chart").replaceChildren();
    $("drawing").replaceChildren();
    stale();
    history.replaceState(null, "", `/workbench?file=${encodeURIComponent(name)}`);
    later();
  }

  async function load(name) {
    try {
      const got = await api(`/api/files/${encodeURIComponent(name)}`);
      open(got.name, got.text, got.hash);
      status(`Opened ${got.name}.`);
    } catch (e) {
      status(`${name}: ${e.message}`, "error");
    }
  }

  async function save(over) {
    if (!file) return;
    if (savesRefused !== null) { status(`Not saved: ${savesRefused}.`, "error"); return; }  // Ctrl-S too
    const text = editor.text();
    try {
      const done = await api(`/api/files/${encodeURIComponent(file)}`, {text, base: over === undefined ? base : over}, "PUT");
      base = done.hash;
      saved = text;
      $("conflict").hidden = true;
      $("save").disabled = true;
      status(`Saved ${file}.`, "ok");
      files();
    } catch (e) {
      if (e.status === 409) {
        $("conflict").hidden = false;
        $("overwrite").onclick = () => save(e.body.current);
        $("reload").onclick = () => load(file);
        status(`${file} changed on disk: nothing was written.`, "error");
      } else status(`Not saved: ${e.message}`, "error");
    }
  }

  async function files() {
    const {builtins, files: mine} = await api("/api/rulesets");
    $("file-list").replaceChildren(...(mine.length ? mine.map(f => el("li", {},
      el("a", {href: `/workbench?file=${encodeURIComponent(f.name)}`, "aria-current": f.name === file ? "page" : null, text: f.name})))
      : [el("li", {class: "quiet", text: "No rule files in the folder yet."})]));
    const select = $("new-base");
    if (!select.options.length) for (const r of builtins) select.append(el("option", {value: r.name}, r.title || r.name));
  }

  function fresh(event) {
    event.preventDefault();
    const name = $("new-name").value.trim(), on = $("new-base").value;
    const title = $("new-base").selectedOptions[0].textContent;
    open(name, `# A variant of ${title}: write below only what differs.\n` +
      `name: My variant of ${on}\nextends: ${on}\ndescription: >\n  What this variant changes, and why.\n` +
      `sources:\n  - title: my own rules\n    note: the changes of this file are my own\n`, null);
    if (savesRefused === null) {
      status(`${name} is new: Save writes it to the folder.`);
      $("save").disabled = false;
    } else status(`${name} is new. ${savesRefused}.`);
  }

  async function start() {
    editor = HazardEditor.create($("editor"), {doc: "", onChange: changed, hover, complete, onSave: () => save(), label: "Rule file"});
    $("save").addEventListener("click", () => save());
    $("new-file").addEventListener("submit", fresh);
    // changes not saved: the browser asks before the page is left (its own words; a page's are not shown)
    window.addEventListener("beforeunload", event => {
      if (file && editor.text() !== saved) { event.preventDefault(); event.returnValue = ""; }
    });
    try {
      // a server open to the network saves nothing unless started to: say so before anyone edits
      const server = await api("/api/server");
      if (!server.saves) {
        savesRefused = server.why_no_saves;
        $("save").disabled = true;
        $("save").title = savesRefused;
        $("read-only").textContent = `Read only: ${savesRefused}.`;
        $("read-only").hidden = false;
      }
      await files();
    } catch (e) { status(e.message, "error"); }
    const asked = new URLSearchParams(location.search).get("file");
    if (asked) await load(asked);
  }

  start();
})();
