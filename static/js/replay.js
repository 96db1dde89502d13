// The replay page's client. It fetches the replay's frames once (the server re-simulates the
// game from seed + log: step i is the state after the i-th action) and draws the chosen step
// with the live board's own modules, so a replay looks exactly like the game did.
// Controls: first/back/forward/last buttons, a slider, autoplay at a chosen speed, the keys
// ←/→, Home/End and space; a toggle shows every seat's hand (the game is over). The computer
// analysis (static/js/analysis.js) adds its graph, the accuracies and the log's marks.

import { createAnalysis } from "./analysis.js";
import { renderBoard } from "./game/board.js";
import { renderHand } from "./game/hand.js";
import { makeTranslator, seatFullName } from "./game/i18n.js";
import { renderLines } from "./game/lines.js";
import { renderLog } from "./game/log.js";
import { renderChatLog } from "./game/chat.js";
import { phraseTableLog } from "./game/show.js";
import { factsText, turnText } from "./game/status.js";

const NO_CHOICES = new Map();

function readJson(id) {
  return JSON.parse(document.getElementById(id).textContent);
}

function createReplay(root) {
  const info = readJson("replay-info");
  const labels = readJson("game-labels");
  const t = makeTranslator(labels);
  const words = labels.replay;
  const fill = (template, params) => template.replace(/\{(\w+)\}/g, (whole, key) => (key in params ? String(params[key]) : whole));
  const parts = {
    turn: root.querySelector("[data-turn]"),
    facts: root.querySelector("[data-facts]"),
    svg: root.querySelector("[data-board] svg"),
    lines: root.querySelector("[data-lines]"),
    log: root.querySelector("[data-log]"),
    handsSection: root.querySelector("[data-hands-section]"),
    hands: root.querySelector("[data-hands]"),
    slider: root.querySelector("[data-slider]"),
    where: root.querySelector("[data-where]"),
    label: root.querySelector("[data-label]"),
    speed: root.querySelector("[data-speed]"),
    showHands: root.querySelector("[data-show-hands]"),
    play: root.querySelector('[data-go="play"]'),
    playLabel: root.querySelector("[data-play-label]"),
    error: root.querySelector("[data-error]"),
  };
  const replay = { game: null, steps: [], log: [], chat: [], step: 0, timer: null };
  const analysisSection = root.querySelector("[data-analysis]");
  const analysis = analysisSection
    ? createAnalysis(analysisSection, {
        words: readJson("analysis-labels"),
        seatName: (game, seat) => seatFullName(t, game, seat),
        onStep: (step) => {
          stopIfManual();
          goTo(step);
        },
      })
    : null;

  function last() {
    return replay.steps.length - 1;
  }

  // The table as the board modules expect it; before the last step the game is still "playing".
  function gameAt(step) {
    return { ...replay.game, status: step === last() ? replay.game.status : "playing" };
  }

  function resultText(game) {
    const result = game.result ?? {};
    const winners = result.winners ?? [];
    const reason = t.reason(result.reason ?? "");
    if (winners.length === 0) return words.no_winner;
    const players = winners.map((seat) => seatFullName(t, game, seat)).join(", ");
    return fill(words.winner, { players, reason });
  }

  function renderHands(frame, game) {
    const show = parts.showHands.checked;
    parts.handsSection.hidden = !show;
    root.dataset.hands = show ? "shown" : "hidden";
    if (!show) return;
    const items = frame.hands.map((hand, seat) => {
      const item = document.createElement("li");
      item.className = "replay__hand";
      item.dataset.seat = String(seat);
      item.style.setProperty("--seat", `var(--seat-${seat})`);
      const title = document.createElement("h3");
      title.className = "replay__hand-title";
      title.textContent = seatFullName(t, game, seat);
      const cards = document.createElement("div");
      cards.className = "hand hand--replay";
      renderHand(cards, { hand, t, mode: "idle", playable: new Set(), selected: new Set(), limit: 0, busy: true });
      item.append(title, cards);
      return item;
    });
    parts.hands.replaceChildren(...items);
  }

  function render() {
    const frame = replay.steps[replay.step];
    if (!frame) return;
    const game = gameAt(replay.step);
    const view = frame.view;
    root.dataset.step = String(replay.step);
    root.dataset.phase = view.phase;
    parts.turn.textContent = replay.step === last() ? resultText(game) : turnText({ view, game, t, isMyTurn: false });
    parts.facts.textContent = factsText({ view, t });
    renderBoard(parts.svg, { view, game, t, choosable: NO_CHOICES });
    renderLines(parts.lines, { view, game, t });
    renderHands(frame, game);
    const shownLog = replay.log.filter((entry) => entry.seq <= frame.seq);
    const lines = phraseTableLog(shownLog, t, game);
    renderLog(parts.log, lines);
    analysis?.markLog(parts.log, lines);
    analysis?.setStep(replay.step);
    renderChatLog(root.querySelector("[data-replay-chat] [data-chat-list]"), replay.chat.filter((message) => message.seq <= frame.seq), {
      word: (key, params) => t.ui(key, params),
      authorName: (message) => (message.seat === null || message.seat === undefined ? message.name : seatFullName(t, game, message.seat)),
    });
    parts.slider.value = String(replay.step);
    parts.where.textContent = fill(words.step, { step: replay.step, total: last() });
    parts.label.textContent = frame.label;
    for (const button of root.querySelectorAll("[data-go]")) {
      const go = button.dataset.go;
      const atStart = replay.step === 0;
      const atEnd = replay.step === last();
      button.disabled = ((go === "first" || go === "back") && atStart) || ((go === "forward" || go === "last") && atEnd);
    }
  }

  function goTo(step) {
    const target = Math.max(0, Math.min(last(), step));
    if (target === replay.step && replay.steps.length) {
      render();
      return;
    }
    replay.step = target;
    if (replay.step === last()) stop();
    render();
  }

  function stop() {
    if (replay.timer) clearInterval(replay.timer);
    replay.timer = null;
    parts.play.setAttribute("aria-pressed", "false");
    parts.playLabel.textContent = parts.play.dataset.playWord;
    root.dataset.playing = "false";
  }

  function start() {
    if (replay.step === last()) replay.step = 0;
    stop();
    replay.timer = setInterval(() => goTo(replay.step + 1), Number(parts.speed.value));
    parts.play.setAttribute("aria-pressed", "true");
    parts.playLabel.textContent = parts.play.dataset.pauseWord;
    root.dataset.playing = "true";
    render();
  }

  function togglePlay() {
    if (replay.timer) {
      stop();
      render();
    } else start();
  }

  const moves = {
    first: () => goTo(0),
    back: () => goTo(replay.step - 1),
    forward: () => goTo(replay.step + 1),
    last: () => goTo(last()),
    play: togglePlay,
  };

  function onKey(event) {
    const target = event.target;
    const tag = target.tagName;
    if (tag === "SELECT" || tag === "TEXTAREA" || (tag === "INPUT" && target.type !== "checkbox")) return;
    const keys = { ArrowLeft: moves.back, ArrowRight: moves.forward, Home: moves.first, End: moves.last };
    if (keys[event.key]) {
      event.preventDefault();
      stopIfManual();
      keys[event.key]();
    } else if (event.key === " " && tag !== "BUTTON" && tag !== "INPUT") {
      event.preventDefault();
      togglePlay();
    }
  }

  function stopIfManual() {
    if (replay.timer) stop();
  }

  function listen() {
    for (const button of root.querySelectorAll("[data-go]")) {
      button.addEventListener("click", () => {
        if (button.dataset.go !== "play") stopIfManual();
        moves[button.dataset.go]();
      });
    }
    parts.slider.addEventListener("input", () => {
      stopIfManual();
      goTo(Number(parts.slider.value));
    });
    parts.speed.addEventListener("change", () => {
      if (replay.timer) start();
    });
    parts.showHands.addEventListener("change", render);
    document.addEventListener("keydown", onKey);
  }

  async function load() {
    try {
      const response = await fetch(info.framesUrl, { headers: { Accept: "application/json" } });
      if (!response.ok) throw new Error(String(response.status));
      const data = await response.json();
      replay.game = data.game;
      replay.steps = data.steps;
      replay.log = data.log;
      replay.chat = data.chat ?? [];
    } catch (error) {
      root.dataset.state = "failed";
      parts.error.hidden = false;
      parts.error.textContent = words.failed;
      parts.turn.textContent = "";
      return;
    }
    parts.slider.max = String(last());
    root.dataset.total = String(last());
    root.dataset.state = "ready";
    analysis?.setGame(replay.game, last());
    root.addEventListener("analysis:changed", render);
    listen();
    stop();
    goTo(0);
  }

  parts.play.dataset.playWord = parts.playLabel.textContent;
  load();
  analysis?.start();
}

const root = document.querySelector("[data-replay-root]");
if (root) createReplay(root);
