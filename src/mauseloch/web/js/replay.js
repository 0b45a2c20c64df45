// The replay page: every position of a finished game with every hand visible, step by step.

import { getJSON, h, loadGames } from "./api.js";
import { learnGames } from "./declared.js";
import { eventText } from "./events.js";
import { errorText, initI18n, mountLangSwitch, onLangChange, seatLabel, serverWords, t, tableTitle } from "./i18n.js";
import { renderer as rendererOf } from "./games.js";
import { isOfflineTable, offlineReplay } from "./offline.js";

const $ = (id) => document.getElementById(id);
const tableId = decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || "");
const state = { frames: [], index: 0, table: null, game: null };

function seatName(seat) {
  if (seat === null || seat === undefined) return "";
  const s = state.table && state.table.seats ? state.table.seats[seat] : null;
  return seatLabel(s, seat);
}


function renderTitle() {
  $("table-title").textContent = tableTitle(state.table, state.gameTitle);
}

function go(index) {
  const n = state.frames.length - 1;
  state.index = Math.max(0, Math.min(n, index));
  render();
}

function render() {
  const frame = state.frames[state.index];
  if (!frame) return;
  const n = state.frames.length - 1;
  $("slider").max = String(n);
  $("slider").value = String(state.index);
  $("step-text").textContent = state.index === 0 ? `${t("replay.start")} — ${t("replay.step", { i: 0, n })}` : t("replay.step", { i: state.index, n });
  $("first").disabled = $("prev").disabled = state.index === 0;
  $("last").disabled = $("next").disabled = state.index === n;
  const list = $("frame-events");
  list.replaceChildren();
  for (const ev of frame.events) list.append(h("li", {}, eventText(ev, seatName, state.game)));
  const renderer = rendererOf(frame.view.game);
  if (frame.referee && renderer.claimLines) {
    // a reaction game: every claim of the window this move decided, with its times
    for (const line of renderer.claimLines(frame.referee, seatName)) list.append(h("li", { class: "claim" }, line));
  }
  renderer.render($("board"), frame.view, { seat: null, name: seatName, canAct: false, replay: true, move: () => {} });
  const end = $("end-screen");
  if (frame.view.is_over && frame.view.result) {
    end.replaceChildren(h("h2", {}, t("table.gameOver")), renderer.endTable(frame.view, seatName));
    end.hidden = false;
  } else {
    end.hidden = true;
  }
}

async function main() {
  initI18n();
  mountLangSwitch($("lang-switch"));
  onLangChange(() => {
    renderTitle();
    render();
  });
  $("download").href = `/api/tables/${encodeURIComponent(tableId)}/record`;
  $("first").addEventListener("click", () => go(0));
  $("prev").addEventListener("click", () => go(state.index - 1));
  $("next").addEventListener("click", () => go(state.index + 1));
  $("last").addEventListener("click", () => go(state.frames.length - 1));
  $("slider").addEventListener("input", (e) => go(Number(e.target.value)));
  document.addEventListener("keydown", (e) => {
    if (e.target instanceof HTMLInputElement) return; // the slider moves itself
    if (e.key === "ArrowRight") {
      go(state.index + 1);
      e.preventDefault();
    } else if (e.key === "ArrowLeft") {
      go(state.index - 1);
      e.preventDefault();
    } else if (e.key === "Home") {
      go(0);
    } else if (e.key === "End") {
      go(state.frames.length - 1);
    }
  });
  try {
    // an offline game is replayed by the engine in a Web Worker, with the server's answers
    const asked = isOfflineTable(tableId)
      ? offlineReplay(tableId)
      : Promise.all([getJSON(`/api/tables/${encodeURIComponent(tableId)}`), getJSON(`/api/tables/${encodeURIComponent(tableId)}/replay`)])
        .then(([table, replay]) => ({ ...replay, table }));
    const [data, games] = await Promise.all([asked, loadGames().catch(() => ({ games: [] }))]);
    const summary = data.table;
    learnGames(games.games); // which module draws the game, its words: the declaration's
    state.table = summary;
    state.game = summary.game;
    state.frames = data.frames;
    state.gameTitle = ((games.games || []).find((g) => g.name === summary.game) || {}).title;
    renderTitle();
    go(0);
  } catch (err) {
    $("replay-error").textContent = errorText(err.code, err.message);
    $("replay-error").title = serverWords(err.message, $("replay-error").textContent);
    $("replay-error").hidden = false;
  }
}

main();
