// Feedback at the table that teaches and tells: why a tapped card does not fit (the engine's
// refusal, worded here), a sound, a vibration and a title badge when it becomes your turn, every
// move said to screen readers, and a played card moving to the pile. No game rule lives here: the
// reasons come with each snapshot and update (`refused`: the server asks the engine), whose turn
// it is with the view.

import { h } from "./api.js";
import { cardName, suitName, t } from "./i18n.js";

const SOUND_KEY = "ml_sound";
const BADGE = "● ";

// ---------------------------------------------------------------- why a card does not fit

// The placeholders of the refusal texts (locale/refusals.toml) hold card and suit codes; the page
// names them in its language.
const WORDING = {
  card: cardName,
  top: cardName,
  suit: suitName,
  cards: (list) => String(list).split(",").map((c) => cardName(c.trim())).join(", "),
};

/** A refusal `{reason, params}` of the server's in the page's language, as a sentence. */
export function refusalText(refusal) {
  const params = {};
  for (const [k, v] of Object.entries(refusal.params || {})) params[k] = WORDING[k] ? WORDING[k](v) : v;
  const text = t(refusal.reason, params);
  return text.charAt(0).toUpperCase() + text.slice(1) + ".";
}

/**
 * Why `card` cannot be played now, for the seat of `ctx`: the engine's reason when the server
 * sent one (`ctx.refused`); otherwise what holds every move back (not this seat's turn, a pause,
 * a move on its way).
 */
export function whyNot(card, view, ctx) {
  const refused = ctx.refused && ctx.refused[card];
  if (refused && ctx.canAct) return refusalText(refused);
  if (view.to_move !== ctx.seat && view.to_move !== null && view.to_move !== undefined) {
    return t("fb.notYourTurn", { name: ctx.name(view.to_move) });
  }
  if (ctx.paused) return t("fb.paused");
  if (!ctx.canAct) return t("fb.busy");
  return refused ? refusalText(refused) : t("fb.notNow");
}

// The note next to the hand keeps its text across redraws (a bot's move redraws the board) until
// the next tap or key, or for NOTE_MS: "It is not your turn" must be readable, not gone with the
// bot's next move a moment later.
const NOTE_MS = 3000;
let note = { text: "", timer: 0 };

// The note is a live region that stays in the page (empty when there is nothing to say), so a
// screen reader hears each new reason. D1's page may hold it; else it follows the hand.
function noteEl(board) {
  let el = document.getElementById("hand-note");
  if (el) return el;
  el = h("p", { id: "hand-note", class: "hand-note", role: "status", "aria-live": "polite" });
  const hand = board.querySelector(".hand, .mg-hand");
  if (hand) hand.after(el);
  else board.append(el);
  return el;
}

function clearNote() {
  clearTimeout(note.timer);
  note = { text: "", timer: 0 };
  const el = document.getElementById("hand-note");
  if (el && el.textContent) el.textContent = "";
}

// The next tap, click or key ends the note (a tap on another card that does not fit says its own).
for (const kind of ["pointerdown", "keydown"]) {
  document.addEventListener(kind, (e) => {
    if (note.text && !(e.type === "keydown" && ["Shift", "Control", "Alt", "Meta"].includes(e.key))) clearNote();
  }, true);
}

/** Say `text` next to the hand (the page's answer to a tap on a card that does not fit), until
 * the next tap or for a few seconds. */
export function showHandNote(board, text) {
  clearTimeout(note.timer);
  note = { text, timer: setTimeout(clearNote, NOTE_MS) };
  const el = noteEl(board);
  el.textContent = text;
  el.classList.remove("shake");
  if (!reducedMotion()) {
    void el.offsetWidth; // restart the nudge when the same card is tapped twice
    el.classList.add("shake");
  }
}

/** After a redraw: put the note back next to the hand, with its text while it lasts. */
export function placeHandNote(board) {
  const el = noteEl(board);
  if (el.textContent !== note.text) el.textContent = note.text;
}

// ---------------------------------------------------------------- your turn: sound, vibration, badge

const VIBRATE_KEY = "ml_vibrate";

