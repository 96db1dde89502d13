// The live game page's client. It opens the game's websocket, renders every `state` frame in
// full (re-rendering is idempotent), and sends only actions taken from `view.legal_actions`,
// each with the frame's version as `expected_version`.

import { groupLegalActions, hasAnyAction, keepLimit, popeChoices } from "./game/actions.js";
import { createBattlePanel } from "./game/battle_panel.js";
import { listenToRegions, renderBoard } from "./game/board.js";
import { explainPope } from "./game/cards.js";
import { renderHand } from "./game/hand.js";
import { makeTranslator } from "./game/i18n.js";
import { defenderSeat, renderLines } from "./game/lines.js";
import { markLastMove, returnFocus } from "./game/feedback.js";
import { renderLog } from "./game/log.js";
import { renderGameOver } from "./game/game_over.js";
import { receiveRematch } from "./game/rematch.js";
import { promptContent } from "./game/prompt.js";
import { openTableSocket, readChatAfterConnecting, renderStandin, trackFocusKey, watchdog } from "./game/table_client.js";
import { factsText, secondsLeft, turnText } from "./game/status.js";
import { cueTurn } from "./game/turn_cue.js";
import { createDiscardViewer } from "./game/discards.js";
import { createVictoryMeter } from "./game/victory.js";
import { createChatPanel } from "./game/chat.js";
import { createShowControl, phraseTableLog } from "./game/show.js";
import { seatFullName } from "./game/i18n.js";
import { createHint } from "./game/hint.js";

function readJson(id) {
  return JSON.parse(document.getElementById(id).textContent);
}

