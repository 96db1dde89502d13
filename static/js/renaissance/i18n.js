// The Renaissance table's words: every string a person reads comes from the labels the server
// rendered into the page (json_script "rn-labels", games/board/renaissance_words.py), already in
// the page's language. Placeholders in braces are filled here.

export function fill(template, params = {}) {
  return String(template).replace(/\{(\w+)\}/g, (whole, key) => (key in params ? String(params[key]) : whole));
}

export function makeTranslator(labels, language = document.documentElement.lang || "en") {
  const plurals = new Intl.PluralRules(language);
  const card = (name) => labels.cards?.[name] ?? { name, colour: "red", strength: null, effect: "" };
  return {
    ui: (key, params) => fill(labels.ui?.[key] ?? key, params),
    count: (key, count, params = {}) => {
      const forms = labels.plurals?.[key] ?? {};
      return fill(forms[plurals.select(count)] ?? forms.other ?? key, { ...params, count });
    },
    phase: (phase) => labels.phases?.[phase] ?? phase,
    colour: (colour) => labels.colours?.[colour] ?? colour,
    nation: (nation) => labels.nations?.[nation]?.name ?? nation,
    nationMark: (nation) => labels.nations?.[nation]?.mark ?? String(nation).slice(0, 2),
    piece: (piece) => labels.pieces?.[piece] ?? piece,
    terrain: (terrain) => labels.terrains?.[terrain] ?? terrain,
    power: (nation) => labels.powers?.[nation] ?? null,
    card,
    cardName: (name) => card(name).name,
  };
}
