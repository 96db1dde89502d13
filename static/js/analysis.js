// The computer analysis on the replay page: its status, the "Request analysis" button, a
// win-chance graph per seat (inline SVG, one line per seat, a dot on each marked move, the step
// shown as a cursor; a click on the graph goes to that step) with its axes (moves; chance of
// winning in %) and a legend naming each seat's line with its chance at the step shown,
// "Previous mistake" / "Next mistake" buttons that step the replay to the marked moves, each
// seat's accuracy, and the marks with "best was ..." on the log's lines. The data is
// GET /games/<id>/analysis.json (docs/protocol.md, section 13); while queued or running it is
// asked again every few seconds.

const SVG_NS = "http://www.w3.org/2000/svg";
const POLL_MS = 3000;
// The graph's drawing box (viewBox units; the SVG keeps its proportions, so its text is never
// stretched) and the margins left for the axes' ticks and titles.
const WIDTH = 640;
const HEIGHT = 200;
const MARGIN = { left: 48, right: 10, top: 8, bottom: 34 };
const CHANCE_TICKS = [0, 0.25, 0.5, 0.75, 1];

function fill(template, params) {
  return template.replace(/\{(\w+)\}/g, (whole, key) => (key in params ? String(params[key]) : whole));
}

function svgElement(name, attributes) {
  const element = document.createElementNS(SVG_NS, name);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, String(value));
  return element;
}

const percent = (value) => Math.round(value * 100);

