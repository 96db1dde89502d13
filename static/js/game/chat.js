// Table talk: the chat panel of a game (players' or spectators' room) and of a lobby table.
// Frames (docs/protocol.md, "Chat"): chat_history on joining, chat for each new message,
// chat_deleted when staff remove one; errors with a chat_* code. Messages are written with
// textContent only: whatever anybody types is shown as text, never read as HTML.

const FORMAT = /\{(\w+)\}/g;

// `word(key, params)`: the page's translated words; `send(frame)`: the socket;
// `authorName(message)`: how to name a bot's or a seat's message (the game page knows the seats).
export function createChatPanel(root, { word, send, authorName = null }) {
  const list = root.querySelector("[data-chat-list]");
  const form = root.querySelector("[data-chat-form]");
  const input = root.querySelector("[data-chat-input]");
  const error = root.querySelector("[data-chat-error]");
  const roomLabel = root.querySelector("[data-chat-room]");
  const mutedLine = root.querySelector("[data-chat-muted]");
  const silencedLine = root.querySelector("[data-chat-silenced]");
  const state = { messages: [], muted: new Set(), names: new Map(), you: null, staff: false };

  function nameOf(message) {
    const named = authorName ? authorName(message) : "";
    return named || message.name || "";
  }

  function button(text, label, onClick, extraClass) {
    const node = document.createElement("button");
    node.type = "button";
    node.className = `chat__action ${extraClass}`;
    node.textContent = text;
    if (label) node.setAttribute("aria-label", label);
    node.addEventListener("click", onClick);
    return node;
  }

  function renderMessage(message) {
    const item = document.createElement("li");
    item.className = "chat__message";
    item.dataset.chatMessage = String(message.id);
    if (message.seat !== null && message.seat !== undefined) {
      item.style.setProperty("--seat", `var(--seat-${message.seat})`);
    }
    const author = document.createElement("span");
    author.className = "chat__author";
    const name = nameOf(message);
    author.textContent = message.user === state.you ? `${name} (${word("chat_you")})` : name;
    const text = document.createElement("span");
    text.className = "chat__text";
    text.textContent = message.text; // never innerHTML: a message is text
    item.append(author, text);
    if (message.user && message.user !== state.you) {
      state.names.set(message.user, name);
      item.append(
        button(word("chat_mute"), word("chat_mute_label", { name }), () => mute(message.user, true), "chat__mute"),
      );
    }
    if (state.staff) {
      item.append(
        button(word("chat_delete"), word("chat_delete_label"), () => send({ type: "chat_delete", id: message.id }), "chat__delete"),
      );
    }
    return item;
  }

  function render() {
    const visible = state.messages.filter((message) => !state.muted.has(message.user));
    if (!visible.length) {
      const empty = document.createElement("li");
      empty.className = "chat__empty";
      empty.textContent = word("chat_empty");
      list.replaceChildren(empty);
    } else {
      list.replaceChildren(...visible.map(renderMessage));
      list.scrollTop = list.scrollHeight;
    }
    renderMuted();
  }

  function renderMuted() {
    if (!mutedLine) return;
    mutedLine.hidden = state.muted.size === 0;
    const names = [...state.muted].map((id) => state.names.get(id) || `#${id}`);
    const unmute = [...state.muted].map((id) =>
      button(`${word("chat_unmute")} ${state.names.get(id) || `#${id}`}`, null, () => mute(id, false), "chat__unmute"),
    );
    const text = document.createElement("span");
    text.textContent = word("chat_muted", { names: names.join(", ") });
    mutedLine.replaceChildren(text, ...unmute);
  }

  function mute(user, on) {
    send({ type: "chat_mute", user, on });
  }

  function showError(message) {
    if (!error) return;
    error.hidden = !message;
    error.textContent = message || "";
  }

  form?.addEventListener("submit", (event) => {
    event.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    if (send({ type: "chat", text })) {
      input.value = "";
      showError("");
    }
  });

  const panel = {
    // The room's history over HTTP (the game page: its socket sends no history unasked).
    async load(url) {
      try {
        const response = await fetch(url, { headers: { Accept: "application/json" } });
        if (response.ok) panel.receive(await response.json());
      } catch {
        // Offline for a moment: the next connection reads it again.
      }
    },
    // Returns true when the frame was a chat frame (or a chat error) and was handled.
    receive(frame) {
      if (frame.type === "chat_history") {
        // The history replaces what was shown; messages heard on the socket since it was read
        // (newer ids) are kept.
        const history = frame.messages ?? [];
        const newest = Math.max(0, ...history.map((m) => m.id));
        state.muted = new Set(frame.muted ?? []);
        state.messages = [...history, ...state.messages.filter((m) => m.id > newest && !state.muted.has(m.user))];
        state.you = frame.you ?? null;
        state.staff = Boolean(frame.staff);
        root.hidden = false;
        root.dataset.room = frame.room;
        if (roomLabel) roomLabel.textContent = frame.room === "table" ? "" : word(`chat_${frame.room}`);
        // Signed in: the form, or the line saying the staff silenced you. A visitor has neither,
        // only the page's log-in link (templates/chat/_room.html): a form could not post.
        if (form) form.hidden = !frame.can_post;
        if (silencedLine) silencedLine.hidden = Boolean(frame.can_post) || !frame.you;
        render();
        return true;
      }
      if (frame.type === "chat") {
        if (!frame.message || state.messages.some((m) => m.id === frame.message.id)) return true;
        state.messages.push(frame.message);
        render();
        return true;
      }
      if (frame.type === "chat_deleted") {
        state.messages = state.messages.filter((message) => message.id !== frame.id);
        render();
        return true;
      }
      if (frame.type === "error" && String(frame.code || "").startsWith("chat_")) {
        showError(frame.message || frame.code);
        return true;
      }
      return false;
    },
  };
  return panel;
}

// Words from data-label-* attributes (the lobby's table page renders them translated).
export function wordsFromDataset(node) {
  return (key, params = {}) => {
    const name = `label${key.replace(/(^|_)(\w)/g, (_, __, letter) => letter.toUpperCase())}`;
    const template = node.dataset[name] ?? key;
    return template.replace(FORMAT, (whole, field) => (field in params ? String(params[field]) : whole));
  };
}

// The replay's chat: every room's messages written up to this step, each marked with its room
// (the game is over, so the players' and the spectators' rooms are both shown). Text only.
export function renderChatLog(list, messages, { word, authorName }) {
  const items = messages.map((message) => {
    const item = document.createElement("li");
    item.className = `chat__message chat__message--${message.room}`;
    if (message.seat !== null && message.seat !== undefined) item.style.setProperty("--seat", `var(--seat-${message.seat})`);
    const room = document.createElement("span");
    room.className = "chat__room-tag";
    room.textContent = word(`chat_room_${message.room}`);
    const author = document.createElement("span");
    author.className = "chat__author";
    author.textContent = authorName(message) || message.name || "";
    const text = document.createElement("span");
    text.className = "chat__text";
    text.textContent = message.text;
    item.append(room, author, text);
    return item;
  });
  if (!items.length) {
    const empty = document.createElement("li");
    empty.className = "chat__empty";
    empty.textContent = word("chat_empty");
    items.push(empty);
  }
  list.replaceChildren(...items);
}
