// Compare: pick variants and their options; the figures side by side (stacked on a phone), each
// variant's throws charted, and the throws on which the rules differ.
"use strict";

(() => {
  const {api, el, svg, figures, percent, toNumber, throwsChart, throwOf, status} = Hz;
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
      charts(result.rulesets);
      differences(result.differences);
      status("");
    } catch (e) {
      status(`The comparison cannot be made: ${e.message}`, "error");
    }
  }

  // The charts of `compare --plot` (render.plot.compare_chart), drawn here: each variant's
  // chance of winning beside 50%, its edge beside 0, and the edges of the bets they share. Each
  // figure's length is worked from its exact fraction (the text shown writes a minus as "−").
  // Drawn to the width of the page, so that their words are as large as the page's on a phone;
  // drawn again when that width changes.
  let charted = null, chartedWidth = 0;
  function charts(analyses) {
    charted = analyses;
    const box = document.getElementById("charts");
    document.getElementById("charts-section").hidden = false;
    const room = box.clientWidth;
    const pct = text => toNumber(text) * 100;
    const rows = analyses.map(a => ({name: a.name, win: pct(a.win), edge: pct(a.edge), winText: percent(a.win),
                                     edgeText: percent(a.edge)}));
    const parts = [bars("The caster's chance of winning a game", "caster wins, % of games; the line: an even game",
                        rows.map(r => [r.name, r.win, r.winText]), 50, room),
                   bars("The edge against the caster", "% of the stake, P(lose) − P(win); below 0: in his favour",
                        rows.map(r => [r.name, r.edge, r.edgeText]), 0, room)];
    const names = analyses.map(a => Object.keys(a.bets || {}));
    const shared = [...new Set(names.flat())].filter(bet => names.filter(list => list.includes(bet)).length > 1);
    for (const bet of shared)
      parts.push(bars(`The edge of ${bet}, where the variants share it`, "% of the stake, against its backer",
                      analyses.filter(a => a.bets && a.bets[bet]).map(a => [a.name, pct(a.bets[bet].edge),
                                                                            percent(a.bets[bet].edge)]), 0, room));
    box.replaceChildren(...parts);
    chartedWidth = room;
  }

  let resizing = null;
  window.addEventListener("resize", () => {
    clearTimeout(resizing);
    resizing = setTimeout(() => {
      if (charted && document.getElementById("charts").clientWidth !== chartedWidth) charts(charted);
    }, 150);
  });

  // A horizontal bar for each [label, value, text], from `base` (drawn as a line), `room` pixels
  // wide (at most 640): one unit of the drawing is one pixel. Narrow, each label stands above
  // its bar rather than beside it.
  function bars(title, axis, items, base, room) {
    const width = Math.round(Math.max(260, Math.min(640, room || 640)));
    const narrow = width < 480;
    const row = narrow ? 40 : 26, left = narrow ? 4 : 150, right = 70, top = 8;
    const values = items.map(i => i[1]).concat([base]);
    let low = Math.min(...values), high = Math.max(...values);
    const pad = (high - low || 1) * 0.15;
    low = base === 50 ? Math.max(0, low - pad) : low - pad;
    high += pad;
    const x = v => left + (width - left - right) * (v - low) / (high - low);
    const height = top + row * items.length + 4;
    const chart = svg("svg", {viewBox: `0 0 ${width} ${height}`, width, height, class: "compare-chart", role: "img",
                              "aria-label": `${title}: ` + items.map(i => `${i[0]} ${i[2]}`).join(", ")});
    items.forEach(([label, value, text], k) => {
      const y = top + k * row, barTop = narrow ? y + 17 : y + 4, barHeight = narrow ? 15 : row - 8;
      chart.append(narrow ? svg("text", {x: left, y: y + 12, class: "label", text: label})
                          : svg("text", {x: left - 6, y: y + row / 2 + 4, class: "label", "text-anchor": "end", text: label}));
      const a = x(Math.min(base, value)), b = x(Math.max(base, value));
      chart.append(svg("rect", {x: a.toFixed(1), y: barTop, width: Math.max(1, b - a).toFixed(1), height: barHeight,
                                class: value > base ? "bar above" : "bar below"}));
      chart.append(svg("text", {x: (b + 4).toFixed(1), y: barTop + barHeight / 2 + 4, class: "value", text}));
    });
    chart.append(svg("line", {x1: x(base), x2: x(base), y1: top, y2: top + row * items.length, class: "base"}));
    return el("figure", {class: "chart"}, el("figcaption", {text: title}), chart, el("p", {class: "quiet axis", text: axis}));
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
