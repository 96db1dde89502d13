// The board: draws each city's pieces from a view's `public` facts onto the inline map
// (static/board/renaissance.svg, docs/renaissance/table.md), greys the closed provinces, shows a
// city's whole state in a tooltip on hover and keyboard focus, and makes the cities that are a
// legal choice now focusable buttons (click, Enter or Space).
//
// Colour never speaks alone: a garrison is a disc in its seat's colour with its nation's mark on
// it, a rampart one ring, a fortress two rings and a tower, a palace a roofed house, an artist a
// star, a pillage a crossed flame mark.

const SVG_NS = "http://www.w3.org/2000/svg";
const KINDS = ["choice", "from", "target", "last"];
// Kinds a person may pick with a click or a key; the others only mark.
const PICKABLE = new Set(["choice", "from"]);

function svgNode(name, attributes = {}, text = null) {
  const node = document.createElementNS(SVG_NS, name);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, String(value));
  if (text !== null) node.textContent = text;
  return node;
}

function cityPoint(group) {
  const spot = group.querySelector(".rn-city__spot");
  const x = Number(group.dataset.x ?? spot?.getAttribute("cx") ?? 0);
  const y = Number(group.dataset.y ?? spot?.getAttribute("cy") ?? 0);
  return { x, y };
}

// What stands in one city, from `public` (docs/protocol.md, section 17): indices per city.
export function cityState(view, index) {
  const pub = view.public ?? {};
  const at = (key) => (pub[key] ?? [])[index] ?? 0;
  const owner = (pub.owner ?? [])[index] ?? -1;
  return {
    owner,
    nation: owner >= 0 ? (pub.nations ?? [])[owner] : null,
    fort: at("fort"),
    palace: at("palace"),
    artist: at("artist"),
    pillaged: at("pillaged"),
    closed: at("closed"),
  };
}

// A held city's terrain mark (mountain, marsh) lies under its garrison disc: it is drawn again,
// smaller, on a badge at the disc's lower left, clear of the palace and the pillage marks above.
function terrainBadge(point, terrain) {
  const { x, y } = point;
  const bx = x - 13;
  const by = y + 11;
  const badge = svgNode("g", { class: "rn-terrain-badge-group", "aria-hidden": "true" });
  badge.append(svgNode("circle", { class: "rn-terrain-badge", cx: bx, cy: by, r: 6.5 }));
  const mark = terrain.cloneNode(false);
  mark.setAttribute("class", "rn-terrain-badge__mark");
  // The file's mark is drawn around the spot's centre: moved onto the badge, a little smaller.
  mark.setAttribute("transform", `translate(${bx} ${by}) scale(0.8) translate(${-x} ${-y})`);
  badge.append(mark);
  return badge;
}

function drawPieces(layer, point, state, t, terrain = null) {
  const { x, y } = point;
  const parts = [];
  if (state.owner >= 0) {
    const seat = `rn-seat-${state.owner}`;
    if (state.fort >= 1) parts.push(svgNode("circle", { class: `rn-fort-ring ${seat}`, cx: x, cy: y, r: 15 }));
    if (state.fort >= 2) {
      parts.push(svgNode("circle", { class: `rn-fort-ring rn-fort-ring--outer ${seat}`, cx: x, cy: y, r: 19 }));
      // A tower with battlements above the rings: a fortress reads without counting rings.
      const top = y - 31;
      parts.push(
        svgNode("path", {
          class: `rn-tower ${seat}`,
          d: `M${x - 5},${top + 12}v-9h2.5v3h2.5v-3h2.5v3h2.5v-3h2.5v9z`,
        }),
      );
    }
    parts.push(svgNode("circle", { class: `rn-garrison ${seat}`, cx: x, cy: y, r: 11 }));
    parts.push(
      svgNode("text", { class: "rn-garrison__mark", x, y: y + 4, "text-anchor": "middle" }, t.nationMark(state.nation)),
    );
    if (terrain) parts.push(terrainBadge(point, terrain));
  }
  if (state.palace) {
    const px = x + 17;
    const py = y - 13;
    parts.push(svgNode("path", { class: "rn-palace", d: `M${px - 7},${py + 6}v-7l7,-6l7,6v7z` }));
    if (state.artist) {
      parts.push(
        svgNode("path", {
          class: "rn-artist",
          d: starPath(px, py - 1, 4.5, 2),
        }),
      );
    }
  }
  if (state.pillaged) {
    const px = x - 18;
    const py = y - 13;
    parts.push(svgNode("circle", { class: "rn-pillage", cx: px, cy: py, r: 7 }));
    parts.push(svgNode("path", { class: "rn-pillage__mark", d: `M${px - 4},${py - 4}l8,8M${px + 4},${py - 4}l-8,8` }));
  }
  layer.replaceChildren(...parts);
}

