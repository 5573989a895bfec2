// A shared table: the seat of this link (its token in the fragment, never sent in a Referer), the
// table live over a WebSocket that reconnects by itself and resumes after the last event seen,
// the legal actions the server lists for this seat as buttons. The page decides no rule: it
// shows what the table allows and sends back what the person chose. Text only via textContent.
// Money comes from the server exact ("5/2"); the page shows it readably ("2½") and posts it exact.
// Each action is posted with the table's version it was made against and a key of its own: a
// table that moved on meanwhile refuses it (409: the page catches up and says so), and an action
// posted again after a lost answer (the page retries it) is answered once more, never applied twice.
"use strict";

(() => {
  const {el, die, status} = Hz;
  const id = decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || "");
  const fromHash = new URLSearchParams(location.hash.slice(1)).get("token");
  const token = fromHash || new URLSearchParams(location.search).get("token") || "";
  const body = document.body;
  let last = 0;          // the number of the last event shown
  const events = [];     // every event told, in order (for the replay)
  let seat = null;       // this link's seat (null: an onlooker)
  let socket = null, retry = 0, timer = null, finished = false, sending = false;
  let refused = false;   // the server closed the socket with a refusal (4400–4499): no reconnecting
  let shown = null;      // what the page last drew (show), as text
  let version = -1;      // the log entries of the state last drawn: an older one is not drawn again

  // a new token in the address is another seat (or the onlookers'): the page starts again for it
  window.addEventListener("hashchange", () => {
    const now = new URLSearchParams(location.hash.slice(1)).get("token");
    if (now !== fromHash) location.reload();
  });

  function headers(json) {
    const h = {"Authorization": `Bearer ${token}`};
    if (json) { h["Content-Type"] = "application/json"; h["X-Hazard-DSL"] = "1"; }
    return h;
  }

  // a new key for each action: random, so that no two pages nor two visits share one
  function newKey() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    const bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    return Array.from(bytes, b => b.toString(16).padStart(2, "0")).join("");
  }

  async function request(path, action) {
    const init = {headers: headers(action !== undefined)};
    if (action !== undefined) { init.method = "POST"; init.body = JSON.stringify(action); }
    const response = await fetch(path, init);
    const data = await response.json().catch(() => ({}));
    if (!response.ok) throw new Hz.ApiError(response.status, data);
    return data;
  }

  // ------------------------------------------------------------------ money

  // "29/2" → [29n, 2n]; "-3" → [-3n, 1n]: the exact amounts the server writes
  function exact(text) {
    const m = /^(-?)(\d+)(?:\/(\d+))?$/.exec(String(text));
    if (!m) return null;
    const n = BigInt(m[2]), d = BigInt(m[3] || "1");
    return d === 0n ? null : [m[1] ? -n : n, d];
  }

  // [n, d] to hundredths, rounded half up: 43/7 → "6.14"
  function hundredths(n, d) {
    const cents = (n * 200n / d + 1n) / 2n;
    return `${cents / 100n}.${String(cents % 100n).padStart(2, "0")}`;
  }

  // money as the table's words write it (play.wagers.money: 12, 12.50, or 21/2 where no decimal is
  // exact), so that the purses read as the story does; it is also what an amount box shows, and
  // what the box takes back
  function boxed(text) {
    const f = exact(text);
    if (!f) return String(text);
    const sign = f[0] < 0n ? "-" : "", n = f[0] < 0n ? -f[0] : f[0], d = f[1];
    if (d === 1n) return `${sign}${n}`;
    if ((100n % d) === 0n) return `${sign}${hundredths(n, d)}`;  // exact in hundredths
    return `${sign}${n}/${d}`;
  }

  // money to read: "29/2" → "14.50"; where no decimal is exact, the fraction and about how much
  // ("43/7 (≈ 6.14)")
  function money(text) {
    const f = exact(text), shown = boxed(text);
    if (!f || f[1] === 1n || (100n % f[1]) === 0n) return shown;
    return `${shown} (≈ ${f[0] < 0n ? "-" : ""}${hundredths(f[0] < 0n ? -f[0] : f[0], f[1])})`;
  }

  const GLYPHS = {"½": "1/2", "⅓": "1/3", "⅔": "2/3", "¼": "1/4", "¾": "3/4", "⅕": "1/5", "⅖": "2/5", "⅗": "3/5",
                  "⅘": "4/5", "⅙": "1/6", "⅚": "5/6", "⅛": "1/8", "⅜": "3/8", "⅝": "5/8", "⅞": "7/8"};

  // what a person typed, as the server reads amounts: "2½", "2 1/2" and "2,5" (a decimal comma, as
  // many phones' keypads type it) made exact; anything else is sent as typed, for the server to
  // accept or to say why not: an amount in the table's coin as the box shows it ("1s 6d", "£1",
  // "half a guinea") is read there (render.words.money_read), exactly
  function typed(text) {
    let t = text.trim();
    const glyph = /^(\d*)\s*([½⅓⅔¼¾⅕⅖⅗⅘⅙⅚⅛⅜⅝⅞])$/.exec(t);
    const mixed = /^(\d+)\s+(\d+)\/(\d+)$/.exec(t);
    if (glyph || mixed) {
      const [whole, n, d] = glyph ? [glyph[1] || "0", ...GLYPHS[glyph[2]].split("/")] : mixed.slice(1);
      if (BigInt(d) === 0n) return t;
      return `${BigInt(whole) * BigInt(d) + BigInt(n)}/${d}`;
    }
    if (/^-?\d+,\d+$/.test(t)) t = t.replace(",", ".");
    return t;
  }

  // ------------------------------------------------------------------ telling

  function diceOf(e) {
    if (e.event === "throw") return e.dice;
    if (e.event === "lot") return [e.face];
    if (e.event === "cast") return e.cast === "die" ? [e.face] : e.dice;  // "dice": every die, those kept too
    return null;
  }

  function drawDice(dice) {
    return el("span", {class: "pair"}, ...dice.map(d => d === null ? el("span", {class: "total", text: "off"}) : die(d)));
  }

  function storyItem(t) {
    const dice = diceOf(t.event);
    const text = (t.text || "").replace(/^\s+/gm, "").trim();
    if (!text && !dice) return null;
    const li = el("li", {"data-n": t.n, "data-event": t.event.event});
    if (dice) li.append(drawDice(dice), " ");
    li.append(text);
    if (t.chance) li.append(el("span", {class: "odds", text: t.chance.text}));
    return li;
  }

  function tell(t) {
    if (t.n <= last) return true;         // seen already (a reconnect, or the POST's answer)
    if (t.n !== last + 1) return false;   // a gap: catch up from the server
    last = t.n;
    body.dataset.last = String(last);
    events.push(t);
    const li = storyItem(t);
    if (li) document.getElementById("story").append(li);
    const dice = diceOf(t.event);
    if (dice) {
      document.getElementById("dice").replaceChildren(...dice.map(d => d === null ? el("span", {text: "off"}) :
        die(d, `a ${d}`)));
      document.getElementById("chance").textContent = t.chance ? t.chance.text : "";
    }
    if (t.event.event === "end") finished = true;
    return true;
  }

  // ------------------------------------------------------------------ where it stands

  // "done" only closes the bets: the table then asks the caster to throw, a question of its own
  const WORDS = {cover: "Cover", refuse: "Refuse", keep: "Keep the dice", pass: "Pass the dice", accept: "Accept",
                 decline: "Decline", throw: "Throw the dice", done: "No more bets"};

  function label(a, q) {
    if (a.action === "choose") return `${q.variable === "recast" ? "Recast" : "Call"} ${a.value}`;
    // what is taken, for how much in the table's coin, and what the taker puts up (as `play` says it)
    const up = q.puts_up_told ? `; you put up ${q.puts_up_told}` : "";
    const amount = q.amount_told || money(q.amount);
    if (a.action === "cover" && q.bet) return `Take ${q.setter}'s bet (${betWords(q)}) for ${amount}${up}`;
    if (a.action === "cover") return `Cover ${q.setter}'s stake of ${amount}${up}`;
    if (a.action === "accept") return `Take ${q.maker}'s bet (${betWords(q)}) for ${amount}${up}`;
    return WORDS[a.action] || a.action;
  }

  function betWords(q) {
    return q.bet_words || q.bet.replace(/_/g, " ");
  }

  // a stake or bet put to the seat asked, as the terminal puts it: "Ann lays the odds on the chance
  // for 2s against you (a win pays the backer 2 to 1; you put up 1s)"
  function put(q) {
    const amount = q.amount_told || money(q.amount);
    const up = q.puts_up_told ? `you put up ${q.puts_up_told}` : "";
    if (!q.bet) return `${q.setter} sets a stake of ${amount} against you${up ? ` (${up})` : ""}`;
    const said = [q.pays ? `a win pays the backer ${q.pays}` : "", up].filter(Boolean).join("; ");
    return `${q.maker || q.setter} ${q.side === "layer" ? "lays" : "backs"} ${betWords(q)} for ${amount} against you` +
      (said ? ` (${said})` : "");
  }

  let boxes = 0;  // ids for the amount boxes and what describes them

  function amountControl(a) {
    const n = ++boxes;
    // the amount and its bounds in the table's coin ("1s", "£1"), which the server reads back
    const told = a.told || {amount: boxed(a.amount), min: money(a.min), max: money(a.max)};
    const shown = told.amount;
    const bet = a.action === "bet" ? a.bet.replace(/_/g, " ") : null;
    const name = bet ? `${a.words || bet} (pays ${a.pays}, against ${a.against_words || a.against})` : "stake";
    // a text box, not type=number: a number box shows nothing for "5/2" and takes no fraction
    const input = el("input", {type: "text", inputmode: "decimal", autocomplete: "off", spellcheck: "false",
                               id: `amount-${n}`, value: shown, "data-amount-for": a.action,
                               "data-least": a.min, "data-most": a.max, "aria-describedby": a.edge ? `edge-${n}` : null});
    const lays = a.side === "layer";  // a side bet offered to lay: he takes the other side
    const button = el("button", {type: "button", class: "primary", "data-action": a.action, "data-bet": a.bet || null,
                                 "data-side": a.side || null, text: bet ? `${lays ? "Lay" : "Back"} ${a.words || bet}` : "Stake"});
    button.addEventListener("click", () => {
      // the default untouched is posted exactly as the server gave it
      const amount = input.value.trim() === shown ? a.amount : typed(input.value);
      act(Object.assign({}, a, {amount}));
    });
    const bounds = `${told.min} to ${told.max}`;
    return el("div", {class: "amount"},
      el("label", {for: `amount-${n}`}, bet ? `${lays ? "Lay" : "Bet"} ${name}, ${bounds}:` : `Your stake, ${bounds}:`),
      // the edge the server priced from where the table stands, as `play` shows it
      a.edge ? el("span", {class: "edge", id: `edge-${n}`, "data-edge": a.edge,
                           text: `edge from here ${a.edge_percent} (${a.edge}) against the backer`}) : null,
      input, button);
  }

  // each seat's wagers up: what, which side, against whom, what is at risk and the most a win pays
  function drawWagers(wagers, caster) {
    const box = document.getElementById("wagers");
    const rows = [];
    // this seat's own first: what a player looks for is what he has up
    const seats = Object.entries(wagers || {}).sort(([a], [b]) => (b === seat) - (a === seat));
    for (const [name, list] of seats) {
      for (const w of list) {
        const side = w.side === "backs" ? "backs" : "lays";
        const you = name === seat;
        const verb = side === "backs" ? (you ? "back" : "backs") : (you ? "lay" : "lays");
        // the server's sentence, in the game's coinage; the page's own words where it has none
        const text = w.said ? (you ? w.said_you || w.said : w.said)
          : `${you ? "You" : name} ${verb} ${w.words} against ${w.against}: ${money(w.at_risk)} at risk, ` +
            `a win pays ${money(w.wins)}`;
        rows.push(el("li", {"data-player": name, "data-bet": w.bet || "", "data-side": side, "data-against": w.against,
                            "data-at-risk": w.at_risk, "data-wins": w.wins, class: name === caster ? "caster" : null, text}));
      }
    }
    box.replaceChildren(...rows);
    document.getElementById("wagers-none").hidden = rows.length > 0;
  }

  function show(state) {
    // the same table told again (a reconnection, a POST's answer and the socket's state): nothing
    // is drawn again, so an amount being typed is not wiped out under the person's fingers
    // an older state told after a newer one (the answer to this page's action and the socket's
    // state of another's come by two ways, in either order) would put the page back: not drawn
    if (state.version < version) return;
    version = state.version;  // the next action is made against this one, drawn again or not
    const now = JSON.stringify([state.last, state.waiting, state.purses, state.wagers, state.finished]);
    if (now === shown) return;
    shown = now;
    finished = state.finished;
    // the table moved on: an error said about an earlier moment is no longer true
    if (body.dataset.connected !== "no" && !refused) status("");
    body.dataset.finished = state.finished ? "yes" : "no";
    const purses = document.getElementById("purses");
    const w = state.waiting;
    const caster = w && w.question ? w.question.caster : null;
    purses.replaceChildren(...Object.entries(state.purses).map(([name, amount]) =>
      el("div", {class: name === caster ? "caster" : null, "data-player": name},
         el("dt", {text: name === seat ? `${name} (you)` : name}),
         el("dd", {text: (state.purses_told || {})[name] || money(amount), "data-exact": amount}))));
    drawWagers(state.wagers, caster);
    const turn = document.getElementById("turn"), box = document.getElementById("actions");
    box.replaceChildren();
    if (!w) {
      turn.textContent = "The session is over.";
      document.getElementById("replay").hidden = false;
      return;
    }
    const doing = {stake: "stake", cover: "cover or refuse", keep: "keep or pass the dice", choose: "choose",
                   throw: "throw", bet: "bet, or say no more bets", accept: "accept or decline a bet"}[w.ask] || w.ask;
    const mine = w.actions.length > 0;
    const asked = (w.ask === "cover" || w.ask === "accept") && w.question.amount !== undefined;
    turn.textContent = mine ? (w.who === seat ? (asked ? `Your turn, ${seat}: ${put(w.question)}.` : `Your turn, ${seat}: ${doing}.`)
                                              : `${seat}, you may bet before ${w.who} throws.`)
                            : w.ask === "bet" ? `Bets before ${w.who} throws.` : `${w.who || "The table"} to ${doing}.`;
    body.dataset.waiting = w.who || "";
    body.dataset.ask = w.ask;
    // a bet this seat already has up is not offered again: why its buttons are gone
    for (const why of w.held_back || []) box.append(el("p", {class: "held-back", text: why}));
    for (const a of w.actions) {
      if (a.min !== undefined) box.append(amountControl(a));
      else {
        const button = el("button", {type: "button", class: "primary", "data-action": a.action,
                                     "data-value": a.value === undefined ? null : String(a.value), text: label(a, w.question)});
        button.addEventListener("click", () => act(a));
        box.append(button);
      }
    }
  }

  const sleep = ms => new Promise(resolve => setTimeout(resolve, ms));

  async function act(action) {
    if (sending) return;
    sending = true;
    for (const b of document.querySelectorAll("#actions button")) b.disabled = true;
    // made against the version drawn, with a key of its own: the same key on every retry
    const sent = Object.assign({}, action, {version, key: newKey()});
    delete sent.min; delete sent.max;
    try {
      let answer = null;
      for (let attempt = 0; ; attempt++) {
        try {
          answer = await request(`/api/tables/${encodeURIComponent(id)}/actions`, sent);
          break;
        } catch (e) {
          // no answer (the connection dropped, the server restarting): the same action, same key,
          // asked again — applied at most once whatever happened to the first
          if (e instanceof Hz.ApiError || attempt >= 4) throw e;
          status("The server did not answer; asking again…");
          await sleep(500 * 2 ** attempt);
        }
      }
      let whole = true;
      for (const t of answer.events) whole = tell(t) && whole;
      if (!whole || answer.repeated) await catchUp();
      else show(answer);
      if (body.dataset.connected === "yes") status("");  // not over "reconnecting…"
    } catch (e) {
      if (e instanceof Hz.ApiError && e.status === 409 && e.body.version !== undefined) {
        // the table moved on since this was drawn: what stands now, and why nothing was done
        await catchUp().catch(() => {});
        status("The table moved on before your action arrived; nothing was done. Here is where it stands now.", "error");
      } else {
        status(e instanceof Hz.ApiError ? e.message : "The server cannot be reached; the page reconnects by itself.", "error");
      }
    } finally {
      sending = false;
      if (!refused) for (const b of document.querySelectorAll("#actions button")) b.disabled = false;
    }
  }

  async function catchUp() {
    const now = await request(`/api/tables/${encodeURIComponent(id)}?after=${last}`);
    for (const t of now.events) tell(t);
    show(now);
  }

  // ------------------------------------------------------------------ live

  function connect() {
    clearTimeout(timer);
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const url = `${scheme}://${location.host}/api/tables/${encodeURIComponent(id)}/ws?token=${encodeURIComponent(token)}&after=${last}`;
    const ws = new WebSocket(url);
    socket = ws;
    ws.addEventListener("open", () => {
      retry = 0;
      body.dataset.connected = "yes";
      status("");
    });
    ws.addEventListener("message", message => {
      let data;
      try { data = JSON.parse(message.data); } catch (e) { return; }
      if (data.type === "event") {
        if (!tell(data)) { ws.close(); }   // a gap: reconnect after the last event seen
      } else if (data.type === "state") {
        if (data.last === last) show(data);
      } else if (data.type === "reply" && data.status !== 200) {
        status(data.error, "error");
      }
    });
    ws.addEventListener("close", event => {
      if (socket !== ws) return;
      body.dataset.connected = "no";
      // a refusal (4000 + the HTTP status: a token not of this table, the table closed, too many
      // pages of this link): asking again would be refused again, so the page stops and says why
      if (event.code >= 4400 && event.code < 4500) {
        refused = true;
        body.dataset.refused = String(event.code);
        for (const b of document.querySelectorAll("#actions button")) b.disabled = true;
        status(event.reason || "The table refused this page.", "error");
        return;
      }
      // back off: 0.25 s, 0.5 s, 1 s … up to 5 s, with a little jitter so pages do not come back in step
      const wait = Math.min(5000, 250 * 2 ** retry) * (0.8 + 0.4 * Math.random());
      retry = Math.min(retry + 1, 8);
      if (!finished) status("The connection to the table was lost; reconnecting…");
      timer = setTimeout(connect, wait);
    });
  }

  function replay() {
    const story = document.getElementById("story");
    story.replaceChildren();
    const items = events.map(storyItem).filter(Boolean);
    let i = 0;
    const step = () => {
      if (i >= items.length) return;
      story.append(items[i++]);
      setTimeout(step, 120);
    };
    step();
  }

  // The log is fetched with the token in the Authorization header (never in an address, which
  // stays in the history and the server's logs) and offered as a file.
  async function downloadLog() {
    try {
      const response = await fetch(`/api/tables/${encodeURIComponent(id)}/log`, {headers: headers(false)});
      if (!response.ok) throw new Hz.ApiError(response.status, await response.json().catch(() => ({})));
      const url = URL.createObjectURL(new Blob([await response.text()], {type: "application/x-ndjson"}));
      const a = el("a", {href: url, download: `table-${id}.jsonl`, hidden: true});
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 60000);
    } catch (e) {
      status(`The log cannot be had: ${e instanceof Hz.ApiError ? e.message : "the server cannot be reached"}`, "error");
    }
  }

  async function start() {
    document.getElementById("replay").addEventListener("click", replay);
    if (!id || !token) {
      status("This page is opened by a table's link (…/tables/ID#token=…).", "error");
      return;
    }
    let first;
    try {
      first = await request(`/api/tables/${encodeURIComponent(id)}`);
    } catch (e) {
      if (e instanceof Hz.ApiError) {
        // a table closed (its rules cannot be rebuilt, or it was closed): the page says why
        if (e.status === 409 || e.status === 410) {
          body.dataset.closed = String(e.status);
          // its purses and story are told by its rules, which the server no longer plays: its log
          // (every action and event, as `hazard-dsl replay` reads it) is what is kept
          document.getElementById("turn").textContent = "This table is closed. Its purses and story are not shown " +
            "here; its log is kept: download it below.";
          const log = document.getElementById("log");
          log.addEventListener("click", downloadLog);
          log.hidden = false;
        }
        status(e.message, "error");
        return;
      }
      status("The server cannot be reached; trying again…", "error");
      timer = setTimeout(start, 1000);
      return;
    }
    seat = first.seat;
    const opening = first.events.length ? first.events[0].event : null;
    document.getElementById("title").textContent = opening && opening.event === "session" ? opening.ruleset : first.ruleset;
    document.getElementById("seat").textContent = seat ? `Your seat: ${seat}` : "You are watching: this link acts for nobody.";
    body.dataset.seat = seat || "";
    const log = document.getElementById("log");
    log.addEventListener("click", downloadLog);
    log.hidden = false;
    for (const t of first.events) tell(t);
    show(first);
    connect();
  }

  start();
})();
