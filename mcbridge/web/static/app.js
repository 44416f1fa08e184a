// The spectator page: one websocket, every table redrawn from its latest public state.
"use strict";
const $ = (id) => document.getElementById(id);
const tables = new Map();   // name -> {state, log: []}
let texts = {}, ws = null, replaySteps = [], replayAt = 0;
const lang = new URLSearchParams(location.search).get("lang") ||
  ((navigator.language || "en").startsWith("ja") ? "ja" : "en");
$("lang").value = lang;
$("lang").onchange = () => { location.search = "?lang=" + $("lang").value; };

const T = (key, fields) => {
  let s = texts[key] || key;
  for (const [k, v] of Object.entries(fields || {})) s = s.split("{" + k + "}").join(String(v));
  return s;
};
const el = (tag, attrs, ...kids) => {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  for (const kid of kids) e.append(kid);
  return e;
};
const COLOURS = { wall: "#6b5a45", sign: "#d8b56a", glass: "#cfe3ef", torch: "#ff2a00",
  "wool-red": "#c0282b", "wool-blue": "#2c3fa8", "wool-yellow": "#f2cf1f", "wool-green": "#3f8a2a",
  "wool-black": "#1b1b1b", "wool-white": "#f4f4f4" };

function connect() {
  ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws");
  ws.onopen = () => { ws.send(JSON.stringify({ type: "hello", lang })); };
  ws.onclose = (e) => { $("status").textContent = T("disconnected") + (e.reason ? " (" + e.reason + ")" : ""); setTimeout(connect, 2000); };
  ws.onmessage = (e) => handle(JSON.parse(e.data));
}

function handle(msg) {
  if (msg.type === "texts") { texts = msg.texts; labels(); }
  else if (msg.type === "map") {
    const t = tables.get(msg.table) || { log: [] }; t.map = msg; tables.set(msg.table, t); draw(msg.table);
  } else if (msg.type === "table") {
    const t = tables.get(msg.table) || { log: [] };
    const ended = msg.standings && !(t.state && t.state.standings);
    t.state = msg; t.log.push(...msg.log); t.log = t.log.slice(-200);
    tables.set(msg.table, t);
    if (msg.game && (!(msg.game in boards) || ended)) askBoard(msg.game);  // a new game, or new results
    draw(msg.table);
  } else if (msg.type === "leaderboard") {
    boards[msg.game] = msg.rows; for (const name of tables.keys()) draw(name);
  } else if (msg.type === "history") {
    const t = tables.get(msg.table) || { log: [] }; t.log = msg.log; tables.set(msg.table, t); draw(msg.table);
  } else if (msg.type === "matches") { listMatches(msg.matches); }
  else if (msg.type === "replay") { replaySteps = msg.steps; replayAt = 0; drawReplay(); }
  else if (msg.type === "auth") { operatorUi(msg); }
  else if (msg.type === "op_done") { logOp(msg); }
  else if (msg.type === "error" && !QUIET_ERRORS.has(msg.code)) { $("status").textContent = T("error") + ": " + msg.reason; }
}

// Leaderboards (the stats store's ranking, as `mcbridge stats top`): asked once per game and
// again when a match of it ends; a server without stats simply shows none.
const boards = {};
const QUIET_ERRORS = new Set(["no_stats", "stats_unavailable"]);
function askBoard(game) {
  boards[game] = boards[game] || null;
  if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ type: "leaderboard", game, limit: 10 }));
}

function labels() {
  document.documentElement.lang = lang;
  $("title").textContent = T("title");
  $("status").textContent = T("live");
  $("replay-title").textContent = T("replay");
  $("replay-load").textContent = T("replay_list");
  $("console-title").textContent = T("console");
  $("auth").textContent = T("sign_in");
  $("token").placeholder = T("token");
}

