// Translated words for the game client. Every string a person reads comes from the labels the
// server rendered into the page (json_script "game-labels"), already in the page's language.

function fill(template, params = {}) {
  return template.replace(/\{(\w+)\}/g, (whole, key) => (key in params ? String(params[key]) : whole));
}

export function makeTranslator(labels, language = document.documentElement.lang || "en") {
  const cardInfo = (code) =>
    labels.cards[code] ?? { name: code, title: code, kind: "special", effect: "" };
  const pluralRules = new Intl.PluralRules(language);
  return {
    // A sentence with a number: "1 card in hand", "3 cards in hand" (the language's plural rule).
    count: (key, count, params = {}) => {
      const forms = labels.plurals[key] ?? {};
      const template = forms[pluralRules.select(count)] ?? forms.other ?? key;
      return fill(template, { ...params, count });
    },
    ui: (key, params) => fill(labels.ui[key] ?? key, params),
    log: (key, params) => fill(labels.log[key] ?? key, params),
    phase: (phase) => labels.phases[phase] ?? phase,
    reason: (reason) => labels.reasons[reason] ?? reason,
    region: (region) => labels.regions[region] ?? region,
    colour: (colour) => labels.colours[colour] ?? colour,
    cardInfo,
    // "10", "Winter": what is printed on the card.
    cardName: (code) => cardInfo(code).name,
    // "Mercenary 10", "Winter": how a sentence names the card.
    cardTitle: (code) => cardInfo(code).title ?? cardInfo(code).name,
  };
}

// How a seat is named in sentences: its colour ("Red"), the name people recognise at the table.
export function seatName(t, game, seat) {
  if (seat === null || seat === undefined) return "";
  const info = game?.seats?.[seat];
  return info ? t.colour(info.colour) : String(seat + 1);
}

// The longer form for the players panel and the result: "Red — alice".
export function seatFullName(t, game, seat) {
  const info = game?.seats?.[seat];
  if (!info) return seatName(t, game, seat);
  return info.name ? `${t.colour(info.colour)} — ${info.name}` : t.colour(info.colour);
}
