/* The lobby's live lists, a table page that follows its table, and the create-table form.
 *
 * The server renders every page complete; this script keeps it current. It listens to
 * ws/lobby/, whose every frame is the whole list of tables ({"type": "tables", ...}), and redraws
 * from it: a lost frame costs nothing, the next one carries everything. Words come translated
 * from the page (json_script "lobby-config"), never from this file.
 */

import { createChatPanel, wordsFromDataset } from "./game/chat.js";

const configNode = document.getElementById("lobby-config");
const config = configNode ? JSON.parse(configNode.textContent) : null;
const labels = config ? config.labels : {};

/* "%(name)s" placeholders, as Django's translated strings carry them. */
function format(template, values) {
  return template.replace(/%\((\w+)\)s/g, (whole, key) => (key in values ? values[key] : whole));
}

function element(tag, attributes = {}, children = []) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === null || value === undefined || value === false) continue;
    if (name === "text") node.textContent = value;
    else node.setAttribute(name, value === true ? "" : value);
  }
  for (const child of children) if (child) node.append(child);
  return node;
}

/* ---- The socket: reconnects with a growing pause, tells the page its state ---------------- */

// `hooks.onOpen(socket)` after each (re)connection, `hooks.onOther(frame)` for frames that are
// not the table list (a table page's chat).
function connect(onFrame, hooks = {}) {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  const url = `${scheme}//${location.host}${config.wsPath}`;
  let pause = 500;
  const status = document.querySelector("[data-live-status]");
  const show = (live) => {
    if (!status) return;
    status.textContent = live ? labels.live : labels.offline;
    status.classList.toggle("is-live", live);
  };
  const open = () => {
    const socket = new WebSocket(url);
    socket.addEventListener("open", () => {
      pause = 500;
      show(true);
      hooks.onOpen?.(socket);
    });
    socket.addEventListener("message", (event) => {
      let frame;
      try {
        frame = JSON.parse(event.data);
      } catch {
        return;
      }
      if (frame && frame.type === "tables") onFrame(frame);
      else if (frame) hooks.onOther?.(frame);
    });
    socket.addEventListener("close", () => {
      show(false);
      setTimeout(open, pause + Math.random() * 300);
      pause = Math.min(pause * 2, 15000);
    });
  };
  open();
}

/* ---- Drawing tables (the same markup as templates/lobby/_table_card.html) ----------------- */

function seatName(seat) {
  if (seat.kind === "human" && seat.bot_account) return format(labels.bot_account, { name: seat.name });
  if (seat.kind === "human") return seat.you ? `${seat.name} (${labels.you})` : seat.name;
  // "Sforza (hard bot)": the seat's condottiere (games/words/bot_names.py), the level in our language.
  if (seat.kind === "bot") {
    const level = (labels.levels[seat.level] || seat.level).toLowerCase();
    return format(labels.bot, { name: seat.name, level });
  }
  if (seat.kind === "reserved") return format(labels.reserved_for, { name: seat.name });
  return labels.open_seat;
}

function renderSeat(seat) {
  const classes = `seat-chip seat-chip--${seat.kind}${seat.you ? " seat-chip--you" : ""}`;
  // The colour comes from static/css/seats.css: a style attribute would break the page's CSP.
  return element("li", { class: classes, "data-seat-colour": seat.index }, [
    element("span", { class: "seat-chip__swatch", "aria-hidden": "true" }),
    element("span", { class: "visually-hidden", text: `${labels.colours[seat.colour]}:` }),
    element("span", { class: "seat-chip__name", text: seatName(seat) }),
  ]);
}

function renderRules(table) {
  const list = element("ul", { class: "rule-chips", "aria-label": labels.rules });
  for (const key of table.options) list.append(element("li", { class: "rule-chip", text: labels.options[key] || key }));
  if (!table.options.length) list.append(element("li", { class: "rule-chip rule-chip--plain", text: labels.no_options }));
  if (table.turn_seconds) {
    list.append(element("li", { class: "rule-chip rule-chip--timer", text: format(labels.timer, { seconds: table.turn_seconds }) }));
  }
  return list;
}

const relativeTime = new Intl.RelativeTimeFormat(document.documentElement.lang || undefined, { numeric: "auto" });

function age(sinceMs, nowMs) {
  const seconds = Math.max(0, Math.round((nowMs - sinceMs) / 1000));
  if (seconds < 60) return relativeTime.format(-seconds, "second");
  if (seconds < 3600) return relativeTime.format(-Math.floor(seconds / 60), "minute");
  if (seconds < 86400) return relativeTime.format(-Math.floor(seconds / 3600), "hour");
  return relativeTime.format(-Math.floor(seconds / 86400), "day");
}

