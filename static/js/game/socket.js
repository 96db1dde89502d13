// The game's websocket (protocol 1): connects, reconnects with backoff, and asks for the current
// state after every reconnect (`sync`). State frames are full views, so a missed one is harmless.

const FIRST_DELAY_MS = 500;
const MAX_DELAY_MS = 15000;
// Close codes (docs/protocol.md, "Close codes"): after 4004 (no such game) reconnecting cannot
// help, so the socket stops; after 4029 (too many sockets open) it waits the longest delay.
const CLOSE_NO_SUCH_GAME = 4004;
const CLOSE_TOO_MANY_SOCKETS = 4029;

export function socketUrl(path, location = window.location) {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${location.host}${path}`;
}

export class GameSocket {
  constructor(url, { onFrame, onStatus }) {
    this.url = url;
    this.onFrame = onFrame;
    this.onStatus = onStatus;
    this.attempt = 0;
    this.hasOpened = false;
    this.socket = null;
    this.retryTimer = null;
  }

  connect() {
    clearTimeout(this.retryTimer);
    this.onStatus(this.hasOpened ? "reconnecting" : "connecting");
    const socket = new WebSocket(this.url);
    this.socket = socket;
    socket.addEventListener("open", () => {
      this.attempt = 0;
      this.onStatus("open");
      // After a reconnect the server sends a state anyway; asking again costs one frame and
      // keeps the client correct even if that first frame raced with a move.
      if (this.hasOpened) this.send({ type: "sync" });
      this.hasOpened = true;
    });
    socket.addEventListener("message", (event) => {
      let frame;
      try {
        frame = JSON.parse(event.data);
      } catch {
        return;
      }
      if (frame && typeof frame === "object") this.onFrame(frame);
    });
    socket.addEventListener("close", (event) => {
      if (this.socket !== socket) return;
      if (event.code === CLOSE_NO_SUCH_GAME) {
        this.onStatus("gone");
        return;
      }
      if (event.code === CLOSE_TOO_MANY_SOCKETS) this.attempt = Math.max(this.attempt, 5);
      this.onStatus("reconnecting");
      this.scheduleReconnect();
    });
  }

  scheduleReconnect() {
    const base = Math.min(MAX_DELAY_MS, FIRST_DELAY_MS * 2 ** this.attempt);
    this.attempt += 1;
    // Jitter spreads the reconnections of many clients after a server restart.
    const delay = base / 2 + Math.random() * (base / 2);
    this.retryTimer = setTimeout(() => this.connect(), delay);
  }

  isOpen() {
    return this.socket?.readyState === WebSocket.OPEN;
  }

  send(message) {
    if (!this.isOpen()) return false;
    this.socket.send(JSON.stringify(message));
    return true;
  }
}