function starPath(cx, cy, outer, inner) {
  const points = [];
  for (let i = 0; i < 10; i += 1) {
    const radius = i % 2 ? inner : outer;
    const angle = (Math.PI / 5) * i - Math.PI / 2;
    points.push(`${(cx + radius * Math.cos(angle)).toFixed(1)},${(cy + radius * Math.sin(angle)).toFixed(1)}`);
  }
  return `M${points.join("L")}z`;
}

// The tooltip's lines for one city: owner and nation, fortification, palace and artist,
// pillage, terrain, port, province; out of play when closed.
export function describeCity(name, state, facts, ctx) {
  const { t } = ctx;
  const lines = [name];
  if (state.closed) lines.push(t.ui("closed"));
  if (state.owner >= 0) {
    lines.push(t.ui("owner", { player: ctx.seatName(state.owner) }));
    lines.push(t.ui("nation", { nation: t.nation(state.nation) }));
    lines.push(t.ui(`fort_${state.fort}`));
  } else {
    lines.push(t.ui("free_city"));
  }
  if (state.palace) lines.push(state.artist ? `${t.ui("palace")}, ${t.ui("artist")}` : t.ui("palace"));
  if (state.pillaged) lines.push(t.ui("pillaged"));
  if (facts) {
    lines.push(t.ui("terrain", { terrain: t.terrain(facts.terrain) }));
    if (facts.port) lines.push(t.ui("port"));
    else if (facts.coastal) lines.push(t.ui("coastal"));
    lines.push(t.ui("province", { province: facts.province }));
  }
  return lines;
}

