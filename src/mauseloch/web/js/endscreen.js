// The end screen of a table: who won and why, the ranking rule in one sentence, the figures that
// decided it, the game's own table of figures (each game module's endTable), and what comes next.
// The rule is not derived here: the server sends the game's declaration (summary.ranking: which
// result figures rank, in order, and whether fewer or more is better) and the engine's ranks;
// this page only words them. Between the deals of a match it shows the standings and "Next deal";
// "Rematch" only once the match (or the single game) is over.

import { h, replaceChanged } from "./api.js";
import { listNames, t, tnames } from "./i18n.js";
import { standingsBox } from "./match.js";

/** "cards in hand" / "Karten auf der Hand": a result figure of `game` in words. */
export function figureName(game, figure) {
  const key = `end.fig.${game}.${figure}`;
  const s = t(key);
  return s === key ? figure : s;
}

/** The seats in ranking order (ties by seat). */
export function rankOrder(result) {
  return [...result.ranks.keys()].sort((a, b) => result.ranks[a] - result.ranks[b] || a - b);
}

/** The ranking rule in one sentence, from the game's declaration. */
export function ruleSentence(game, ranking) {
  if (!ranking || !ranking.length) return "";
  const phrase = (r) => t("end.better." + r.better, { figure: figureName(game, r.figure) });
  if (ranking.length === 1) return t("end.rule1", { first: phrase(ranking[0]) });
  // biome-ignore lint/suspicious/noThenProperty: "then" names the locale's placeholder; the object is never awaited
  return t("end.rule", { first: phrase(ranking[0]), then: ranking.slice(1).map(phrase).join(", ") });
}

/** Who won the deal, and the figures that put the winner ahead of the next one down (the first
 * declared figure in which their figures differ). After a match these lines are about its last
 * deal, under the match's winner. */
function winnerLines(view, ranking, name, afterMatch) {
  const res = view.result;
  const order = rankOrder(res);
  const best = order.filter((s) => res.ranks[s] === 1);
  const names = best.map(name);
  const won = afterMatch
    ? (best.length === 1 ? t("end.dealWins", { name: names[0] }) : t("end.dealShared", { names: listNames(names) }))
    : (best.length === 1 ? t("end.wins", { name: names[0] }) : t("end.winShared", { names: listNames(names) }));
  const lines = [h("p", { class: afterMatch ? "end-deal-winner" : "end-winner", id: afterMatch ? "end-deal-winner" : "end-winner" }, won)];
  const next = order.find((s) => res.ranks[s] > 1);
  const decided = next === undefined ? null : (ranking || []).find((r) => res[r.figure] && res[r.figure][best[0]] !== res[r.figure][next]);
  if (decided) {
    lines.push(h("p", { class: "end-decided", id: "end-decided" }, tnames("end.decided", names, {
      other: name(next), figure: figureName(view.game, decided.figure),
      a: res[decided.figure][best[0]], b: res[decided.figure][next],
    })));
  }
  return lines;
}

/** The match's winners (the seats of this deal) once it is over, from the server's standings. */
function matchWinners(match) {
  return match.standings.filter((r) => r.rank === 1).sort((a, b) => a.player - b.player);
}

/** The end screen into `box`. `ctx`: view, table, live, seat, conn, name(seat), tableId, renderer,
 * vote() (a rematch, or "ready for the next deal"). After a match its headline and first line
 * name the match's winner; the last deal's result follows, smaller. */
export function renderEnd(box, ctx) {
  const { view, table, seat, conn, name, renderer } = ctx;
  if (!view || !view.is_over || !view.result || !renderer) {
    box.hidden = true;
    box.dataset.shown = "";
    return;
  }
  const live = ctx.live || {};
  const match = live.match || (table && table.match) || null;
  const between = Boolean(match && !match.over);
  const matchOver = Boolean(match && match.over && match.booked);
  const ranking = (table && table.ranking) || [];
  const votes = live.rematch || [];
  const seated = seat !== null && seat !== undefined && Boolean(conn);
  const buttons = h("p", { class: "button-row" },
    h("a", { class: "btn btn-primary", href: `/replay/${encodeURIComponent(ctx.tableId)}` }, t("table.toReplay")),
    h("a", { class: "btn", href: "/" }, t("table.toLobby")));
  if (seated && !votes.includes(seat)) {
    buttons.append(between
      ? h("button", { type: "button", class: "btn", id: "next-deal-button", onclick: ctx.vote }, t("match.nextDeal"))
      : h("button", { type: "button", class: "btn", id: "rematch-button", onclick: ctx.vote }, t("table.rematch")));
  }
  const waitingFor = (live.seats || [])
    .map((s, i) => ({ s, i }))
    .filter(({ s, i }) => table && table.seats[i].kind === "human" && s.presence !== "gone" && !votes.includes(i))
    .map(({ i }) => name(i));
  let note = "";
  if (between && votes.length) { // (with no vote yet the standings say the next deal comes by itself)
    note = h("p", { id: "next-deal-note" }, tnames("end.nextDealWaiting", waitingFor));
  } else if (votes.length) {
    note = h("p", { id: "rematch-note" }, t("table.rematchWaiting", { names: listNames(waitingFor) }));
  }
  const top = [];
  if (matchOver) {
    const winners = matchWinners(match);
    const names = winners.map((r) => name(r.seat));
    top.push(h("h2", {}, tnames("end.matchWon", names)),
      h("p", { class: "end-winner", id: "end-winner" }, tnames("end.matchWinner", names, { total: winners[0].total })),
      h("h3", { class: "end-deal-heading" }, t("end.lastDeal", { deal: match.booked, deals: match.deals })));
  } else {
    top.push(h("h2", {}, between ? t("end.dealOver", { deal: match.deal, deals: match.deals })
      : match ? t("end.matchOver") : t("table.gameOver")));
  }
  replaceChanged(box, [
    ...top,
    ...winnerLines(view, ranking, name, matchOver),
    h("p", { class: "end-rule", id: "end-rule" }, ruleSentence(view.game, ranking)),
    renderer.endTable(view, name),
    standingsBox(match, name),
    buttons, note]);
  const first = box.hidden;
  box.hidden = false;
  if (first && box.dataset.shown !== "1") {
    box.dataset.shown = "1";
    box.focus();
  }
}
