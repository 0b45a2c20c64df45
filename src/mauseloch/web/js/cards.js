// Card art, drawn as inline SVG: French-suited Mau-Mau cards (rank, suit symbol and suit initial,
// four colours, so a suit is never told by colour alone) and the Aus die Maus! cards.
// Only known card strings are turned into markup; anything else is shown as plain text.

import { h } from "./api.js";
import { cardName, t } from "./i18n.js";

const SUIT_COLOR = { S: "#1b1b1b", H: "#c8102e", D: "#0057a8", C: "#0b6e35" };

// Suit shapes in a 100 x 100 box.
const SUIT_PATH = {
  H: '<path d="M50 90 C22 66 4 50 4 30 C4 14 16 4 30 4 C40 4 47 10 50 20 C53 10 60 4 70 4 C84 4 96 14 96 30 C96 50 78 66 50 90 Z"/>',
  D: '<path d="M50 3 L88 50 L50 97 L12 50 Z"/>',
  S: '<path d="M50 4 C64 24 95 40 95 62 C95 76 84 84 72 84 C63 84 57 80 53 74 C54 84 58 90 67 96 L33 96 C42 90 46 84 47 74 C43 80 37 84 28 84 C16 84 5 76 5 62 C5 40 36 24 50 4 Z"/>',
  C: '<circle cx="50" cy="27" r="19"/><circle cx="27" cy="58" r="19"/><circle cx="73" cy="58" r="19"/><circle cx="50" cy="50" r="12"/><path d="M46 52 C46 74 41 87 32 96 L68 96 C59 87 54 74 54 52 Z"/>',
};

// The index printed on a card: digits as they are, the court cards and ace in the page's language.
function rankLabel(rank) {
  return rank === "T" ? "10" : "JQKA".includes(rank) ? t("face." + rank) : rank;
}

const MM_CARD = /^[789TJQKA][CSHD]$/;

function suitSymbol(suit, x, y, size) {
  const s = size / 100;
  return `<g transform="translate(${x} ${y}) scale(${s})" fill="${SUIT_COLOR[suit]}">${SUIT_PATH[suit]}</g>`;
}

/** A small standalone suit symbol (for the wish picker and the wish banner). */
export function suitSVG(suit, size = 28) {
  if (!SUIT_PATH[suit]) return "";
  return `<svg class="suit-icon" width="${size}" height="${size}" viewBox="0 0 100 100" aria-hidden="true" focusable="false"><g fill="${SUIT_COLOR[suit]}">${SUIT_PATH[suit]}</g></svg>`;
}

function corner(rank, suit) {
  const label = rankLabel(rank);
  const color = SUIT_COLOR[suit];
  const letter = t("suitLetter." + suit); // the suit's initial in the page's language (Kr, P, H, Ka)
  const fs = label.length > 1 ? 13 : 15;
  return (
    `<text x="9" y="16" text-anchor="middle" font-size="${fs}" font-weight="700" fill="${color}" font-family="DejaVu Sans, Arial, sans-serif">${label}</text>` +
    suitSymbol(suit, 3.5, 19, 11) +
    `<text x="9" y="41" text-anchor="middle" font-size="${letter.length > 1 ? 7 : 8}" font-weight="700" fill="${color}" font-family="DejaVu Sans, Arial, sans-serif">${letter}</text>`
  );
}

function mauMauSVG(card) {
  const rank = card[0];
  const suit = card[1];
  const face = "JQK".includes(rank);
  let middle;
  if (face) {
    const label = rankLabel(rank);
    middle =
      `<rect x="16" y="17" width="28" height="50" rx="3" fill="none" stroke="${SUIT_COLOR[suit]}" stroke-width="1.2"/>` +
      `<text x="30" y="44" text-anchor="middle" font-size="22" font-weight="700" fill="${SUIT_COLOR[suit]}" font-family="DejaVu Serif, serif">${label}</text>` +
      suitSymbol(suit, 23, 49, 14);
  } else {
    middle = suitSymbol(suit, 15, 27, 30);
  }
  return (
    `<svg viewBox="0 0 60 84" aria-hidden="true" focusable="false">` +
    `<rect x="1" y="1" width="58" height="82" rx="5" fill="#fffdf7" stroke="#555" stroke-width="1"/>` +
    corner(rank, suit) +
    middle +
    `<g transform="rotate(180 30 42)">${corner(rank, suit)}</g>` +
    `</svg>`
  );
}