function postButton(action, text, extraClass = "") {
  const form = element("form", { method: "post", action, class: "inline-form" }, [
    element("input", { type: "hidden", name: "csrfmiddlewaretoken", value: config.csrfToken }),
    element("button", { type: "submit", class: `button button--small ${extraClass}`.trim(), text }),
  ]);
  return form;
}

function renderActions(table) {
  const actions = element("div", { class: "table-card__actions" });
  const link = (text, secondary) =>
    element("a", { class: `button button--small${secondary ? " button--secondary" : ""}`, href: table.url, text });
  if (table.status === "open" && !table.you) {
    actions.append(postButton(`/tables/${table.id}/join/`, labels.join), link(labels.view, true));
  } else if (table.status === "open") {
    actions.append(link(labels.your_table, false));
  } else if (table.you) {
    actions.append(link(labels.resume, false));
  } else {
    actions.append(link(labels.watch, true));
  }
  return actions;
}

function renderTable(table, nowMs) {
  const meta = element("p", { class: "table-card__meta" });
  const parts = [];
  if (table.status === "open") parts.push(format(labels.seats_taken, { taken: table.taken, total: table.players }));
  if (table.creator) parts.push(format(labels.created_by, { name: table.creator }));
  meta.textContent = parts.map((part) => `${part} · `).join("");
  meta.append(element("time", { datetime: new Date(table.created_at).toISOString(), "data-since": table.created_at, text: age(table.created_at, nowMs) }));
  return element("li", { class: `table-card${table.you ? " table-card--yours" : ""}`, "data-table-id": table.id }, [
    element("div", { class: "table-card__head" }, [
      element("h3", { class: "table-card__title" }, [element("a", { href: table.url, text: format(labels.table, { id: table.id }) })]),
      element("span", { class: "table-card__game", "data-ruleset": table.ruleset, text: labels.games[table.ruleset] || table.ruleset }),
      element("span", { class: "table-card__count", text: format(labels.players, { n: table.players }) }),
    ]),
    renderRules(table),
    element("ul", { class: "seat-chips", "aria-label": labels.seats }, table.seats.map(renderSeat)),
    meta,
    renderActions(table),
  ]);
}

function fillList(list, tables, emptyText, nowMs) {
  // Keep keyboard focus on the same table's control when the list is redrawn under it.
  const focused = list.contains(document.activeElement) ? document.activeElement : null;
  const focusedTable = focused && focused.closest("[data-table-id]")?.dataset.tableId;
  const focusedText = focused && focused.textContent;
  const items = tables.map((table) => renderTable(table, nowMs));
  if (!items.length) items.push(element("li", { class: "table-list__empty", text: emptyText }));
  list.replaceChildren(...items);
  if (focusedTable) {
    const card = list.querySelector(`[data-table-id="${focusedTable}"]`);
    const again = card && [...card.querySelectorAll("a, button")].find((node) => node.textContent === focusedText);
    if (again) again.focus();
  }
}

function lobbyPage() {
  const lists = {
    own: document.querySelector('[data-list="own"]'),
    open: document.querySelector('[data-list="open"]'),
    playing: document.querySelector('[data-list="playing"]'),
  };
  const moreOpen = document.querySelector("[data-more-open]");
  connect((frame) => {
    const tables = frame.tables;
    fillList(lists.own, tables.filter((t) => t.you), labels.no_own_games, frame.now);
    fillList(lists.open, tables.filter((t) => !t.you && t.status === "open"), labels.no_open_tables, frame.now);
    fillList(lists.playing, tables.filter((t) => !t.you && t.status === "playing"), labels.no_games, frame.now);
    // The server lists a bounded number of open tables; say how many more wait.
    const more = frame.more_open_tables || 0;
    moreOpen.hidden = !more;
    moreOpen.textContent = more ? format(labels.more_open_tables, { n: more }) : "";
  });
}

/* ---- A table page: redraw its seats; go to the board when the game starts ------------------ */

function startCountdown(node, autofillAt, serverNow) {
  clearInterval(node._timer);
  if (!autofillAt) {
    node.hidden = true;
    return;
  }
  // Count against the server's clock: the gap between the two clocks is measured once per frame.
  const skew = serverNow ? Date.now() - serverNow : 0;
  const tick = () => {
    const seconds = Math.ceil((autofillAt + skew - Date.now()) / 1000);
    node.textContent = seconds > 0 ? format(labels.bots_in, { seconds }) : labels.bots_now;
  };
  node.hidden = false;
  tick();
  node._timer = setInterval(tick, 1000);
}

