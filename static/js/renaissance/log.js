// The Renaissance log in words: the frame's public `log` entries (docs/protocol.md section 17,
// "The log"; games/renaissance/public_log.py) as sentences, newest first so the latest move is
// always in sight. Each entry gives its action's sentence, then what the action set off that the
// table saw (a battle's cards, dice and outcome, a pillage, the deal, a turn scored, a new turn,
// the end). The words come from the server (json_script "rn-log-labels",
// games/board/renaissance_log_words.py); placeholders in braces are filled here.
//
// createLog(container, ctx).render(frame): renders the entries it has not shown yet, and
// announces the newest one politely to screen readers (never the history already there at load).
// ctx.announce === false keeps it quiet (the replay says each step itself).
// lastMoveCities(frame): the cities the newest entry touched, for the board's "last" highlight.

const YEARS = [1454, 1462, 1470, 1478, 1486, 1494];

function fill(template, params) {
  return template.replace(/\{(\w+)\}/g, (whole, key) => (key in params ? String(params[key]) : whole));
}

function readLabels() {
  const node = typeof document !== "undefined" ? document.getElementById("rn-log-labels") : null;
  try {
    return node ? JSON.parse(node.textContent) : {};
  } catch {
    return {};
  }
}

// The words of the log, end panel and replay: ctx.logLabels when the page's entry passes them,
// else the page's json_script.
export function logWords(ctx = {}) {
  const labels = ctx.logLabels ?? readLabels();
  const language = (typeof document !== "undefined" && document.documentElement.lang) || "en";
  const plural = new Intl.PluralRules(language);
  const group = (name) => labels[name] ?? {};
  return {
    labels,
    say: (key, params = {}) => fill(group("log")[key] ?? key, params),
    count: (key, count, params = {}) => {
      const forms = group("plurals")[key] ?? {};
      return fill(forms[plural.select(count)] ?? forms.other ?? key, { ...params, count });
    },
    card: (name) => group("cards")[name] ?? name,
    nation: (name) => group("nations")[name] ?? name,
    reason: (reason) => group("reasons")[reason] ?? reason,
    end: (key, params = {}) => fill(group("end")[key] ?? key, params),
    replay: (key, params = {}) => fill(group("replay")[key] ?? key, params),
  };
}

// "Anna", "Anna and Ben", "Anna, Ben and Carla".
export function listWords(words, items) {
  if (!items.length) return words.say("nobody");
  if (items.length === 1) return items[0];
  const head = items.slice(0, -1).join(words.say("list_separator"));
  return words.say("list_and", { first: head, last: items[items.length - 1] });
}

function namer(ctx) {
  return {
    seat: (seat) => {
      if (seat === null || seat === undefined) return "";
      return ctx.seatName?.(seat) ?? String(seat + 1);
    },
    city: (name) => (name === null || name === undefined ? "" : (ctx.cityName?.(name) ?? name)),
  };
}

// --- the action's own sentence ------------------------------------------------------------------

const CITY_MOVES = new Set(["start", "rampart", "palace", "garrison", "return", "neglect", "banker"]);

function passSentence(entry, words, params) {
  const key = `pass_${entry.phase}`;
  const sentence = words.say(key, params);
  return sentence === key ? words.say("pass", params) : sentence;
}

function cityOutcome(entry, name) {
  return entry.cities?.[name] ?? {};
}

function yellowSentences(entry, words, params) {
  const city = cityOutcome(entry, entry.city);
  switch (entry.type) {
    case "raiders": {
      const opening = words.say(entry.free ? "raiders_free" : "raiders", params);
      const result = city.pillaged ? "raiders_hit" : "raiders_miss";
      return [opening, words.say(result, params)];
    }
    case "ambassador": {
      const drew = (entry.cards?.[entry.seat] ?? 0) > 0;
      return [words.say("ambassador", params), ...(drew ? [words.say("ambassador_cards", params)] : [])];
    }
    case "corrupt": {
      const won = city.owner === entry.seat;
      return [words.say("corrupt", params), words.say(won ? "corrupt_won" : "corrupt_failed", params)];
    }
    case "artist": {
      const burnt = city.palace === 0;
      return [words.say("artist", params), words.say(burnt ? "artist_savonarola" : "artist_settles", params)];
    }
    case "lure": {
      const moved = cityOutcome(entry, entry.to).artist === 1;
      return [words.say("lure", params), words.say(moved ? "lure_won" : "lure_failed", params)];
    }
    case "marriage": {
      // The Marriage's 2 ducats go to the city's owner: the seat whose ducats rose.
      const spouse = (entry.ducats ?? []).findIndex((change, seat) => change > 0 && seat !== entry.seat);
      if (spouse < 0) return [words.say("marriage", params)];
      return [words.say("marriage_with", { ...params, other: params.seatName(spouse) })];
    }
    default:
      return null;
  }
}

