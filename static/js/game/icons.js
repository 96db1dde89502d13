// Small line drawings for the cards and tokens (24 x 24 viewBox), so that no image or icon font
// has to be downloaded. Each is one or more SVG path "d" strings, drawn with a stroke.

export const ICONS = {
  mercenary: ["M12 2.5l7.5 2.8v5.9c0 4.9-3.2 8.6-7.5 10.3-4.3-1.7-7.5-5.4-7.5-10.3V5.3z"],
  winter: [
    "M12 2v20M3.3 7l17.4 10M3.3 17L20.7 7",
    "M9.5 3.8L12 6l2.5-2.2M9.5 20.2L12 18l2.5 2.2",
  ],
  spring: [
    "M12 9.5a2.5 2.5 0 1 0 0.01 0z",
    "M12 9.5c-1.8-3.5 1.8-3.5 0 0M14.4 11.2c3.6-1.6 3.6 1.9 0 .8M13.5 14.1c2.4 3.1-.9 4.3-1.5.9" +
      "M10.5 14.1c-2.4 3.1.9 4.3 1.5.9M9.6 11.2c-3.6-1.6-3.6 1.9 0 .8",
    "M12 15v7M12 19c2-2 4-2 5-1.5",
  ],
  bishop: ["M7 21h10l1.2-8.5L12 3 5.8 12.5z", "M12 8.5v6.5M9.5 11h5"],
  courtesan: ["M12 20.5s-7.5-4.7-8.8-9.6A4.6 4.6 0 0 1 12 7.6a4.6 4.6 0 0 1 8.8 3.3C19.5 15.8 12 20.5 12 20.5z"],
  drummer: [
    "M4.5 9.5c0-1.7 3.4-3 7.5-3s7.5 1.3 7.5 3-3.4 3-7.5 3-7.5-1.3-7.5-3z",
    "M4.5 9.5v7c0 1.7 3.4 3 7.5 3s7.5-1.3 7.5-3v-7",
    "M8 2.5l3.5 5.5M16 2.5l-3.5 5.5",
  ],
  heroine: ["M12 2l2 3.2V15h-4V5.2z", "M6.5 15h11M12 15v5.5M10.3 21.5h3.4"],
  scarecrow: [
    "M12 2.8a2.2 2.2 0 1 0 .01 0z",
    "M3.5 9.5h17M12 7.2V22M12 14l-4.5 4.5M12 14l4.5 4.5",
  ],
  surrender: ["M5.5 22V2.5", "M5.5 3.5h12.5l-2.5 4.5 2.5 4.5H5.5"],
  condottiere: ["M5 19L18.5 5.5M19 19L5.5 5.5", "M3.5 16.5l4 4M20.5 16.5l-4 4"],
  pope: ["M12 2.5l5 5.5-1.2 10.5H8.2L7 8z", "M12 8.5v6M9.7 10.7h4.6", "M6.5 21h11"],
};

const SVG_NS = "http://www.w3.org/2000/svg";

// An inline <svg> icon, decorative (aria-hidden): the text next to it carries the meaning.
export function iconElement(name, className = "icon") {
  const svg = document.createElementNS(SVG_NS, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("class", className);
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  for (const d of ICONS[name] ?? []) {
    const path = document.createElementNS(SVG_NS, "path");
    path.setAttribute("d", d);
    svg.append(path);
  }
  return svg;
}

// The same drawing as a <g> to place inside the board's SVG, scaled to `size` user units.
export function iconGroup(name, x, y, size) {
  const group = document.createElementNS(SVG_NS, "g");
  const scale = size / 24;
  group.setAttribute("transform", `translate(${x - size / 2} ${y - size / 2}) scale(${scale})`);
  group.setAttribute("class", `token-icon token-icon--${name}`);
  for (const d of ICONS[name] ?? []) {
    const path = document.createElementNS(SVG_NS, "path");
    path.setAttribute("d", d);
    group.append(path);
  }
  return group;
}

export { SVG_NS };
