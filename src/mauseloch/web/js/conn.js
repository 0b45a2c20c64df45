// The table's WebSocket, as docs/protocol.md describes it: hello -> snapshot, then updates.
// Resyncs on a seq or version gap, reconnects (every 1.5 s at most, at once when the device is
// online again) and says hello again with the same seat and token, so a seat survives reloads,
// network hiccups and server restarts.

// Close codes of the server's limits (server/limits.py) and how long to wait before trying again:
// no hello in time, too many connections from this address, the server is full.
const LIMITED = { 4408: 500, 4429: 10000, 4503: 30000 };
const SIGNED_OUT = 4401;
const RETRY_MAX_MS = 1500; // the longest wait between two tries after a lost connection

export class TableConnection {
  constructor({ tableId, seat, token, invite, transport, onSnapshot, onUpdate, onError, onStatus, onLive, onWindow, onResync, onEmote }) {
    this.tableId = tableId;
    // The transport: the server's WebSocket, or (an offline table) anything with its face that
    // carries the same messages: offline.js WorkerSocket, the engine in a Web Worker.
    this.transport = transport || ((url) => new WebSocket(url));
    this.seat = seat;
    this.token = token;
    this.invite = invite || null; // a spectator of a private table shows the secret of its invite link
    this.onSnapshot = onSnapshot;
    this.onUpdate = onUpdate;
    this.onError = onError;
    this.onStatus = onStatus;
    this.onLive = onLive || (() => {});
    this.onWindow = onWindow || (() => {});
    this.onResync = onResync || (() => {});
    this.onEmote = onEmote || (() => {});
    // The version and seq of the last state this page applied: a move carries that version, so
    // the server refuses it as stale when the page was shown less than the table holds.
    this.version = -1;
    this.seq = 0;
    // A resync was asked for: updates are ignored until its snapshot, which replaces them all.
    this.resyncing = false;
    this.ws = null;
    this.attempt = 0;
    this.closed = false;
    this.pingTimer = null;
    this.retryTimer = null;
    this.answerTimer = null;
  }

