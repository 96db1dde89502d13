// The live Renaissance table's client (templates/game/renaissance.html, docs/renaissance/table.md).
// It opens the game's websocket, renders every `state` frame in full (re-rendering is
// idempotent), and sends only actions taken from `view.legal_actions` or
// `view.diplomacy_actions`, or described by `view.diplomacy_forms` (a gift, an exchange offer),
// each with the frame's version as `expected_version`.
//
// The battle's panel and decisions and the diplomacy (./renaissance/battle.js,
// ./renaissance/diplomacy.js), the log (./renaissance/log.js) and the end panel
// (./renaissance/end.js) are separate modules loaded beside this one; a missing one leaves its
// part of the page empty and the rest playable (the battle's decisions then fall back to a
// button per legal action).

import { createChatPanel } from "./game/chat.js";
import { keepTopMeasured, setUpBottomSheet } from "./game/sheet.js";
import { openTableSocket, readChatAfterConnecting, renderStandin, trackFocusKey, watchdog } from "./game/table_client.js";
import { cueTurn } from "./game/turn_cue.js";
import { createBoard } from "./renaissance/board.js";
import { CITY_PHASES, cardOfSelection, mapPlan, renderDecision } from "./renaissance/decision.js";
import { playsOf, renderHand } from "./renaissance/hand.js";
import { makeTranslator } from "./renaissance/i18n.js";
import { createMapView } from "./renaissance/mapview.js";
import { renderSeats } from "./renaissance/seats.js";
import { deadlineFor, isMyDecision, isSeated, renderOrder, renderPolitics, renderTrack, secondsLeft, turnText } from "./renaissance/status.js";

function readJson(id) {
  const node = document.getElementById(id);
  if (!node) return {};
  try {
    return JSON.parse(node.textContent) ?? {};
  } catch {
    return {};
  }
}

// The table as tall as the window below where it starts (the site's header wraps differently
// in each language), and the decision as a bottom sheet on a phone (static/css/renaissance.css
// draws it fixed at the bottom below 56rem), with its words on its button.
function setUpSheet(root) {
  keepTopMeasured(root, root, [document.querySelector(".site-header")], "--rn-top");
  const sheet = root.querySelector("[data-rn-sheet]");
  const toggle = sheet?.querySelector("[data-rn-sheet-toggle]");
  setUpBottomSheet(root, { sheet, toggle, labels: toggle, heightProperty: "--rn-sheet-height" });
}

// The other parts' modules, each optional: a module that is not there yet is an empty part.
async function loadParts() {
  const load = (path) => import(path).catch(() => null);
  const [battle, diplomacy, log, end] = await Promise.all([
    load("./renaissance/battle.js"),
    load("./renaissance/diplomacy.js"),
    load("./renaissance/log.js"),
    load("./renaissance/end.js"),
  ]);
  return { battle, diplomacy, log, end };
}

// Two actions are the same move when their keys and values are (a commit's blue cards in any order).
function canonical(action) {
  const copy = { ...action };
  if (Array.isArray(copy.blue)) copy.blue = [...copy.blue].sort();
  return JSON.stringify(Object.keys(copy).sort().map((key) => [key, copy[key]]));
}

export function isOffered(view, action) {
  const wanted = canonical(action);
  return [...(view?.legal_actions ?? []), ...(view?.diplomacy_actions ?? [])].some((each) => canonical(each) === wanted) || formsHold(view, action);
}

