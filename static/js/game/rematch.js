// Rematch, on the finished game's page, live for every player (as on lichess). One player offers
// it (a new table of the same seats and settings: games/lobby/rematch.py); every other person sees
// the offer at once, from the game socket's `rematch` frame, with Accept and Decline. Accept takes
// their seat and goes to the new table; Decline opens the seat to anyone and the others read it
// here. When the new game starts, every player who accepted and is still on this page goes to it.

const local = { area: null, box: null, game: null, t: null, offer: null, sawOpen: false };

// The place to draw in, once the end box knows this game is no game of a match.
export function setUpRematch(area, { box, game, t }) {
  Object.assign(local, { area, box, game, t });
  draw();
}

// A `rematch` frame (docs/protocol.md, section 6), or the offer a request answered with.
export function receiveRematch(offer) {
  local.offer = offer;
  draw();
}

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function csrf() {
  return local.box.querySelector("input[name=csrfmiddlewaretoken]")?.value ?? "";
}

function button(text, focusKey, secondary, onClick) {
  const node = element("button", `button${secondary ? " button--secondary" : ""}`, text);
  node.type = "button";
  node.dataset.focusKey = focusKey;
  node.addEventListener("click", onClick);
  return node;
}

function linkButton(href, text, focusKey) {
  const node = element("a", "button button--secondary", text);
  node.href = href;
  node.dataset.focusKey = focusKey;
  return node;
}

// A POST answered with the offer as it now stands (or a refusal, shown under the buttons).
async function post(url, control) {
  control.disabled = true;
  const response = await fetch(url, {
    method: "POST",
    headers: { "X-CSRFToken": csrf(), Accept: "application/json" },
    credentials: "same-origin",
  }).catch(() => null);
  const data = response ? await response.json().catch(() => ({})) : {};
  if (!response?.ok) {
    control.disabled = false;
    local.area.append(element("p", "form-errors", data.message ?? ""));
    return;
  }
  // The answer to this page's own click is live: a new game it started is gone to at once.
  local.sawOpen = true;
  if (data.rematch) receiveRematch(data.rematch);
}

// Accept is the table's own "join" form: the server seats the person and answers with the new
// table's page, or the new game's if theirs was the last seat.
function acceptForm(offer) {
  const form = element("form", "inline-form");
  form.method = "post";
  form.action = offer.join_url;
  const token = local.box.querySelector("input[name=csrfmiddlewaretoken]");
  if (token) form.append(token.cloneNode());
  const submit = element("button", "button", local.t.ui("rematch_accept"));
  submit.type = "submit";
  submit.dataset.focusKey = "rematch-accept";
  form.append(submit);
  return form;
}

function namesOf(offer, answer) {
  return offer.seats
    .filter((seat) => seat.answer === answer)
    .map((seat) => local.game.seats[seat.index]?.name ?? "")
    .join(", ");
}

function mySeat() {
  return local.game?.seats?.find((seat) => seat.you) ?? null;
}

function draw() {
  const { area, offer, t } = local;
  const me = mySeat();
  if (!area) return;
  area.dataset.rematch = offer ? offer.status : "none";
  if (!me) return area.replaceChildren(); // spectators follow the players, they do not answer
  if (!offer) {
    const ask = button(local.box.dataset.labelRematch, "rematch", false, () => post(local.box.dataset.rematchUrl, ask));
    return area.replaceChildren(ask);
  }
  const mine = offer.seats.find((seat) => seat.index === me.index)?.answer;
  area.dataset.rematchAnswer = mine ?? "";
  if (offer.status === "open") local.sawOpen = true;
  else return drawAfterOpen(offer, mine);
  const parts = [];
  const line = element("p", "rematch__line");
  if (mine === "waiting") {
    line.textContent = t.ui("rematch_offered_by", { player: local.game.seats[offer.offered_by]?.name ?? "" });
    parts.push(line, acceptForm(offer));
    const decline = button(t.ui("rematch_decline"), "rematch-decline", true, () => post(offer.decline_url, decline));
    parts.push(decline);
  } else {
    const offerer = offer.offered_by === me.index;
    const key = mine === "declined" ? (offerer ? "rematch_you_left" : "rematch_you_declined") : offerer ? "rematch_you_offered" : "rematch_you_accepted";
    line.textContent = t.ui(key);
    parts.push(line);
    if (mine === "accepted") parts.push(linkButton(offer.url, t.ui("rematch_to_table"), "rematch-table"));
  }
  const waiting = namesOf(offer, "waiting");
  if (waiting && mine !== "waiting") parts.push(element("p", "rematch__line", t.ui("rematch_waiting", { players: waiting })));
  const declined = namesOf(offer, "declined");
  if (declined && mine !== "declined") {
    const said = element("p", "rematch__line", t.ui("rematch_declined", { players: declined }));
    said.dataset.rematchDeclined = "";
    parts.push(said);
  }
  area.replaceChildren(...parts);
}

// The new game started (or its table closed). A player who accepted while watching this page goes
// to the new game; coming back to this page later, nobody is sent away again.
function drawAfterOpen(offer, mine) {
  const { area, t } = local;
  const started = offer.status === "playing" || offer.status === "finished";
  if (started && mine === "accepted" && local.sawOpen) {
    window.location.assign(offer.url);
    return;
  }
  if (!started) return area.replaceChildren(element("p", "rematch__line", t.ui("rematch_closed")));
  const label = mine === "accepted" ? "rematch_to_table" : "rematch_watch";
  area.replaceChildren(element("p", "rematch__line", t.ui("rematch_started")), linkButton(offer.url, t.ui(label), "rematch-game"));
}