function paw(x, y) {
  return (
    `<g transform="translate(${x} ${y})" fill="#5b3a29">` +
    `<ellipse cx="0" cy="3" rx="3.6" ry="3"/>` +
    `<circle cx="-3.6" cy="-2.2" r="1.5"/><circle cx="0" cy="-3.6" r="1.5"/><circle cx="3.6" cy="-2.2" r="1.5"/></g>`
  );
}

function labelText(text, fill = "#222") {
  return `<text x="30" y="79" text-anchor="middle" font-size="7.5" font-weight="700" fill="${fill}" font-family="DejaVu Sans, Arial, sans-serif">${text}</text>`;
}

function ausDieMausSVG(card) {
  const words = { cheese: t("face.cheese"), mouse: t("face.mouse"), cat: t("face.cat") };
  let body;
  if (card === "cheese") {
    body =
      `<rect x="1" y="1" width="58" height="82" rx="5" fill="#fff4c2" stroke="#8a6d00" stroke-width="1"/>` +
      `<path d="M8 52 L52 30 L52 62 L8 62 Z" fill="#f7c531" stroke="#8a6d00" stroke-width="1.2"/>` +
      `<path d="M8 52 L52 30 L44 26 Z" fill="#ffe27a" stroke="#8a6d00" stroke-width="1"/>` +
      `<circle cx="22" cy="56" r="3" fill="#d79f12"/><circle cx="38" cy="47" r="4" fill="#d79f12"/><circle cx="45" cy="57" r="2.4" fill="#d79f12"/>` +
      labelText(words.cheese, "#5a4700");
  } else if (card === "cat") {
    body =
      `<rect x="1" y="1" width="58" height="82" rx="5" fill="#ffe3cc" stroke="#8a3d00" stroke-width="1"/>` +
      `<path d="M14 26 L18 8 L27 20 Z M46 26 L42 8 L33 20 Z" fill="#e07b24" stroke="#5a2600" stroke-width="1"/>` +
      `<circle cx="30" cy="34" r="17" fill="#e07b24" stroke="#5a2600" stroke-width="1.2"/>` +
      `<ellipse cx="23" cy="31" rx="3.2" ry="4.5" fill="#fff"/><ellipse cx="37" cy="31" rx="3.2" ry="4.5" fill="#fff"/>` +
      `<ellipse cx="23" cy="31.5" rx="1.3" ry="3.6" fill="#111"/><ellipse cx="37" cy="31.5" rx="1.3" ry="3.6" fill="#111"/>` +
      `<path d="M27.5 38 L32.5 38 L30 41 Z" fill="#c2185b"/>` +
      `<path d="M30 41 Q27 45 24 43 M30 41 Q33 45 36 43" fill="none" stroke="#5a2600" stroke-width="1"/>` +
      `<path d="M8 36 L21 39 M8 42 L21 41 M52 36 L39 39 M52 42 L39 41" stroke="#5a2600" stroke-width="0.8"/>` +
      `<path d="M14 52 Q30 66 46 52 L48 70 L12 70 Z" fill="#e07b24" stroke="#5a2600" stroke-width="1"/>` +
      labelText(words.cat, "#5a2600");
  } else {
    const n = Number(card.slice(5));
    const paws = [];
    const xs = n === 1 ? [30] : n === 2 ? [22, 38] : [16, 30, 44];
    for (const x of xs) paws.push(paw(x, 64));
    body =
      `<rect x="1" y="1" width="58" height="82" rx="5" fill="#e6eef7" stroke="#33475b" stroke-width="1"/>` +
      `<path d="M44 44 Q56 40 52 28 Q50 20 44 22" fill="none" stroke="#6d6d6d" stroke-width="1.6"/>` +
      `<ellipse cx="33" cy="40" rx="13" ry="9" fill="#9e9e9e" stroke="#444" stroke-width="1"/>` +
      `<circle cx="19" cy="33" r="7.5" fill="#9e9e9e" stroke="#444" stroke-width="1"/>` +
      `<circle cx="16" cy="25" r="4.5" fill="#f4b6c2" stroke="#444" stroke-width="1"/><circle cx="24" cy="25.5" r="4.5" fill="#f4b6c2" stroke="#444" stroke-width="1"/>` +
      `<circle cx="16.5" cy="32" r="1.2" fill="#111"/><circle cx="11.8" cy="35" r="1.4" fill="#c2185b"/>` +
      `<text x="52" y="13" text-anchor="middle" font-size="11" font-weight="700" fill="#1d2b3a" font-family="DejaVu Sans, Arial, sans-serif">${n}</text>` +
      paws.join("") +
      labelText(words.mouse, "#1d2b3a");
  }
  return `<svg viewBox="0 0 60 84" aria-hidden="true" focusable="false">${body}</svg>`;
}

