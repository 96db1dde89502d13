// Diplomacy beside the chat (docs/protocol.md section 17, "Diplomacy"): offers made to the
// player (Accept / Decline), its own offers (Withdraw), and three forms: give ducats, offer a
// Condottiere for a ducat, propose a city exchange. Every control offers only what
// `view.diplomacy_actions` lists (answers, withdrawals, sales, each sent unchanged) or what
// `view.diplomacy_forms` describes (gifts and exchange offers, each built from its fields). An offer waiting for the player shows a badge and is announced (aria-live).

import { el, makeWords, rebuildKeepingFocus } from "./battle_words.js";

const EXCHANGE = 0;

function offerKey(offer) {
  return offer.join(",");
}

// The listed action answering `offer` with `verb` (accept, decline, withdraw), or null.
export function answerFor(actions, offer, verb, cities) {
  const [kind, from, to, give, take] = offer;
  const what = kind === EXCHANGE ? "exchange" : "condottiere";
  return (
    actions.find((action) => {
      if (action.type !== `${verb}_${what}`) return false;
      if (verb === "withdraw" ? action.to !== to : action.from !== from) return false;
      return kind !== EXCHANGE || (action.give === cities[give] && action.take === cities[take]);
    }) ?? null
  );
}

// The forms' choices: the gifts and exchanges `view.diplomacy_forms` describe (an exchange of
// mine that still waits left out), the sales `view.diplomacy_actions` lists.
export function formChoices(view) {
  const forms = view?.diplomacy_forms ?? { give_ducats: null, offer_exchange: [] };
  const gifts = new Map(); // seat -> largest amount
  for (const seat of forms.give_ducats?.to ?? []) gifts.set(seat, forms.give_ducats.most);
  const sales = (view?.diplomacy_actions ?? []).filter((a) => a.type === "offer_condottiere").map((a) => a.to);
  const cities = view?.cities ?? [];
  const waiting = new Set(
    (view?.public?.offers ?? []).filter((o) => o[0] === EXCHANGE && o[1] === view.seat).map((o) => `${o[2]}|${cities[o[3]]}|${cities[o[4]]}`),
  );
  const exchanges = new Map(); // seat -> Map(give -> [take...])
  for (const entry of forms.offer_exchange) {
    for (const give of entry.give) {
      const takes = entry.take.filter((take) => !waiting.has(`${entry.to}|${give}|${take}`));
      if (!takes.length) continue;
      if (!exchanges.has(entry.to)) exchanges.set(entry.to, new Map());
      exchanges.get(entry.to).set(give, takes);
    }
  }
  return { gifts, sales, exchanges };
}

function offerText(offer, me, words, cities) {
  const [kind, from, to, give, take] = offer;
  if (kind === EXCHANGE) {
    const params = { seat: words.seat(from === me ? to : from), give: words.city(cities[give]), take: words.city(cities[take]) };
    return words.w(from === me ? "offer_exchange_mine" : "offer_exchange_theirs", params);
  }
  return words.w(from === me ? "offer_sale_mine" : "offer_sale_theirs", { seat: words.seat(from === me ? to : from) });
}

function select(name, label, options, value, onChange) {
  const id = `rn-dip-${name}`;
  const node = el("select", { id, name, dataset: { focusKey: `rn-dip-select:${name}` } });
  for (const [optionValue, text] of options) {
    const option = el("option", { value: String(optionValue), text });
    option.selected = String(optionValue) === String(value);
    node.append(option);
  }
  node.addEventListener("change", () => onChange(node.value));
  return el("div", { className: "rn-dip__field" }, el("label", { for: id, text: label }), node);
}

