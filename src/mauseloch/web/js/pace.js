// Pace while bots play: the people at a table pause the bots or change their speed (the server
// keeps the pace, see TableSession.set_pace; spectators only see it). Shown while bots play.

import { h } from "./api.js";
import { t } from "./i18n.js";

const SPEEDS = [["pace.slow", 0.5], ["pace.normal", 1], ["pace.fast", 2]];

export function renderPace(table, live, seat, conn) {
  const row = document.getElementById("pace-row");
  if (!row) return;
  const bots = table && table.seats ? table.seats.some((s) => s.kind === "bot") : false;
  const playing = table && live && live.status === "playing";
  row.hidden = !(bots && playing && seat !== null && conn);
  if (row.hidden) return;
  const pace = (live && live.pace) || { paused: false, speed: 1 };
  const send = (paused, speed) => conn.send({ type: "pace", paused, speed });
  const select = h("select", { id: "pace-speed", "aria-label": t("pace.speed") },
    SPEEDS.map(([key, value]) => h("option", { value: String(value), selected: value === pace.speed }, t(key))));
  select.addEventListener("change", () => send(pace.paused, Number(select.value)));
  const focused = document.activeElement && document.activeElement.closest && document.activeElement.closest("#pace-row");
  row.replaceChildren(
    h("button", { type: "button", class: "btn btn-small", id: "pace-button", "aria-pressed": String(pace.paused),
      onclick: () => send(!pace.paused, pace.speed) }, t(pace.paused ? "pace.resume" : "pace.pause")),
    h("label", { for: "pace-speed" }, t("pace.speed")), select,
    pace.paused ? h("span", { role: "status", class: "hint" }, t("pace.pause")) : "");
  if (focused) document.getElementById(focused.id || "pace-button")?.focus();
}
