// The battle's result, from the view's `last_battle`: the region, the winner (or nobody on a
// tie) and every seat's final strength. The board clears the lines as soon as the next region
// is chosen, so the panel keeps the result in sight until the player closes it (its button or
// Escape) or the next battle starts.

import { seatName } from "./i18n.js";

const BATTLE_PHASES = new Set(["battle", "final_battle"]);

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
    const name = document.createElement("span");
    name.textContent = seatName(t, game, seat);
    const value = document.createElement("strong");
    value.textContent = t.ui("strength", { strength });
    item.append(name, " ", value);
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
  return [label, title, winner, strengthList(battle, t, game), button];
}

// `container` is the page's [data-battle-panel]; `update` is called with every rendered frame.
export function createBattlePanel(container, t) {
  let shownKey = null; // the result on display
  let dismissedKey = null; // the result the player closed

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
    },
  };
}
