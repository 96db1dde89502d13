// The status strip: whose decision it is (in the vote, whose votes the table waits for), the
// clock, the turn track 1454–1494 with this turn marked, peace or war, the turn order and the deck.

export const YEARS = [1454, 1462, 1470, 1478, 1486, 1494];

export function actingSeats(view) {
  return view?.acting_seats ?? [];
}

export function isSeated(view) {
  return view?.seat !== null && view?.seat !== undefined;
}

// The seat's own decision now: in acting_seats with something to choose.
export function isMyDecision(view) {
  return isSeated(view) && actingSeats(view).includes(view.seat) && (view.legal_actions?.length ?? 0) > 0;
}

export function turnText(frame, ctx) {
  const { view, game } = frame;
  const { t } = ctx;
  if (game.status !== "playing" || view.phase === "over") {
    const winners = game.result?.winners ?? view.public?.winners ?? [];
    if (!winners.length) return t.ui("game_over");
    return `${t.ui("game_over")}. ${t.ui("winners", { players: winners.map((seat) => ctx.seatName(seat)).join(", ") })}`;
  }
  const acting = actingSeats(view);
  const mine = isMyDecision(view);
  const phase = t.phase(view.phase);
  if (view.phase === "vote") {
    if (mine) return `${phase}: ${t.ui("your_vote")}`;
    const names = acting.map((seat) => ctx.seatName(seat)).join(", ");
    return `${phase}: ${t.ui("voting", { players: names })}`;
  }
  if (mine) return `${phase}: ${t.ui("your_turn")}`;
  if (acting.length) return `${phase}: ${t.ui("turn_of", { player: ctx.seatName(acting[0]) })}`;
  return phase;
}

export function secondsLeft(deadline, now = Date.now()) {
  if (!deadline) return null;
  return Math.max(0, Math.ceil((deadline - now) / 1000));
}

// The clock that matters to this page: the seat's own in the vote, else the earliest.
export function deadlineFor(frame) {
  const { view, game } = frame;
  if (game?.status !== "playing") return null;
  if (isSeated(view) && actingSeats(view).includes(view.seat)) return game.deadlines?.[view.seat] ?? game.deadline;
  return game.deadline ?? null;
}

export function renderTrack(list, view, t) {
  const turn = view.public?.turn ?? 0;
  const items = YEARS.map((year, index) => {
    const item = document.createElement("li");
    item.className = "rn-track__year";
    item.dataset.turn = String(index + 1);
    item.textContent = String(year);
    item.title = t.ui("turn_year", { turn: index + 1, year });
    if (index + 1 === turn) {
      item.classList.add("is-current");
      item.setAttribute("aria-current", "step");
    } else if (index + 1 < turn) {
      item.classList.add("is-past");
    }
    return item;
  });
  if (turn === 0) {
    const setup = document.createElement("li");
    setup.className = "rn-track__year is-current";
    setup.dataset.turn = "0";
    setup.setAttribute("aria-current", "step");
    setup.textContent = t.ui("setup");
    items.unshift(setup);
  }
  list.replaceChildren(...items);
}

export function renderPolitics(node, view, t) {
  const pub = view.public ?? {};
  if (!pub.turn || pub.turn > 6) {
    node.textContent = "";
    delete node.dataset.war;
    return;
  }
  if (view.phase === "vote") {
    // The vote decides this turn's state: last turn's does not stand for it meanwhile.
    node.dataset.war = "voting";
    node.textContent = `⚖ ${t.ui("politics_voting")}`;
    return;
  }
  const war = pub.war === 1;
  node.dataset.war = war ? "1" : "0";
  // A mark beside the word, so that colour is never the only sign: crossed swords or a dove.
  node.textContent = `${war ? "⚔" : "☮"} ${t.ui(war ? "war_now" : "peace_now")}`;
}

export function renderOrder(node, view, ctx) {
  const pub = view.public ?? {};
  const order = pub.order ?? [];
  const label = document.createElement("span");
  label.className = "rn-order__label";
  label.textContent = `${ctx.t.ui("order")}: `;
  const seats = order.map((seat, index) => {
    const item = document.createElement("span");
    item.className = `rn-order__seat rn-seat-text-${seat}`;
    item.dataset.seat = String(seat);
    item.textContent = ctx.seatName(seat);
    if (index === pub.step && pub.current === seat) {
      item.classList.add("is-current");
      item.setAttribute("aria-current", "true");
    }
    return item;
  });
  const joined = [];
  seats.forEach((item, index) => {
    if (index) joined.push(document.createTextNode(" › "));
    joined.push(item);
  });
  node.replaceChildren(label, ...joined);
}
