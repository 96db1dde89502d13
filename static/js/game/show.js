// Showing cards ("They may show each other their cards, but may not exchange cards"): choose
// cards of your hand and whom to show them to (one player or everyone), at any time. What others
// showed you comes in your own view (players[i].shown_to_you), what you showed in shown_by_you;
// the log says only how many cards went to whom.

import { phraseEntry } from "./log.js";
import { seatName } from "./i18n.js";
import { winLine } from "./win_line.js";

// `send(frame)` sends on the game socket; the frame's version is added here.
export function createShowControl(root, { t, send }) {
  const picks = root.querySelector("[data-show-cards]");
  const target = root.querySelector("[data-show-to]");
  const known = root.querySelector("[data-show-known]");
  const submit = root.querySelector("[data-show-submit]");
  const whole = root.querySelector("[data-show-whole]");
  const note = root.querySelector("[data-show-note]");
  const local = { frame: null, chosen: new Set(), handKey: "" };

  for (const node of root.querySelectorAll("[data-show-word]")) node.textContent = t.ui(node.dataset.showWord);
  whole.addEventListener("click", () => {
    const hand = local.frame?.view?.hand ?? [];
    local.chosen = new Set(hand.map((_, index) => index));
    renderPicks();
  });
  submit.addEventListener("click", () => {
    const view = local.frame?.view;
    if (!view) return;
    const cards = [...local.chosen].sort((a, b) => a - b).map((index) => view.hand[index]).filter(Boolean);
    if (!cards.length) {
      note.textContent = t.ui("show_pick");
      return;
    }
    const to = target.value === "all" ? null : Number(target.value);
    if (send({ type: "show", to, cards, expected_version: local.frame.version })) {
      local.chosen.clear();
      note.textContent = "";
      renderPicks();
    }
  });

  function renderPicks() {
    const hand = local.frame?.view?.hand ?? [];
    const boxes = hand.map((code, index) => {
      const label = document.createElement("label");
      label.className = "show__card";
      const box = document.createElement("input");
      box.type = "checkbox";
      box.checked = local.chosen.has(index);
      box.dataset.showCard = code;
      box.addEventListener("change", () => {
        if (box.checked) local.chosen.add(index);
        else local.chosen.delete(index);
      });
      label.append(box, document.createTextNode(` ${t.cardTitle(code)}`));
      return label;
    });
    picks.replaceChildren(...boxes);
  }

  function renderTargets(view, game) {
    const chosen = target.value;
    const options = [new Option(t.ui("show_everyone"), "all")];
    for (const player of view.players ?? []) {
      if (player.seat === view.seat) continue;
      options.push(new Option(seatName(t, game, player.seat), String(player.seat)));
    }
    target.replaceChildren(...options);
    if ([...target.options].some((option) => option.value === chosen)) target.value = chosen;
  }

  function renderKnown(view, game) {
    const lines = [];
    for (const player of view.players ?? []) {
      if (player.shown_to_you?.length) {
        lines.push(
          t.ui("shown_to_you", { player: seatName(t, game, player.seat), cards: player.shown_to_you.map(t.cardTitle).join(", ") }),
        );
      }
    }
    for (const shown of view.shown_by_you ?? []) {
      lines.push(t.ui("shown_by_you", { player: seatName(t, game, shown.to), cards: shown.cards.map(t.cardTitle).join(", ") }));
    }
    known.replaceChildren(
      ...lines.map((line) => {
        const item = document.createElement("li");
        item.textContent = line;
        return item;
      }),
    );
    known.hidden = lines.length === 0;
  }

  return {
    update(frame) {
      const { view, game } = frame;
      local.frame = frame;
      const seated = view.seat !== null && view.seat !== undefined;
      // Cards are shown to sway a game being played: once it is over the box has no use (and its
      // form would leave it an empty frame), so it goes.
      root.hidden = !seated || game.status !== "playing";
      if (root.hidden) return;
      renderKnown(view, game);
      const holdsCards = (view.hand?.length ?? 0) > 0;
      root.querySelector("[data-show-form]").hidden = !holdsCards;
      // Nothing to show and nothing shown: no empty frame either.
      if (!holdsCards && known.hidden) root.hidden = true;
      const handKey = (view.hand ?? []).join(",");
      if (handKey !== local.handKey) {
        local.handKey = handKey;
        local.chosen.clear();
        renderPicks();
      }
      renderTargets(view, game);
    },
  };
}

// The log with the shows phrased too ("Red showed 3 cards to Blue"): log.js phrases the moves.
// A won game ends with how it was won (win_line.js).
export function phraseTableLog(log, t, game, language = document.documentElement.lang || "en") {
  const plural = new Intl.PluralRules(language);
  const lines = (log ?? []).flatMap((entry) => {
    const lines = entry.type === "show" ? [showLine(entry, t, game, plural)] : phraseEntry(entry, t, game);
    return lines.map((line, index) => ({ ...line, key: `${entry.seq}.${index}` }));
  });
  const won = winLine(game, t);
  return won ? [...lines, won] : lines;
}

function showLine(entry, t, game, plural) {
  const count = entry.count ?? 0;
  const everyone = entry.to === null || entry.to === undefined;
  const base = everyone ? "show_log_all" : "show_log";
  const form = plural.select(count) === "one" ? "one" : "other";
  const text = t.ui(`${base}_${form}`, {
    player: seatName(t, game, entry.seat),
    count,
    target: everyone ? "" : seatName(t, game, entry.to),
  });
  return { text, seat: entry.seat, kind: "show" };
}
