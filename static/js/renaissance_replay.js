// The replay of a finished Renaissance game, step by step on the table's own board.
//
// It fetches replay.json once (games/history/replay.py: the server re-simulates the game from
// seed + log; step i is the state after the i-th action, with the spectator's view and, the
// game being over, every seat's hand) and draws the chosen step: the board with the table's
// module (static/js/renaissance/board.js) and the cities the step touched, the step's words (the
// public log entry in the log's words, static/js/renaissance/log.js, and the server's label where
// it says more: the cards committed face down, an offer nobody else saw), each seat's ducats,
// points and hand, the log up to the step, and at the last step the end panel (end.js).
// Controls: first / previous / next / last buttons, a slider, the keys ← → Home End.

import { createLog, lastMoveCities, logWords, phraseEntry } from "./renaissance/log.js";
import { renderEnd } from "./renaissance/end.js";

function readJson(id) {
  const node = document.getElementById(id);
  return node ? JSON.parse(node.textContent) : {};
}

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = String(text);
  return node;
}

// The table's board module and its words; the replay still reads as words if they cannot load.
async function loadBoard(svg, ctx) {
  if (!svg) return null;
  try {
    const [{ createBoard }, { makeTranslator }] = await Promise.all([
      import("./renaissance/board.js"),
      import("./renaissance/i18n.js"),
    ]);
    ctx.t = makeTranslator(ctx.labels);
    return createBoard(svg, ctx);
  } catch (error) {
    console.error("the Renaissance board could not be drawn", error);
    return null;
  }
}

