// The turn cue: a player looking at another tab still learns that the table waits for them.
// The tab's title and favicon mark the player's own decision (never a spectator's page). When the
// turn arrives while the tab is hidden, an optional short tone and an optional browser
// notification tell it too: both are off until the player switches them on, and the choice is
// remembered in this browser per player (localStorage, keyed by the player's account name as the
// frame names their seat, or "anon": the page's HTML stays the same for every visitor).

const STORAGE_PREFIX = "condottiere.turnCue.";
const TONE = { hertz: 880, seconds: 0.18, volume: 0.12 };
const OFF = Object.freeze({ sound: false, notify: false });

let cue = null; // one game per page: set up at its first render

// Called on every render of the game page; cheap when nothing changed.
export function cueTurn({ root, t, view, game, myTurn }) {
  cue ??= createTurnCue(root, t, ownerOf(game));
  const seated = view?.seat !== null && view?.seat !== undefined;
  // The switches are for turns to come: a game that is over has none, so they go with it.
  const playing = game?.status === "playing";
  cue.show({ switches: seated && playing, myTurn: seated && myTurn });
}

// Only people sit at a table (never an anonymous visitor): their seat carries their account name.
function ownerOf(game) {
  const name = game?.seats?.find((seat) => seat.you)?.name;
  return name ? `player:${name}` : "anon";
}

function createTurnCue(root, t, owner) {
  const panel = root.querySelector("[data-turn-cue]");
  const icon = document.querySelector('link[rel="icon"]');
  const normal = { title: document.title, icon: icon?.getAttribute("href") };
  const turnIcon = panel?.dataset.turnIcon;
  const storageKey = STORAGE_PREFIX + owner;
  const settings = { ...readSettings(storageKey) };
  const sound = makeTone();
  let shownTurn = false;

  function save(name, on) {
    settings[name] = on;
    writeSettings(storageKey, settings);
  }

  function alertHiddenTab() {
    if (document.visibilityState !== "hidden") return;
    if (settings.sound) sound.play();
    if (settings.notify) notify(t, root);
  }

  if (panel) setUpToggles(panel, t, { settings, save, sound });
  // Browsers start audio only after a gesture on the page: prepare it at the first one, so a
  // tone remembered "on" can sound later while the tab is hidden.
  for (const type of ["pointerdown", "keydown"]) {
    document.addEventListener(type, () => settings.sound && sound.prepare(), { once: true });
  }

  return {
    show({ switches, myTurn }) {
      if (panel) panel.hidden = !switches;
      if (myTurn === shownTurn) return;
      shownTurn = myTurn;
      document.title = myTurn ? t.ui("turn_title", { title: normal.title }) : normal.title;
      if (icon && turnIcon) icon.setAttribute("href", myTurn ? turnIcon : normal.icon);
      if (myTurn) alertHiddenTab();
    },
  };
}

function setUpToggles(panel, t, { settings, save, sound }) {
  for (const label of panel.querySelectorAll("[data-cue-label]")) {
    label.textContent = t.ui(label.dataset.cueLabel);
  }
  const note = panel.querySelector("[data-cue-note]");
  const soundBox = panel.querySelector("input[data-cue='sound']");
  const notifyBox = panel.querySelector("input[data-cue='notify']");
  soundBox.checked = settings.sound;
  // A notification setting is only "on" while the browser still allows notifications.
  notifyBox.checked = settings.notify && notificationPermission() === "granted";
  soundBox.addEventListener("change", () => {
    save("sound", soundBox.checked);
    // Switching it on is a gesture: let the player hear what the tone sounds like.
    if (soundBox.checked) sound.play();
  });
  notifyBox.addEventListener("change", async () => {
    note.textContent = "";
    if (!notifyBox.checked) {
      save("notify", false);
      return;
    }
    const allowed = await askNotificationPermission();
    notifyBox.checked = allowed === "granted";
    save("notify", notifyBox.checked);
    if (allowed === "unsupported") note.textContent = t.ui("cue_notify_unsupported");
    else if (allowed !== "granted") note.textContent = t.ui("cue_notify_denied");
  });
}

function notificationPermission() {
  return "Notification" in window ? Notification.permission : "unsupported";
}

// Asked only when the player switches notifications on, never at page load.
async function askNotificationPermission() {
  const current = notificationPermission();
  if (current === "granted" || current === "unsupported") return current;
  try {
    return await Notification.requestPermission();
  } catch {
    return "denied";
  }
}

function notify(t, root) {
  if (notificationPermission() !== "granted") return;
  const game = root.querySelector("#game-title")?.textContent ?? document.title;
  // One notification per game at a time: a newer turn replaces the older one.
  const notice = new Notification(t.ui("your_turn"), {
    body: t.ui("cue_notify_body", { game }),
    tag: `condottiere-turn-${location.pathname}`,
  });
  notice.addEventListener("click", () => {
    window.focus();
    notice.close();
  });
}

// A short soft beep made with the Web Audio API: no sound file to download.
function makeTone() {
  let context = null;
  const prepare = () => {
    const Context = window.AudioContext ?? window.webkitAudioContext;
    if (!Context) return null;
    context ??= new Context();
    if (context.state === "suspended") context.resume().catch(() => {});
    return context;
  };
  return {
    prepare,
    play() {
      const audio = prepare();
      if (!audio) return;
      const start = audio.currentTime;
      const oscillator = audio.createOscillator();
      const gain = audio.createGain();
      oscillator.frequency.value = TONE.hertz;
      // A quick rise and fall: an abrupt start or stop clicks.
      gain.gain.setValueAtTime(0, start);
      gain.gain.linearRampToValueAtTime(TONE.volume, start + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, start + TONE.seconds);
      oscillator.connect(gain).connect(audio.destination);
      oscillator.start(start);
      oscillator.stop(start + TONE.seconds);
    },
  };
}

function readSettings(key) {
  try {
    const stored = JSON.parse(localStorage.getItem(key) ?? "{}");
    return { sound: stored.sound === true, notify: stored.notify === true };
  } catch {
    // Storage refused (private mode, disabled) or damaged: the defaults, everything off.
    return { ...OFF };
  }
}

function writeSettings(key, settings) {
  try {
    localStorage.setItem(key, JSON.stringify({ sound: settings.sound, notify: settings.notify }));
  } catch {
    // Not remembered (storage refused): the switch still works for this page.
  }
}