// A gift or an exchange offer that the view's `diplomacy_forms` describe (docs/protocol.md,
// "Diplomacy"): to one of the seats, 1 to `most` ducats; any city of an entry's `give` for any
// of its `take`, except an offer of this seat's that still waits in `public.offers`.
export function formsHold(view, action) {
  const forms = view?.diplomacy_forms;
  if (!forms || !isSeated(view) || !action) return false;
  const keys = Object.keys(action).sort().join(",");
  if (action.type === "give_ducats") {
    const gifts = forms.give_ducats;
    return keys === "amount,to,type" && !!gifts && gifts.to.includes(action.to) && Number.isInteger(action.amount) && action.amount >= 1 && action.amount <= gifts.most;
  }
  if (action.type !== "offer_exchange" || keys !== "give,take,to,type") return false;
  const cities = view.cities ?? [];
  const waiting = (view.public?.offers ?? []).some(
    (o) => o[0] === 0 && o[1] === view.seat && o[2] === action.to && cities[o[3]] === action.give && cities[o[4]] === action.take,
  );
  return !waiting && forms.offer_exchange.some((f) => f.to === action.to && f.give.includes(action.give) && f.take.includes(action.take));
}

// An offer made to the page's seat waits for its answer (public.offers: [kind, from, to, ...]).
export function offerWaits(view) {
  if (!isSeated(view)) return false;
  return (view.public?.offers ?? []).some((offer) => offer[2] === view.seat);
}

// Everything the decision panel (decision.js) reads of a frame: while it is the same, so is the
// panel. The seats the vote waits for count only once this seat has voted (the panel lists them).
export function decisionSignature(view, selection, busy, seated, mine) {
  const pub = view.public ?? {};
  const seat = view.seat;
  const voted = view.vote !== null && view.vote !== undefined;
  return JSON.stringify([
    view.phase,
    view.legal_actions ?? [],
    voted ? [view.vote, view.acting_seats ?? []] : null,
    view.hand?.length ?? null,
    [pub.ducats?.[seat], pub.bought?.[seat], pub.expansions?.[seat], pub.attacks, pub.war],
    selection ?? null,
    busy,
    seated,
    mine,
  ]);
}