function tablePage() {
  const page = document.querySelector("[data-table-page]");
  const seatList = page.querySelector("[data-seat-list]");
  const summary = page.querySelector("[data-table-summary]");
  const closed = page.querySelector("[data-table-closed]");
  const autofill = page.querySelector("[data-autofill]");
  const initialAutofill = Number(autofill.dataset.autofillAt) || null;
  if (initialAutofill) startCountdown(autofill, initialAutofill, null);
  let seenSeated = null;
  const talk = tableChat(page);
  connect((frame) => {
    const table = frame.tables.find((t) => t.id === config.tableId);
    if (!table) {
      closed.hidden = false;
      if (summary) summary.hidden = true;
      startCountdown(autofill, null);
      return;
    }
    if (table.status !== "open") {
      location.assign(table.url);
      return;
    }
    seatList.replaceChildren(...table.seats.map(renderSeat));
    if (summary) {
      summary.textContent = `${format(labels.players, { n: table.players })} · ${format(labels.seats_taken, { taken: table.taken, total: table.players })}`;
    }
    startCountdown(autofill, table.autofill_at, frame.now);
    // Join and leave buttons depend on who sits where: reload when that changes for this user.
    if (seenSeated !== null && seenSeated !== table.you) location.reload();
    seenSeated = table.you;
  }, talk.hooks);
  const copy = page.querySelector("[data-copy-invite]");
  const link = page.querySelector("[data-invite-link]");
  const done = page.querySelector("[data-copy-done]");
  if (copy && link) {
    copy.hidden = false;
    copy.addEventListener("click", async () => {
      link.select();
      try {
        await navigator.clipboard.writeText(link.value);
        done.textContent = labels.copied;
      } catch {
        done.textContent = labels.copy_by_hand;
      }
    });
  }
}

/* ---- A table's chat (static/js/game/chat.js), in the table's room of the lobby socket ------ */

function tableChat(page) {
  const root = page.querySelector("[data-chat]");
  let socket = null;
  const send = (frame) => {
    if (!socket || socket.readyState !== WebSocket.OPEN) return false;
    socket.send(JSON.stringify(frame));
    return true;
  };
  const panel = root ? createChatPanel(root, { word: wordsFromDataset(root), send }) : null;
  return {
    hooks: {
      onOpen(opened) {
        socket = opened;
        if (panel) send({ type: "chat_join", table: config.tableId });
      },
      onOther(frame) {
        panel?.receive(frame);
      },
    },
  };
}

/* ---- The table forms: show only the chosen game's options ---------------------------------- */

function gameChoice(form) {
  const choice = form.querySelector('[name="game"]');
  const players = form.querySelector('[name="players"]');
  const bots = form.querySelector('[name="bots"]');
  const leaving = form.querySelector("[data-leaving-nation]");
  const scenario = form.querySelector('[name="scenario"]');
  const update = () => {
    for (const part of form.querySelectorAll("[data-for-game]")) part.hidden = part.dataset.forGame !== choice.value;
    // Only a game of 1454 for four players (you and three bots) chooses the nation that leaves.
    const count = players ? Number(players.value) : Number(bots?.value) + 1;
    if (leaving) leaving.hidden = count !== 4 || Boolean(scenario?.value);
  };
  form.addEventListener("change", update);
  update();
}

/* ---- The create-table form: show the seats in play and the fields each kind needs --------- */

function seatForm(form) {
  const players = form.querySelector('[name="players"]');
  const rows = [...form.querySelectorAll("[data-seat-row]")];
  const update = () => {
    const count = Number(players.value);
    for (const row of rows) {
      const inPlay = Number(row.dataset.seatRow) < count;
      row.hidden = !inPlay;
      const kind = row.querySelector('[name$="_kind"]').value;
      row.querySelector("[data-seat-level]").hidden = kind !== "bot";
      row.querySelector("[data-seat-username]").hidden = kind !== "invite";
    }
  };
  form.addEventListener("change", update);
  update();
}

if (config && config.page === "lobby") lobbyPage();
if (config && config.page === "table") tablePage();
for (const form of document.querySelectorAll("form")) if (form.querySelector("[data-game-choice]")) gameChoice(form);
const seatFormNode = document.querySelector("[data-seat-form]");
if (seatFormNode) seatForm(seatFormNode);