function battleMoveSentence(entry, words, params, card) {
  switch (entry.type) {
    case "commit":
      return entry.count ? words.count("commit", entry.count, params) : words.say("commit_none", params);
    case "counter":
      return words.say(entry.play ? "counter_play" : "counter_no", params);
    case "buy_traitor":
      return words.say(entry.buy ? "buy_traitor_yes" : "buy_traitor_no", params);
    case "sign_of_god": {
      const fight = entry.fight ?? entry.battle;
      const side = fight && fight.defender === entry.seat ? 1 : 0;
      const troop = fight?.troops?.[side]?.[entry.target];
      if (!troop) return words.say("sign_of_god_plain", params);
      return words.say("sign_of_god", { ...params, card: card(troop[0]) });
    }
    case "retreat":
      return words.say(entry.free ? "retreat_free" : "retreat", { ...params, card: card(entry.card) });
    default:
      return null;
  }
}

// "road" when a road joins the two cities (the board's facts, as the page has them), else "sea";
// null when the page has no board facts: the sentence then says neither.
function wayBetween(facts, from, to) {
  const roads = facts?.roads;
  if (!roads || typeof from !== "string" || typeof to !== "string") return null;
  const joined = roads.some(([a, b]) => (a === from && b === to) || (a === to && b === from));
  return joined ? "road" : "sea";
}

function actionSentences(entry, words, names, facts) {
  const params = {
    player: names.seat(entry.seat),
    city: names.city(entry.city),
    from: typeof entry.from === "string" ? names.city(entry.from) : names.seat(entry.from),
    to: typeof entry.to === "string" ? names.city(entry.to) : names.seat(entry.to),
    seatName: names.seat,
  };
  const yellow = yellowSentences(entry, words, params);
  if (yellow) return yellow;
  const battle = battleMoveSentence(entry, words, params, words.card);
  if (battle) return [battle];
  if (CITY_MOVES.has(entry.type)) return [words.say(entry.type, params)];
  switch (entry.type) {
    case "pass":
      return [passSentence(entry, words, params)];
    case "vote":
      return [words.say("vote", params)];
    case "buy_cards":
      return [words.count("buy_cards", entry.count ?? 0, params)];
    case "build":
      return [words.say(`build_${entry.piece}`, params)];
    case "announce":
      return [words.say(entry.bonus === "attack" ? "announce_attack" : "announce_defence", params)];
    case "expand":
    case "attack": {
      const way = wayBetween(facts, entry.from, entry.to);
      return [words.say(way ? `${entry.type}_${way}` : entry.type, params)];
    }
    case "done":
    case "ride":
    case "end_turn":
      return [words.say(entry.type, params)];
    case "give_ducats":
      return [words.count("give_ducats", entry.amount ?? 0, { ...params, other: names.seat(entry.to) })];
    case "accept_exchange":
      return [
        words.say("accept_exchange", {
          ...params,
          other: names.seat(entry.from),
          give: names.city(entry.give),
          take: names.city(entry.take),
        }),
      ];
    case "accept_condottiere":
      return [words.say("accept_condottiere", { ...params, other: names.seat(entry.from) })];
    default:
      return [words.say("unknown", params)];
  }
}

// --- what the action set off --------------------------------------------------------------------

function cardList(words, side) {
  const cards = [...(side?.blue ?? []), ...(side?.red ? [side.red] : [])].map(words.card);
  return cards.length ? cards.join(words.say("list_separator")) : words.say("no_card");
}

// A revealed battle as the action left it: the cards turned up, then the dice, each said by the
// action that brought them (a commitment or a counter turns the cards up; they, or a traitor
// bought, roll the dice). The totals are said once, with the outcome (`battle`).
const REVEALING = new Set(["commit", "counter"]);
const ROLLING = new Set(["commit", "counter", "buy_traitor"]);

function fightSentences(fight, type, words, names) {
  const sides = { attacker: names.seat(fight.attacker), defender: names.seat(fight.defender) };
  const lines = [];
  if (fight.cards && REVEALING.has(type)) {
    const [attack, defence] = fight.cards.map((side) => cardList(words, side));
    lines.push(words.say("cards_shown", { ...sides, attack, defence }));
  }
  if (fight.dice?.length && ROLLING.has(type)) {
    lines.push(words.say("dice", { ...sides, attack: fight.dice[0], defence: fight.dice[1] }));
  }
  return lines;
}

function battleOutcome(battle, type, words, names) {
  const lines = fightSentences(battle, type, words, names);
  const params = {
    attacker: names.seat(battle.attacker),
    defender: names.seat(battle.defender),
    city: names.city(battle.to),
  };
  const totals = battle.totals ?? [];
  const plain = totals.length !== 2;
  const key = `${battle.captured ? "battle_taken" : "battle_held"}${plain ? "_plain" : ""}`;
  lines.push(words.say(key, { ...params, attack: totals[0], defence: totals[1] }));
  return lines;
}

