// The pages' texts in English and German (the catalogue the terminal shares), and the language switch.
// The language comes from localStorage ("ml_lang"), else from navigator.language.

import STRINGS from "./strings.js"; // served from the one catalogue, src/mauseloch/locale/*.toml
import { h } from "./api.js";
import { declaredGame } from "./declared.js";

const KEY = "ml_lang";
const listeners = [];

function detect() {
  let saved = null;
  try {
    saved = localStorage.getItem(KEY);
  } catch {
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
  } catch {
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

/** The catalogue's plural form of `n` in the page's language: "one" or "other" (Unicode CLDR's
    rules, the same the terminal's `mauseloch.locale.plural_form` follows for English and German). */
export function pluralForm(n) {
  if (typeof Intl !== "undefined" && Intl.PluralRules) {
    const form = new Intl.PluralRules(lang).select(Number(n));
    return form === "one" ? "one" : "other";
  }
  return n === 1 ? "one" : "other";
}

/** `key` + "." + the plural form of `n` ("one", "other"), with `{n}` filled in as well. */
export function tn(key, n, params = {}) {
  return t(`${key}.${pluralForm(n)}`, { ...params, n });
}

/** A long time left as people say it: "noch 2 Tage 3 Std." / "2 days 3 hrs left" (the two
    largest units, as server/push/words.py says it in a reminder). */
export function timeLeft(seconds) {
  const s = Math.max(0, Math.round(seconds));
  const days = Math.floor(s / 86400);
  const hours = Math.floor((s % 86400) / 3600);
  const minutes = Math.floor((s % 3600) / 60);
  let parts = days ? [[days, "time.days"], [hours, "time.hours"]] : [[hours, "time.hours"], [minutes, "time.minutes"]];
  if (!days && !hours) parts = [[minutes, "time.minutes"]];
  const said = parts.filter(([n], i) => n || i === 0).map(([n, key]) => tn(key, n));
  return t("time.left", { time: said.join(" ") });
}

/** Names as a list people say: "Kind und Oma", "Anna, Ben und Kind" ("and" in English). */
export function listNames(names) {
  const list = names.map(String);
  if (typeof Intl !== "undefined" && Intl.ListFormat) return new Intl.ListFormat(lang, { type: "conjunction" }).format(list);
  if (list.length < 2) return list.join("");
  return t(list.length === 2 ? "list.two" : "list.more", { first: list.slice(0, -1).join(", "), last: list.at(-1) });
}

/** A sentence about `names` whose verb agrees with how many they are: `key` + ".one"/".other"
    with `{names}` as a list ("sobald Oma so weit ist", "sobald Kind und Oma so weit sind"). */
export function tnames(key, names, params = {}) {
  return tn(key, names.length, { ...params, names: listNames(names) });
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

// ---------------------------------------------------------------- names

const NAME_SHOWN = 20; // characters of a name shown in full before it is cut

/** `text` as the characters people see: a family emoji or a letter with its accent is one. */
export function graphemes(text) {
  const s = String(text ?? "");
  if (typeof Intl !== "undefined" && Intl.Segmenter) {
    return Array.from(new Intl.Segmenter(undefined, { granularity: "grapheme" }).segment(s), (part) => part.segment);
  }
  return Array.from(s); // code points: never half an emoji's surrogate pair
}

/** A long name cut to at most `max` characters with "…", between characters people see (never
    inside an emoji or off an accent), at the end of a word when one ends in the second half. */
export function shortName(name, max = NAME_SHOWN) {
  const parts = graphemes(name);
  if (parts.length <= max) return String(name ?? "");
  let cut = max - 1;
  const space = parts.lastIndexOf(" ", cut);
  if (space >= max / 2) cut = space;
  return parts.slice(0, cut).join("").trimEnd() + "…";
}

/** Hold a name field to `max` characters as people see them. A browser's maxlength counts UTF-16
    units and would cut an emoji family after its father (👨‍👩‍👧‍👦 is eleven units), so the field
    is cut here, between whole characters, as the server counts them (protocol.graphemes). */
export function limitName(input, max) {
  if (!Number.isInteger(max) || max <= 0) return;
  input.removeAttribute("maxlength");
  // A name that was cut says so next to the field (never silently), until it is shorter again.
  let note = input.parentElement ? input.parentElement.querySelector(".name-cut") : null;
  if (!note) {
    note = h("span", { class: "hint name-cut", role: "status" });
    input.after(note);
  }
  const say = (cut) => {
    note.textContent = cut ? t("lobby.nameCut", { n: max }) : "";
    note.hidden = !cut;
  };
  const fit = () => {
    const parts = graphemes(input.value);
    if (parts.length > max) {
      input.value = parts.slice(0, max).join("");
      say(true);
    } else if (parts.length < max) {
      say(false);
    }
  };
  input.addEventListener("input", fit);
  onLangChange(() => { if (!note.hidden) say(true); });
  say(false);
  fit();
}

/** The " (you)" after the name of this page's own seat. */
export function youMark() {
  return ` (${t("common.you")})`;
}

/** A seat's name for the page: the name (cut by `shortName`, and by an ellipsis where the line is
    narrow) and the " (you)" mark beside it, outside what the ellipsis may hide; the full name is
    the title. `text` is what `seatName` gives, the mark included for one's own seat. */
export function nameNode(text) {
  const full = String(text ?? "");
  const mark = youMark();
  const mine = full.endsWith(mark) && full.length > mark.length;
  const name = mine ? full.slice(0, -mark.length) : full;
  return h("span", { class: "name who", title: full },
    h("span", { class: "name-text" }, shortName(name)), mine ? h("span", { class: "you" }, mark) : null);
}

/** The name a seat shows: people by their own name, bots by level and seat, in the page's language. */
export function seatLabel(seatInfo, seat) {
  // a bot is numbered by its player, not its seat: in a match it keeps its name as the seats rotate
  if (seatInfo && seatInfo.kind === "bot" && seatInfo.bot) return t("bot.name", { level: botLevel(seatInfo.bot), n: (seatInfo.player ?? seat) + 1 });
  if (seatInfo && seatInfo.kind === "online-bot" && seatInfo.bot) return t("seat.onlineBot", { name: seatInfo.bot }); // always shown as a bot
  if (seatInfo && seatInfo.taken === false) return t("common.seat", { n: seat + 1 }); // nobody sat down yet
  return seatInfo && seatInfo.name ? seatInfo.name : t("common.seat", { n: seat + 1 });
}

/** Why `game` ended, in the page's language: the key `<words>.reason.<reason>` of the prefix its
    declaration names (the reason itself where there is no such key). */
export function reasonText(game, reason) {
  const words = (declaredGame(game) || {}).words;
  const key = `${words}.reason.${reason}`;
  const s = words ? t(key) : key;
  return s === key ? reason : s;
}

/** The page's words for an error `code`; the server's `message` when the page has none. */
export function errorText(code, message) {
  const key = "error." + code;
  const s = code ? t(key) : key;
  return s === key ? message : s;
}

/** The server's own (English) words about a refusal, as a tooltip beside the page's words: only
    on an English page and only when they say more; a German page shows no English. */
export function serverWords(message, shown) {
  return lang === "en" && message && message !== shown ? message : "";
}

/** A table's title: the one its creator gave, else "<game> at <name>'s" in the page's language.
    The host is the first person in the match's order (`player`), so the title stays as the
    seats of a match's deals rotate. */
export function tableTitle(table, gameTitle) {
  if (!table) return "";
  if (table.title) return table.title;
  const game = gameTitle || table.game;
  const order = (s) => s.player ?? s.seat;
  const people = (table.seats || []).filter((s) => s.kind === "human" && s.taken && s.name);
  const host = people.sort((a, b) => order(a) - order(b))[0];
  return host ? t("table.defaultTitle", { game, name: shortName(host.name) }) : game;
}
