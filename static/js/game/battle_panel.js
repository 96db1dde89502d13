// The battle's result, from the view's `last_battle`: the region, the winner (or nobody on a
// tie) and every seat's final strength. The board clears the lines as soon as the next region
// is chosen, so the panel keeps the result in sight until the player closes it (its button or
// Escape) or the next battle starts. At the end of the game the game's result has the stage: the
// panel stays closed, live as after a reload. It is compact (every seat's strength a chip, as in
// the strength strip) and game.css places it where it covers no control.

import { seatName } from "./i18n.js";
import { seatInitial } from "./lines.js";

const BATTLE_PHASES = new Set(["battle", "final_battle"]);

function isOver(view, game) {
  return view.phase === "over" || game?.status === "finished" || game?.status === "aborted";
}

function resultKey(battle) {
  return JSON.stringify([battle.region, battle.winner, battle.strengths]);
}

function heading(battle, t) {
  return battle.region
    ? t.ui("battle_result_region", { region: t.region(battle.region) })
    : t.ui("battle_result_final");
}

function winnerText(battle, t, game) {
  if (battle.winner === null || battle.winner === undefined) return t.ui("battle_result_tie");
  return t.ui("battle_result_winner", { player: seatName(t, game, battle.winner) });
}

function strengthList(battle, t, game) {
  const list = document.createElement("ul");
  list.className = "battle-panel__strengths";
  (battle.strengths ?? []).forEach((strength, seat) => {
    const item = document.createElement("li");
    item.className = "battle-panel__seat";
    item.classList.toggle("is-winner", seat === battle.winner);
    item.dataset.seat = String(seat);
    item.dataset.strength = String(strength);
    item.style.setProperty("--seat", `var(--seat-${seat})`);
    // "R 23" on screen; "Red, Strength 23" in words for screen readers (and in the text).
    const initial = document.createElement("span");
    initial.className = "battle-panel__initial";
    initial.setAttribute("aria-hidden", "true");
    initial.textContent = seatInitial(t, game, seat);
    const name = document.createElement("span");
    name.className = "visually-hidden";
    name.textContent = `${seatName(t, game, seat)}, ${t.ui("strength", { strength })}`;
    const value = document.createElement("strong");
    value.setAttribute("aria-hidden", "true");
    value.textContent = String(strength);
    item.append(initial, name, value);
    list.append(item);
  });
  return list;
}

function panelContent(battle, t, game, close) {
  const title = document.createElement("h2");
  title.id = "battle-panel-title";
  title.className = "battle-panel__title";
  title.textContent = heading(battle, t);
  const label = document.createElement("p");
  label.className = "battle-panel__label";
  label.textContent = t.ui("battle_result");
  const winner = document.createElement("p");
  winner.className = "battle-panel__winner";
  winner.textContent = winnerText(battle, t, game);
  const button = document.createElement("button");
  button.type = "button";
  button.className = "button button--secondary button--small battle-panel__close";
  button.textContent = t.ui("battle_result_close");
  button.addEventListener("click", close);
  return [button, label, title, winner, strengthList(battle, t, game)];
}

// Wide screens (game.css makes the panel `position: absolute`): over the map's bottom-left
// corner, which is sea wherever the map is drawn, so no region to choose is ever under it. Placed
// from the map's box (the map's size follows the window), never wider than 45% of the map. On a
// phone the panel is in the page's flow and these offsets do nothing.
const CORNER_MARGIN = 10;
const WIDEST = 272;

function placeOverMapCorner(container, board) {
  if (container.hidden || !board) return;
  if (getComputedStyle(container).position !== "absolute") {
    container.style.removeProperty("width");
    return;
  }
  const parent = container.offsetParent ?? document.body;
  const map = board.getBoundingClientRect();
  const frame = parent.getBoundingClientRect();
  container.style.width = `${Math.round(Math.min(WIDEST, map.width * 0.45))}px`;
  container.style.left = `${Math.round(map.left - frame.left + CORNER_MARGIN)}px`;
  container.style.top = `${Math.round(map.bottom - frame.top - container.offsetHeight - CORNER_MARGIN)}px`;
}

// `container` is the page's [data-battle-panel]; `update` is called with every rendered frame.
export function createBattlePanel(container, t) {
  let shownKey = null; // the result on display
  let dismissedKey = null; // the result the player closed
  const board = document.querySelector("[data-board]");
  const place = () => placeOverMapCorner(container, board);
  const observer = new ResizeObserver(place);
  observer.observe(container); // its height sets its top
  if (board) observer.observe(board);
  window.addEventListener("resize", place);

  function hide() {
    container.hidden = true;
    container.replaceChildren();
    shownKey = null;
  }

  function close() {
    const hadFocus = container.contains(document.activeElement);
    dismissedKey = shownKey;
    hide();
    // Back to the decision in front of the player, not the page's body.
    if (hadFocus) document.querySelector("[data-prompt] button:not([disabled])")?.focus({ preventScroll: true });
  }

  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && !container.hidden) close();
  });

  return {
    update(view, game) {
      const battle = view.last_battle;
      if (isOver(view, game)) {
        hide();
        return;
      }
      if (BATTLE_PHASES.has(view.phase) || !battle) {
        // A battle is on: the last result is over, and the next one will be new.
        dismissedKey = null;
        hide();
        return;
      }
      const key = resultKey(battle);
      if (key === dismissedKey) return;
      if (key === shownKey) return; // re-rendering must not steal the close button's focus
      shownKey = key;
      container.dataset.region = battle.region ?? "";
      container.dataset.winner = battle.winner === null || battle.winner === undefined ? "" : String(battle.winner);
      container.replaceChildren(...panelContent(battle, t, game, close));
      container.hidden = false;
      place();
    },
  };
}
