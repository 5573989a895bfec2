// Compare: pick variants and their options; the figures side by side (stacked on a phone), each
// variant's throws charted, and the throws on which the rules differ.
"use strict";

(() => {
  const {api, el, svg, figures, percent, EDGE_PLACES, toNumber, ticks, throwsChart, throwOf, status} = Hz;
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
      // each bet as players call it (show --json's `called`), for the charts' titles
      const shown = await Promise.all(variants.map(v => showOf(v.ruleset).catch(() => null)));
      result.rulesets.forEach((a, i) => {
        for (const [bet, f] of Object.entries(a.bets || {})) f.called = shown[i]?.bets?.[bet]?.called;
      });
      charts(result.rulesets);
      differences(result.differences);
      status("");
    } catch (e) {
      status(`The comparison cannot be made: ${e.message}`, "error");
    }
  }

  // The charts of `compare --plot` (render.plot.compare_chart), drawn here: each variant's
  // chance of winning as a dot on a scale of % (the chances lie close together near 50%, where a
  // bar's length would measure only the distance from wherever the scale began), its edge and the
  // edges of the bets they share as bars from 0. Each figure's place is worked from its exact
  // fraction (the text shown writes a minus as "−"). Drawn to the width of the page, so that
  // their words are as large as the page's on a phone; drawn again when that width changes.
  let charted = null, chartedWidth = 0;
  function charts(analyses) {
    charted = analyses;
    const box = document.getElementById("charts");
    document.getElementById("charts-section").hidden = false;
    const room = box.clientWidth;
    const pct = text => toNumber(text) * 100;
    const parts = [
      chart({title: "The caster's chance of winning a game", kind: "dots", reference: 50,
             unit: ["% of games the caster wins", "dashed line: 50%, an even game"],
             items: analyses.map(a => [a.name, pct(a.win), percent(a.win)])}, room),
      // Per stake laid, as every table prints it: where some games end before any stake (the
      // history sheet's no_main), the per-game figure `edge` would divide by stakes never laid.
      chart({title: "The edge against the caster, per stake laid", kind: "bars",
             unit: ["% of the stake laid, P(lose) − P(win), from 0", "left of 0: in the caster's favour"],
             items: analyses.map(a => {
               const edge = a.edge_per_stake_laid ?? a.edge;
               return [a.name, pct(edge), percent(edge, EDGE_PLACES)];
             })}, room)];
    const names = analyses.map(a => Object.keys(a.bets || {}));
    const shared = [...new Set(names.flat())].filter(bet => names.filter(list => list.includes(bet)).length > 1);
    for (const bet of shared)
      // the bet as players call it (its `called`, else its name's words), never its identifier
      parts.push(chart({title: `The edge of ${betWords(analyses, bet)}, where the variants share it`, kind: "bars",
                        unit: ["% of the stake, against its backer, from 0"],
                        items: analyses.filter(a => a.bets && a.bets[bet]).map(a => [a.name, pct(a.bets[bet].edge),
                                                                                      percent(a.bets[bet].edge, EDGE_PLACES)])}, room));
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

  // One row for each [label, value, text] over a scale of % with its ticks, the unit written
  // under it. "bars": each bar runs from 0 (a solid line, its tick "0%") to its value, rightwards
  // above 0 and leftwards below, so that its length is its value. "dots": a dot at each value on
  // a scale that need not start at 0, for figures close together; `reference` drawn as a dashed
  // line. The figure itself stands in a column at the right. `room` pixels wide (at most 640):
  // one unit of the drawing is one pixel. Narrow, each label stands above its row rather than
  // beside it.
  function chart({title, unit, kind, items, reference}, room) {
    const width = Math.round(Math.max(260, Math.min(640, room || 640)));
    const narrow = width < 480;
    const row = narrow ? 40 : 28, left = narrow ? 24 : 150, right = 74, top = 6;
    const values = items.map(i => i[1]);
    const anchor = kind === "bars" ? [0] : reference !== undefined ? [reference] : [];
    let low = Math.min(...values, ...anchor), high = Math.max(...values, ...anchor);
    if (kind === "dots") { const pad = (high - low || 1) * 0.1; low -= pad; high += pad; }
    const scale = ticks(low, high, narrow ? 4 : 6, "%", true);
    const x = v => left + (width - left - right) * (v - scale.low) / (scale.high - scale.low);
    const bottom = top + row * items.length + 4, height = bottom + 26 + 16 * unit.length;
    const drawn = svg("svg", {viewBox: `0 0 ${width} ${height}`, width, height, class: `compare-chart ${kind}`, role: "img",
                              "aria-label": `${title}: ` + items.map(i => `${i[0]} ${i[2]}`).join(", ")});
    for (const [v, text] of scale.list) {
      const at = x(v).toFixed(1);
      drawn.append(svg("line", {x1: at, x2: at, y1: top, y2: bottom + 4, class: "grid"}),
                   svg("text", {x: at, y: bottom + 17, class: "tick", "data-value": v, text}));
    }
    drawn.append(svg("line", {x1: left, x2: width - right, y1: bottom, y2: bottom, class: "axis"}));
    if (kind === "bars") drawn.append(svg("line", {x1: x(0).toFixed(1), x2: x(0).toFixed(1), y1: top, y2: bottom + 4, class: "base"}));
    if (kind === "dots" && reference !== undefined)
      drawn.append(svg("line", {x1: x(reference).toFixed(1), x2: x(reference).toFixed(1), y1: top, y2: bottom, class: "reference"}));
    items.forEach(([label, value, text], k) => {
      const y = top + k * row, middle = narrow ? y + 25 : y + row / 2, thick = narrow ? 14 : row - 10;
      drawn.append(narrow ? svg("text", {x: 4, y: y + 12, class: "label", text: label})
                          : svg("text", {x: left - 8, y: middle + 4, class: "label", "text-anchor": "end", text: label}));
      if (kind === "dots") {
        drawn.append(svg("line", {x1: left, x2: width - right, y1: middle, y2: middle, class: "guide"}),
                     svg("circle", {cx: x(value).toFixed(1), cy: middle, r: 6, class: "dot", "data-value": value}));
      } else {
        const a = x(Math.min(0, value)), b = x(Math.max(0, value));
        drawn.append(svg("rect", {x: a.toFixed(1), y: (middle - thick / 2).toFixed(1), width: Math.max(1, b - a).toFixed(1),
                                  height: thick, class: value > 0 ? "bar above" : "bar below", "data-value": value}));
      }
      drawn.append(svg("text", {x: width - 2, y: middle + 4, class: "value", "text-anchor": "end", text}));
    });
    unit.forEach((line, k) => drawn.append(svg("text", {x: narrow ? 4 : left, y: bottom + 36 + 16 * k, class: "unit", text: line})));
    return el("figure", {class: "chart"}, el("figcaption", {text: title}), drawn);
  }

  function betWords(analyses, bet) {
    const called = analyses.map(a => a.bets && a.bets[bet] && a.bets[bet].called).find(Boolean);
    return called || `the ${bet.replace(/_/g, " ")} bet`;
  }

  // a phase's identifier as words, as the rule sheet writes it (model.readable): chance_throw → "chance throw"
  const readable = name => name.replace(/_/g, " ").split(/\s+/).filter(Boolean).join(" ");

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
        el("td", {text: readable(r.phase), "data-phase": r.phase}), el("td", {}, ...r.throws.map(throwOf)), el("td", {text: r.when || ""}),
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