function createTable(root, modules) {
  const info = readJson("game-info");
  const labels = readJson("rn-labels");
  const t = makeTranslator(labels);
  const facts = readJson("rn-board");
  const parts = {
    turn: root.querySelector("[data-rn-turn]"),
    timer: root.querySelector("[data-rn-timer]"),
    connection: root.querySelector("[data-rn-connection]"),
    track: root.querySelector("[data-rn-track]"),
    politics: root.querySelector("[data-rn-politics]"),
    order: root.querySelector("[data-rn-order]"),
    deck: root.querySelector("[data-rn-deck]"),
    seats: root.querySelector("[data-rn-seats]"),
    handSection: root.querySelector("[data-rn-hand-section]"),
    hand: root.querySelector("[data-rn-hand]"),
    standin: root.querySelector("[data-rn-standin]"),
    sheet: root.querySelector("[data-rn-sheet]"),
    decision: root.querySelector("[data-rn-decision]"),
    error: root.querySelector("[data-rn-error]"),
    battle: root.querySelector("[data-rn-battle]"),
    diplomacy: root.querySelector("[data-rn-diplomacy]"),
    log: root.querySelector("[data-rn-log]"),
    end: root.querySelector("[data-rn-end]"),
    chat: root.querySelector("[data-rn-chat]"),
    announce: root.querySelector("[data-rn-announce]"),
    svg: root.querySelector("[data-rn-board] svg"),
  };
  const local = {
    frame: null,
    busy: false,
    selection: null,
    memory: {}, // what a decision's controls keep across renders (the count of cards to buy)
    focusKey: null,
    lastFrameAt: 0,
    sentAt: 0,
    syncAt: 0,
    announced: "",
    opens: 0,
    chatRead: null,
    decisionDrawn: null, // what the decision panel was last drawn from (decisionSignature)
    handDrawn: null, // what the hand was last drawn from
  };

  const seatName = (seat) => {
    const colour = local.frame?.game?.seats?.[seat]?.colour;
    return colour ? t.colour(colour) : String(seat + 1);
  };
  const nationName = (seat) => t.nation(local.frame?.view?.public?.nations?.[seat]);
  const ctx = {
    t,
    labels,
    battleLabels: readJson("rn-battle-labels"),
    logLabels: readJson("rn-log-labels"),
    facts,
    send: (action) => send(action),
    isBusy: () => local.busy,
    seatName,
    nationName,
    cityName: (name) => name,
    focusBoardCity: (name) => focusCity(name),
    mySeat: null,
  };

  const board = createBoard(parts.svg, ctx);
  const mapView = createMapView(parts.svg, {
    zoomIn: root.querySelector("[data-rn-zoom-in]"),
    zoomOut: root.querySelector("[data-rn-zoom-out]"),
    reset: root.querySelector("[data-rn-zoom-reset]"),
  });
  const battlePanel = modules.battle?.createBattlePanel?.(parts.battle, ctx) ?? null;
  const diplomacy = modules.diplomacy?.createDiplomacy?.(parts.diplomacy, ctx) ?? null;
  const log = modules.log?.createLog?.(parts.log, ctx) ?? null;
  const chat = createChatPanel(parts.chat, {
    word: (key, params) => t.ui(key, params),
    send: (frame) => socket.send(frame),
    authorName: (message) => chatAuthor(message),
  });
  const socket = openTableSocket(info.wsPath, {
    root,
    local,
    connection: parts.connection,
    word: t.ui,
    onFrame: receive,
  });

  function receive(frame) {
    local.lastFrameAt = Date.now();
    if (chat.receive(frame)) return;
    if (frame.type === "state") {
      readChatAfterConnecting(chat, local, parts.chat.dataset.chatUrl);
      const previous = local.frame;
      if (previous && frame.version < previous.version) return; // a leftover of an older state
      // A half-made move survives another seat's action (an offer, a vote) while it still
      // leads somewhere; anything else forgets it.
      if (!previous || frame.version !== previous.version) {
        const same = previous && previous.view.phase === frame.view.phase && isMyDecision(frame.view);
        if (!same || !mapPlan(frame.view, local.selection, facts).choices.size) local.selection = null;
      }
      local.frame = frame;
      local.busy = false;
      render();
    } else if (frame.type === "error") {
      local.busy = false;
      showError(frame.message || frame.code);
      render();
    }
  }

  function chatAuthor(message) {
    if (message.seat === null || message.seat === undefined) return message.name;
    const seat = local.frame?.game?.seats?.[message.seat];
    const name = seat ? `${seatName(message.seat)} — ${seat.name}` : message.name;
    // A bot's name already says it is one, with its level ("Sforza (solid bot)"): not marked twice.
    return seat?.kind === "bot" && !seat.name ? t.ui("chat_bot", { name }) : name;
  }

  function showError(message) {
    parts.error.hidden = !message;
    parts.error.textContent = message ? t.ui("error", { message }) : "";
  }

  // Every action sent is one the view offers now, against the frame it was chosen from.
  function send(action) {
    const frame = local.frame;
    if (!frame || local.busy || !isOffered(frame.view, action)) return false;
    if (!socket.send({ type: "action", action, expected_version: frame.version })) return false;
    showError("");
    local.busy = true;
    local.sentAt = Date.now();
    local.selection = null;
    render();
    return true;
  }

  function select(selection) {
    local.selection = selection;
    render();
    focusFirstControl();
  }

  function pickCity(name) {
    const frame = local.frame;
    if (!frame || local.busy || !isMyDecision(frame.view)) return;
    const choice = mapPlan(frame.view, local.selection, facts).choices.get(name);
    if (!choice) return;
    if (choice.send) send(choice.send);
    else select(choice.select);
  }

  function playCard(card) {
    const view = local.frame?.view;
    if (!view || local.busy) return;
    const plays = playsOf(view, card);
    if (plays.length !== 1) {
      // The Artist/Banker card: both plays are in the panel; go to the first.
      local.focusKey = `rn-play-${plays[0]}`;
      render();
      root.querySelector(`[data-focus-key="rn-play-${plays[0]}"]`)?.focus();
      return;
    }
    const action = (view.legal_actions ?? []).find((each) => each.type === plays[0]);
    if (plays[0] === "ambassador" && action) send(action);
    else select({ mode: "card", type: plays[0], free: false });
  }

  function focusCity(name) {
    const group = board.city(name);
    if (!group) return;
    const spot = group.querySelector(".rn-city__spot");
    mapView.ensureVisible({ x: Number(group.dataset.x ?? spot?.getAttribute("cx")), y: Number(group.dataset.y ?? spot?.getAttribute("cy")) });
    if (group.hasAttribute("tabindex")) group.focus({ preventScroll: true });
  }

  function render() {
    const frame = local.frame;
    if (!frame) return;
    const { view, game } = frame;
    const mine = isMyDecision(view);
    const seated = isSeated(view);
    ctx.mySeat = seated ? view.seat : null;
    root.dataset.state = game.status;
    root.dataset.phase = view.phase;
    root.dataset.version = String(frame.version);
    root.dataset.busy = String(local.busy);
    root.dataset.selection = local.selection ? local.selection.mode : "";
    root.classList.toggle("is-my-turn", mine);
    root.classList.toggle("is-spectator", !seated);
    // The cue fires for a vote too (a seat that has not voted is in acting_seats with choices),
    // and while an offer made to this seat waits for its answer.
    cueTurn({ root, t, view, game, myTurn: mine || offerWaits(view) });

    parts.turn.textContent = turnText(frame, ctx);
    renderTrack(parts.track, view, t);
    renderPolitics(parts.politics, view, t);
    renderOrder(parts.order, view, ctx);
    parts.deck.textContent = t.ui("deck", { count: view.public?.deck_size ?? 0 });
    renderTimer();
    renderSeats(parts.seats, frame, ctx);
    renderMyHand(view);
    renderBoard(frame, mine);
    renderTheDecision(frame, mine, seated);
    battlePanel?.render(frame);
    diplomacy?.render(frame);
    log?.render(frame);
    renderEnd(frame);
    renderStandin(parts.standin, game, {
      word: t.ui,
      send: (sent) => socket.send(sent),
      noteClass: "rn-standin__note", testid: "rn-standin",
    });
    announce();
    restoreFocus(mine);
  }

  function renderMyHand(view) {
    // Once the game is over a hand means nothing more: the column keeps its room for the seats.
    const seated = Array.isArray(view.hand) && local.frame?.game?.status === "playing";
    parts.handSection.hidden = !seated;
    if (!seated) return;
    // As the decision: redrawn only when the cards or what they may do change.
    const drawn = JSON.stringify([view.hand, view.legal_actions ?? [], local.busy]);
    if (drawn !== local.handDrawn) {
      local.handDrawn = drawn;
      renderHand(parts.hand, { view, t, busy: local.busy, onPlay: playCard });
    }
    const lit = cardOfSelection(local.selection);
    for (const card of parts.hand.querySelectorAll("[data-card]")) card.classList.toggle("is-selected", card.dataset.card === lit);
  }

  function renderBoard(frame, mine) {
    const { view } = frame;
    board.render(view);
    board.clearHighlights();
    const battle = view.public?.battle;
    if (battle) {
      const marks = [battle.from, battle.to].filter((index) => index >= 0).map((index) => view.cities[index]);
      board.highlight(marks, "target");
    }
    const last = modules.log?.lastMoveCities?.(frame) ?? [];
    board.highlight(last, "last");
    if (!mine || local.busy) return;
    const plan = mapPlan(view, local.selection, facts);
    const byKind = { choice: [], from: [] };
    for (const [city, choice] of plan.choices) byKind[choice.kind].push(city);
    board.highlight(byKind.from, "from");
    board.highlight(byKind.choice, "choice");
    board.lanes(plan.lanes);
  }

  function renderTheDecision(frame, mine, seated) {
    const { view } = frame;
    // Asked on every frame, whatever the phase: it answers false (and forgets its own state,
    // whose timers would otherwise draw an old battle over the next decision) when the frame
    // asks no battle decision of this seat.
    if (modules.battle?.renderBattleDecision?.(parts.decision, frame, ctx)) {
      parts.decision.dataset.decision = view.phase;
      local.decisionDrawn = null;
      return;
    }
    // Another seat's move (a vote, an offer) that changes nothing of this decision leaves its
    // controls in place: a button rebuilt between a person's mousedown and mouseup loses the click.
    const drawn = decisionSignature(view, local.selection, local.busy, seated, mine);
    if (drawn === local.decisionDrawn) return;
    local.decisionDrawn = drawn;
    renderDecision(parts.decision, {
      view,
      t,
      selection: local.selection,
      busy: local.busy,
      seated,
      mine,
      send,
      select,
      seatName,
      memory: local.memory,
    });
  }

  function renderEnd(frame) {
    const over = frame.game.status !== "playing";
    parts.end.hidden = !over;
    // Once over there is nothing to decide: the end panel takes the decision's place.
    parts.sheet.hidden = over;
    if (over) modules.end?.renderEnd?.(parts.end, frame, ctx);
  }

  function renderTimer() {
    const frame = local.frame;
    const seconds = frame ? secondsLeft(deadlineFor(frame)) : null;
    parts.timer.hidden = seconds === null;
    if (seconds !== null) {
      parts.timer.textContent = t.ui("time_left", { seconds });
      parts.timer.classList.toggle("is-urgent", seconds <= 10);
    }
  }

  function announce() {
    const text = parts.turn.textContent;
    if (text !== local.announced) {
      local.announced = text;
      parts.announce.textContent = text;
    }
  }

  // --- Focus: never lost after a move ------------------------------------------------------------

  function firstControl() {
    const view = local.frame?.view;
    // Where the decision is chosen on the map, its first city; else the panel's first control.
    const mapFirst = local.selection || CITY_PHASES.has(view?.phase) || view?.phase === "expansion";
    const city = root.querySelector("g.rn-city.is-choice[tabindex]") ?? (mapFirst ? root.querySelector("g.rn-city.is-from[tabindex]") : null);
    const control = parts.decision.querySelector("button:not([disabled]), select:not([disabled])");
    return mapFirst ? (city ?? control) : (control ?? root.querySelector("g.rn-city.is-from[tabindex]"));
  }

  function focusFirstControl() {
    const target = firstControl();
    if (!target) return;
    if (target instanceof SVGElement) focusCity(target.dataset.city);
    else target.focus({ preventScroll: false });
  }

  function focusIsLost() {
    const active = document.activeElement;
    if (!active || active === document.body || !active.isConnected) return true;
    if (active.disabled) return root.contains(active);
    if (active.matches?.("g.rn-city:not([tabindex])")) return true;
    return active === parts.turn && root.classList.contains("is-my-turn") && !local.busy;
  }

  function restoreFocus(mine) {
    if (!focusIsLost()) return;
    const same = local.focusKey ? root.querySelector(`[data-focus-key="${CSS.escape(local.focusKey)}"]`) : null;
    if (same && !same.disabled) {
      same.focus({ preventScroll: true });
      return;
    }
    if (mine && !local.busy && firstControl()) {
      focusFirstControl();
      return;
    }
    parts.turn.focus({ preventScroll: true });
  }

  trackFocusKey(root, local);
  board.onCity(pickCity);
  setUpSheet(root);
  setInterval(() => {
    renderTimer();
    watchdog(local, socket);
  }, 500);
  socket.connect();
}

const root = document.querySelector("[data-rn-root]");
if (root) loadParts().then((modules) => createTable(root, modules));
