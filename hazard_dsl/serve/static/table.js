// A shared table: the seat of this link (its token in the fragment, never sent in a Referer), the
// table live over a WebSocket that reconnects by itself and resumes after the last event seen,
// the legal actions the server lists for this seat as buttons. The page decides no rule: it
// shows what the table allows and sends back what the person chose. Text only via textContent.
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

  function headers(json) {
    const h = {"Authorization": `Bearer ${token}`};
    if (json) { h["Content-Type"] = "application/json"; h["X-Hazard-DSL"] = "1"; }
    return h;
  }

  async function request(path, action) {
    const init = {headers: headers(action !== undefined)};
    if (action !== undefined) { init.method = "POST"; init.body = JSON.stringify(action); }
    const response = await fetch(path, init);
    const data = await response.json().catch(() => ({}));
    if (!response.ok) throw new Hz.ApiError(response.status, data);
    return data;
  }

  // ------------------------------------------------------------------ telling

  function diceOf(e) {
    if (e.event === "throw") return e.dice;
    if (e.event === "lot") return [e.face];
    if (e.event === "cast") return e.cast === "both" ? e.dice : [e.face];
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

  const WORDS = {cover: "Cover", refuse: "Refuse", keep: "Keep the dice", pass: "Pass the dice", accept: "Accept",
                 decline: "Decline", throw: "Throw the dice", done: "No more bets: throw"};

  function label(a, q) {
    if (a.action === "choose") return `${q.variable === "recast" ? "Recast" : "Call"} ${a.value}`;
    if (a.action === "cover" && q.bet) return `Take ${q.setter}'s ${q.bet.replace(/_/g, " ")}`;
    if (a.action === "cover") return `Cover ${q.setter}'s ${q.amount}`;
    if (a.action === "accept") return `Take ${q.maker}'s ${q.bet.replace(/_/g, " ")} for ${q.amount}`;
    return WORDS[a.action] || a.action;
  }

  function amountControl(a) {
    const name = a.action === "bet" ? `${a.bet.replace(/_/g, " ")} (pays ${a.pays}, against ${a.against})` : "stake";
    const input = el("input", {type: "number", inputmode: "decimal", step: "any", min: a.min, max: a.max,
                               value: a.amount, "aria-label": `amount of the ${name}`, "data-amount-for": a.action});
    const button = el("button", {type: "button", class: "primary", "data-action": a.action,
                                 "data-bet": a.bet || null, text: a.action === "bet" ? `Bet on ${a.bet.replace(/_/g, " ")}` : "Stake"});
    button.addEventListener("click", () => act(Object.assign({}, a, {amount: input.value.trim()})));
    return el("div", {class: "amount"},
      el("label", {}, el("span", {text: a.action === "bet" ? `Bet ${name}, ${a.min} to ${a.max}:` : `Your stake, ${a.min} to ${a.max}:`}), input),
      button);
  }

  function show(state) {
    finished = state.finished;
    body.dataset.finished = state.finished ? "yes" : "no";
    const purses = document.getElementById("purses");
    const w = state.waiting;
    const caster = w && w.question ? w.question.caster : null;
    purses.replaceChildren(...Object.entries(state.purses).map(([name, amount]) =>
      el("div", {class: name === caster ? "caster" : null, "data-player": name},
         el("dt", {text: name === seat ? `${name} (you)` : name}), el("dd", {text: amount}))));
    const turn = document.getElementById("turn"), box = document.getElementById("actions");
    box.replaceChildren();
    if (!w) {
      turn.textContent = "The session is over.";
      document.getElementById("replay").hidden = false;
      return;
    }
    const doing = {stake: "stake", cover: "cover or refuse", keep: "keep or pass the dice", choose: "choose",
                   throw: "throw", bet: "throw, or wait for bets", accept: "accept or decline a bet"}[w.ask] || w.ask;
    const mine = w.actions.length > 0;
    turn.textContent = mine ? (w.who === seat ? `Your turn, ${seat}: ${doing}.` : `${seat}, you may bet before ${w.who} throws.`)
                            : `${w.who || "The table"} to ${doing}.`;
    body.dataset.waiting = w.who || "";
    body.dataset.ask = w.ask;
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

  async function act(action) {
    if (sending) return;
    sending = true;
    for (const b of document.querySelectorAll("#actions button")) b.disabled = true;
    try {
      const answer = await request(`/api/tables/${encodeURIComponent(id)}/actions`, action);
      let whole = true;
      for (const t of answer.events) whole = tell(t) && whole;
      if (!whole) await catchUp();
      else show(answer);
      if (body.dataset.connected === "yes") status("");  // not over "reconnecting…"
    } catch (e) {
      status(e instanceof Hz.ApiError ? e.message : "The server cannot be reached; the page reconnects by itself.", "error");
      for (const b of document.querySelectorAll("#actions button")) b.disabled = false;
    } finally {
      sending = false;
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
      if (event.code >= 4400 && event.code < 4500 && event.code !== 4429) {
        status(event.reason || "This link is not one of this table's.", "error");
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
      if (e instanceof Hz.ApiError) { status(e.message, "error"); return; }
      status("The server cannot be reached; trying again…", "error");
      timer = setTimeout(start, 1000);
      return;
    }
    seat = first.seat;
    const opening = first.events.length ? first.events[0].event : null;
    document.getElementById("title").textContent = opening && opening.event === "session" ? opening.ruleset : first.ruleset;
    document.getElementById("seat").textContent = seat ? `Your seat: ${seat}` : "You are watching: this link acts for nobody.";
    body.dataset.seat = seat || "";
    const log = document.getElementById("log-link");
    log.href = `/api/tables/${encodeURIComponent(id)}/log?token=${encodeURIComponent(token)}`;
    log.hidden = false;
    for (const t of first.events) tell(t);
    show(first);
    connect();
  }

  start();
})();
