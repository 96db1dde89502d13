// A small confirm panel in the page (never window.confirm): what the card would do to you and to
// the others ("Spring leaves you as you are and strengthens a rival: you stay at 0, Blue goes
// from 6 to 9. Play it anyway?").
// Keyboard first: it takes the focus, Escape cancels, and the focus goes back where it was.
// The setting "Ask before cards that hurt me" is remembered per player in localStorage.

const SETTING_PREFIX = "condottiere.askBeforeHurt.";

function settingKey(player) {
  return SETTING_PREFIX + (player || "anonymous");
}

export function askBeforeHurt(player) {
  try {
    return window.localStorage.getItem(settingKey(player)) !== "off";
  } catch {
    return true; // storage refused (private mode): keep the safe default, asking
  }
}

export function setAskBeforeHurt(player, on) {
  try {
    window.localStorage.setItem(settingKey(player), on ? "on" : "off");
  } catch {
    // Not remembered, but still applied to this page through the checkbox's state.
  }
}

// The checkbox, drawn once after `anchor` (the hand) and kept across renders.
export function ensureSettingToggle(anchor, { t, player }) {
  let label = anchor.parentElement.querySelector(":scope > .confirm-setting");
  if (!label) {
    label = document.createElement("label");
    label.className = "confirm-setting";
    const box = document.createElement("input");
    box.type = "checkbox";
    box.dataset.confirmSetting = "";
    box.addEventListener("change", () => setAskBeforeHurt(label.dataset.player, box.checked));
    label.append(box, document.createTextNode(` ${t.ui("ask_before_hurt")}`));
    anchor.after(label);
  }
  label.dataset.player = player;
  label.querySelector("input").checked = askBeforeHurt(player);
}

// Why the card is worth a second thought, from its effect on the strengths: it ends a battle you
// are not winning (Surrender), it weakens you, it leaves you as you are while a rival gains, or
// a rival gains more than you. Then each change: yours always, a rival's when it changes.
export function hurtText({ t, card, seat, before, after, seatNames }) {
  const name = (index) => seatNames[index] ?? String(index + 1);
  if (card === "surrender") {
    const strengths = after.map((strength, index) => `${name(index)} ${strength}`).join(" · ");
    return t.ui("confirm_surrender", { card: t.cardTitle(card), strengths });
  }
  const changes = [
    before[seat] === after[seat]
      ? t.ui("confirm_you_stay", { strength: after[seat] })
      : t.ui("confirm_you_change", { before: before[seat], after: after[seat] }),
  ];
  after.forEach((strength, index) => {
    if (index !== seat && strength !== before[index]) {
      changes.push(t.ui("confirm_other_change", { player: name(index), before: before[index], after: strength }));
    }
  });
  const mine = after[seat] - before[seat];
  const key = mine < 0 ? "confirm_weakens" : mine === 0 ? "confirm_helps_rival" : "confirm_helps_rival_more";
  return t.ui(key, { card: t.cardTitle(card), changes: changes.join(", ") });
}

function button(text, className, onClick) {
  const node = document.createElement("button");
  node.type = "button";
  node.className = className;
  node.textContent = text;
  node.addEventListener("click", onClick);
  return node;
}

// Shows the panel after `anchor`; `onConfirm` runs only on "Play it".
export function askToConfirm(anchor, { t, text, onConfirm }) {
  anchor.parentElement.querySelector(":scope > .confirm-panel")?.remove();
  const returnFocus = document.activeElement;
  const panel = document.createElement("div");
  panel.className = "confirm-panel";
  panel.setAttribute("role", "alertdialog");
  panel.setAttribute("aria-modal", "false");
  const message = document.createElement("p");
  message.className = "confirm-panel__text";
  message.id = "confirm-panel-text";
  message.textContent = text;
  panel.setAttribute("aria-describedby", message.id);
  const close = () => {
    panel.remove();
    if (returnFocus?.isConnected) returnFocus.focus();
  };
  const cancel = button(t.ui("cancel"), "button button--secondary", close);
  cancel.dataset.confirm = "cancel";
  const confirm = button(t.ui("confirm_play"), "button", () => {
    panel.remove();
    onConfirm();
  });
  confirm.dataset.confirm = "play";
  panel.addEventListener("keydown", (event) => {
    if (event.key === "Escape") close();
  });
  const row = document.createElement("div");
  row.className = "prompt__choices";
  row.append(cancel, confirm);
  panel.append(message, row);
  anchor.after(panel);
  cancel.focus(); // the safe choice has the focus: Enter by habit does not play a harmful card
}