export function createDiplomacy(container, ctx) {
  const words = makeWords(ctx);
  const form = { giftTo: null, amount: 1, saleTo: null, exTo: null, exGive: null, exTake: null };
  let signature = null;
  let seenIncoming = null; // keys of the offers to the player already announced
  let frame = null;

  const live = el("p", { className: "rn-dip__live visually-hidden", role: "status", "aria-live": "polite" });

  // A click while the page waits for the answer to the last move is kept, and sent once that
  // answer lands if the new view still offers it; the person is told either way.
  let queued = null;

  function send(action) {
    if (ctx.send(action)) {
      queued = null;
      return;
    }
    if (ctx.isBusy?.()) {
      queued = action;
      live.textContent = words.w("dip_queued");
      showNote(words.w("dip_queued"));
    } else {
      live.textContent = words.w("dip_not_sent");
      showNote(words.w("dip_not_sent"));
    }
  }

  function sendQueued() {
    if (!queued || ctx.isBusy?.()) return;
    const action = queued;
    queued = null;
    queueMicrotask(() => {
      if (ctx.send(action)) showNote("");
      else showNote(words.w("dip_not_sent"));
    });
  }

  // A visible line under the title (the live region says it to a screen reader).
  function showNote(text) {
    const note = container.querySelector(".rn-dip__note");
    if (note) {
      note.textContent = text;
      note.hidden = !text;
    }
  }

  // The offers made to me (accept or decline) and mine (withdraw), each list under its title.
  function offersSection(view, me, incoming, outgoing) {
    const answer = (offer, kind) => answerFor(view.diplomacy_actions, offer, kind, view.cities);
    const answers = (offer, id) => {
      const accept = answer(offer, "accept");
      return el(
        "div",
        { className: "rn-dip__offer-actions" },
        accept ? answerButton(accept, "accept", id, "button button--small") : el("span", { className: "rn-dip__cannot", text: words.w("cannot_accept") }),
        answerButton(answer(offer, "decline"), "decline", id, "button button--secondary button--small"),
      );
    };
    const withdraw = (offer, id) => answerButton(answer(offer, "withdraw"), "withdraw", id, "button button--secondary button--small");
    return [
      ...offerList("offers_to_you", "incoming", incoming, (offer) => offerText(offer, me, words, view.cities), answers),
      ...offerList("your_offers", "mine", outgoing, (offer) => offerText(offer, me, words, view.cities), withdraw),
    ];
  }

  // A title and a list of offers, each its words and the controls `controlsOf` gives it.
  function offerList(title, modifier, offers, textOf, controlsOf) {
    if (!offers.length) return [];
    const list = el("ul", { className: `rn-dip__offers rn-dip__offers--${modifier}` });
    for (const offer of offers) {
      const id = offerKey(offer);
      list.append(
        el(
          "li",
          { className: "rn-dip__offer", dataset: { offer: id } },
          el("p", { className: "rn-dip__offer-text", text: textOf(offer) }),
          controlsOf(offer, id),
        ),
      );
    }
    return [el("h3", { className: "rn-dip__subtitle", text: words.w(title) }), list];
  }

  // The button that sends one answer to an offer (none when the view does not offer it).
  function answerButton(action, kind, id, className) {
    if (!action) return null;
    const dataset = { focusKey: `rn-dip-${kind}:${id}` };
    return el("button", { type: "button", className, dataset, onclick: () => send(action) }, words.w(kind));
  }

  function giftForm(choices) {
    const seats = [...choices.gifts.keys()];
    if (!seats.length) return null;
    if (!seats.includes(form.giftTo)) form.giftTo = seats[0];
    const most = choices.gifts.get(form.giftTo);
    const amount = Math.min(Math.max(1, Number(form.amount) || 1), most);
    const input = el("input", { type: "number", id: "rn-dip-amount", min: 1, max: most, step: 1, value: amount, inputmode: "numeric", dataset: { focusKey: "rn-dip-amount" } });
    input.addEventListener("input", () => {
      form.amount = input.value;
    });
    const submit = (event) => {
      event.preventDefault();
      const wanted = Number(input.value);
      const mostNow = formChoices(frame?.view).gifts.get(form.giftTo) ?? 0;
      if (Number.isInteger(wanted) && wanted >= 1 && wanted <= mostNow) send({ type: "give_ducats", to: form.giftTo, amount: wanted });
      else live.textContent = words.w("gift_out_of_range", { most: mostNow });
    };
    return el(
      "form",
      { className: "rn-dip__form", dataset: { form: "gift" }, onsubmit: submit },
      el("h3", { className: "rn-dip__subtitle", text: words.w("gift_title") }),
      select("gift-to", words.w("to_seat"), seats.map((s) => [s, words.side(s)]), form.giftTo, (v) => { form.giftTo = Number(v); redraw(true); }),
      el("div", { className: "rn-dip__field" }, el("label", { for: "rn-dip-amount", text: words.w("amount", { most }) }), input),
      el("button", { type: "submit", className: "button button--small", dataset: { focusKey: "rn-dip-gift" } }, words.w("give")),
    );
  }

  function saleForm(choices) {
    if (!choices.sales.length) return null;
    if (!choices.sales.includes(form.saleTo)) form.saleTo = choices.sales[0];
    const submit = (event) => {
      event.preventDefault();
      const action = (frame?.view?.diplomacy_actions ?? []).find((a) => a.type === "offer_condottiere" && a.to === form.saleTo);
      if (action) send(action);
    };
    return el(
      "form",
      { className: "rn-dip__form", dataset: { form: "sale" }, onsubmit: submit },
      el("h3", { className: "rn-dip__subtitle", text: words.w("sale_title") }),
      el("p", { className: "rn-dip__explain", text: words.w("sale_explain") }),
      select("sale-to", words.w("to_seat"), choices.sales.map((s) => [s, words.side(s)]), form.saleTo, (v) => { form.saleTo = Number(v); }),
      el("button", { type: "submit", className: "button button--small", dataset: { focusKey: "rn-dip-sale" } }, words.w("offer_sale")),
    );
  }

  function exchangeForm(choices) {
    const seats = [...choices.exchanges.keys()];
    if (!seats.length) return null;
    if (!seats.includes(form.exTo)) form.exTo = seats[0];
    const gives = choices.exchanges.get(form.exTo);
    if (!gives.has(form.exGive)) form.exGive = [...gives.keys()][0];
    const takes = gives.get(form.exGive);
    if (!takes.includes(form.exTake)) form.exTake = takes[0];
    const byName = (a, b) => words.city(a).localeCompare(words.city(b));
    const submit = (event) => {
      event.preventDefault();
      const takes = formChoices(frame?.view).exchanges.get(form.exTo)?.get(form.exGive) ?? [];
      if (takes.includes(form.exTake)) send({ type: "offer_exchange", to: form.exTo, give: form.exGive, take: form.exTake });
    };
    return el(
      "form",
      { className: "rn-dip__form", dataset: { form: "exchange" }, onsubmit: submit },
      el("h3", { className: "rn-dip__subtitle", text: words.w("exchange_title") }),
      el("p", { className: "rn-dip__explain", text: words.w("exchange_explain") }),
      select("ex-to", words.w("to_seat"), seats.map((s) => [s, words.side(s)]), form.exTo, (v) => { form.exTo = Number(v); redraw(true); }),
      select("ex-give", words.w("your_city"), [...gives.keys()].sort(byName).map((c) => [c, words.city(c)]), form.exGive, (v) => { form.exGive = v; redraw(true); }),
      select("ex-take", words.w("their_city"), [...takes].sort(byName).map((c) => [c, words.city(c)]), form.exTake, (v) => { form.exTake = v; }),
      el("button", { type: "submit", className: "button button--small", dataset: { focusKey: "rn-dip-exchange" } }, words.w("propose")),
    );
  }

  function announce(incoming, me, cities) {
    const keys = new Set(incoming.map(offerKey));
    if (seenIncoming !== null) {
      const fresh = incoming.filter((offer) => !seenIncoming.has(offerKey(offer)));
      if (fresh.length) live.textContent = words.w("offer_arrived", { offer: offerText(fresh[0], me, words, cities) });
    }
    seenIncoming = keys;
  }

  function redraw(force = false) {
    const view = frame?.view;
    const me = ctx.mySeat ?? view?.seat ?? null;
    const actions = view?.diplomacy_actions ?? [];
    const forms = view?.diplomacy_forms ?? null;
    const offers = view?.public?.offers ?? [];
    const formsOpen = !!forms && (!!forms.give_ducats || forms.offer_exchange.length > 0);
    if (me === null || me === undefined || (!actions.length && !offers.length && !formsOpen)) {
      container.hidden = true;
      container.replaceChildren();
      signature = null;
      container.dataset.waiting = "0";
      return;
    }
    const incoming = offers.filter((o) => o[2] === me);
    const outgoing = offers.filter((o) => o[1] === me);
    announce(incoming, me, view.cities);
    const next = JSON.stringify([actions, forms, offers, me]);
    if (!force && next === signature && container.firstElementChild) return;
    signature = next;
    const choices = formChoices(view);
    const badge = incoming.length ? el("span", { className: "rn-dip__badge", dataset: { count: incoming.length } }, words.n("offers_waiting", incoming.length)) : null;
    container.dataset.waiting = String(incoming.length);
    container.hidden = false;
    rebuildKeepingFocus(container, () => [
      el(
        "section",
        { className: "rn-dip", "aria-labelledby": "rn-dip-title" },
        el("h2", { className: "rn-dip__title", id: "rn-dip-title" }, words.w("diplomacy_title"), badge ? " " : null, badge),
        el("p", { className: "rn-dip__note", role: "status", dataset: { testid: "rn-dip-note" }, hidden: true }),
        ...offersSection(view, me, incoming, outgoing),
        el("details", { className: "rn-dip__make", open: form.open ? true : null, ontoggle: (event) => { form.open = event.target.open; } },
          el("summary", { text: words.w("make_offer") }),
          el("p", { className: "rn-dip__explain", text: words.w("promises_bind_nobody") }),
          giftForm(choices), saleForm(choices), exchangeForm(choices)),
        live,
      ),
    ]);
  }

  return {
    render(next) {
      frame = next;
      redraw(false);
      sendQueued();
    },
  };
}
