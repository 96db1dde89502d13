// A game of a match, once it is over: the standings so far, "Ready for the next game" and the
// next game's countdown, or the match's result. Read from /matches/of-game/<id>.json (the words
// come with it, in the page's language), polled while the match waits between two games; a
// seated player whose next game has started is taken there.

const POLL_MS = 2000;

function format(template, values) {
  return template.replace(/%\((\w+)\)s/g, (_, key) => String(values[key] ?? ""));
}

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function names(match, seats) {
  return seats.map((index) => match.seats[index]?.name ?? "").join(", ");
}

function standings(match, labels) {
  const table = element("table", "match-standings");
  const head = table.createTHead().insertRow();
  head.append(element("th", "", ""));
  for (const seat of match.seats) {
    const cell = element("th", "", seat.name);
    cell.dataset.seatColour = String(seat.index);
    head.append(cell);
  }
  const body = table.createTBody();
  for (const game of match.games) {
    const row = body.insertRow();
    row.append(element("th", "", game.decider ? labels.decider : format(labels.game, { number: game.number })));
    for (const seat of match.seats) {
      const won = game.winners.includes(seat.index) ? " ★" : "";
      const value = game.decider ? (won ? "★" : "") : game.points ? `${game.points[seat.index]}${won}` : "…";
      row.append(element("td", "", value.trim()));
    }
  }
  const foot = table.createTFoot().insertRow();
  foot.append(element("th", "", labels.total));
  for (const value of match.totals) foot.append(element("td", "", String(value)));
  return table;
}

// How long past its timer the next game may still be opening by itself (the timer's job runs a
// moment after it) before the page offers to start it.
const OVERDUE_MS = 3000;

function readyButton(match, labels, csrf, redraw, text = null) {
  const button = element("button", "button", text ?? (match.next_is_decider ? labels.ready_decider : labels.ready));
  button.type = "button";
  button.dataset.focusKey = "match-ready";
  button.addEventListener("click", async () => {
    button.disabled = true;
    const response = await fetch(match.ready_url, {
      method: "POST",
      headers: { "X-CSRFToken": csrf, Accept: "application/json" },
      credentials: "same-origin",
    });
    const data = await response.json().catch(() => ({}));
    if (!response.ok) {
      button.disabled = false;
      button.after(element("p", "form-errors", data.message ?? ""));
      return;
    }
    redraw(data.match);
  });
  return button;
}

// `startNow()`: the button that starts an overdue next game, for a player who may (or null).
function status(match, labels, gameId, startNow = () => null) {
  if (match.status === "finished") {
    return element("p", "match__result", format(labels.won, { names: names(match, match.result.winners) }));
  }
  if (match.status === "aborted") return element("p", "match__result", labels.aborted);
  if (match.current_game !== gameId) {
    const link = element("a", "button", labels.next_game);
    link.href = match.current_game_url;
    link.dataset.focusKey = "match-next-game";
    return link;
  }
  const line = element("p", "match__next");
  if (match.next_is_decider) line.append(element("span", "", format(labels.tied, { names: names(match, match.next_players) }) + " "));
  const left = match.next_game_at - Date.now();
  const seconds = Math.max(0, Math.ceil(left / 1000));
  // At 0 s the game is being opened: say so, and if that takes long (a late job), offer to start
  // it (a "ready" past the timer opens it, games/matches/services.py say_ready).
  line.append(element("span", "", seconds > 0 ? format(labels.starts_in, { seconds }) : labels.starting));
  const button = left < -OVERDUE_MS ? startNow() : null;
  const part = button ? element("div", "match__overdue") : line;
  if (button) part.append(line, button);
  part.dataset.countdown = "";
  return part;
}

// Draws in `place` (in the end `box`, whose CSRF token it uses). Resolves, once the match's JSON
// first answers, to the match, or null for a game of no match.
export function showMatch(place, box, gameId) {
  place.classList.add("match-box");
  let answered = null;
  const first = new Promise((resolve) => {
    answered = resolve;
  });
  const csrf = box.querySelector("input[name=csrfmiddlewaretoken]")?.value ?? "";
  let labels = null;
  let timer = null;
  let drawn = "";
  let current = null; // the match as last read

  // Only a player already ready needs it: the others still have their Ready button.
  function startNow() {
    if (!current?.can_ready || !current.ready.includes(current.you)) return null;
    const button = readyButton(current, labels, csrf, draw, labels.start_now);
    button.dataset.focusKey = "match-start-now";
    return button;
  }

  function draw(match) {
    if (!match) return;
    current = match;
    clearTimeout(timer);
    if (match.status === "playing") timer = setTimeout(poll, POLL_MS);
    // Redrawn only when the match changed (the focus stays on the button); the countdown ticks.
    const key = JSON.stringify([match.status, match.current_game, match.totals, match.ready, match.next_game_at]);
    if (key === drawn) {
      // The button, once there, stays: replacing it every tick would take the focus away.
      const countdown = place.querySelector("[data-countdown]");
      if (countdown && !countdown.querySelector("button")) countdown.replaceWith(status(match, labels, gameId, startNow));
      return;
    }
    drawn = key;
    const seated = match.you !== null && match.you !== undefined;
    if (match.current_game !== gameId && seated && match.games.at(-1)?.seats.includes(match.you)) {
      window.location.assign(match.current_game_url);
      return;
    }
    const title = element("h3", "match-box__title");
    const link = element("a", "", format(labels.title, { target: match.target }));
    link.href = match.url;
    title.append(link);
    // The next game first (the main action, in sight under the game's result), the table after.
    const parts = [title];
    if (match.can_ready) {
      parts.push(match.ready.includes(match.you) ? element("p", "muted", labels.you_are_ready) : readyButton(match, labels, csrf, draw));
    }
    parts.push(status(match, labels, gameId, startNow), standings(match, labels));
    place.replaceChildren(...parts);
    place.dataset.matchStatus = match.status;
  }

  async function poll() {
    try {
      const response = await fetch(`/matches/of-game/${gameId}.json`, { credentials: "same-origin" });
      const data = await response.json();
      answered(data.match);
      if (!data.match) {
        place.remove();
        return;
      }
      labels = data.labels;
      draw(data.match);
    } catch {
      timer = setTimeout(poll, POLL_MS * 2);
    }
  }

  poll();
  return first;
}