// section: the [data-analysis] element; words: the "analysis-labels" JSON;
// seatName(game, seat) names a seat; onStep(step) moves the replay to a step.
export function createAnalysis(section, { words, seatName, onStep }) {
  const parts = {
    status: section.querySelector("[data-analysis-status]"),
    request: section.querySelector("[data-analysis-request]"),
    graph: section.querySelector("[data-analysis-graph]"),
    legend: section.querySelector("[data-analysis-legend]"),
    marksNav: section.querySelector("[data-analysis-marks-nav]"),
    previousMark: section.querySelector('[data-mark-go="previous"]'),
    nextMark: section.querySelector('[data-mark-go="next"]'),
    markWhere: section.querySelector("[data-mark-where]"),
    accuracy: section.querySelector("[data-analysis-accuracy]"),
  };
  const csrf = section.querySelector("input[name=csrfmiddlewaretoken]")?.value ?? "";
  const loggedIn = section.dataset.loggedIn === "yes";
  const state = { data: null, game: null, total: 0, step: 0, bySeq: new Map(), timer: null };

  function showStatus(data) {
    section.dataset.state = data.status;
    const texts = {
      none: loggedIn ? words.none : words.log_in,
      queued: words.queued,
      running: fill(words.running, { progress: data.progress ?? 0, total: data.total || "…" }),
      failed: words.failed,
      done: fill(words.done, { count: data.total ?? 0, iterations: data.iterations ?? 0 }),
    };
    let text = texts[data.status] ?? data.message ?? ""; // a status of its own says why (not_offered)
    if (data.status === "done" && data.truncated) text += " " + fill(words.truncated, { count: data.total });
    if (data.outdated) text += " " + words.outdated;
    parts.status.textContent = text;
    parts.request.textContent = data.status === "none" ? words.request : words.again;
    parts.request.hidden = !(loggedIn && (data.status === "none" || data.can_request));
  }

  async function load() {
    clearTimeout(state.timer);
    try {
      const response = await fetch(section.dataset.url, { headers: { Accept: "application/json" } });
      if (!response.ok) throw new Error(String(response.status));
      receive(await response.json());
    } catch (error) {
      section.dataset.state = "error";
      parts.status.textContent = words.error;
    }
  }

  function receive(data) {
    state.data = data;
    showStatus(data);
    if (data.status !== "done") forget();
    if (data.status === "queued" || data.status === "running") {
      state.timer = setTimeout(load, POLL_MS);
      return;
    }
    if (data.status !== "done") return;
    state.bySeq = new Map(data.decisions.map((entry) => [entry.seq, entry]));
    draw();
    announceChange();
  }

  // An outdated analysis asked again: its graph, accuracy and marks go until the new one is done.
  function forget() {
    if (!state.bySeq.size && parts.graph.hidden) return;
    state.bySeq = new Map();
    parts.graph.replaceChildren();
    parts.graph.hidden = true;
    parts.legend?.replaceChildren();
    if (parts.marksNav) parts.marksNav.hidden = true;
    parts.accuracy.replaceChildren();
    announceChange();
  }

  // The replay draws its log again, with the marks of the analysis now shown (or none).
  function announceChange() {
    section.dispatchEvent(new CustomEvent("analysis:changed", { bubbles: true }));
  }

  async function request() {
    parts.request.disabled = true;
    parts.status.textContent = words.requesting;
    try {
      const response = await fetch(section.dataset.requestUrl, {
        method: "POST",
        headers: { "X-CSRFToken": csrf, Accept: "application/json" },
      });
      // Over the account's quotas (HTTP 429): the server's message says how long to wait.
      if (response.status === 429) {
        const refusal = await response.json().catch(() => ({}));
        section.dataset.state = "refused";
        parts.status.textContent = refusal.message ?? words.error;
        return;
      }
      if (!response.ok) throw new Error(String(response.status));
      receive(await response.json());
    } catch (error) {
      section.dataset.state = "error";
      parts.status.textContent = words.error;
    } finally {
      parts.request.disabled = false;
    }
  }

  const plotWidth = WIDTH - MARGIN.left - MARGIN.right;
  const plotHeight = HEIGHT - MARGIN.top - MARGIN.bottom;
  const x = (step) => MARGIN.left + (state.total ? (step / state.total) * plotWidth : 0);
  const y = (chance) => MARGIN.top + (1 - chance) * plotHeight;

  function svgText(content, attributes) {
    const text = svgElement("text", attributes);
    text.textContent = content;
    return text;
  }

  // A round step between the move axis's ticks: about six of them whatever the game's length.
  function moveTickStep(total) {
    return [5, 10, 20, 25, 50, 100, 200].find((step) => total / step <= 6) ?? 500;
  }

  function axes() {
    const group = svgElement("g", { class: "analysis-graph__axes", "aria-hidden": "true" });
    for (const level of CHANCE_TICKS) {
      group.append(
        svgElement("line", { x1: MARGIN.left, x2: WIDTH - MARGIN.right, y1: y(level), y2: y(level), class: "analysis-graph__grid" }),
        svgText(`${percent(level)}%`, { x: MARGIN.left - 6, y: y(level) + 4, class: "analysis-graph__tick", "text-anchor": "end" }),
      );
    }
    const step = moveTickStep(state.total);
    for (let move = 0; move <= state.total; move += step) {
      group.append(
        svgElement("line", { x1: x(move), x2: x(move), y1: y(0), y2: y(0) + 4, class: "analysis-graph__axis" }),
        svgText(String(move), { x: x(move), y: y(0) + 15, class: "analysis-graph__tick", "text-anchor": "middle" }),
      );
    }
    group.append(
      svgElement("line", { x1: MARGIN.left, x2: MARGIN.left, y1: y(1), y2: y(0), class: "analysis-graph__axis" }),
      svgElement("line", { x1: MARGIN.left, x2: WIDTH - MARGIN.right, y1: y(0), y2: y(0), class: "analysis-graph__axis" }),
      svgText(words.axis_moves, { x: MARGIN.left + plotWidth / 2, y: HEIGHT - 3, class: "analysis-graph__title", "text-anchor": "middle" }),
      svgText(words.axis_chance, {
        x: 0,
        y: 0,
        class: "analysis-graph__title",
        "text-anchor": "middle",
        transform: `translate(11 ${MARGIN.top + plotHeight / 2}) rotate(-90)`,
      }),
    );
    return group;
  }

  // The step of the graph under a click, through the SVG's own transform (it keeps its
  // proportions, so the drawing may not fill the element's box).
  function stepAt(svg, event) {
    const matrix = svg.getScreenCTM();
    if (!matrix) return state.step;
    const point = new DOMPoint(event.clientX, event.clientY).matrixTransform(matrix.inverse());
    const ratio = Math.min(1, Math.max(0, (point.x - MARGIN.left) / plotWidth));
    return Math.round(ratio * state.total);
  }

  function seatLine(seat, entries) {
    const points = entries.map((entry) => `${x(entry.seq - 1).toFixed(1)},${y(entry.before).toFixed(1)}`);
    const line = svgElement("polyline", { points: points.join(" "), class: `analysis-graph__line seat-${seat}` });
    const title = svgElement("title", {});
    title.textContent = seatName(state.game, seat);
    line.append(title);
    return line;
  }

  function markDot(entry) {
    const dot = svgElement("circle", {
      cx: x(entry.seq - 1).toFixed(1),
      cy: y(entry.before).toFixed(1),
      r: entry.mark === "blunder" ? 4.5 : 3.5,
      class: `analysis-graph__mark analysis-graph__mark--${entry.mark} seat-${entry.seat}`,
      "data-seq": entry.seq,
    });
    const title = svgElement("title", {});
    title.textContent = `${words.marks[entry.mark]}: ${markText(entry)}`;
    dot.append(title);
    return dot;
  }

  function drawGraph() {
    const data = state.data;
    const svg = svgElement("svg", {
      viewBox: `0 0 ${WIDTH} ${HEIGHT}`,
      class: "analysis-graph",
      role: "img",
      "aria-label": words.graph,
    });
    svg.append(axes());
    for (const seat of analysedSeats()) {
      svg.append(seatLine(seat, data.decisions.filter((entry) => entry.seat === seat)));
    }
    for (const entry of data.decisions) if (entry.mark) svg.append(markDot(entry));
    const cursor = svgElement("line", { y1: y(1), y2: y(0), class: "analysis-graph__cursor", "data-cursor": "" });
    svg.append(cursor);
    svg.addEventListener("click", (event) => onStep(stepAt(svg, event)));
    parts.graph.replaceChildren(svg);
    parts.graph.hidden = false;
    moveCursor();
  }

  function analysedSeats() {
    return [...new Set(state.data.decisions.map((entry) => entry.seat))].sort((a, b) => a - b);
  }

  // A seat's chance of winning at `step`: that of its last decision at or before the step (the
  // graph's point), or of its first decision before it has made one.
  function chanceAt(seat, step) {
    const own = state.data.decisions.filter((entry) => entry.seat === seat);
    const reached = own.filter((entry) => entry.seq - 1 <= step);
    const entry = reached.length ? reached[reached.length - 1] : own[0];
    return entry ? percent(entry.before) : null;
  }

  function drawLegend() {
    if (!parts.legend) return;
    const items = analysedSeats().map((seat) => {
      const item = document.createElement("li");
      item.className = "analysis__legend-item";
      item.dataset.legendSeat = String(seat);
      const swatch = document.createElement("span");
      swatch.className = `analysis__swatch seat-${seat}`;
      swatch.setAttribute("aria-hidden", "true");
      const label = document.createElement("span");
      label.dataset.legendLabel = "";
      item.append(swatch, label);
      return item;
    });
    parts.legend.replaceChildren(...items);
    updateLegend();
  }

  function updateLegend() {
    for (const item of parts.legend?.children ?? []) {
      const seat = Number(item.dataset.legendSeat);
      const chance = chanceAt(seat, state.step);
      item.querySelector("[data-legend-label]").textContent = fill(words.legend_item, {
        player: seatName(state.game, seat),
        chance: chance ?? "—",
      });
    }
  }

  // The marked moves in log order, and the buttons that step the replay from one to the next.
  function markedEntries() {
    return (state.data?.decisions ?? []).filter((entry) => entry.mark).sort((a, b) => a.seq - b.seq);
  }

  function neighbourMark(direction) {
    const marked = markedEntries();
    if (direction === "next") return marked.find((entry) => entry.seq > state.step) ?? null;
    return marked.filter((entry) => entry.seq < state.step).pop() ?? null;
  }

  // The replay shows a marked move at the step just after it: its line tops the log, with the mark.
  function goToMark(direction) {
    const entry = neighbourMark(direction);
    if (entry) onStep(entry.seq);
  }

  function updateMarksNav() {
    if (!parts.marksNav) return;
    const marked = markedEntries();
    parts.marksNav.hidden = !marked.length;
    parts.previousMark.disabled = !neighbourMark("previous");
    parts.nextMark.disabled = !neighbourMark("next");
    const here = marked.find((entry) => entry.seq === state.step);
    parts.markWhere.dataset.markSeq = here ? String(here.seq) : "";
    parts.markWhere.textContent = here
      ? fill(words.mark_at, { move: here.seq, mark: words.marks[here.mark], text: markText(here) })
      : "";
  }

  function drawAccuracy() {
    const rows = state.data.accuracy.map((row) => {
      const item = document.createElement("li");
      item.className = "analysis__seat";
      item.dataset.seat = String(row.seat);
      item.style.setProperty("--seat", `var(--seat-${row.seat})`);
      const name = document.createElement("span");
      name.textContent = seatName(state.game, row.seat);
      const value = document.createElement("strong");
      value.dataset.accuracy = row.accuracy === null ? "" : String(row.accuracy);
      value.textContent = row.accuracy === null ? "—" : `${words.accuracy} ${row.accuracy}%`;
      const marks = document.createElement("span");
      marks.className = "analysis__counts";
      marks.textContent = ["inaccuracy", "mistake", "blunder"]
        .filter((mark) => row[mark])
        .map((mark) => `${row[mark]} × ${words.marks[mark]}`)
        .join(", ");
      item.append(name, value, marks);
      return item;
    });
    parts.accuracy.replaceChildren(...rows);
  }

  function draw() {
    if (!state.data || state.data.status !== "done" || !state.game) return;
    drawGraph();
    drawLegend();
    updateMarksNav();
    drawAccuracy();
  }

  function moveCursor() {
    const cursor = parts.graph.querySelector("[data-cursor]");
    if (!cursor) return;
    cursor.setAttribute("x1", x(state.step).toFixed(1));
    cursor.setAttribute("x2", x(state.step).toFixed(1));
  }

  function markText(entry) {
    const chance = fill(words.win_chance, {
      player: seatName(state.game, entry.seat),
      before: percent(entry.before),
      after: entry.after === null ? "?" : percent(entry.after),
    });
    return `${chance}; ${fill(words.best_was, { move: entry.best_label })}`;
  }

  // The log as rendered by log.js (newest first): the line of each analysed action gets its
  // mark's symbol, and a marked one says what the best move was. `lines` are in log order.
  function markLog(list, lines) {
    if (!state.bySeq.size) return;
    const items = [...list.children].reverse();
    lines.forEach((line, index) => {
      const [seq, part] = String(line.key ?? "").split(".");
      const entry = part === "0" ? state.bySeq.get(Number(seq)) : null;
      const item = items[index];
      if (!entry || !item || !entry.mark) return;
      item.dataset.mark = entry.mark;
      const badge = document.createElement("span");
      badge.className = `analysis-mark analysis-mark--${entry.mark}`;
      badge.textContent = ` ${words.symbols[entry.mark]} ${words.marks[entry.mark]}`;
      const best = document.createElement("span");
      best.className = "analysis-best";
      best.dataset.best = "";
      best.textContent = ` — ${markText(entry)}`;
      item.append(badge, best);
    });
  }

  parts.request.addEventListener("click", request);
  parts.previousMark?.addEventListener("click", () => goToMark("previous"));
  parts.nextMark?.addEventListener("click", () => goToMark("next"));
  return {
    start: load,
    setGame(game, total) {
      state.game = game;
      state.total = total;
      draw();
    },
    setStep(step) {
      state.step = step;
      moveCursor();
      if (state.data?.status === "done") {
        updateLegend();
        updateMarksNav();
      }
    },
    markLog,
  };
}
