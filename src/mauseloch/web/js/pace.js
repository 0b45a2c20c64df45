// Pace while bots play: the people at a table pause the bots or change their speed (the server
// keeps the pace, see TableSession.set_pace; spectators only see it). Shown while bots play.
// The controls are made once and only updated, so a redraw after every move leaves them alone.

import { h } from "./api.js";
import { t } from "./i18n.js";

const SPEEDS = [["pace.slow", 0.5], ["pace.normal", 1], ["pace.fast", 2]];
let current = { paused: false, speed: 1 };
let connection = null;

function send(paused, speed) {
  if (connection) connection.send({ type: "pace", paused, speed });
}

function build(row) {
  const select = h("select", { id: "pace-speed" }, SPEEDS.map(([key, value]) => h("option", { value: String(value), "data-key": key }, t(key))));
  select.addEventListener("change", () => send(current.paused, Number(select.value)));
  row.append(
    h("button", { type: "button", class: "btn btn-small", id: "pace-button", "aria-pressed": "false", onclick: () => send(!current.paused, current.speed) }),
    h("label", { for: "pace-speed", id: "pace-label" }), select);
}

export function renderPace(table, live, seat, conn) {
  const row = document.getElementById("pace-row");
  if (!row) return;
  connection = conn;
  const bots = table && table.seats ? table.seats.some((s) => s.kind === "bot") : false;
  const playing = table && live && live.status === "playing";
  row.hidden = !(bots && playing && seat !== null && conn);
  if (row.hidden) return;
  if (!row.firstChild) build(row);
  current = (live && live.pace) || { paused: false, speed: 1 };
  const button = document.getElementById("pace-button");
  button.setAttribute("aria-pressed", String(current.paused));
  button.textContent = t(current.paused ? "pace.resume" : "pace.pause");
  document.getElementById("pace-label").textContent = t("pace.speed");
  const select = document.getElementById("pace-speed");
  for (const option of select.options) option.textContent = t(option.dataset.key);
  if (document.activeElement !== select) select.value = String(current.speed);
}
