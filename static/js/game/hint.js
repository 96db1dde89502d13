// The hint of a game against the site's bots only: POST /games/<id>/hint/ asks the search for a
// move from the player's own view (docs/protocol.md, section 13); a worker searches it, and the
// answer is read at the URL the request gives (202 while searched). The page is the same for every
// visitor, so the button is shown here, from the state frame, to a seated player whose every
// other seat is one of the site's bots; the server checks it again and refuses otherwise. The
// answer names the version it was searched at: a game that moved on meanwhile makes it stale.
// Enabled only while it is the player's turn; its words are the element's data-word-* attributes.
// The answer says the move to the player with its reason (games/analysis/hint_words.py) and
// names what it concerns: that card of the hand or that region of the map gets the class
// "is-hinted" (an outline, static/css/analysis.css) until the game moves on. The hand and the
// map are drawn again on every frame, so the mark is put back after each.

// How often the answer is asked for while the search runs, and for how long at most.
const POLL_MS = 300;
const GIVE_UP_MS = 60_000;

const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function onlyBotsAgainst(frame) {
  const seat = frame.view?.seat;
  if (seat === null || seat === undefined || frame.game?.status !== "playing") return false;
  return (frame.game.seats ?? []).every((other) => other.index === seat || other.kind === "bot");
}

const HINTED = "is-hinted";

// The elements a hint's mark names: the hand's buttons of that card, or the map's region.
function hintedElements(mark) {
  if (mark?.card) return [...document.querySelectorAll(`[data-hand] [data-card="${CSS.escape(mark.card)}"]`)].slice(0, 1);
  if (mark?.region) return [...document.querySelectorAll(`g.region[data-region="${CSS.escape(mark.region)}"]`)];
  return [];
}

function clearMarks() {
  for (const element of document.querySelectorAll(`.${HINTED}`)) element.classList.remove(HINTED);
}

export function createHint(box) {
  if (!box) return { update() {} };
  const button = box.querySelector("[data-hint-button]");
  const text = box.querySelector("[data-hint-text]");
  const word = (name) => box.dataset[`word${name[0].toUpperCase()}${name.slice(1)}`] ?? "";
  const local = { version: null, myTurn: false, busy: false, mark: null };

  function showMark() {
    clearMarks();
    for (const element of hintedElements(local.mark)) element.classList.add(HINTED);
  }

  function refresh() {
    button.disabled = local.busy || !local.myTurn;
    box.dataset.busy = String(local.busy);
  }

  function csrfToken() {
    const cookie = document.cookie.split("; ").find((part) => part.startsWith("csrftoken="));
    const field = document.querySelector("input[name=csrfmiddlewaretoken]");
    return field?.value ?? (cookie ? decodeURIComponent(cookie.split("=")[1]) : "");
  }

  // The answer of a hint being searched: asked for again until it is no longer pending.
  async function searched(url) {
    const until = Date.now() + GIVE_UP_MS;
    while (Date.now() < until) {
      await pause(POLL_MS);
      const response = await fetch(url, { headers: { Accept: "application/json" } });
      if (response.status !== 202) return { response, answer: await response.json().catch(() => ({})) };
    }
    throw new Error("no answer");
  }

  async function ask() {
    local.busy = true;
    refresh();
    const askedAt = local.version;
    text.textContent = word("asking");
    try {
      const asked = await fetch(box.dataset.url, {
        method: "POST",
        headers: { "X-CSRFToken": csrfToken(), Accept: "application/json" },
      });
      const pending = await asked.json().catch(() => ({}));
      const { response, answer } =
        asked.status === 202 ? await searched(pending.url) : { response: asked, answer: pending };
      if (!response.ok) text.textContent = answer.message ?? word("failed");
      else if (answer.version !== local.version || askedAt !== local.version) text.textContent = word("stale");
      else {
        text.textContent = answer.text;
        box.dataset.hintVersion = String(answer.version);
        local.mark = answer.mark ?? null;
        showMark();
      }
    } catch (error) {
      text.textContent = word("failed");
    } finally {
      local.busy = false;
      refresh();
    }
  }

  button.addEventListener("click", ask);
  return {
    // Every state frame: a new version clears the last hint, which was for another decision.
    update({ frame, myTurn }) {
      box.hidden = !onlyBotsAgainst(frame);
      if (frame.version !== local.version && !local.busy) {
        text.textContent = "";
        delete box.dataset.hintVersion;
        local.mark = null;
      }
      showMark();
      local.version = frame.version;
      local.myTurn = myTurn && !box.hidden;
      refresh();
    },
  };
}