function voteSentences(entry, words, names) {
  if (!entry.votes) return entry.war === undefined ? [] : [words.say(entry.war ? "deal_war" : "deal_peace")];
  const sides = (want) =>
    listWords(
      words,
      entry.votes.flatMap((vote, seat) => (vote === want ? [names.seat(seat)] : [])),
    );
  const war = entry.war ?? entry.votes.filter(Boolean).length * 2 >= entry.votes.length;
  return [words.say(war ? "votes_war" : "votes_peace", { war: sides(true), peace: sides(false) })];
}

function turnSentences(entry, words, names) {
  const lines = [];
  if (entry.scored) {
    const turn = entry.turn ? entry.turn - 1 : YEARS.length;
    const list = entry.scored.map((scored, seat) =>
      words.say("scored_seat", { player: names.seat(seat), scored, points: entry.points?.[seat] ?? scored }),
    );
    lines.push(words.say("scored", { turn, year: YEARS[turn - 1], list: list.join(words.say("list_separator")) }));
  }
  if (entry.turn) lines.push(words.say("new_turn", { turn: entry.turn, year: entry.year ?? YEARS[entry.turn - 1] }));
  if (entry.order) {
    const list = entry.order.map((seat) => names.seat(seat)).join(words.say("list_separator"));
    lines.push(words.say("order", { list }));
  }
  if (entry.over) {
    const winners = entry.over.winners ?? [];
    lines.push(words.say("over"));
    if (winners.length) {
      const players = listWords(words, winners.map((seat) => names.seat(seat)));
      lines.push(words.count("winners", winners.length, { players }));
    }
  }
  return lines;
}

// One entry -> its lines: [{text, kind, seat}], the action first, then what it set off.
export function phraseEntry(entry, ctx, words = logWords(ctx)) {
  const names = namer(ctx);
  const line = (text, kind, seat = null) => ({ text, kind, seat });
  const lines = actionSentences(entry, words, names, ctx.facts).map((text) => line(text, entry.type, entry.seat));
  if (entry.fight) lines.push(...fightSentences(entry.fight, entry.type, words, names).map((text) => line(text, "fight")));
  if (entry.battle) {
    lines.push(...battleOutcome(entry.battle, entry.type, words, names).map((text) => line(text, "battle", entry.battle.winner)));
  }
  if (entry.type === "vote" || entry.war !== undefined) {
    lines.push(...voteSentences(entry, words, names).map((text) => line(text, "deal")));
  }
  lines.push(...turnSentences(entry, words, names).map((text) => line(text, "turn")));
  return lines;
}

// The cities the newest entry touched: its own city fields and every city whose pieces changed.
export function lastMoveCities(frame) {
  const log = frame?.log ?? [];
  const entry = log[log.length - 1];
  if (!entry) return [];
  const names = [entry.city, entry.from, entry.to, entry.give, entry.take];
  for (const battle of [entry.battle, entry.fight]) if (battle) names.push(battle.from, battle.to);
  names.push(...Object.keys(entry.cities ?? {}));
  return [...new Set(names.filter((name) => typeof name === "string" && name))];
}

function entryItem(entry, ctx, words) {
  const item = document.createElement("li");
  item.className = `rn-log__entry rn-log__entry--${entry.type}`;
  item.dataset.seq = String(entry.seq);
  item.value = entry.seq; // numbered by the action's place in the game, as the replay's steps
  if (entry.seat !== null && entry.seat !== undefined) item.style.setProperty("--seat", `var(--seat-${entry.seat})`);
  for (const line of phraseEntry(entry, ctx, words)) {
    const part = document.createElement("span");
    part.className = `rn-log__line rn-log__line--${line.kind}`;
    part.textContent = line.text;
    item.append(part, " ");
  }
  return item;
}

export function createLog(container, ctx = {}) {
  const words = logWords(ctx);
  const list = document.createElement("ol");
  list.className = "rn-log__list";
  list.reversed = true;
  list.setAttribute("aria-label", words.say("log_title"));
  const live = document.createElement("p");
  live.className = "rn-log__live visually-hidden";
  live.setAttribute("aria-live", "polite");
  live.setAttribute("aria-atomic", "true");
  container.replaceChildren(list, live);
  let shownSeq = null; // the newest entry shown; null before the first render

  function redraw(entries) {
    list.replaceChildren(...entries.map((entry) => entryItem(entry, ctx, words)).reverse());
  }

  return {
    render(frame) {
      const entries = frame?.log ?? [];
      const newest = entries.length ? entries[entries.length - 1].seq : -1;
      const fresh = shownSeq === null ? [] : entries.filter((entry) => entry.seq > shownSeq);
      if (shownSeq === null || newest < shownSeq || !fresh.length) {
        if (newest !== shownSeq || shownSeq === null) redraw(entries);
      } else {
        list.prepend(...fresh.map((entry) => entryItem(entry, ctx, words)).reverse());
        // One entry at a time: the newest, not every entry a coalesced frame brought.
        if (ctx.announce !== false) live.textContent = list.firstElementChild.textContent.trim();
      }
      shownSeq = newest;
    },
  };
}