function backSVG() {
  return (
    `<svg viewBox="0 0 60 84" aria-hidden="true" focusable="false">` +
    `<defs><pattern id="ml-back" width="8" height="8" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">` +
    `<rect width="8" height="8" fill="#23507a"/><rect width="4" height="8" fill="#2d6496"/></pattern></defs>` +
    `<rect x="1" y="1" width="58" height="82" rx="5" fill="url(#ml-back)" stroke="#10263b" stroke-width="1"/>` +
    `<rect x="6" y="6" width="48" height="72" rx="3" fill="none" stroke="#dfe9f3" stroke-width="1"/>` +
    `<circle cx="30" cy="42" r="11" fill="#dfe9f3"/>` +
    `<text x="30" y="47" text-anchor="middle" font-size="13" font-weight="700" fill="#23507a" font-family="DejaVu Sans, Arial, sans-serif">M</text>` +
    `</svg>`
  );
}

/** One paw print, as an icon (the chase banner counts attempts with them). */
export function pawSVG() {
  return `<svg class="paw-icon" viewBox="-8 -8 16 16" aria-hidden="true" focusable="false">${paw(0, 0)}</svg>`;
}

export function isKnownCard(card) {
  return MM_CARD.test(card) || card === "cheese" || card === "cat" || /^mouse[123]$/.test(card);
}

/** The SVG markup for a card string, or for a face-down card when `card` is null. */
export function cardSVG(card) {
  if (card === null || card === undefined) return backSVG();
  if (MM_CARD.test(card)) return mauMauSVG(card);
  if (isKnownCard(card)) return ausDieMausSVG(card);
  return null;
}

/**
 * A card element: `<button>` when `opts.button`, else a `<div role="img">`.
 * It carries data-card and its name ("seven of hearts"): a button's in hidden text, an image's
 * as aria-label.
 */
export function cardEl(card, opts = {}) {
  const el = document.createElement(opts.button ? "button" : "div");
  el.className = "card" + (opts.className ? " " + opts.className : "");
  const svg = cardSVG(card);
  if (svg === null) {
    el.textContent = String(card);
  } else {
    el.innerHTML = svg;
  }
  const label = card ? cardName(card) : opts.backLabel || "";
  if (opts.button) {
    // A button is named by its own (visually hidden) words, not by aria-label: the card's index
    // is visible text too, and a voice user says what a screen reader reads (WCAG 2.5.3).
    el.type = "button";
    el.append(h("span", { class: "sr-only card-name" }, opts.ariaLabel || label));
  } else {
    el.setAttribute("role", "img");
    el.setAttribute("aria-label", opts.ariaLabel || label);
  }
  if (card) el.dataset.card = card;
  return el;
}

/**
 * Arrow keys move the focus along `row`'s controls matching `selector` (Left/Up back, Right/Down
 * on, Home and End to the ends), as in a toolbar: Tab still leaves the row.
 */
export function arrowKeys(row, selector) {
  row.addEventListener("keydown", (e) => {
    const keys = { ArrowLeft: -1, ArrowUp: -1, ArrowRight: 1, ArrowDown: 1, Home: "first", End: "last" };
    if (!(e.key in keys) || e.ctrlKey || e.metaKey || e.altKey) return;
    const items = [...row.querySelectorAll(selector)].filter((el) => !el.disabled);
    const at = items.indexOf(document.activeElement);
    if (!items.length || at < 0) return;
    const step = keys[e.key];
    const next = step === "first" ? 0 : step === "last" ? items.length - 1 : (at + step + items.length) % items.length;
    items[next].focus();
    e.preventDefault();
  });
}
