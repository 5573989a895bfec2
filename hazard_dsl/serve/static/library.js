// The library: every ruleset, its description and sources, the exact figures with each option as
// a control, the bets, the throws charted, the risk charted (a session's net, a hand's tail, the
// best stake by purse: POST /api/charts, drawn here as SVG), the machine drawn and the rule sheet.
"use strict";

(() => {
  const {api, el, svg, figure, edgeFigure, figures, throwsChart, ticks, drawing, rulesetQuery, status} = Hz;
  const params = new URLSearchParams(location.search);
  let current = params.get("ruleset") || "cotton";
  let shown = null;  // show --json of the current ruleset
  const chosen = {};  // option name → value, as the controls say
  for (const [k, v] of params) if (k !== "ruleset") chosen[k] = v;
  let asked = 0;  // the latest request wins: an older answer arriving late is dropped

  async function list() {
    const {builtins, files} = await api("/api/rulesets");
    const ul = document.getElementById("ruleset-list");
    const item = (name, text, year) => el("li", {}, el("a", {href: `/?ruleset=${encodeURIComponent(name)}`,
      "aria-current": name === current ? "page" : null}, text, year ? el("span", {class: "year", text: ` ${year}`}) : null));
    ul.replaceChildren(...builtins.map(r => item(r.name, r.title || r.name, r.year)),
                       ...files.map(f => item(f.name, f.name, null)));
  }

  function options() {
    const form = document.getElementById("options");
    form.replaceChildren();
    const names = Object.keys(shown.options || {});
    document.getElementById("options-section").hidden = !names.length;
    for (const name of names) {
      const option = shown.options[name];
      if (!(name in chosen)) chosen[name] = option.default;
      const select = el("select", {id: `option-${name}`, name});
      for (const [value, meaning] of Object.entries(option.values)) {
        select.append(el("option", {value, selected: value === chosen[name]}, `${value}${meaning ? " — " + meaning : ""}`));
      }
      select.addEventListener("change", () => { chosen[name] = select.value; refresh(); });
      form.append(el("div", {class: "option"},
        el("label", {for: `option-${name}`}, el("code", {text: name}), option.description ? ` — ${option.description}` : ""),
        select, el("p", {class: "by-option", id: `by-option-${name}`})));
    }
  }

  function describe() {
    document.getElementById("title").textContent = shown.name;
    document.getElementById("description").textContent = shown.description || "";
    const sources = document.getElementById("sources");
    sources.replaceChildren(...(shown.sources || []).map(s => {
      const words = [s.title, s.author, s.year, s.page ? `p. ${s.page}` : null].filter(Boolean).join(", ");
      const li = el("li", {}, el("cite", {text: words}), s.note ? ` — ${s.note}` : "");
      if (s.url && /^https?:\/\//i.test(s.url)) li.append(" ", el("a", {href: s.url, rel: "noopener noreferrer", target: "_blank", text: "(link)"}));
      return li;
    }));
    document.getElementById("notes").replaceChildren(...(shown.notes || []).map(n => el("li", {text: n})));
  }

  function bets(analysis) {
    const body = document.querySelector("#bets tbody");
    const names = Object.keys(shown.bets || {});
    document.getElementById("bets-section").hidden = !names.length;
    body.replaceChildren(...names.map(name => {
      const bet = shown.bets[name], figures = (analysis.bets || {})[name];
      const spread = (analysis.spread || {})[name];  // analyse --json's spread of the bet, per unit
      return el("tr", {},
        el("th", {scope: "row"}, el("code", {text: name}), bet.description ? el("div", {class: "quiet", text: bet.description}) : null),
        el("td", {text: `${bet.backer || ""}${bet.layer ? " against " + bet.layer : ""}`}),
        el("td", {class: "pays", text: bet.pays_in_words || bet.pays || ""}),
        el("td", {class: "num", text: figures ? edgeFigure(figures.edge) : "—"}),
        el("td", {class: "num", text: spread ? sdText(spread) : "—"}),
        el("td", {class: "num", text: spread ? figure(spread.hit) : "—"}));
    }));
  }

  // the SD per unit bet, exact (times·√root_of, as analyse prints it) and to four decimals
  function sdText(spread) {
    const {times, root_of: root} = spread.sd;
    const [top, bottom] = times.split("/");
    const exact = root === "1" ? times : `${top === "1" ? "" : top + "·"}√${root}${bottom ? "/" + bottom : ""}`;
    return `${exact} ≈ ${spread.sd_decimal.toFixed(4)}`;
  }

  // each value of each option the game reads: the caster's chance under it, the others held
  function byOption(analysis) {
    for (const name of Object.keys(shown.options || {})) {
      const p = document.getElementById(`by-option-${name}`);
      const values = (analysis.game_by_option || {})[name];
      p.textContent = values ? Object.entries(values).map(([v, f]) => `${v}: ${figure(f.win)}`).join(" · ") : "";
    }
  }

  async function refresh() {
    const mine = ++asked;
    const query = rulesetQuery(chosen);
    history.replaceState(null, "", `/?ruleset=${encodeURIComponent(current)}${query ? "&" + query.slice(1) : ""}`);
    status("Working out the figures…");
    const base = `/api/graph/${encodeURIComponent(current)}`;
    drawing(document.getElementById("drawing"), `${base}.svg${query}`, () => api(`${base}.json${query}`));
    const sheet = `/api/rules/${encodeURIComponent(current)}${query}`;
    document.getElementById("sheet").src = sheet;
    document.getElementById("sheet-link").href = sheet;
    try {
      const analysis = await api("/api/analyse", {ruleset: current, options: chosen});
      if (mine !== asked) return;
      figures(document.getElementById("figures"), analysis);
      const chart = document.getElementById("throws-chart");
      chart.replaceChildren(throwsChart(analysis.throws));
      bets(analysis);
      byOption(analysis);
      status("");
      riskCharts();
    } catch (e) {
      if (mine === asked) status(`The figures cannot be worked out: ${e.message}`, "error");
    }
  }

  // ---- the risk charts: each drawn 340 units wide (as the throws), scaled to the column, so
  // that a phone of 375 px shows the whole chart and its words at about 11 px

  const W = 340, H = 200;
  const fixed = (v) => v.toFixed(2);

  function frame(label) {
    return svg("svg", {viewBox: `0 0 ${W} ${H}`, class: "risk", role: "img", "aria-label": label});
  }

  // the scale at the left, its gridlines across; the line at `base` (default 0) drawn as the floor
  function yAxis(chart, scale, y, left, right, unit, base = 0) {
    for (const [v, text] of scale.list) {
      chart.append(svg("line", {x1: left - 4, x2: W - right, y1: fixed(y(v)), y2: fixed(y(v)), class: v === base ? "base" : "grid"}),
                   svg("text", {x: left - 6, y: fixed(y(v) + 4), class: "tick-y", text}));
    }
    chart.append(svg("text", {x: 2, y: 12, class: "unit", text: unit}));
  }

  // the net at the end of a session: a bar at each net, ahead / even / behind told apart, the
  // mean a dashed line
  function sessionChart(s, units) {
    const pts = s.points.map(([v, p]) => [v, p * 100]);
    const left = 40, right = 8, top = 22, bottom = 38, plot = H - top - bottom;
    const lo = Math.min(...pts.map(p => p[0]), 0), hi = Math.max(...pts.map(p => p[0]), 0);
    const scale = ticks(0, Math.max(...pts.map(p => p[1]), 1e-6), 4, "%", true);
    const xs = ticks(lo, hi, 6, "", false);
    const span = Math.max(hi - lo, 1), x = v => left + 4 + (W - left - right - 8) * (v - lo) / span;
    const y = v => top + plot * (1 - v / scale.high);
    const step = Math.min(...pts.slice(1).map((p, i) => p[0] - pts[i][0]), span);
    const bar = Math.max(1, Math.min(14, (W - left - right - 8) * step / span - 1));
    const chart = frame(`net of a session in ${units}: ahead ${percent(s.ahead)}, even ${percent(s.even)}, ` +
                        `behind ${percent(s.behind)}, mean ${s.mean.toFixed(3)}`);
    yAxis(chart, scale, y, left, right, "% of sessions");
    for (const [v, p] of pts) {
      const rect = svg("rect", {x: fixed(x(v) - bar / 2), y: fixed(y(p)), width: fixed(bar), height: fixed(y(0) - y(p)),
                                class: v > 0 ? "ahead" : v < 0 ? "behind" : "even", "data-net": v, "data-value": p});
      rect.append(svg("title", {text: `net ${v}: ${p.toFixed(3)}% of sessions`}));
      chart.append(rect);
    }
    for (const [v, text] of xs.list) chart.append(svg("text", {x: fixed(x(v)), y: y(0) + 15, class: "tick", text}));
    chart.append(svg("line", {x1: fixed(x(s.mean)), x2: fixed(x(s.mean)), y1: top, y2: y(0), class: "mean"}));
    chart.append(svg("text", {x: left + (W - left - right) / 2, y: H - 4, class: "unit-x",
                              text: `net at the end (${units}); dashed: the mean`}));
    return chart;
  }

  function oneIn(power) {
    return power === 0 ? "1" : power <= 6 ? `1 in ${(10 ** power).toLocaleString("en")}` : `1 in 10^${power}`;
  }

  // P(a hand lasts n throws or more), on a scale of powers of ten (the chances fall fast)
  function tailChart(t) {
    const pts = t.logs.map((v, i) => [i + 1, v]).filter(p => p[1] !== null);
    const left = 86, right = 8, top = 22, bottom = 38, plot = H - top - bottom;
    const deepest = Math.min(-1, Math.floor(Math.min(...pts.map(p => p[1]))));
    const y = v => top + plot * (v / deepest), x = n => left + (W - left - right) * (n - 1) / Math.max(t.throws - 1, 1);
    const chart = frame(`P(a ${t.what} lasts n throws or more), n from 1 to ${t.throws}: ` +
                        `${t.one_in || percent(t.at_least)} for ${t.throws}`);
    const every = Math.max(1, Math.ceil(-deepest / 5));
    const list = [];
    for (let k = 0; k >= deepest; k -= every) list.push([k, oneIn(-k)]);
    yAxis(chart, {list}, y, left, right, `P(${t.what} ≥ n)`, null);  // the chances fall from 1: no floor
    chart.append(svg("line", {x1: left, x2: W - right, y1: fixed(y(deepest)), y2: fixed(y(deepest)), class: "base"}));
    chart.append(svg("polyline", {class: "line", points: pts.map(([n, v]) => `${fixed(x(n))},${fixed(y(v))}`).join(" ")}));
    for (const [v, text] of ticks(1, t.throws, 5, "", false).list)
      if (v >= 1) chart.append(svg("text", {x: fixed(x(v)), y: y(deepest) + 15, class: "tick", text}));
    chart.append(svg("text", {x: left + (W - left - right) / 2, y: H - 4, class: "unit-x", text: "n throws"}));
    return chart;
  }

  // the best stake at each purse (bars, left scale) and the chance to reach the goal from it
  // (line, right scale); dashed, staking 1 every game; the purse asked for marked
  function bestChart(b, units) {
    const left = 34, right = 38, top = 22, bottom = 38, plot = H - top - bottom;
    const most = Math.max(...b.stakes.map(p => p[1]), 1);
    const scale = ticks(0, most, 4, "", true);
    const y = v => top + plot * (1 - v / scale.high), yp = p => top + plot * (1 - p);
    const x = purse => left + (W - left - right) * (purse - 0.5) / (b.goal - 1);
    const bar = Math.max(1, (W - left - right) / (b.goal - 1) - 1);
    const chart = frame(`best stake by purse towards ${b.goal} ${units}: from ${b.bankroll}, ` +
                        `the goal is reached with chance ${percent(b.chance)}`);
    yAxis(chart, scale, y, left, right, `stake (${units})`);
    for (const [purse, stake] of b.stakes) {
      const rect = svg("rect", {x: fixed(x(purse) - bar / 2), y: fixed(y(stake)), width: fixed(bar),
                                height: fixed(y(0) - y(stake)), class: "stake", "data-purse": purse, "data-value": stake});
      rect.append(svg("title", {text: `purse ${purse}: stake ${stake}`}));
      chart.append(rect);
    }
    const line = (pts, cls) => svg("polyline", {class: cls, points: pts.map(([p, c]) => `${fixed(x(p))},${fixed(yp(c))}`).join(" ")});
    chart.append(line(b.flat, "flat"), line(b.chances, "line"));
    for (const p of [0, 0.5, 1]) chart.append(svg("text", {x: W - right + 4, y: fixed(yp(p) + 4), class: "tick-r", text: `${p * 100}%`}));
    chart.append(svg("line", {x1: fixed(x(b.bankroll)), x2: fixed(x(b.bankroll)), y1: top, y2: y(0), class: "here"}));
    for (const [v, text] of ticks(1, b.goal - 1, 5, "", false).list)
      if (v >= 1) chart.append(svg("text", {x: fixed(x(v)), y: y(0) + 15, class: "tick", text}));
    chart.append(svg("text", {x: left + (W - left - right) / 2, y: H - 4, class: "unit-x",
                              text: `purse (${units}); line: P(goal) %, dashed: staking 1`}));
    return chart;
  }

  function percent(p) { return `${(p * 100).toFixed(p < 0.001 ? 5 : 2)}%`; }

  function part(name, data, draw, said) {
    const box = document.getElementById(`${name}-chart`), caption = document.getElementById(`${name}-caption`);
    if (!data || data.error) {
      box.replaceChildren(el("p", {class: "quiet", text: data ? data.error : "not worked out"}));
      caption.textContent = said(null);
      return;
    }
    box.replaceChildren(draw(data));
    caption.textContent = said(data);
  }

  let charted = 0;  // as `asked`: the latest form wins
  async function riskCharts(event) {
    if (event) event.preventDefault();
    const mine = ++charted;
    const settings = {};
    for (const name of ["games", "stop_loss", "stop_win", "bankroll", "goal", "tail"]) {
      const value = document.getElementById(`risk-${name}`).value.trim();
      if (value) settings[name] = value;  // as typed: the server reads it, and says what is wrong
    }
    const line = document.getElementById("risk-status");
    line.textContent = "Working out the charts…";
    line.className = "status";
    try {
      const got = await api("/api/charts", {ruleset: current, options: chosen, settings});
      if (mine !== charted) return;
      const units = got.units;
      part("session", got.session, s => sessionChart(s, units), s => s === null ? "A session's net" :
        `A session's net over ${s.games} games${s.stop_loss ? `, stopping at a loss of ${s.stop_loss}` : ""}` +
        `${s.stop_win ? `, at a win of ${s.stop_win}` : ""}: ahead ${percent(s.ahead)}, even ${percent(s.even)}, ` +
        `behind ${percent(s.behind)}`);
      part("tail", got.tail, tailChart, t => t === null ? "How long a hand lasts" :
        `How long a ${t.what} lasts: ${t.throws} throws or more, ${t.one_in || percent(t.at_least)}` +
        `${t.rule ? ` (${t.rule})` : ""}`);
      part("best", got.best, b => bestChart(b, units), b => b === null ? "The best stake by purse" :
        `The best stake by purse towards ${b.goal} ${units}: from ${b.bankroll}, the goal with chance ` +
        `${b.exact} = ${percent(b.chance)}`);
      line.textContent = "";
    } catch (e) {
      if (mine === charted) { line.textContent = `The charts cannot be drawn: ${e.message}`; line.className = "status error"; }
    }
  }

  // a shared table of the ruleset shown, with the options chosen: its links, one a seat
  async function newTable(event) {
    event.preventDefault();
    const links = document.getElementById("table-links");
    const players = document.getElementById("table-players").value.split(",").map(p => p.trim()).filter(Boolean);
    const field = name => document.getElementById(`table-${name}`).value.trim();
    const body = {ruleset: current, options: chosen, players, settings: {}};
    // amounts as text, exactly as typed ("2.50", "5/2"): the server reads them, and says what is wrong
    for (const name of ["purse", "stake"]) if (field(name)) body.settings[name] = field(name);
    // rounds a number where it is one; anything else as typed, for the server to refuse saying why
    if (field("rounds")) body.settings.rounds = /^\d{1,9}$/.test(field("rounds")) ? Number(field("rounds")) : field("rounds");
    // the seed as its digits in a string: a JavaScript number is exact only to 2**53, a seed to 2**64
    if (field("seed")) body.seed = field("seed");
    if (field("dice")) body.dice = field("dice");
    try {
      const made = await api("/api/tables", body);
      // each link with its QR code, so that a phone joins by scanning it rather than typing it
      const link = (text, url, token) => el("li", {}, `${text}: `,
        el("a", {href: url, target: "_blank", rel: "noopener", text: location.origin + url}),
        qrCode(made.id, token, `QR code of ${text}'s link`));
      links.replaceChildren(...Object.entries(made.seats).map(([name, seat]) => link(`${name}'s seat`, seat.url, seat.token)),
                            link("Onlookers", made.watch.url, made.watch.token));
      // a code carries the address this page was opened at: one that names this machine alone
      // reaches nothing from a phone
      const hint = document.getElementById("table-links-hint");
      hint.hidden = !/^(localhost|127\.|\[::1\]$)/.test(location.hostname);
      hint.textContent = `These links and codes carry ${location.host}, which only this machine reaches: for ` +
        "phones, start the server with --host and this machine's network address, and open this page at that address.";
      status("The table is open: give each player their own link, or let them scan its code.", "ok");
    } catch (e) {
      links.replaceChildren();
      document.getElementById("table-links-hint").hidden = true;
      status(`The table cannot be opened: ${e.message}`, "error");
    }
  }

  // A link's QR code, drawn by the server (GET /api/tables/ID/qr.svg) for the token in the
  // Authorization header (never in an address) and shown from a blob: (the pages' CSP allows it).
  function qrCode(id, token, label) {
    const img = el("img", {class: "qr", alt: label, width: 180, height: 180});
    fetch(`/api/tables/${encodeURIComponent(id)}/qr.svg`, {headers: {"Authorization": `Bearer ${token}`}})
      .then(r => r.ok ? r.blob() : Promise.reject(new Error(`the server answered ${r.status}`)))
      .then(blob => { img.src = URL.createObjectURL(blob); })
      .catch(e => img.replaceWith(el("span", {class: "quiet", text: ` (no QR code: ${e.message})`})));
    return el("div", {class: "qr-code"}, img);
  }

  async function start() {
    document.getElementById("new-table").addEventListener("submit", newTable);
    document.getElementById("risk-form").addEventListener("submit", riskCharts);
    try {
      await list();
      shown = await api(`/api/rulesets/${encodeURIComponent(current)}`);
    } catch (e) {
      status(`${current}: ${e.message}`, "error");
      return;
    }
    document.getElementById("ruleset").hidden = false;
    describe();
    options();
    await refresh();
  }

  start();
})();