// The public board of the sign-table games: the standing bid or stake, pots, the trick.
// Only view(None) fields: everything here is public by the rules.
function boardFacts(pub) {
  const name = (seat) => (seat === null || seat === undefined ? "" : pub.players[seat] || "");
  const g = pub.game, bits = [];
  if (g === "dice_bluff" && pub.bid) {
    bits.push(T("facts.dice_bid", { name: name(pub.bid.bidder), count: pub.bid.count, face: pub.bid.wild ? "☆" : pub.bid.face }));
  } else if (g === "bribery") {
    if (pub.highest !== null && pub.highest !== undefined) bits.push(T("facts.bribery_highest", { n: pub.highest }));
    bits.push(T("facts.on_table", { n: pub.cards_on_table }));
  } else if (g === "braff") {
    bits.push(T("facts.pot", { n: pub.pot, carry: pub.carry }));
    if (pub.highest) bits.push(T("facts.braff_highest", { name: name(pub.highest.seat), cup: pub.highest.cup, stake: pub.highest_stake }));
  } else if (g === "briscola_bugiarda") {
    if (pub.standing) bits.push(T("facts.auction", { name: name(pub.standing.seat), rank: pub.standing.rank }));
    if (pub.trump) bits.push(T("facts.trump", { suit: pub.trump, card: pub.called_card || "" }));
    if (pub.trick && pub.trick.length) bits.push(T("facts.trick", { cards: pub.trick.map((p) => name(p[0]) + " " + p[1]).join(", ") }));
  }
  return bits.join(" · ");
}

function bidText(pub) {
  if (!pub || !pub.bid || pub.game !== "wool_bluff") return "";
  const b = pub.bid;
  const who = pub.players[b.seat !== undefined ? b.seat : b.bidder] || "";
  return T("bid", { name: who, count: b.count, colour: T("colour." + b.colour) });
}

function draw(name) {
  const t = tables.get(name); if (!t || !t.state) return;
  const s = t.state, pub = s.public;
  let box = document.querySelector(`[data-table="${CSS.escape(name)}"]`);
  if (!box) { box = el("div", { class: "table", "data-table": name }); $("tables").append(box); }
  box.replaceChildren();
  const head = s.game ? T("game." + s.game) : "";
  box.append(el("h2", {}, `${name} — ${head}` + (s.match ? ` · ${T("match")} ${s.match}` : "")));
  for (const why of s.pause_reasons || []) box.append(el("div", { class: "paused" }, T("paused_by." + why)));
  if (pub) {
    const phase = texts[s.game + ".phase." + pub.phase] || pub.phase;
    box.append(el("div", { class: "phase" }, T("turn_of", { turn: pub.turn, turns: pub.turns || "?" }) + " · " + phase));
    const acting = s.to_act.filter((b) => b > 0).map((b) => s.booths[b - 1].player);
    const left = Object.values(s.time_left).filter((v) => v !== null);
    if (!s.standings) box.append(el("div", { class: "turn", id: "turn-" + name },
      acting.length ? T("to_act", { names: acting.join(", ") }) + (left.length ? " · " + T("seconds_left", { s: Math.min(...left) }) : "")
        : T("dealer")));
    const bid = bidText(pub);
    if (bid) box.append(el("div", { class: "bid" }, bid));
    const facts = boardFacts(pub);
    if (facts) box.append(el("div", { class: "facts" }, facts));
  } else if (s.countdown !== null) {
    box.append(el("div", { class: "turn" }, T("countdown", { s: s.countdown })));
  } else box.append(el("div", { class: "turn" }, T("lobby")));
  const cols = el("div", { class: "cols" });
  const rows = el("table", { class: "booths" }, el("tr", {}, el("th", {}, T("booth")), el("th", {}, T("player")), el("th", {}, T("board"))));
  for (const b of s.booths) {
    const cls = (s.to_act.includes(b.booth) ? "acting" : "") + (b.player && !b.present ? " away" : "");
    let board = "";
    if (pub && b.seat !== null) {
      const bits = [];
      if (pub.torches) bits.push(T("torches", { n: pub.torches[b.seat] }));
      if (pub.wool_counts && pub.wool_counts[b.seat] !== null) bits.push(T("wool", { n: pub.wool_counts[b.seat] }));
      if (!pub.torches && pub.header && pub.header.scores) bits.push(T("score." + pub.header.score_name, { n: pub.header.scores[b.seat] }));
      if (pub.active && !pub.active[b.seat]) bits.push(T("out"));
      board = bits.join(" ");
    }
    rows.append(el("tr", { class: cls }, el("td", {}, String(b.booth)), el("td", {}, b.player || "—"), el("td", {}, board)));
  }
  cols.append(rows);
  if (t.map) cols.append(mapCanvas(t.map));
  box.append(cols);
  if (s.standings) {
    const st = el("div", { class: "standings", id: "standings-" + name }, el("h3", {}, T("standings")));
    const ol = el("ol", {});
    for (const r of s.standings) ol.append(el("li", {}, `${r.name}` + (r.score !== undefined ? ` — ${r.score}` : "")));
    st.append(ol); box.append(st);
  }
  const board = boards[s.game];
  if (board && board.length) {
    const lb = el("div", { class: "leaderboard", id: "leaderboard-" + name }, el("h3", {}, T("leaderboard")));
    const ol = el("ol", {});
    for (const r of board) ol.append(el("li", {}, T("leaderboard_row", { player: r.player, rating: r.rating, matches: r.matches, wins: r.wins })));
    lb.append(ol); box.append(lb);
  }
  const log = el("ol", { class: "log" });
  for (const line of t.log.slice(-40)) log.append(el("li", {}, line));
  box.append(el("h3", {}, T("log")), log);
  log.scrollTop = log.scrollHeight;
}

