// The end of a Renaissance game: who won and why (the result's tie-break `reason`), every seat's
// Renaissance Points turn by turn (view.public.sheet) with the last count's parts, and the ways
// on: Rematch, New game, Lobby, Replay.
//
// The last count's parts come from the final public state, honestly: a turn scores 1 point per
// province whose every city a seat holds and 1 per palace of its own with an artist
// (games/renaissance/flow.py renaissance_points, docs/renaissance/rules.md 6.6), and nothing
// moves on the board after the sixth turn is counted. So a seat's palaces with an artist are
// read from `owner` and `artist`, and its provinces are that last turn's points less them.
//
// renderEnd(container, frame, ctx): drawn once per finished game (redrawing on every frame
// would take the keyboard focus away); hides the container while the game is not finished.
// The container may carry data-rematch-url, data-new-game-url, data-lobby-url, data-replay-url
// and a csrfmiddlewaretoken input; without them the site's own paths and the csrftoken cookie
// are used.

import { listWords, logWords } from "./log.js";

const YEARS = [1454, 1462, 1470, 1478, 1486, 1494];

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = String(text);
  return node;
}

function count(list, test) {
  return list.reduce((sum, value, index) => sum + (test(value, index) ? 1 : 0), 0);
}

// Per seat: the turn sheet, total, last count's provinces and artists, and the tie-breaks.
export function finalCount(frame) {
  const pub = frame?.view?.public ?? {};
  const owner = pub.owner ?? [];
  const seats = pub.n ?? (pub.sheet ?? []).length;
  const result = frame?.game?.result ?? {};
  return Array.from({ length: seats }, (_, seat) => {
    const sheet = pub.sheet?.[seat] ?? [];
    const mine = (index) => owner[index] === seat;
    const artists = count(pub.artist ?? [], (value, index) => value && mine(index));
    const last = sheet.length === YEARS.length ? sheet[sheet.length - 1] : null;
    return {
      seat,
      sheet,
      total: result.points?.[seat] ?? pub.points?.[seat] ?? sheet.reduce((a, b) => a + b, 0),
      provinces: last === null ? null : last - artists,
      artists: last === null ? null : artists,
      fortresses: count(pub.fort ?? [], (value, index) => value === 2 && mine(index)),
      ramparts: count(pub.fort ?? [], (value, index) => value === 1 && mine(index)),
      ducats: pub.ducats?.[seat] ?? 0,
      winner: (result.winners ?? pub.winners ?? []).includes(seat),
    };
  });
}

function seatLabel(ctx, seat) {
  const name = ctx.seatName?.(seat) ?? String(seat + 1);
  return name;
}

// One column per seat, one row per turn, then the total, the last count's parts and, when the
// points did not decide, the tie-breaks: the table stays narrow enough for a side panel.
function scoreTable(rows, words, ctx, reason) {
  const table = element("table", "rn-end__table");
  const caption = element("caption", "", words.end("caption"));
  caption.style.textAlign = "start";
  table.append(caption);
  const head = element("tr");
  const corner = element("th", "", words.end("turn"));
  corner.scope = "col";
  head.append(corner);
  for (const row of rows) {
    const cell = element("th", row.winner ? "rn-end__seat rn-end__seat--winner" : "rn-end__seat", seatLabel(ctx, row.seat));
    cell.scope = "col";
    cell.dataset.seat = String(row.seat);
    // A star keeps a six-seat table's heads one word wide; its words are for a screen reader.
    if (row.winner) {
      const mark = element("strong", "rn-end__winner");
      const star = element("span", "", "★");
      star.setAttribute("aria-hidden", "true");
      mark.append(star, element("span", "visually-hidden", `(${words.end("winner_mark")})`));
      cell.append(" ", mark);
    }
    head.append(cell);
  }
  table.append(element("thead"));
  table.tHead.append(head);
  const body = element("tbody");
  const line = (label, value, className = "") => {
    const tr = element("tr", className);
    const name = element("th", "", label);
    name.scope = "row";
    tr.append(name, ...rows.map((row) => element("td", "", value(row) ?? "–")));
    body.append(tr);
  };
  YEARS.forEach((year, turn) => line(year, (row) => row.sheet[turn]));
  line(words.end("total"), (row) => row.total, "rn-end__total");
  line(words.end("provinces"), (row) => row.provinces);
  line(words.end("artists"), (row) => row.artists);
  if (reason && reason !== "points") {
    for (const key of ["fortresses", "ramparts", "ducats"]) line(words.end(key), (row) => row[key]);
  }
  table.append(body);
  return table;
}

