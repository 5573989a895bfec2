// What the pages share: the API, exact figures as text, dice, the throws chart, the header.
// Every text from a rule file or the API is put in the page with textContent, never as HTML.
"use strict";

const Hz = (() => {
  const SVG = "http://www.w3.org/2000/svg";

  class ApiError extends Error {
    constructor(status, body) {
      super(body && body.error ? body.error : `the server answered ${status}`);
      this.status = status;
      this.body = body || {};
    }
  }

  // GET without a body; POST/PUT with JSON and the header a cross-site form cannot send.
  // `signal` (an AbortController's): the request given up, the server stops its work.
  async function api(path, body, method, signal) {
    const init = {method: method || (body === undefined ? "GET" : "POST"), headers: {}, signal};
    if (body !== undefined) {
      init.headers["Content-Type"] = "application/json";
      init.headers["X-Hazard-DSL"] = "1";
      init.body = JSON.stringify(body);
    }
    const response = await fetch(path, init);
    const type = response.headers.get("Content-Type") || "";
    const data = type.includes("json") ? await response.json() : await response.text();
    if (!response.ok) throw new ApiError(response.status, typeof data === "object" ? data : {error: data});
    return data;
  }

  // el("p", {class: "x"}, "text", child…): strings become text nodes, never markup.
  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (key === "class") node.className = value;
      else if (key === "text") node.textContent = value;
      else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
      else node.setAttribute(key, value === true ? "" : String(value));
    }
    for (const child of children.flat()) {
      if (child === null || child === undefined || child === false) continue;
      node.append(typeof child === "string" || typeof child === "number" ? document.createTextNode(String(child)) : child);
    }
    return node;
  }

  function svg(tag, attrs, ...children) {
    const node = document.createElementNS(SVG, tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (key === "text") node.textContent = value;
      else node.setAttribute(key, String(value));
    }
    for (const child of children.flat()) if (child) node.append(child);
    return node;
  }

  // "1979/4032" → [1979n, 4032n]; "0" → [0n, 1n]
  function parts(text) {
    const [n, d] = String(text).split("/");
    return [BigInt(n), BigInt(d || "1")];
  }

  // the fraction rounded to hundredths of a percent, exactly (BigInt), as "49.08%"; an edge to
  // thousandths ("1.835%"), as the terminal, the tables and `analyse` print edges
  function percent(text, places = 2) {
    let [n, d] = parts(text);
    const negative = (n < 0n) !== (d < 0n) && n !== 0n;
    if (n < 0n) n = -n;
    if (d < 0n) d = -d;
    const scale = 10n ** BigInt(places);
    const units = (2n * n * 100n * scale + d) / (2n * d);
    const whole = units / scale, rest = String(units % scale).padStart(places, "0");
    return `${negative ? "−" : ""}${whole}.${rest}%`;
  }

  // "1979/4032 (49.08%)": the exact figure with its percentage
  function figure(text, places = 2) {
    if (text === null || text === undefined) return "—";
    return `${text} (${percent(text, places)})`;
  }

  // an edge: "37/2016 (1.835%)"
  const EDGE_PLACES = 3;
  const edgeFigure = text => figure(text, EDGE_PLACES);

  // a number of throws, "870713/166320" → "870713/166320 (≈ 5.24)"
  function expectation(text) {
    const [n, d] = parts(text);
    return d === 1n ? String(n) : `${text} (≈ ${(Number(n * 100n / d) / 100).toFixed(2)})`;
  }

  // the fraction as a number, to six decimals: for drawing, never for a figure shown
  function toNumber(text) {
    const [n, d] = parts(text);
    return Number(n * 1000000n / d) / 1000000;
  }

  // A die drawn with its pips (CSS grid, 3 × 3).
  const PIPS = {1: [4], 2: [0, 8], 3: [0, 4, 8], 4: [0, 2, 6, 8], 5: [0, 2, 4, 6, 8], 6: [0, 2, 3, 5, 6, 8]};
  // A face past six (dice of eight, twenty faces) is drawn as its number.
  function die(n, label) {
    if (!PIPS[n]) return el("span", {class: "die numbered", role: "img", "aria-label": label || `a ${n}`, text: String(n)});
    const node = el("span", {class: "die", role: "img", "aria-label": label || `a ${n}`});
    for (let i = 0; i < 9; i++) node.append(el("span", {class: PIPS[n].includes(i) ? "pip" : "blank"}));
    return node;
  }

  // a throw as the API writes it: "2-2" or "3-3-5" (faces) as dice, "11" (a total) as text
  function throwOf(text) {
    if (!/^\d{1,2}(-\d{1,2}){1,4}$/.test(text)) return el("span", {class: "total", text});
    return el("span", {class: "pair", title: text}, ...text.split("-").map(f => die(+f)));
  }

  // Ticks for a scale from `low` to `high`: about `count` round steps (1, 2, 2.5 or 5 times a power
  // of ten), each as [value, its text]. `widen`: the ends moved out to the nearest tick, so that the
  // scale begins and ends on a labelled value.
  function ticks(low, high, count, unit, widen) {
    if (!(high > low)) { high = low + 1; }
    const raw = (high - low) / (count || 4), power = 10 ** Math.floor(Math.log10(raw));
    const step = [1, 2, 2.5, 5, 10].map(m => m * power).find(s => s >= raw * 0.999);
    const decimals = Math.max(0, -Math.floor(Math.log10(step) + 1e-9)) + (Math.round(step / power * 10) % 10 ? 1 : 0);
    if (widen) { low = Math.floor(low / step + 1e-9) * step; high = Math.ceil(high / step - 1e-9) * step; }
    const list = [];
    for (let k = Math.ceil(low / step - 1e-9); k * step <= high + step * 1e-9; k++) {
      const v = Number((k * step).toFixed(decimals + 2));
      list.push([v, `${v < 0 ? "\u2212" : ""}${Math.abs(v).toFixed(decimals)}${unit || ""}`]);
    }
    return {low, high, step, list};
  }

  // The throws per game as bars standing on 0, on a scale of the share of games (% ticks at the
  // left), the number of throws below: the exact distribution, "more" as the last bar. Its words
  // are in the drawing, 12 units high in a drawing 340 wide: about 11 px on a phone, larger on a
  // wide page.
  function throwsChart(throws, title) {
    const entries = Object.entries(throws.distribution || {}).map(([n, p]) => [Number(n), toNumber(p) * 100, p]);
    if (throws.beyond && throws.beyond !== "0") entries.push([null, toNumber(throws.beyond) * 100, throws.beyond]);
    const width = 340, height = 194, left = 40, right = 6, top = 26, bottom = 40, gap = 1;
    const scale = ticks(0, Math.max(...entries.map(e => e[1]), 1e-6), 5, "%", true);
    const plot = height - top - bottom, y = v => top + plot * (1 - v / scale.high);
    const bar = entries.length ? (width - left - right - gap * entries.length) / entries.length : 1;
    const chart = svg("svg", {viewBox: `0 0 ${width} ${height}`, class: "throws", role: "img",
      "aria-label": title || `throws per game, % of games: median ${throws.median}, 99th percentile ${throws.percentile_99}`});
    chart.append(svg("text", {x: 2, y: 12, class: "unit", text: "% of games"}));
    for (const [v, text] of scale.list) {
      chart.append(svg("line", {x1: left - 4, x2: width - right, y1: y(v).toFixed(2), y2: y(v).toFixed(2),
                                class: v === 0 ? "base" : "grid"}),
                   svg("text", {x: left - 6, y: (y(v) + 4).toFixed(2), class: "tick-y", "data-value": v, text}));
    }
    entries.forEach(([n, p, exact], i) => {
      const h = y(0) - y(p), x = left + gap + i * (bar + gap);
      const rect = svg("rect", {x: x.toFixed(2), y: y(p).toFixed(2), width: bar.toFixed(2), height: h.toFixed(2),
                                class: n === null ? "beyond" : "bar", "data-value": p});
      rect.append(svg("title", {text: `${n === null ? "more" : n} throws: ${figure(exact)}`}));
      chart.append(rect);
      if (n === null || i === 0 || n % 5 === 0)
        chart.append(n === null ? svg("text", {x: width - 1, y: y(0) + 15, class: "tick more", text: "more"})
                                : svg("text", {x: (x + bar / 2).toFixed(2), y: y(0) + 15, class: "tick", text: String(n)}));
    });
    chart.append(svg("text", {x: left + (width - left - right) / 2, y: height - 5, class: "unit-x",
                              text: "throws in the game"}));
    return chart;
  }

  function rulesetQuery(options) {
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries(options || {})) q.set(k, v);
    const s = q.toString();
    return s ? `?${s}` : "";
  }

  // The figures of an analysis as a <dl>.
  function figures(list, analysis) {
    list.replaceChildren();
    const rows = [["The caster wins", "win", figure(analysis.win)], ["loses", "lose", figure(analysis.lose)]];
    if (analysis.push !== "0") rows.push(["neither (push)", "push", figure(analysis.push)]);
    rows.push(["Edge against the caster", "edge", edgeFigure(analysis.edge)],
              ["Throws per game, expected", "throws", expectation(analysis.expected_throws)],
              ["median, 99th percentile", "percentiles", `${analysis.throws.median}, ${analysis.throws.percentile_99}`]);
    for (const [term, key, value] of rows)
      list.append(el("div", {class: `figure figure-${key}`}, el("dt", {text: term}), el("dd", {id: `figure-${key}`, text: value})));
  }

  // The machine drawn here from `graph --format json`, where the server has no Graphviz: the
  // states in rows by how many steps they are from the start, ends coloured by result, each
  // arrow's throws and chance in its tooltip.
  function machineSvg(machine) {
    const nodes = new Map(machine.nodes.map(n => [n.id, n]));
    const depth = new Map(), rows = [];
    const first = machine.edges.find(e => e.kind === "start");
    const queue = first ? [[first.target, 0]] : [];
    while (queue.length) {
      const [id, d] = queue.shift();
      if (depth.has(id) || !nodes.has(id)) continue;
      depth.set(id, d);
      (rows[d] = rows[d] || []).push(id);
      for (const e of machine.edges) if (e.source === id) queue.push([e.target, d + 1]);
    }
    for (const n of machine.nodes) if (!depth.has(n.id)) { depth.set(n.id, rows.length); rows.push([n.id]); }
    const W = 150, H = 44, GX = 30, GY = 60;
    const width = Math.max(...rows.map(r => r.length)) * (W + GX) + GX, height = rows.length * (H + GY) + GY;
    const at = new Map();
    rows.forEach((row, d) => row.forEach((id, i) => {
      const offset = (width - row.length * (W + GX) + GX) / 2;
      at.set(id, {x: offset + i * (W + GX), y: GY / 2 + d * (H + GY)});
    }));
    const chart = svg("svg", {viewBox: `0 0 ${width} ${height}`, width, height, class: "machine-drawn", role: "img",
      "aria-label": `the machine of ${machine.ruleset}: ${machine.nodes.length} states`});
    chart.append(svg("defs", {}, svg("marker", {id: "arrow", viewBox: "0 0 10 10", refX: 10, refY: 5, markerWidth: 7,
      markerHeight: 7, orient: "auto-start-reverse"}, svg("path", {d: "M 0 0 L 10 5 L 0 10 z", class: "arrow-head"}))));
    for (const e of machine.edges) {
      const a = at.get(e.source), b = at.get(e.target);
      if (!a || !b) continue;
      const tip = `${e.throws || e.kind}${e.does ? " — " + e.does : ""}${e.chance ? ", " + (e.chance.low === e.chance.high ? e.chance.low : e.chance.low + "–" + e.chance.high) : ""}`;
      const line = e.source === e.target
        ? svg("path", {d: `M ${a.x + W} ${a.y + 12} c 30 -20, 30 40, 0 20`, class: "edge", "marker-end": "url(#arrow)"})
        : svg("line", {x1: a.x + W / 2, y1: a.y + H, x2: b.x + W / 2, y2: b.y, class: "edge", "marker-end": "url(#arrow)"});
      line.append(svg("title", {text: tip}));
      chart.append(line);
    }
    for (const [id, p] of at) {
      const n = nodes.get(id);
      const group = svg("g", {class: `state ${n.result || n.kind}`});
      group.append(svg("rect", {x: p.x, y: p.y, width: W, height: H, rx: 8}),
        svg("text", {x: p.x + W / 2, y: p.y + 18, class: "name", text: n.label || n.name}),
        svg("text", {x: p.x + W / 2, y: p.y + 35, class: "phase", text: n.result ? n.result : n.phase}),
        svg("title", {text: `${n.phase}: ${n.label || n.name}${n.says ? " — " + n.says : ""}`}));
      chart.append(group);
    }
    return chart;
  }

  // The machine drawn: the server's SVG (Graphviz) as an image; without Graphviz, drawn here.
  function drawing(box, url, fallback) {
    box.replaceChildren();
    const img = el("img", {src: url, alt: "The compiled machine: phases, throws and where they lead", class: "machine"});
    img.addEventListener("error", async () => {
      try {
        const machine = await fallback();
        box.replaceChildren(el("p", {class: "quiet", text: "Graphviz is not installed on the server: a plainer drawing."}),
                            machineSvg(machine));
      } catch (e) {
        box.replaceChildren(el("p", {class: "quiet", text: `The machine cannot be drawn: ${e.message}`}));
      }
    });
    box.append(el("a", {href: url, target: "_blank", rel: "noopener", class: "drawing-link"}, img));
  }

  function header() {
    const here = document.body.dataset.page;
    const link = (href, page, text) => el("a", {href, "aria-current": here === page ? "page" : null}, text);
    const mark = el("a", {href: "/", class: "mark", "aria-label": "Hazard, the library"},
                    die(6, "six"), die(5, "five"), el("span", {class: "word", text: "Hazard"}));
    document.querySelector("header.site").replaceChildren(mark,
      el("nav", {"aria-label": "Pages"}, link("/", "library", "Library"), link("/compare", "compare", "Compare"),
         link("/workbench", "workbench", "Workbench")));
  }

  function status(text, kind) {
    const node = document.getElementById("status");
    if (!node) return;
    node.textContent = text || "";
    node.className = `status ${kind || ""}`;
  }

  document.addEventListener("DOMContentLoaded", header);
  return {api, ApiError, el, svg, figure, edgeFigure, EDGE_PLACES, percent, toNumber, expectation, die, throwOf, throwsChart, ticks, figures, drawing, machineSvg,
          rulesetQuery, status};
})();