function mapCanvas(map) {
  const scale = 8, [w, d] = map.size;
  const c = el("canvas", { class: "map", width: w * scale, height: d * scale, title: T("map") });
  const g = c.getContext("2d");
  for (const [x, z, kind] of map.cells) {
    g.fillStyle = COLOURS[kind] || "#555";
    if (kind === "torch") g.fillRect(x * scale + 2, z * scale + 2, scale - 4, scale - 4);
    else g.fillRect(x * scale, z * scale, scale, scale);
  }
  return c;
}

// -- replay ---------------------------------------------------------------------------
$("replay-load").onclick = () => ws.send(JSON.stringify({ type: "matches" }));
function listMatches(matches) {
  const sel = $("replay-match"); sel.replaceChildren();
  for (const m of matches) sel.append(el("option", { value: m.id }, `#${m.id} ${T("game." + m.game)} (${m.players.join(", ")})`));
  sel.onchange = () => ws.send(JSON.stringify({ type: "replay", match: Number(sel.value) }));
  if (matches.length) sel.onchange();
}
$("replay-prev").onclick = () => { replayAt = Math.max(0, replayAt - 1); drawReplay(); };
$("replay-next").onclick = () => { replayAt = Math.min(replaySteps.length - 1, replayAt + 1); drawReplay(); };
function drawReplay() {
  const step = replaySteps[replayAt]; if (!step) return;
  $("replay-pos").textContent = ` ${replayAt}/${replaySteps.length - 1} `;
  const pub = step.public, v = $("replay-view"); v.replaceChildren();
  v.append(el("div", {}, T("turn_of", { turn: pub.turn, turns: pub.turns || "?" }) + " · " + (texts[pub.game + ".phase." + pub.phase] || pub.phase)));
  const bid = bidText(pub); if (bid) v.append(el("div", { class: "bid" }, bid));
  const log = el("ol", { class: "log" });
  for (const s of replaySteps.slice(0, replayAt + 1)) for (const line of s.log) log.append(el("li", {}, line));
  v.append(log);
  if (step.standings) v.append(el("div", { class: "standings" }, T("standings") + ": " + step.standings.map((r) => r.name).join(", ")));
}

// -- operator console -----------------------------------------------------------------
$("auth").onclick = () => ws.send(JSON.stringify({ type: "auth", token: $("token").value }));
function operatorUi(msg) {
  const ops = $("ops"); ops.replaceChildren();
  for (const name of tables.keys()) {
    const row = el("div", {}, el("b", {}, name + " "));
    for (const action of msg.operations) {
      const b = el("button", {}, T("op." + action));
      b.onclick = () => {
        const m = { type: "op", action, table: name };
        if (action === "unseat") m.booth = Number(prompt(T("booth")) || 0);
        ws.send(JSON.stringify(m));
      };
      row.append(b);
    }
    ops.append(row);
  }
  for (const entry of msg.oplog) logOp(entry);
}
function logOp(e) { $("oplog").append(el("li", {}, `${e.by} ${e.action} ${e.table}${e.booth !== null ? " #" + (e.booth + 1) : ""}: ${e.result}`)); }

connect();