  url() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    return `${scheme}//${location.host}/ws/${encodeURIComponent(this.tableId)}`;
  }

  open() {
    this.closed = false;
    this.retryTimer = null;
    this.onStatus("connecting");
    const ws = this.transport(this.url(), this.tableId);
    this.ws = ws;
    ws.addEventListener("open", () => {
      this.resyncing = false; // the hello's snapshot replaces everything
      const hello = { type: "hello", token: this.token, seat: this.seat, last_seq: this.seq };
      if (this.invite && this.seat === null) hello.invite = this.invite;
      this.send(hello);
      clearInterval(this.pingTimer);
      this.pingTimer = setInterval(() => this.send({ type: "ping" }), 20000);
    });
    ws.addEventListener("message", (e) => this.receive(e.data));
    ws.addEventListener("close", (e) => {
      if (this.ws !== ws) return;
      clearInterval(this.pingTimer);
      // 4403 (bad token) and 4404 (no such table) will not get better by trying again; 4401: the
      // seat was signed out here from another device.
      if (!this.closed && (e.code === 4403 || e.code === 4404)) {
        this.closed = true;
        this.onStatus("gone");
      }
      if (!this.closed && e.code === SIGNED_OUT) {
        this.closed = true;
        this.onStatus("signedOut");
      }
      if (!this.closed) this.retry(LIMITED[e.code] || 0, LIMITED[e.code] ? e.code : null);
    });
    ws.addEventListener("error", () => {
      /* the close event that follows does the work */
    });
  }

  retry(atLeast = 0, why = null) {
    // 0.5 s, 1 s, then every 1.5 s: a server that comes back is found within 1.5 s, so play goes
    // on within 2 s of its return. A little jitter (never above the step) so that many pages do
    // not knock at once; closed over a server limit, at least as long as that limit asks.
    const step = Math.min(RETRY_MAX_MS, 500 * 2 ** this.attempt);
    const delay = Math.max(atLeast, Math.round(step * (0.85 + Math.random() * 0.15)));
    this.attempt += 1;
    this.onStatus("reconnecting", { at: Date.now() + delay, ms: delay }, why);
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => this.open(), delay);
  }

  /** The device says it is online again (or the tab came back into view): try at once, not at
   * the next step, when a retry is waiting. */
  nudge() {
    if (this.closed || !this.retryTimer || (this.ws && this.ws.readyState !== WebSocket.CLOSED)) return;
    clearTimeout(this.retryTimer);
    this.retryTimer = null;
    this.open();
  }

  close() {
    this.closed = true;
    clearInterval(this.pingTimer);
    clearTimeout(this.retryTimer);
    if (this.ws) this.ws.close();
  }

  send(msg) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(msg));
      return true;
    }
    return false;
  }

  move(move) {
    const sent = this.send({ type: "move", move, version: this.version });
    if (sent) {
      // A move is always answered (update or error). If nothing comes, ask with a ping: its
      // pong tells the table's version and seq, and a difference means a resync.
      clearTimeout(this.answerTimer);
      this.answerTimer = setTimeout(() => this.send({ type: "ping" }), 3000);
    }
    return sent;
  }

  resync(again = false) {
    if (this.resyncing && !again) return;
    this.resyncing = true;
    this.send({ type: "resync" });
    // Answered by a snapshot; if none comes, a ping's pong asks again.
    clearTimeout(this.answerTimer);
    this.answerTimer = setTimeout(() => this.send({ type: "ping" }), 3000);
    this.onResync(); // the page redraws: nothing may be played until the snapshot
  }

  // Leaving on purpose: the seat is "gone" at once and a stand-in plays it after a short grace.
  leave() {
    const sent = this.send({ type: "leave" });
    this.close();
    return sent;
  }

  // The tab is closing (not a reload that comes straight back, which simply returns): the seat
  // counts as left on purpose unless another page of it stays open.
  tabClosing() {
    if (!this.closed) this.send({ type: "leave", tab_closed: true });
  }

  rematch() {
    return this.send({ type: "rematch" });
  }

  // A quick reaction from this seat (one of a fixed set: web/js/emotes.js).
  emote(id) {
    return this.send({ type: "emote", emote: id });
  }

  // A reaction (reaction games): the move and the time this device measured from the frame the
  // card was painted to the input event. The referee's decision comes back as an update.
  react(move, ms) {
    return this.send({ type: "react", move, version: this.version, ms: Math.max(0, Math.round(ms)) });
  }

  receive(text) {
    let msg;
    try {
      msg = JSON.parse(text);
    } catch {
      return;
    }
    if (msg.type === "clock_ping") {
      // Answered at once, here in the network code: the server learns the round trip and how
      // this page's clock (performance.now) stands to its own, so it can show cards in sync.
      this.send({ type: "clock_pong", n: msg.n, t: performance.now() });
      return;
    }
    if (msg.type === "emote") {
      // Someone's quick reaction: no part of the table's state, so no version, nothing to answer.
      this.onEmote(msg);
      return;
    }
    if (msg.type === "window") {
      // A card is shown at msg.start on this page's clock (or msg.in_ms from now).
      this.onWindow(msg, performance.now());
      return;
    }
    // Anything answers a move; only a snapshot answers a resync.
    if (msg.type === "snapshot" || (msg.type !== "pong" && !this.resyncing)) clearTimeout(this.answerTimer);
    if (msg.type === "snapshot") {
      this.attempt = 0;
      this.resyncing = false;
      this.version = msg.version;
      this.seq = msg.seq;
      this.onStatus("connected");
      this.onSnapshot(msg);
    } else if (msg.type === "update") {
      if (this.resyncing) return; // the snapshot on its way holds this update and all before it
      if (msg.version <= this.version && msg.seq <= this.seq) return; // already seen
      const events = msg.events || [];
      if (msg.version > this.version + 1 || msg.seq - events.length > this.seq) {
        // Something was missed. The version stays at the state the page shows (not this
        // update's), so that no move chosen on that state is taken as made on a newer one.
        this.resync();
        return;
      }
      this.version = msg.version;
      this.seq = msg.seq;
      this.onUpdate(msg);
    } else if (msg.type === "presence") {
      // Presence, stand-ins, the clock or rematch votes changed; no move was made.
      if (msg.version > this.version) this.resync();
      else this.onLive(msg.live);
    } else if (msg.type === "error" || msg.type === "pong") {
      // Both carry the table's version and seq: being behind means something was missed.
      // A pong answers a move or a resync that nothing answered: then ask again.
      const behind = msg.version > this.version || msg.seq > this.seq;
      if (behind || (this.resyncing && msg.type === "pong")) this.resync(msg.type === "pong");
      if (msg.type === "error") this.onError(msg);
    }
  }
}