// The hatch of closed provinces: a pattern the stylesheet names (fill: url(#rn-hatch)).
function addHatch(svg) {
  if (!svg || svg.querySelector("#rn-hatch")) return;
  const defs = svg.querySelector("defs") ?? svg.insertBefore(svgNode("defs"), svg.firstChild);
  const pattern = svgNode("pattern", { id: "rn-hatch", width: 8, height: 8, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" });
  pattern.append(svgNode("rect", { width: 8, height: 8, fill: "#c9c2b4" }), svgNode("line", { x1: 0, y1: 0, x2: 0, y2: 8, stroke: "#6b6357", "stroke-width": 3 }));
  defs.append(pattern);
}

export function createBoard(svg, ctx) {
  addHatch(svg);
  // The picture arrives as role="img", which hides everything inside it from assistive
  // technology; the cities a player picks are buttons inside it, so it is a group instead.
  svg?.setAttribute("role", "group");
  const cities = new Map(); // name -> <g class="rn-city">
  for (const group of svg?.querySelectorAll("g.rn-city[data-city]") ?? []) cities.set(group.dataset.city, group);
  const overlay = svg?.querySelector('g[data-layer="overlay"]');
  const lanesLayer = overlay ? svgNode("g", { class: "rn-lanes" }) : null;
  if (lanesLayer) overlay.append(lanesLayer);
  const tooltip = svg?.closest("[data-rn-root]")?.querySelector("[data-rn-tooltip]");
  const marked = new Map(KINDS.map((kind) => [kind, new Set()]));
  const handlers = [];
  let view = null;

  function stateOf(name) {
    const index = view?.cities?.indexOf(name) ?? -1;
    return index >= 0 ? cityState(view, index) : null;
  }

  function isPickable(group) {
    return [...PICKABLE].some((kind) => group.classList.contains(`is-${kind}`));
  }

  // A city is a button only while it may be picked; otherwise the tab order skips it.
  function refreshAccess(name) {
    const group = cities.get(name);
    if (!group) return;
    if (isPickable(group)) {
      group.setAttribute("tabindex", "0");
      group.setAttribute("role", "button");
      group.setAttribute("aria-label", label(name));
      group.setAttribute("aria-describedby", "rn-tooltip");
      group.dataset.focusKey = `city:${name}`;
    } else {
      for (const attribute of ["tabindex", "role", "aria-label", "aria-describedby", "data-focus-key"]) {
        group.removeAttribute(attribute);
      }
    }
  }

  function label(name) {
    const state = stateOf(name);
    const lines = state ? describeCity(name, state, ctx.facts?.cities?.[name], ctx) : [name];
    return [ctx.t.ui("city_choice", { city: name }), ...lines.slice(1)].join(". ");
  }

  function showTooltip(group) {
    if (!tooltip || !view) return;
    const name = group.dataset.city;
    const state = stateOf(name);
    if (!state) return;
    const lines = describeCity(name, state, ctx.facts?.cities?.[name], ctx);
    const title = document.createElement("strong");
    title.textContent = lines[0];
    const list = document.createElement("ul");
    list.append(
      ...lines.slice(1).map((line) => {
        const item = document.createElement("li");
        item.textContent = line;
        return item;
      }),
    );
    tooltip.replaceChildren(title, list);
    tooltip.dataset.city = name;
    tooltip.hidden = false;
    const frame = tooltip.offsetParent?.getBoundingClientRect() ?? { left: 0, top: 0, width: 0 };
    const box = group.querySelector(".rn-city__spot")?.getBoundingClientRect() ?? group.getBoundingClientRect();
    const left = box.left - frame.left + box.width / 2;
    const top = box.bottom - frame.top + 8;
    const width = tooltip.offsetWidth;
    tooltip.style.setProperty("left", `${Math.max(4, Math.min(left - width / 2, frame.width - width - 4))}px`);
    tooltip.style.setProperty("top", `${top}px`);
  }

  function hideTooltip(group) {
    if (!tooltip) return;
    if (group && tooltip.dataset.city !== group.dataset.city) return;
    tooltip.hidden = true;
  }

  function pick(group) {
    if (!group || !isPickable(group)) return;
    hideTooltip();
    for (const handler of handlers) handler(group.dataset.city);
  }

  if (svg) {
    svg.addEventListener("click", (event) => {
      if (svg.dataset.panned === "true") return; // the end of a drag, not a click
      pick(event.target.closest?.("g.rn-city"));
    });
    svg.addEventListener("keydown", (event) => {
      if (event.key !== "Enter" && event.key !== " ") return;
      const group = event.target.closest?.("g.rn-city");
      if (!group || !isPickable(group)) return;
      event.preventDefault();
      pick(group);
    });
    // A finger has no hover to end: a touch shows no tooltip (a tap picks, the decision says why).
    // A device without hover (a phone) starts so, before its first touch.
    let touching = Boolean(svg.ownerDocument.defaultView?.matchMedia?.("(hover: none)").matches);
    for (const type of ["pointerdown", "pointerover"]) {
      svg.addEventListener(type, (event) => {
        if (type === "pointerdown" || event.pointerType === "mouse") touching = event.pointerType === "touch";
      });
    }
    svg.addEventListener("mouseover", (event) => {
      const group = event.target.closest?.("g.rn-city");
      if (group && !touching) showTooltip(group);
    });
    svg.addEventListener("mouseout", (event) => {
      const group = event.target.closest?.("g.rn-city");
      if (group && !group.contains(event.relatedTarget)) hideTooltip(group);
    });
    // Keyboard focus shows the tooltip; the focus a click leaves behind does not (the pointer
    // already showed it, and it would cover the map after the move).
    // After a tap, the focus the page moves to the next decision's first city may count as
    // visible: it shows no tooltip either, until a key is pressed.
    svg.ownerDocument.addEventListener("keydown", () => {
      touching = false;
    });
    svg.addEventListener("focusin", (event) => {
      const group = event.target.closest?.("g.rn-city");
      if (group && !touching && group.matches(":focus-visible")) showTooltip(group);
    });
    svg.addEventListener("focusout", (event) => {
      const group = event.target.closest?.("g.rn-city");
      if (group) hideTooltip(group);
    });
  }

  function renderClosedProvinces(closedCities) {
    const closedProvinces = new Set();
    for (const name of closedCities) {
      const province = ctx.facts?.cities?.[name]?.province;
      if (province) closedProvinces.add(province);
    }
    for (const province of svg.querySelectorAll("g.rn-province[data-province]")) {
      province.classList.toggle("rn-province--closed", closedProvinces.has(province.dataset.province));
    }
  }

  return {
    render(nextView) {
      view = nextView;
      if (!svg || !view?.public) return;
      const closedCities = [];
      view.cities.forEach((name, index) => {
        const group = cities.get(name);
        if (!group) return;
        const state = cityState(view, index);
        group.dataset.owner = String(state.owner);
        group.dataset.fort = String(state.owner >= 0 ? state.fort : 0);
        group.dataset.palace = String(state.palace);
        group.dataset.artist = String(state.artist);
        group.dataset.pillaged = String(state.pillaged);
        group.classList.toggle("rn-city--closed", Boolean(state.closed));
        group.classList.toggle("rn-city--free", state.owner < 0);
        if (state.closed) closedCities.push(name);
        let layer = group.querySelector(".rn-city__pieces");
        if (!layer) {
          layer = svgNode("g", { class: "rn-city__pieces" });
          group.append(layer);
        }
        drawPieces(layer, cityPoint(group), state, ctx.t, group.querySelector(".rn-city__terrain"));
        if (isPickable(group)) group.setAttribute("aria-label", label(name));
      });
      renderClosedProvinces(closedCities);
      if (tooltip && !tooltip.hidden && cities.get(tooltip.dataset.city)) showTooltip(cities.get(tooltip.dataset.city));
    },

    highlight(cityNames, kind) {
      const set = marked.get(kind);
      if (!set) return;
      for (const name of cityNames ?? []) {
        const group = cities.get(name);
        if (!group) continue;
        set.add(name);
        group.classList.add(`is-${kind}`);
        refreshAccess(name);
      }
    },

    clearHighlights(kind) {
      for (const each of kind ? [kind] : KINDS) {
        const set = marked.get(each);
        if (!set) continue;
        for (const name of set) {
          cities.get(name)?.classList.remove(`is-${each}`);
          refreshAccess(name);
        }
        set.clear();
      }
      if (!kind || kind === "choice") lanesLayer?.replaceChildren();
    },

    onCity(handler) {
      handlers.push(handler);
    },

    // Dashed curves for moves by sea, plain lines by road: [{from, to, sea}].
    lanes(pairs) {
      if (!lanesLayer) return;
      lanesLayer.replaceChildren(
        ...pairs.flatMap(({ from, to, sea }) => {
          const a = cities.get(from);
          const b = cities.get(to);
          if (!a || !b) return [];
          const p = cityPoint(a);
          const q = cityPoint(b);
          if (!sea) {
            return [svgNode("line", { class: "rn-lane rn-lane--road", x1: p.x, y1: p.y, x2: q.x, y2: q.y, "data-to": to })];
          }
          // A curve bowed to one side, so that a lane does not hide the roads under it.
          const mx = (p.x + q.x) / 2 - (q.y - p.y) * 0.2;
          const my = (p.y + q.y) / 2 + (q.x - p.x) * 0.2;
          return [svgNode("path", { class: "rn-lane rn-lane--sea", d: `M${p.x},${p.y}Q${mx},${my} ${q.x},${q.y}`, "data-to": to })];
        }),
      );
    },

    city(name) {
      return cities.get(name) ?? null;
    },

    cityNames() {
      return [...cities.keys()];
    },
  };
}

// Whether two cities are one road apart (the map's roads, else the board's facts).
export function roadBetween(facts, a, b) {
  return (facts?.roads ?? []).some(([x, y]) => (x === a && y === b) || (x === b && y === a));
}