function createReplay(root) {
  const info = readJson("replay-info");
  const logLabels = readJson("rn-log-labels");
  const words = logWords({ logLabels });
  const parts = {
    status: root.querySelector("[data-status]"),
    svg: root.querySelector("[data-rn-board] svg"),
    slider: root.querySelector("[data-slider]"),
    where: root.querySelector("[data-where]"),
    words: root.querySelector("[data-words]"),
    seats: root.querySelector("[data-seats]"),
    log: root.querySelector("[data-rn-log]"),
    end: root.querySelector("[data-rn-end]"),
    error: root.querySelector("[data-error]"),
  };
  const replay = { game: null, steps: [], log: [], bySeq: new Map(), step: 0 };
  let board = null;
  let log = null;

  const last = () => replay.steps.length - 1;
  const seatInfo = (seat) => replay.game?.seats?.[seat] ?? {};
  const nations = () => replay.steps[0]?.view?.public?.nations ?? [];
  const nationName = (seat) => words.nation(nations()[seat] ?? "");
  // "Milan (Anna)": the nation the board shows, and who played it.
  const seatName = (seat) => {
    const name = seatInfo(seat).name;
    const nation = nationName(seat);
    return name ? `${nation} (${name})` : nation || String(seat + 1);
  };
  const ctx = {
    labels: readJson("rn-labels"),
    logLabels,
    facts: readJson("rn-board"),
    seatName,
    nationName,
    cityName: (name) => name,
    focusBoardCity: () => {},
    mySeat: null,
    replay: true,
    announce: false,
  };

  function stepWords(frame) {
    if (replay.step === 0) return [words.replay("start")];
    const entry = replay.bySeq.get(frame.seq);
    const lines = entry ? phraseEntry(entry, ctx, words).map((line) => line.text) : [];
    // The server's label names what the table could not see at the time (the game is over).
    if (!entry || entry.type === "commit") lines.unshift(frame.label);
    return lines;
  }

  function handList(hand) {
    const list = element("ul", "rn-replay__hand");
    if (!hand || !hand.length) {
      list.append(element("li", "rn-replay__card rn-replay__card--none", words.replay("hand_empty")));
      return list;
    }
    for (const card of hand) {
      const item = element("li", "rn-replay__card", words.card(card));
      item.dataset.card = card;
      list.append(item);
    }
    return list;
  }

  function renderSeats(frame) {
    const pub = frame.view.public;
    const acting = new Set(frame.view.acting_seats ?? []);
    const items = (replay.game.seats ?? []).map((info, seat) => {
      const item = element("li", "rn-replay__seat");
      item.dataset.seat = String(seat);
      item.style.setProperty("--seat", `var(--seat-${seat})`);
      if (acting.has(seat)) item.classList.add("rn-replay__seat--acting");
      if (frame.seat === seat) item.classList.add("rn-replay__seat--moved");
      const title = element("h3", "rn-replay__seat-name", seatName(seat));
      const facts = element("p", "rn-replay__facts");
      facts.append(
        element("span", "rn-replay__ducats", words.replay("ducats", { count: pub.ducats[seat] })),
        " · ",
        element("span", "rn-replay__points", words.replay("points", { count: pub.points[seat] })),
      );
      const hand = handList(frame.hands?.[seat]);
      hand.setAttribute("aria-label", `${words.replay("hands")}: ${seatName(seat)}`);
      item.append(title, facts, hand);
      return item;
    });
    parts.seats.replaceChildren(...items);
  }

  function renderBoard(frame) {
    if (!board) return;
    board.render(frame.view);
    board.clearHighlights?.("last");
    const entry = replay.bySeq.get(frame.seq);
    const cities = entry && replay.step > 0 ? lastMoveCities({ log: [entry] }) : [];
    if (cities.length) board.highlight?.(cities, "last");
  }

  function render() {
    const frame = replay.steps[replay.step];
    if (!frame) return;
    const atEnd = replay.step === last();
    root.dataset.step = String(replay.step);
    root.dataset.phase = frame.view.phase;
    renderBoard(frame);
    renderSeats(frame);
    const lines = stepWords(frame).map((text) => element("li", "rn-replay__words-line", text));
    parts.words.replaceChildren(...lines);
    parts.where.textContent = words.replay("step", { step: replay.step, total: last() });
    parts.slider.value = String(replay.step);
    log.render({ log: replay.log.filter((entry) => entry.seq <= frame.seq) });
    const status = atEnd ? replay.game.status : "playing";
    renderEnd(parts.end, { game: { ...replay.game, status }, view: frame.view }, ctx);
    for (const button of root.querySelectorAll("[data-go]")) {
      const back = button.dataset.go === "first" || button.dataset.go === "back";
      const wasFocused = document.activeElement === button;
      button.disabled = back ? replay.step === 0 : atEnd;
      // A button disabled under the keyboard's focus would drop it to the page: keep it here.
      if (wasFocused && button.disabled) parts.slider.focus();
    }
  }

  function goTo(step) {
    replay.step = Math.max(0, Math.min(last(), step));
    render();
  }

  const moves = {
    first: () => goTo(0),
    back: () => goTo(replay.step - 1),
    forward: () => goTo(replay.step + 1),
    last: () => goTo(last()),
  };
  const keys = { ArrowLeft: moves.back, ArrowRight: moves.forward, Home: moves.first, End: moves.last };

  function onKey(event) {
    const tag = event.target.tagName;
    // The slider moves itself with the arrows; text fields and menus keep their keys.
    if (["INPUT", "SELECT", "TEXTAREA"].includes(tag) || event.target.isContentEditable) return;
    if (event.altKey || event.ctrlKey || event.metaKey || !keys[event.key]) return;
    event.preventDefault();
    keys[event.key]();
  }

  function listen() {
    for (const button of root.querySelectorAll("[data-go]")) {
      button.addEventListener("click", () => moves[button.dataset.go]());
    }
    parts.slider.addEventListener("input", () => goTo(Number(parts.slider.value)));
    document.addEventListener("keydown", onKey);
  }

  async function load() {
    try {
      const response = await fetch(info.framesUrl, { headers: { Accept: "application/json" } });
      if (!response.ok) throw new Error(String(response.status));
      const data = await response.json();
      replay.game = data.game;
      replay.steps = data.steps;
      replay.log = data.log ?? [];
      replay.bySeq = new Map(replay.log.map((entry) => [entry.seq, entry]));
    } catch (error) {
      root.dataset.state = "failed";
      parts.error.hidden = false;
      parts.error.textContent = words.replay("failed");
      parts.status.textContent = "";
      return;
    }
    board = await loadBoard(parts.svg, ctx);
    log = createLog(parts.log, ctx);
    parts.slider.max = String(last());
    parts.status.textContent = "";
    root.dataset.total = String(last());
    root.dataset.board = board ? "drawn" : "none";
    listen();
    goTo(0);
    root.dataset.state = "ready";
  }

  parts.status.textContent = words.replay("loading");
  load();
}

const root = document.querySelector("[data-rn-replay]");
if (root) createReplay(root);
