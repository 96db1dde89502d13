// A die drawn as its face (pips), with its value for screen readers. A die that has just been
// rolled tumbles briefly, not when the person asked for less motion (prefers-reduced-motion).
// The tumble is a Web Animation: it belongs to the element, so a frame that moves the element
// into a new panel body does not start it again (a CSS animation would restart).

const PIPS = {
  1: [[2, 2]],
  2: [[1, 1], [3, 3]],
  3: [[1, 1], [2, 2], [3, 3]],
  4: [[1, 1], [1, 3], [3, 1], [3, 3]],
  5: [[1, 1], [1, 3], [2, 2], [3, 1], [3, 3]],
  6: [[1, 1], [1, 2], [1, 3], [3, 1], [3, 2], [3, 3]],
};
const SVG = "http://www.w3.org/2000/svg";
const TUMBLE = [
  { transform: "rotate(-200deg) scale(0.6)" },
  { transform: "rotate(20deg) scale(1.08)", offset: 0.7 },
  { transform: "rotate(0) scale(1)" },
];
const TUMBLE_MS = 600;

function motionAllowed() {
  return !window.matchMedia?.("(prefers-reduced-motion: reduce)").matches;
}

export function dieFace(value, label, { rolling = false, kind = "plain" } = {}) {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 40 40");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", label);
  svg.classList.add("rn-die", `rn-die--${kind}`);
  svg.dataset.value = String(value);
  const face = document.createElementNS(SVG, "rect");
  face.setAttribute("x", "2");
  face.setAttribute("y", "2");
  face.setAttribute("width", "36");
  face.setAttribute("height", "36");
  face.setAttribute("rx", "7");
  face.classList.add("rn-die__face");
  svg.append(face);
  for (const [col, row] of PIPS[value] ?? []) {
    const pip = document.createElementNS(SVG, "circle");
    pip.setAttribute("cx", String(col * 10));
    pip.setAttribute("cy", String(row * 10));
    pip.setAttribute("r", "3.6");
    pip.classList.add("rn-die__pip");
    svg.append(pip);
  }
  if (!PIPS[value]) {
    // The Condottiere die's rout and treason faces, or a value without pips: its word, small.
    const text = document.createElementNS(SVG, "text");
    text.setAttribute("x", "20");
    text.setAttribute("y", "25");
    text.setAttribute("text-anchor", "middle");
    text.classList.add("rn-die__word");
    text.textContent = String(value);
    svg.append(text);
  }
  if (rolling) {
    svg.dataset.rolled = "1";
    if (motionAllowed()) svg.animate(TUMBLE, { duration: TUMBLE_MS, easing: "ease-out" });
  }
  return svg;
}