function csrfToken(container) {
  const input = container.querySelector("input[name=csrfmiddlewaretoken]")
    ?? document.querySelector("input[name=csrfmiddlewaretoken]");
  if (input) return input.value;
  const cookie = document.cookie.split("; ").find((part) => part.startsWith("csrftoken="));
  return cookie ? decodeURIComponent(cookie.slice("csrftoken=".length)) : "";
}

// The table form filled in with this game's settings (Rematch is the way to ask the same people).
export function newGameQuery(game) {
  const query = new URLSearchParams({ game: "renaissance", players: String(game.players) });
  if (game.turn_seconds) query.set("turn_seconds", String(game.turn_seconds));
  const options = game.options ?? {};
  if (options.scenario) query.set("scenario", String(options.scenario));
  if (options.powers) query.set("powers", "on");
  if (options.remove) query.set("remove", String(options.remove));
  for (const seat of game.seats ?? []) {
    const kind = seat.you ? "me" : seat.kind === "bot" ? "bot" : "open";
    query.set(`seat_${seat.index}_kind`, kind);
    if (kind === "bot" && seat.level) query.set(`seat_${seat.index}_level`, seat.level);
  }
  return query.toString();
}

function link(href, text, key) {
  const anchor = element("a", "button button--secondary", text);
  anchor.href = href;
  anchor.dataset.focusKey = key;
  return anchor;
}

function controls(container, game, words) {
  const urls = container.dataset;
  const box = element("div", "rn-end__controls prompt__choices");
  if ((game.seats ?? []).some((seat) => seat.you)) {
    const form = element("form", "inline-form");
    form.method = "post";
    form.action = urls.rematchUrl ?? `/games/${game.id}/rematch/`;
    const token = element("input");
    Object.assign(token, { type: "hidden", name: "csrfmiddlewaretoken", value: csrfToken(container) });
    const button = element("button", "button", words.end("rematch"));
    button.type = "submit";
    button.dataset.focusKey = "rematch";
    form.append(token, button);
    box.append(form);
  }
  box.append(link(`${urls.newGameUrl ?? "/tables/new/"}?${newGameQuery(game)}`, words.end("new_game"), "new-game"));
  box.append(link(urls.lobbyUrl ?? "/lobby/", words.end("lobby"), "lobby"));
  box.append(link(urls.replayUrl ?? `/games/${game.id}/replay/`, words.end("replay"), "replay"));
  return box;
}

export function renderEnd(container, frame, ctx = {}) {
  const game = frame?.game ?? {};
  const finished = game.status === "finished";
  container.hidden = !finished;
  if (!finished || container.dataset.drawnFor === String(game.id)) return;
  container.dataset.drawnFor = String(game.id);
  const words = logWords(ctx);
  const result = game.result ?? {};
  const rows = finalCount(frame);
  const winners = rows.filter((row) => row.winner).map((row) => seatLabel(ctx, row.seat));
  const panel = element("section", "rn-end__panel");
  panel.setAttribute("aria-labelledby", "rn-end-title");
  const title = element("h2", "rn-end__title", words.end("title"));
  title.id = "rn-end-title";
  title.tabIndex = -1;
  panel.append(title);
  if (winners.length) {
    const sentence = words.count("winners", winners.length, { players: listWords(words, winners) });
    panel.append(element("p", "rn-end__winners", sentence));
  }
  if (result.reason) panel.append(element("p", "rn-end__reason", words.reason(result.reason)));
  // The table is wider than a narrow side panel: it scrolls sideways on its own, not the page.
  const scroll = element("div", "rn-end__scroll");
  scroll.style.overflowX = "auto";
  scroll.append(scoreTable(rows, words, ctx, result.reason));
  panel.append(scroll, controls(container, game, words));
  container.replaceChildren(panel);
}