function stored(key) {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

function store(key, on) {
  try {
    localStorage.setItem(key, on ? "1" : "0");
  } catch {
    /* private mode: the choice lasts for this page only */
  }
}

/** The turn's sound: on unless switched off in this browser. */
export function soundOn() {
  return stored(SOUND_KEY) !== "0";
}

/** The turn's vibration (where the device has one): on unless switched off in this browser. */
export function vibrateOn() {
  return stored(VIBRATE_KEY) !== "0";
}

let audio = null;
let unlocked = false; // a browser plays sound only after the page's first tap or key

/** The audio for the chimes, made or woken from a tap (browsers allow sound after a gesture). */
function wakeAudio() {
  const Ctx = window.AudioContext || window.webkitAudioContext;
  if (!Ctx) return null;
  try {
    audio = audio || new Ctx();
    if (audio.state === "suspended") audio.resume();
  } catch {
    audio = null;
  }
  return audio;
}

for (const kind of ["pointerdown", "keydown"]) {
  document.addEventListener(kind, () => {
    if (unlocked) return;
    unlocked = true;
    if (soundOn()) wakeAudio();
  }, true);
}

/** A short two-note chime, made with the Web Audio API (no sound file). */
export function chime() {
  const ctx = wakeAudio();
  if (!ctx) return false;
  try {
    const now = ctx.currentTime;
    [[660, 0], [880, 0.12]].forEach(([freq, at]) => {
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.type = "sine";
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, now + at);
      gain.gain.exponentialRampToValueAtTime(0.2, now + at + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + at + 0.18);
      osc.connect(gain).connect(ctx.destination);
      osc.start(now + at);
      osc.stop(now + at + 0.2);
    });
    return true;
  } catch {
    return false;
  }
}

// A speaker, with sound waves or struck through: the sound button's picture (its name is in words).
const SPEAKER = '<path d="M3 9h4l5-4v14l-5-4H3z" fill="currentColor"/>';
const WAVES = '<path d="M15.5 8.5a5 5 0 0 1 0 7M18 6a8.5 8.5 0 0 1 0 12" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round"/>';
const MUTED = '<path d="M15 9l6 6M21 9l-6 6" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round"/>';

function speaker(on) {
  return `<svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true" focusable="false">${SPEAKER}${on ? WAVES : MUTED}</svg>`;
}

/**
 * Once, as the table page starts: the sound button in `bar` (in sight at the table on every
 * screen), the sound and vibration switches after `anchor` (in the menu), all remembered in this
 * browser; and the screen readers' line for moves, which must be in the page before its first
 * text so that text is read.
 */
export function mountFeedback(anchor, bar) {
  sayEl();
  mountSoundButton(bar);
  mountSwitches(anchor);
  renderSoundToggle();
}

function setSound(on) {
  store(SOUND_KEY, on);
  if (on) chime(); // a first sound, from the click: it says what the switch does
  renderSoundToggle();
}

function mountSoundButton(bar) {
  if (!bar || document.getElementById("sound-button")) return;
  const button = h("button", { type: "button", class: "btn btn-small sound-button", id: "sound-button" });
  button.addEventListener("click", () => setSound(!soundOn()));
  bar.append(button);
}

function mountSwitches(anchor) {
  if (document.getElementById("sound-toggle") || !anchor) return;
  const sound = h("input", { type: "checkbox", id: "sound-toggle" });
  sound.addEventListener("change", () => setSound(sound.checked));
  const buzz = h("input", { type: "checkbox", id: "vibrate-toggle" });
  buzz.addEventListener("change", () => {
    store(VIBRATE_KEY, buzz.checked);
    if (buzz.checked) buzz1(); // a first buzz, from the click: it says what the switch does
  });
  // Each label holds its box, so the whole line is the touch target.
  anchor.after(h("p", { id: "sound-row", class: "sound-row" },
    h("label", { class: "sound-switch" }, sound, h("span", { id: "sound-label" }, t("fb.sound"))),
    h("label", { class: "sound-switch" }, buzz, h("span", { id: "vibrate-label" }, t("fb.vibrate")))));
}

/** The switches' state and words in the page's language (after a change, or a language change). */
export function renderSoundToggle() {
  const on = soundOn();
  const box = document.getElementById("sound-toggle");
  if (box) box.checked = on;
  const buzz = document.getElementById("vibrate-toggle");
  if (buzz) buzz.checked = vibrateOn();
  const label = document.getElementById("sound-label");
  if (label) label.textContent = t("fb.sound");
  const vibrate = document.getElementById("vibrate-label");
  if (vibrate) vibrate.textContent = t("fb.vibrate");
  const button = document.getElementById("sound-button");
  if (button) {
    button.setAttribute("aria-pressed", String(on));
    button.setAttribute("aria-label", t("fb.sound"));
    button.title = t(on ? "fb.soundOn" : "fb.soundOff");
    button.innerHTML = speaker(on); // the page's own markup; the name is the aria-label
  }
}