function createGameClient(root) {
  const info = readJson("game-info");
  const t = makeTranslator(readJson("game-labels"));
  const parts = {
    turn: root.querySelector("[data-turn]"),
    timer: root.querySelector("[data-timer]"),
    facts: root.querySelector("[data-facts]"),
    connection: root.querySelector("[data-connection]"),
    svg: root.querySelector("[data-board] svg"),
    lines: root.querySelector("[data-lines]"),
    prompt: root.querySelector("[data-prompt]"),
    error: root.querySelector("[data-error]"),
    handSection: root.querySelector("[data-hand-section]"),
    hand: root.querySelector("[data-hand]"),
    standin: root.querySelector("[data-standin]"),
    log: root.querySelector("[data-log]"),
    announce: root.querySelector("[data-announce]"),
  };
  const local = {
    frame: null,
    busy: false,
    pending: null, // { card, ways }: a card with a sub-choice (Scarecrow, Bishop)
    keep: new Map(), // hand position -> card code, while choosing the cards to keep
    focusKey: null,
    lastFrameAt: 0, // when the socket last sent anything
    sentAt: 0, // when the last action was sent
    syncAt: 0, // when the watchdog last asked for the state
    announced: { seq: null, turn: null },
    opens: 0, // socket connections so far; chatRead: the one whose chat history was read
    chatRead: null,
  };

  const battlePanel = createBattlePanel(root.querySelector("[data-battle-panel]"), t);
  const victoryMeter = createVictoryMeter(root.querySelector("[data-victory-section]"), parts.svg, t);
  const discardViewer = createDiscardViewer(root.querySelector("[data-discards-section]"), t);
  // Table talk: the chat panel and the "Show cards" control (they send on the same socket).
  const chat = createChatPanel(root.querySelector("[data-chat]"), {
    word: (key, params) => t.ui(key, params),
    send: (frame) => socket.send(frame),
    authorName: (message) => chatAuthor(message),
  });
  const showControl = createShowControl(root.querySelector("[data-show]"), {
    t,
    send: (frame) => socket.send(frame),
  });
  // The hint, for a seated player whose every opponent is one of the site's bots.
  const hint = createHint(root.querySelector("[data-hint]"));
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
      readChatAfterConnecting(chat, local, root.querySelector("[data-chat]").dataset.chatUrl);
      const previous = local.frame;
      // Frames on one socket arrive in order; an older version can only be a leftover.
      if (previous && frame.version < previous.version) return;
      if (!previous || frame.version !== previous.version) {
        local.pending = null;
        local.keep.clear();
      }
      local.frame = frame;
      local.busy = false;
      render();
    } else if (frame.type === "rematch") {
      receiveRematch(frame);
    } else if (frame.type === "error") {
      local.busy = false;
      showError(frame.message || frame.code);
      render();
    }
  }

  // A seat's message is named after its seat ("Red — alice"; a bot's "Blue — Colleoni (solid
  // bot)": a bot's name already says it is one, with its level, so it is not marked twice).
  function chatAuthor(message) {
    const game = local.frame?.game;
    if (message.seat === null || message.seat === undefined || !game) return message.name;
    const seat = game.seats?.[message.seat];
    if (seat && seat.kind === "bot" && !seat.name) return t.ui("chat_bot", { name: seatFullName(t, game, message.seat) });
    return seatFullName(t, game, message.seat);
  }

  function showError(message) {
    parts.error.hidden = !message;
    parts.error.textContent = message ? t.ui("error", { message }) : "";
  }

  function send(action) {
    if (!local.frame || local.busy) return;
    const sent = socket.send({ type: "action", action, expected_version: local.frame.version });
    if (!sent) return;
    showError("");
    local.busy = true;
    local.sentAt = Date.now();
    local.pending = null;
    render();
  }

  function playCard(code) {
    const ways = groupLegalActions(local.frame.view.legal_actions).cards.get(code) ?? [];
    if (ways.length === 1) send(ways[0]);
    else if (ways.length > 1) {
      local.pending = { card: code, ways };
      render();
    }
  }

  function toggleKeep(position, code) {
    if (local.keep.has(position)) local.keep.delete(position);
    else local.keep.set(position, code);
    render();
  }

  function chooseRegion(region) {
    const choosable = choosableRegions();
    const action = choosable.get(region);
    if (action) send(action);
  }

  function choosableRegions() {
    const view = local.frame?.view;
    if (!view || local.busy) return new Map();
    if (local.pending?.card === "bishop") return popeChoices(local.pending.ways).onRegion;
    return groupLegalActions(view.legal_actions).regions;
  }

  function isMyTurn(view) {
    return view.seat !== null && view.seat !== undefined && view.current_player === view.seat && (view.legal_actions?.length ?? 0) > 0;
  }

  function render() {
    const frame = local.frame;
    if (!frame) return;
    const { view, game } = frame;
    const groups = groupLegalActions(view.legal_actions);
    const myTurn = isMyTurn(view) && hasAnyAction(groups);
    // Exposed on the root for styling and for the browser tests to wait on.
    root.dataset.state = game.status;
    root.dataset.phase = view.phase;
    root.dataset.version = String(frame.version);
    root.dataset.busy = String(local.busy);
    root.classList.toggle("is-my-turn", myTurn);
    root.classList.toggle("is-spectator", view.seat === null || view.seat === undefined);
    cueTurn({ root, t, view, game, myTurn });

    parts.turn.textContent = turnText({ view, game, t, isMyTurn: myTurn });
    parts.facts.textContent = factsText({ view, t });
    renderTimer();
    renderBoard(parts.svg, { view, game, t, choosable: choosableRegions() });
    explainPope(parts.svg, view, t);
    renderLines(parts.lines, { view, game, t });
    markLastMove(root, frame, t);
    battlePanel.update(view, game);
    victoryMeter.update(view, game);
    discardViewer.update(view);
    renderMyHand(view, groups);
    const mySeat = view.seat;
    const myLine = view.players?.[mySeat]?.line ?? [];
    parts.prompt.replaceChildren(
      ...promptContent({
        t,
        game,
        view,
        groups,
        pending: local.pending,
        busy: local.busy,
        send,
        cancel: () => {
          local.pending = null;
          render();
        },
        keepCards: [...local.keep.values()],
        isDefender:
          defenderSeat(view) === mySeat &&
          (view.defender_played === undefined ? myLine.length === 0 : !view.defender_played),
        isMyTurn: myTurn,
      }),
    );
    renderStandin(parts.standin, game, {
      word: t.ui,
      send: (sent) => socket.send(sent),
      noteClass: "standin__note",
    });
    renderGameOver(root, game, t);
    showControl.update(frame);
    hint.update({ frame, myTurn });
    const logLines = phraseTableLog(frame.log, t, game);
    renderLog(parts.log, logLines);
    announce(frame, logLines);
    restoreFocus();
  }

  function renderMyHand(view, groups) {
    const seated = view.hand !== null && view.hand !== undefined;
    parts.handSection.hidden = !seated;
    if (!seated) return;
    const keeping = groups.keeps.length > 0;
    const mode = keeping ? "keep" : groups.cards.size > 0 && !local.pending ? "play" : "idle";
    renderHand(parts.hand, {
      hand: view.hand,
      t,
      mode,
      playable: new Set(groups.cards.keys()),
      selected: new Set(local.keep.keys()),
      limit: keepLimit(groups.keeps),
      busy: local.busy,
      onPlay: playCard,
      onToggleKeep: toggleKeep,
      // Card help: the strength preview, and the confirm panel before a card that hurts (#14).
      view,
      seatNames: (local.frame.game?.seats ?? []).map((seat) => t.colour(seat.colour)),
      player: local.frame.game?.seats?.find((seat) => seat.you)?.name,
    });
  }

  function renderTimer() {
    const seconds = secondsLeft(local.frame?.game?.deadline);
    const running = seconds !== null && local.frame.game.status === "playing";
    parts.timer.hidden = !running;
    if (running) {
      parts.timer.textContent = t.ui("time_left", { seconds });
      parts.timer.classList.toggle("is-urgent", seconds <= 10);
    }
  }

  // The live region speaks when the turn changes hands and when a new move is logged.
  function announce(frame, logLines) {
    const messages = [];
    const last = logLines[logLines.length - 1];
    if (last && last.key !== local.announced.seq) {
      messages.push(last.text);
      local.announced.seq = last.key;
    }
    const turnKey = `${frame.version}:${frame.view.current_player}:${frame.game.status}`;
    if (turnKey !== local.announced.turn) {
      local.announced.turn = turnKey;
      messages.push(parts.turn.textContent);
    }
    if (messages.length) parts.announce.textContent = messages.join(". ");
  }

  // Re-rendering replaces buttons; keep the keyboard focus on the "same" or a sensible control.
  function restoreFocus() {
    returnFocus(root, local.focusKey);
  }

  trackFocusKey(root, local);
  listenToRegions(parts.svg, chooseRegion);
  setInterval(() => {
    renderTimer();
    watchdog(local, socket);
  }, 500);
  socket.connect();
}

const root = document.querySelector("[data-game-root]");
if (root) createGameClient(root);
