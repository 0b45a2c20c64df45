// A game's options as form fields, drawn from its declaration (its entry of /api/games) and read
// back as the options a new table takes: the lobby's create form and its offline form share them,
// so a house rule offered online is offered offline in the same words. Nothing here names a game
// or an option.

import { h } from "./api.js";
import { t } from "./i18n.js";

// Options for people: a label and a sentence in the page's language. The engine's name of an
// option (ace_skips) stays in the title of its row, for those who look for it.
function known(key, fallback) {
  const s = t(key);
  return s === key ? fallback : s;
}

// An option's words: the game's own (<words>.opt.<name>, by the prefix its declaration names)
// where it has them, else those every game shares (opt.<name>), else the engine's description.
function optionWord(game, kind, opt, fallback) {
  const own = game.words ? known(`${game.words}.${kind}.${opt.name}`, null) : null;
  return own ?? known(`${kind}.${opt.name}`, fallback);
}

function isDynamic(opt) {
  return opt.default_text && opt.default_text !== String(opt.default).toLowerCase();
}

function defaultText(game, opt) {
  if (isDynamic(opt)) return optionWord(game, "optDefault", opt, opt.default_text);
  if (opt.type === "bool") return opt.default ? t("common.yes") : t("common.no");
  return String(opt.default);
}

function optionField(game, opt, prefix) {
  const id = prefix + opt.name;
  const hintId = id + "-hint";
  const text = optionWord(game, "opt", opt, opt.description);
  const help = optionWord(game, "optHelp", opt, "");
  const hint = h("span", { id: hintId, class: "hint" }, `${help}${help ? " " : ""}${t("lobby.optionDefault", { text: defaultText(game, opt) })}`);
  const field = (cls, ...parts) => h("p", { class: cls, title: opt.name, dataset: { option: opt.name } }, ...parts, hint);
  if (opt.type === "bool" && isDynamic(opt)) {
    const control = h(
      "select",
      { id, name: opt.name, "aria-describedby": hintId, dataset: { kind: "tri" } },
      h("option", { value: "" }, t("lobby.optionAuto")),
      h("option", { value: "true" }, t("common.yes")),
      h("option", { value: "false" }, t("common.no")),
    );
    return field("field option", h("label", { for: id }, text), control);
  }
  if (opt.type === "bool") {
    const control = h("input", { type: "checkbox", id, name: opt.name, "aria-describedby": hintId, dataset: { kind: "bool" } });
    control.checked = Boolean(opt.default);
    return field("field option check", h("label", { class: "check-label" }, control, h("span", {}, text)));
  }
  const control = h("input", {
    type: "number", id, name: opt.name, inputmode: "numeric", step: 1,
    min: opt.minimum ?? null, "aria-describedby": hintId, dataset: { kind: "int" },
  });
  if (isDynamic(opt)) control.placeholder = defaultText(game, opt);
  else control.value = String(opt.default);
  return field("field option", h("label", { for: id }, text), control);
}

/** Draw the options of `game` (its /api/games entry, or null: none): its house rules into
 * `houseBox`, its engine settings into `moreBox` (left out when null); each field's id is
 * `prefix` + the option's name. */
export function renderOptionFields(game, houseBox, moreBox, prefix = "opt-") {
  houseBox.replaceChildren();
  if (moreBox) moreBox.replaceChildren();
  if (!game) return;
  for (const opt of game.options) {
    const box = opt.house_rule === false ? moreBox : houseBox;
    if (box) box.append(optionField(game, opt, prefix));
  }
}

/** The options the fields in `boxes` say; a field left empty says nothing (the game's default). */
export function collectOptions(...boxes) {
  const options = {};
  for (const el of boxes.flatMap((box) => [...box.querySelectorAll("input, select")])) {
    const kind = el.dataset.kind;
    if (kind === "bool") options[el.name] = el.checked;
    else if (kind === "tri") {
      if (el.value) options[el.name] = el.value === "true";
    } else if (kind === "int" && el.value.trim() !== "") {
      options[el.name] = Number.parseInt(el.value, 10);
    }
  }
  return options;
}

/** Put `values` (collectOptions's) back into the fields drawn anew with `prefix`. */
export function restoreOptions(values, prefix = "opt-") {
  for (const [name, value] of Object.entries(values)) {
    const el = document.getElementById(prefix + name);
    if (!el) continue;
    if (el.dataset.kind === "bool") el.checked = value;
    else el.value = String(value);
  }
}