function buzz1() {
  if (typeof navigator.vibrate !== "function") return;
  try {
    navigator.vibrate(120);
  } catch {
    /* refused without a user gesture: nothing to do */
  }
}

let turnKey = null; // the position at which this seat's turn was last signalled
let badged = false;

/** The page's title, with the badge while it is this seat's turn in a hidden tab. */
export function titled(text) {
  return badged ? BADGE + text : text;
}

function clearBadge() {
  if (!badged) return;
  badged = false;
  if (document.title.startsWith(BADGE)) document.title = document.title.slice(BADGE.length);
}

function setBadge() {
  if (badged) return;
  badged = true;
  document.title = BADGE + document.title;
}

// The badge shows while the tab is hidden and the turn is this seat's: also when the tab goes to
// the background with the turn still waiting.
document.addEventListener("visibilitychange", () => {
  if (!document.hidden) clearBadge();
  else if (turnKey !== null) setBadge();
});

/**
 * Called after every redraw: when this seat's turn begins (`key` names the position), the chime
 * and a short vibration where the device has one (each unless switched off), and the badge in the
 * title while the tab is hidden. A turn that has ended takes the badge away.
 */
export function signalTurn(mine, key) {
  if (!mine) {
    turnKey = null;
    clearBadge();
    return;
  }
  if (turnKey === key) return;
  turnKey = key;
  if (soundOn() && unlocked) chime(); // before the page's first tap a browser plays no sound
  if (vibrateOn()) buzz1();
  if (document.hidden) setBadge();
}

// ---------------------------------------------------------------- screen readers

function sayEl() {
  let el = document.getElementById("moves-say");
  if (!el) {
    el = h("p", { id: "moves-say", class: "sr-only", "aria-live": "polite", "aria-atomic": "true" });
    document.body.append(el);
  }
  return el;
}

/** Tell screen readers what just happened (the lines of the log for one update). */
export function tellMoves(lines) {
  const text = lines.filter(Boolean).join(" ");
  if (text) sayEl().textContent = text;
}

// ---------------------------------------------------------------- a played card moves to the pile

export function reducedMotion() {
  return window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

let launch = null; // { card, rect }: a card this page has just played, where it was in the hand

/** Remember where `el` (a card of the hand) is as its move is sent. */
export function launchCard(el, card) {
  launch = { card, rect: el.getBoundingClientRect() };
}

/**
 * The new top card `target` flies in from where it came: the card this page played, else the
 * box of the player `fromSeat` (another player's card). Nothing moves under reduced motion.
 */
export function flyToPile(board, target, card, fromSeat) {
  let from = null;
  if (launch && launch.card === card) from = launch.rect;
  else if (fromSeat !== null && fromSeat !== undefined) {
    const box = board.querySelector(`.player[data-seat="${fromSeat}"]`);
    if (box) from = box.getBoundingClientRect();
  }
  launch = null;
  if (!from || !target || reducedMotion() || typeof target.animate !== "function") return;
  const to = target.getBoundingClientRect();
  if (!to.width) return;
  const dx = from.left + from.width / 2 - (to.left + to.width / 2);
  const dy = from.top + from.height / 2 - (to.top + to.height / 2);
  const scale = Math.max(0.3, Math.min(1.5, from.width / to.width));
  target.classList.add("flying");
  const anim = target.animate(
    [{ transform: `translate(${dx}px, ${dy}px) scale(${scale})` }, { transform: "none" }],
    { duration: 320, easing: "cubic-bezier(.2,.7,.3,1)" },
  );
  anim.onfinish = () => target.classList.remove("flying");
  anim.oncancel = anim.onfinish;
}

let lastPlayed = null; // the newest event that put a card on the pile, as last drawn

/**
 * After a redraw: when a new event of `type` (a card played, a card flipped) put the shown top
 * card on the pile, that card flies in from where it came. The first drawing of a page only
 * remembers (nothing moves on a reload).
 */
export function landPlayedCard(board, ctx, type, card) {
  if (ctx.replay) return;
  const events = ctx.events || [];
  let newest = null;
  for (let i = events.length - 1; i >= 0 && !newest; i--) if (events[i].type === type) newest = events[i];
  const fresh = newest && lastPlayed !== null && newest !== lastPlayed;
  if (newest || lastPlayed === null) lastPlayed = newest || false;
  if (fresh && newest.card === card) flyToPile(board, board.querySelector(".top-card"), card, newest.seat);
}
