// The pages' texts in English and German (the catalogue the terminal shares), and the language switch.
// The language comes from localStorage ("ml_lang"), else from navigator.language.

import STRINGS from "./strings.js"; // served from the one catalogue, src/mauseloch/locale/*.toml

const KEY = "ml_lang";
const listeners = [];

function detect() {
  let saved = null;
  try {
    saved = localStorage.getItem(KEY);
  } catch (e) {
    saved = null;
  }
  if (saved && STRINGS[saved]) return saved;
  const nav = (navigator.language || "en").toLowerCase();
  return nav.startsWith("de") ? "de" : "en";
}

let lang = detect();

export function getLang() {
  return lang;
}

export function setLang(next) {
  if (!STRINGS[next]) return;
  lang = next;
  try {
    localStorage.setItem(KEY, next);
  } catch (e) {
    /* private mode: the choice lasts for this page only */
  }
  document.documentElement.lang = next;
  applyI18n(document);
  for (const fn of listeners) fn(next);
}

export function onLangChange(fn) {
  listeners.push(fn);
}

/** The string `key` in the current language with `{name}` placeholders filled from `params`. */
export function t(key, params = {}) {
  const table = STRINGS[lang] || STRINGS.en;
  let s = table[key];
  if (s === undefined) s = STRINGS.en[key];
  if (s === undefined) return key;
  return s.replace(/\{(\w+)\}/g, (m, name) => (name in params ? String(params[name]) : m));
}

/** `key` + ".one" for n = 1, else `key` + ".other", with `{n}` filled in as well. */
export function tn(key, n, params = {}) {
  return t(`${key}.${n === 1 ? "one" : "other"}`, { ...params, n });
}

/** Fill every element marked with data-i18n (text), data-i18n-aria, data-i18n-placeholder, data-i18n-title. */
export function applyI18n(root) {
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll("[data-i18n-aria]")) el.setAttribute("aria-label", t(el.dataset.i18nAria));
  for (const el of root.querySelectorAll("[data-i18n-placeholder]")) el.placeholder = t(el.dataset.i18nPlaceholder);
  for (const el of root.querySelectorAll("[data-i18n-title]")) el.title = t(el.dataset.i18nTitle);
}

/** The switch button every page has: it names the other language. */
export function mountLangSwitch(button) {
  const render = () => {
    button.textContent = t("lang.switch");
    button.setAttribute("aria-label", t("lang.switchAria"));
    button.lang = lang === "de" ? "en" : "de";
  };
  button.addEventListener("click", () => setLang(lang === "de" ? "en" : "de"));
  onLangChange(render);
  render();
}

export function initI18n() {
  document.documentElement.lang = lang;
  applyI18n(document);
}

// ---------------------------------------------------------------- card and event names

export function suitName(s) {
  return t("suit." + s);
}

/** "seven of hearts" / "Herz-Sieben" for a Mau-Mau card; Aus die Maus cards by kind. */
export function cardName(card) {
  if (!card) return "";
  if (card === "cheese") return t("card.cheese");
  if (card === "cat") return t("card.cat");
  const m = /^mouse(\d)$/.exec(card);
  if (m) return m[1] === "1" ? t("card.mouse1") : t("card.mouse", { n: m[1] });
  if (card.length === 2) return t("card.name", { rank: t("rank." + card[0]), suit: t("suit." + card[1]) });
  return card;
}

/** A bot's level ("random", "heuristic", ...) for people; unknown levels as they are. */
export function botLevel(kind) {
  const s = t("bot." + kind);
  return s === "bot." + kind ? kind : s;
}

/** The name a seat shows: people by their own name, bots by level and seat, in the page's language. */
export function seatLabel(seatInfo, seat) {
  // a bot is numbered by its player, not its seat: in a match it keeps its name as the seats rotate
  if (seatInfo && seatInfo.kind === "bot" && seatInfo.bot) return t("bot.name", { level: botLevel(seatInfo.bot), n: (seatInfo.player ?? seat) + 1 });
  if (seatInfo && seatInfo.taken === false) return t("common.seat", { n: seat + 1 }); // nobody sat down yet
  return seatInfo && seatInfo.name ? seatInfo.name : t("common.seat", { n: seat + 1 });
}

export function reasonText(game, reason) {
  const key = (game === "aus-die-maus" ? "am.reason." : "mm.reason.") + reason;
  const s = t(key);
  return s === key ? reason : s;
}

/** The page's words for an error `code`; the server's `message` when the page has none. */
export function errorText(code, message) {
  const key = "error." + code;
  const s = code ? t(key) : key;
  return s === key ? message : s;
}

/** A table's title: the one its creator gave, else "<game> at <name>'s" in the page's language. */
export function tableTitle(table, gameTitle) {
  if (!table) return "";
  if (table.title) return table.title;
  const game = gameTitle || table.game;
  const host = (table.seats || []).find((s) => s.kind === "human" && s.taken && s.name);
  return host ? t("table.defaultTitle", { game, name: host.name }) : game;
}
