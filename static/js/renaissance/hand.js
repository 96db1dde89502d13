// Your hand as cards: each card's name, its colour (blue troops, red battle cards, yellow cards
// of your own turn) written as well as drawn, a blue card's strength (3 to 7), the Condottiere's
// die, and what it does in a tooltip shown on hover and keyboard focus. A yellow card that may be
// played now is a button: it starts that play (its target is then chosen on the map).

// The combat moves each yellow card makes (docs/protocol.md, section 17).
export const CARD_PLAYS = {
  ride: ["ride"],
  raiders: ["raiders"],
  ambassador: ["ambassador"],
  marriage: ["marriage"],
  artist_banker: ["artist", "banker"],
};

export function playsOf(view, card) {
  const types = new Set((view.legal_actions ?? []).map((action) => action.type));
  return (CARD_PLAYS[card] ?? []).filter((type) => types.has(type));
}

function strengthMark(info, t) {
  const mark = document.createElement("span");
  mark.className = "rn-card__strength";
  if (info.strength) {
    mark.textContent = String(info.strength);
    mark.setAttribute("aria-label", t.ui("strength", { strength: info.strength }));
  } else {
    mark.textContent = "⚄"; // the Condottiere die
    mark.classList.add("rn-card__strength--die");
    mark.setAttribute("aria-label", t.ui("strength_die"));
  }
  return mark;
}

function cardNode(card, position, { t, playable, busy, onPlay }) {
  const info = t.card(card);
  const node = document.createElement(playable ? "button" : "div");
  node.className = `rn-card rn-card--${info.colour}`;
  node.dataset.card = card;
  node.dataset.testid = "rn-card";
  if (playable) {
    node.type = "button";
    node.dataset.focusKey = `card:${card}:${position}`;
    node.disabled = busy;
    node.classList.add("is-playable");
    node.addEventListener("click", () => onPlay(card));
  } else {
    node.tabIndex = 0; // its tooltip must be reachable by keyboard too
  }
  const tipId = `rn-card-tip-${position}`;
  node.setAttribute("aria-describedby", tipId);
  const name = document.createElement("span");
  name.className = "rn-card__name";
  name.textContent = info.name;
  const colour = document.createElement("span");
  colour.className = "rn-card__colour";
  colour.textContent = { blue: "▲", red: "◆", yellow: "●" }[info.colour] ?? "";
  colour.setAttribute("aria-hidden", "true");
  node.append(colour, name);
  if (info.colour === "blue" || card === "condottiere") node.append(strengthMark(info, t));
  const tip = document.createElement("span");
  tip.className = "rn-card__tip";
  tip.id = tipId;
  tip.setAttribute("role", "tooltip");
  tip.textContent = info.effect;
  node.append(tip);
  return node;
}

export function renderHand(container, { view, t, busy, onPlay }) {
  const hand = view.hand ?? [];
  if (!hand.length) {
    const empty = document.createElement("p");
    empty.className = "rn-hand__empty";
    empty.textContent = t.ui("hand_empty");
    container.replaceChildren(empty);
    return;
  }
  const summary = document.createElement("p");
  summary.className = "rn-hand__summary";
  summary.textContent = t.ui("hand_limit", { count: hand.length });
  const list = document.createElement("div");
  list.className = "rn-hand__cards";
  list.append(...hand.map((card, position) => cardNode(card, position, { t, playable: playsOf(view, card).length > 0, busy, onPlay })));
  container.replaceChildren(summary, list);
}
