// Panning and zooming the map by changing its viewBox: the + and − buttons, "Whole map", and a
// drag (mouse, pen or finger) once zoomed in. On a phone the map is too small to pick a city
// from the whole of Italy; zoomed in, a drag moves it. A drag never counts as a click on a city
// (the board reads svg.dataset.panned).

const MIN_SCALE = 0.2; // the narrowest view: a fifth of the map's width
const STEP = 1.6;
const DRAG_PIXELS = 6;

export function createMapView(svg, { zoomIn, zoomOut, reset } = {}) {
  if (!svg) return { ensureVisible() {}, reset() {} };
  const base = readViewBox(svg);
  let box = { ...base };
  let drag = null;

  function apply() {
    svg.setAttribute("viewBox", `${box.x} ${box.y} ${box.w} ${box.h}`);
    svg.dataset.zoomed = String(box.w < base.w - 0.5);
    if (zoomOut) zoomOut.disabled = box.w >= base.w - 0.5;
    if (zoomIn) zoomIn.disabled = box.w <= base.w * MIN_SCALE + 0.5;
  }

  function clamp() {
    box.w = Math.min(base.w, Math.max(base.w * MIN_SCALE, box.w));
    box.h = box.w * (base.h / base.w);
    box.x = Math.min(base.x + base.w - box.w, Math.max(base.x, box.x));
    box.y = Math.min(base.y + base.h - box.h, Math.max(base.y, box.y));
  }

  function zoom(factor, centre = { x: box.x + box.w / 2, y: box.y + box.h / 2 }) {
    box.w /= factor;
    box.h /= factor;
    box.x = centre.x - box.w / 2;
    box.y = centre.y - box.h / 2;
    clamp();
    apply();
  }

  function unitsPerPixel() {
    const rect = svg.getBoundingClientRect();
    // The map keeps its aspect ratio inside its box ("meet"): the larger ratio is the one used.
    return Math.max(box.w / Math.max(1, rect.width), box.h / Math.max(1, rect.height));
  }

  zoomIn?.addEventListener("click", () => zoom(STEP));
  zoomOut?.addEventListener("click", () => zoom(1 / STEP));
  reset?.addEventListener("click", () => {
    box = { ...base };
    apply();
  });

  svg.addEventListener("pointerdown", (event) => {
    if (event.button !== 0 || box.w >= base.w - 0.5) return;
    drag = { id: event.pointerId, x: event.clientX, y: event.clientY, start: { ...box }, moved: false };
  });
  svg.addEventListener("pointermove", (event) => {
    if (!drag || drag.id !== event.pointerId) return;
    const dx = event.clientX - drag.x;
    const dy = event.clientY - drag.y;
    if (!drag.moved && Math.hypot(dx, dy) < DRAG_PIXELS) return;
    if (!drag.moved) {
      drag.moved = true;
      svg.setPointerCapture?.(event.pointerId);
      svg.dataset.panned = "true";
    }
    const scale = unitsPerPixel();
    box.x = drag.start.x - dx * scale;
    box.y = drag.start.y - dy * scale;
    clamp();
    apply();
    event.preventDefault();
  });
  const end = (event) => {
    if (!drag || drag.id !== event.pointerId) return;
    const moved = drag.moved;
    drag = null;
    // The click that ends a drag comes after pointerup: forget the drag once it has passed.
    if (moved) setTimeout(() => delete svg.dataset.panned, 0);
  };
  svg.addEventListener("pointerup", end);
  svg.addEventListener("pointercancel", end);

  apply();
  return {
    // Brings a city into view (a legal choice off the zoomed view, the keyboard's focus).
    ensureVisible(point) {
      if (!point) return;
      const margin = box.w * 0.08;
      const inside =
        point.x >= box.x + margin &&
        point.x <= box.x + box.w - margin &&
        point.y >= box.y + margin &&
        point.y <= box.y + box.h - margin;
      if (inside) return;
      box.x = point.x - box.w / 2;
      box.y = point.y - box.h / 2;
      clamp();
      apply();
    },
    reset() {
      box = { ...base };
      apply();
    },
  };
}

function readViewBox(svg) {
  const values = (svg.getAttribute("viewBox") ?? "").split(/[\s,]+/).map(Number);
  if (values.length === 4 && values.every(Number.isFinite) && values[2] > 0) {
    return { x: values[0], y: values[1], w: values[2], h: values[3] };
  }
  const rect = svg.getBoundingClientRect();
  return { x: 0, y: 0, w: rect.width || 1000, h: rect.height || 1000 };
}
