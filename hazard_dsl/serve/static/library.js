// The library: every ruleset, its description and sources, the exact figures with each option as
// a control, the bets, the throws charted, the machine drawn and the rule sheet.
"use strict";

(() => {
  const {api, el, figure, edgeFigure, figures, throwsChart, drawing, rulesetQuery, status} = Hz;
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
    } catch (e) {
      if (mine === asked) status(`The figures cannot be worked out: ${e.message}`, "error");
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
