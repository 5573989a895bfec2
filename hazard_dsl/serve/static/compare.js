// Compare: pick variants and their options; the figures side by side (stacked on a phone), each
// variant's throws charted, and the throws on which the rules differ.
"use strict";

(() => {
  const {api, el, figures, throwsChart, throwOf, status} = Hz;
  const MAX = 8;
  let builtins = [], files = [];
  const shows = {};  // ruleset → show --json (its options)

  async function showOf(name) {
    if (!shows[name]) shows[name] = api(`/api/rulesets/${encodeURIComponent(name)}`);
    return shows[name];
  }

  // "cotton:main=called" → {ruleset, options}
  function parse(text) {
    const [ruleset, rest] = text.split(":");
    const options = {};
    for (const pair of (rest || "").split(",")) if (pair.includes("=")) { const [k, v] = pair.split("="); options[k] = v; }
    return {ruleset, options};
  }

  function picked() {
    return [...document.querySelectorAll("#variants > li")].map(li => {
      const options = {};
      for (const select of li.querySelectorAll("select[data-option]"))
        if (select.value !== select.dataset.default) options[select.dataset.option] = select.value;
      return {ruleset: li.querySelector("select.ruleset").value, options};
    });
  }

  async function fillOptions(li, given) {
    const box = li.querySelector(".variant-options");
    const name = li.querySelector("select.ruleset").value;
    box.replaceChildren();
    try {
      const show = await showOf(name);
      for (const [option, info] of Object.entries(show.options || {})) {
        const id = `${li.id}-${option}`;
        const select = el("select", {id, "data-option": option, "data-default": info.default});
        for (const value of Object.keys(info.values))
          select.append(el("option", {value, selected: value === ((given || {})[option] || info.default)}, value));
        box.append(el("label", {for: id}, el("code", {text: option}), " "), select);
      }
    } catch (e) {
      box.append(el("span", {class: "quiet", text: e.message}));
    }
  }

  let counter = 0;
  function addVariant(variant) {
    const list = document.getElementById("variants");
    if (list.children.length >= MAX) return;
    const li = el("li", {id: `variant-${++counter}`, class: "variant"});
    const choose = el("select", {class: "ruleset", "aria-label": `Variant ${counter}: ruleset`});
    for (const r of builtins) choose.append(el("option", {value: r.name, selected: r.name === variant.ruleset}, r.title || r.name));
    for (const f of files) choose.append(el("option", {value: f.name, selected: f.name === variant.ruleset}, f.name));
    choose.addEventListener("change", () => fillOptions(li));
    const remove = el("button", {type: "button", "aria-label": `Remove variant ${counter}`, text: "Remove"});
    remove.addEventListener("click", () => { li.remove(); });
    li.append(choose, el("span", {class: "variant-options variant"}), remove);
    list.append(li);
    fillOptions(li, variant.options);
  }

  function label(variant) {
    const options = Object.entries(variant.options).map(([k, v]) => `${k}=${v}`).join(",");
    return options ? `${variant.ruleset}:${options}` : variant.ruleset;
  }

  async function run() {
    const variants = picked();
    if (!variants.length) { status("Pick at least one variant."); return; }
    history.replaceState(null, "", "/compare?" + variants.map(v => "v=" + encodeURIComponent(label(v))).join("&"));
    status("Working out the figures…");
    try {
      const result = await api("/api/compare", {variants});
      const columns = document.getElementById("columns");
      columns.replaceChildren(...result.rulesets.map((analysis, i) => {
        const list = el("dl", {class: "figures"});
        figures(list, analysis);
        return el("article", {class: "column", id: `column-${i}`, "aria-label": analysis.name},
          el("h2", {text: analysis.ruleset}), el("p", {class: "quiet"}, el("code", {text: analysis.name})),
          list, el("figure", {class: "chart"}, el("figcaption", {text: "Throws per game"}), throwsChart(analysis.throws)));
      }));
      differences(result.differences);
      status("");
    } catch (e) {
      status(`The comparison cannot be made: ${e.message}`, "error");
    }
  }

  function differences(all) {
    const section = document.getElementById("differences");
    const box = document.getElementById("difference-tables");
    box.replaceChildren();
    section.hidden = !all.length;
    for (const d of all) {
      box.append(el("h3", {}, el("code", {text: d.other}), " against ", el("code", {text: d.base})));
      if (d.rows === null) { box.append(el("p", {class: "quiet", text: "Their games are too different to set throw by throw."})); continue; }
      if (!d.rows.length) { box.append(el("p", {class: "quiet", text: "No throw does anything different."})); continue; }
      const body = el("tbody", {}, ...d.rows.map(r => el("tr", {},
        el("td", {text: r.phase}), el("td", {}, ...r.throws.map(throwOf)), el("td", {text: r.when || ""}),
        el("td", {text: r.base}), el("td", {text: r.other}))));
      box.append(el("div", {class: "scroll"}, el("table", {},
        el("thead", {}, el("tr", {}, ...["phase", "throw", "when", d.base, d.other].map(h => el("th", {scope: "col", text: h})))), body)));
    }
  }

  async function start() {
    try {
      ({builtins, files} = await api("/api/rulesets"));
    } catch (e) { status(e.message, "error"); return; }
    const given = new URLSearchParams(location.search).getAll("v");
    for (const text of (given.length ? given : ["cotton", "petty", "french"]).slice(0, MAX)) addVariant(parse(text));
    document.getElementById("add").addEventListener("click", () => addVariant({ruleset: "cotton", options: {}}));
    document.getElementById("picker").addEventListener("submit", event => { event.preventDefault(); run(); });
    // the options of each variant are filled in before the first comparison
    await Promise.all(Object.values(shows));
    setTimeout(run, 0);
  }

  start();
})();
