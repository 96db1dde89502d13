// Words for the battle and diplomacy parts, from the labels the server rendered into the page
// (json_script "rn-battle-labels", games/board/renaissance_battle_words.py), already in the
// page's language. Placeholders in braces are filled here; nothing English is written in JS.

function fill(template, params = {}) {
  return template.replace(/\{(\w+)\}/g, (whole, key) => (key in params ? String(params[key]) : whole));
}

export function makeWords(ctx) {
  const labels = ctx?.battleLabels ?? {};
  const words = labels.words ?? {};
  const plurals = labels.plurals ?? {};
  const rules = new Intl.PluralRules(document.documentElement.lang || "en");
  const seat = (index) => (ctx?.seatName ? ctx.seatName(index) : String(index + 1));
  const nation = (index) => (ctx?.nationName ? ctx.nationName(index) : "");
  return {
    w: (key, params) => fill(words[key] ?? key, params),
    // A sentence with a number, in the language's plural form.
    n: (key, count, params = {}) => {
      const forms = plurals[key] ?? {};
      return fill(forms[rules.select(count)] ?? forms.other ?? key, { ...params, count });
    },
    card: (name) => (labels.cards ?? {})[name] ?? name,
    city: (name) => (name === null || name === undefined ? "" : ctx?.cityName ? ctx.cityName(name) : name),
    seat,
    nation,
    // "Red (Venice)": how the panel names a side.
    side: (index) => {
      const place = nation(index);
      return place ? fill(words.seat_and_nation ?? "{seat} ({nation})", { seat: seat(index), nation: place }) : seat(index);
    },
  };
}

// A small element factory: el("p", {className: "x"}, "text", child).
export function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "className") node.className = value;
    else if (key === "dataset") Object.assign(node.dataset, value);
    else if (key === "text") node.textContent = value;
    // Custom properties through the CSSOM: the site's CSP refuses style attributes.
    else if (key === "vars") for (const [name, v] of Object.entries(value)) node.style.setProperty(name, v);
    else if (key.startsWith("on")) node.addEventListener(key.slice(2).toLowerCase(), value);
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  node.append(...children.filter((child) => child !== null && child !== undefined && child !== false));
  return node;
}

// Rebuilds `host`'s children with `build()`, keeping the keyboard focus on the control that
// had it (matched by its data-focus-key) so that a new frame never throws the player out.
export function rebuildKeepingFocus(host, build) {
  const active = document.activeElement;
  const focusName = active && host.contains(active) ? active.dataset.focusKey : null;
  host.replaceChildren(...build());
  if (focusName) {
    const again = host.querySelector(`[data-focus-key="${CSS.escape(focusName)}"]`);
    if (again && !again.disabled) again.focus({ preventScroll: true });
    else host.querySelector("button:not([disabled]), select, input")?.focus({ preventScroll: true });
  }
}

// The terrain of a city ("plain", "mountain", "marsh"): from the board's public facts the page
// renders (json_script "rn-board"), else from the inline map's data-terrain, else null.
let boardFacts;
export function cityTerrain(name) {
  if (!name) return null;
  if (boardFacts === undefined) {
    try {
      boardFacts = JSON.parse(document.getElementById("rn-board")?.textContent ?? "null");
    } catch {
      boardFacts = null;
    }
  }
  const fact = boardFacts?.cities?.[name]?.terrain;
  if (fact) return fact;
  const node = document.querySelector(`[data-rn-board] .rn-city[data-city="${CSS.escape(name)}"]`);
  return node?.dataset.terrain ?? null;
}
