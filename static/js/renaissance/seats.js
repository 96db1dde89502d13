// The seats around the board: per seat its colour and nation's mark, name, nation, ducats, cards
// in hand, cities, provinces held, Renaissance Points so far, and its vote: during a vote who
// has voted (never how), after the reveal every vote (public.last_votes).

// Provinces all of whose cities `seat` owns (docs/renaissance/rules.md, 6.6): what scores.
export function provincesHeld(view, facts, seat) {
  const owner = view.public?.owner ?? [];
  const index = new Map((view.cities ?? []).map((name, position) => [name, position]));
  let held = 0;
  for (const cities of Object.values(facts?.provinces ?? {})) {
    if (cities.length && cities.every((name) => owner[index.get(name)] === seat)) held += 1;
  }
  return held;
}

export function citiesHeld(view, seat) {
  return (view.public?.owner ?? []).filter((owner) => owner === seat).length;
}

function voteText(view, seat, t) {
  const pub = view.public ?? {};
  if (view.phase === "vote") return pub.voted?.[seat] ? t.ui("voted") : t.ui("not_voted");
  const last = pub.last_votes ?? [];
  if (seat < last.length) return last[seat] ? `⚔ ${t.ui("voted_war")}` : `☮ ${t.ui("voted_peace")}`;
  return "";
}

// The seats whose power's full text a person opened: kept across the renders of every frame.
const openPowers = new WeakMap(); // list -> Set of seats

// With the nations' powers on (game.options.powers): the nation's power in a short line, which
// opens on its full text.
function powerLine(list, seat, nation, t) {
  const power = t.power(nation);
  if (!power) return null;
  const opened = openPowers.get(list) ?? new Set();
  openPowers.set(list, opened);
  const details = document.createElement("details");
  details.className = "rn-seat__power";
  details.dataset.fact = "power";
  details.open = opened.has(seat);
  details.addEventListener("toggle", () => (details.open ? opened.add(seat) : opened.delete(seat)));
  const summary = document.createElement("summary");
  summary.textContent = t.ui("power", { power: power.short });
  summary.dataset.focusKey = `rn-power:${seat}`;
  const full = document.createElement("p");
  full.textContent = power.full;
  details.append(summary, full);
  return details;
}

function fact(key, label, value) {
  const term = document.createElement("dt");
  term.textContent = label;
  const detail = document.createElement("dd");
  detail.dataset.fact = key;
  detail.textContent = String(value);
  return [term, detail];
}

export function renderSeats(list, frame, ctx) {
  const { view, game } = frame;
  const { t } = ctx;
  const pub = view.public ?? {};
  const acting = new Set(view.acting_seats ?? []);
  const items = (game.seats ?? []).map((info, seat) => {
    const item = document.createElement("li");
    item.className = `rn-seat rn-seat--${seat}`;
    item.dataset.seat = String(seat);
    item.dataset.testid = "rn-seat";
    if (acting.has(seat)) item.classList.add("is-acting");
    if (info.you) item.classList.add("is-you");

    const head = document.createElement("div");
    head.className = "rn-seat__head";
    const badge = document.createElement("span");
    badge.className = `rn-badge rn-seat-bg-${seat}`;
    badge.textContent = t.nationMark(pub.nations?.[seat]);
    badge.setAttribute("aria-hidden", "true");
    const name = document.createElement("span");
    name.className = "rn-seat__name";
    const extras = [];
    if (info.you) extras.push(t.ui("you"));
    // A bot's name already says it is one, with its level ("Sforza (solid bot)").
    if (info.standin) extras.push(t.ui("standin"));
    name.textContent = `${t.colour(info.colour)} — ${info.name}${extras.length ? ` (${extras.join(", ")})` : ""}`;
    const nation = document.createElement("span");
    nation.className = "rn-seat__nation";
    nation.dataset.fact = "nation";
    nation.textContent = t.nation(pub.nations?.[seat]);
    head.append(badge, name, nation);
    if (acting.has(seat)) {
      const cue = document.createElement("span");
      cue.className = "rn-seat__acting";
      cue.textContent = `▶ ${t.ui("acting")}`;
      head.append(cue);
    }

    const facts = document.createElement("dl");
    facts.className = "rn-seat__facts";
    facts.append(
      ...fact("ducats", t.ui("ducats"), pub.ducats?.[seat] ?? 0),
      ...fact("cards", t.ui("cards_in_hand"), pub.hand_sizes?.[seat] ?? 0),
      ...fact("cities", t.ui("cities"), citiesHeld(view, seat)),
      ...fact("provinces", t.ui("provinces"), provincesHeld(view, ctx.facts, seat)),
      ...fact("points", t.ui("points_short"), pub.points?.[seat] ?? 0),
    );
    facts.querySelector('[data-fact="points"]')?.previousElementSibling?.setAttribute("title", t.ui("points"));
    item.append(head, facts);
    const power = game.options?.powers ? powerLine(list, seat, pub.nations?.[seat], t) : null;
    if (power) item.append(power);

    const vote = voteText(view, seat, t);
    if (vote) {
      const line = document.createElement("p");
      line.className = "rn-seat__vote";
      line.dataset.vote = view.phase === "vote" ? (pub.voted?.[seat] ? "voted" : "waiting") : pub.last_votes?.[seat] ? "war" : "peace";
      line.textContent = view.phase === "vote" ? vote : `${t.ui("last_votes")}: ${vote}`;
      item.append(line);
    }
    const known = view.known?.[seat] ?? [];
    const exposed = view.exposed_cards?.[seat] ?? [];
    if (known.length || exposed.length) {
      const line = document.createElement("p");
      line.className = "rn-seat__known";
      const parts = [];
      if (known.length) parts.push(t.ui("known_cards", { cards: known.map(t.cardName).join(", ") }));
      if (exposed.length) parts.push(t.ui("exposed_cards", { cards: exposed.map(t.cardName).join(", ") }));
      line.textContent = parts.join(" · ");
      item.append(line);
    }
    return item;
  });
  list.replaceChildren(...items);
}
