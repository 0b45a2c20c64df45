// A family room's page (/r/<id>): who is in the room and here now, the next game the same way
// as the last (or a new choice), its invitations, the tally with a small chart, the room's
// games and their replays. /r/new creates a room. Everything comes from GET /api/rooms/{id}
// (members only); the room's secret stays after the link's "#", never sent to the server.

import { applyLimits, copyLink, getJSON, h, loadGames, postJSON } from "./api.js";
import { botLevel, errorText, initI18n, listNames, mountLangSwitch, onLangChange, t, tn } from "./i18n.js";
import { forgetRoom, noteRoom } from "./emotes.js";

const $ = (id) => document.getElementById(id);
const roomId = decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || "new");
const LINK_KEY = "ml_room_link_"; // + room id: the room's link, for members to pass it on
const POLL_MS = 10000;
const state = { room: null, games: [], bots: {}, clocks: {}, avatars: [], chosen: "mouse", me: "mouse", plan: null };

function showError(err) {
  const box = $("room-error");
  box.textContent = err ? errorText(err.code, err.message) : "";
  box.hidden = !err;
}

function savedLink() {
  try {
    return localStorage.getItem(LINK_KEY + roomId);
  } catch {
    return null;
  }
}

function saveLink(url) {
  try {
    localStorage.setItem(LINK_KEY + roomId, url);
  } catch {
    /* private mode: shown for this visit only */
  }
}

function gameTitle(name) {
  const g = state.games.find((x) => x.name === name);
  return g ? g.title : name;
}

function avatarImg(name, size = 40) {
  return h("img", { src: `/static/avatars/${name}.svg`, alt: "", width: size, height: size, class: "avatar" });
}

function avatarOptions(box, group, current, onPick) {
  box.replaceChildren();
  for (const name of state.avatars) {
    const id = `${group}-${name}`;
    const input = h("input", { type: "radio", name: group, id, value: name, class: "sr-only" });
    input.checked = name === current;
    input.addEventListener("change", () => onPick(name));
    box.append(h("span", { class: "avatar-option" }, input,
      h("label", { for: id, title: t("avatar." + name) }, avatarImg(name, 48), h("span", { class: "sr-only" }, t("avatar." + name)))));
  }
}

// ---------------------------------------------------------------- joining and creating

function memberForm(mode) {
  $("member-form").hidden = false;
  $("room").hidden = true;
  $("room-name-field").hidden = mode !== "create";
  $("room-heading").textContent = mode === "create" ? t("room.newHeading") : t("room.join");
  $("member-help").textContent = mode === "create" ? t("room.newHelp") : t("room.joinHelp");
  $("member-submit").textContent = mode === "create" ? t("room.create") : t("room.join");
  avatarOptions($("avatar-options"), "avatar", state.chosen, (name) => { state.chosen = name; });
  $("member-form").dataset.mode = mode;
}

async function submitMember(e) {
  e.preventDefault();
  const mode = $("member-form").dataset.mode;
  const name = $("member-name").value.trim() || null;
  try {
    if (mode === "create") {
      const made = await postJSON("/api/rooms", { name: $("room-name").value.trim() || null, member: { name, avatar: state.chosen } });
      noteRoom(made.room);
      try {
        localStorage.setItem(LINK_KEY + made.room, location.origin + made.url);
      } catch {
        /* private mode */
      }
      location.href = `/r/${encodeURIComponent(made.room)}`;
      return;
    }
    await postJSON(`/api/rooms/${encodeURIComponent(roomId)}/join`, { key: $("member-form").dataset.key, name, avatar: state.chosen });
    noteRoom(roomId);
    $("member-form").hidden = true;
    await refresh();
  } catch (err) {
    showError(err);
  }
}

// ---------------------------------------------------------------- the room

function renderMembers(room) {
  const list = $("members");
  list.replaceChildren();
  for (const m of room.members) {
    const you = m.id === room.you;
    const learning = h("input", { type: "checkbox", id: `learning-${m.id}`, dataset: { member: m.id } });
    learning.checked = m.learning;
    learning.addEventListener("change", () => setLearning(m.id, learning.checked));
    const item = h("li", { class: "member" + (m.here ? " here" : ""), dataset: { member: m.id } },
      avatarImg(m.avatar),
      h("span", { class: "member-name" }, m.name, you ? h("span", { class: "you" }, ` (${t("room.you")})`) : null),
      h("span", { class: "member-here " + (m.here ? "is-here" : "is-away") }, m.here ? t("room.here") : t("room.away")),
      h("label", { class: "check-label member-learning" }, learning, h("span", {}, t("room.learning"))));
    if (room.you === room.creator && !you) {
      const remove = h("button", { type: "button", class: "btn btn-small" }, t("room.remove", { name: m.name }));
      remove.addEventListener("click", () => act(`/remove`, { member: m.id }));
      item.append(remove);
    }
    list.append(item);
  }
  $("hints-toggle").checked = room.settings.hints;
}

async function setLearning(member, on) {
  const now = new Set(state.room.settings.learning);
  if (on) now.add(member);
  else now.delete(member);
  await act("/settings", { learning: [...now] });
}

async function act(path, body) {
  try {
    await postJSON(`/api/rooms/${encodeURIComponent(roomId)}${path}`, body);
    showError(null);
    await refresh();
  } catch (err) {
    showError(err);
  }
}

function renderInvitations(room) {
  const box = $("invitations");
  box.replaceChildren();
  const open = room.tables.filter((tb) => tb.invited || (tb.you !== null && tb.status !== "over"));
  box.hidden = open.length === 0;
  for (const tb of open) {
    const starter = tb.seats.find((s) => s.member && s.taken);
    if (tb.invited) {
      const take = h("button", { type: "button", class: "btn btn-primary", dataset: { table: tb.id } }, t("room.takeSeat"));
      take.addEventListener("click", async () => {
        try {
          await postJSON(`/api/rooms/${encodeURIComponent(roomId)}/tables/${encodeURIComponent(tb.id)}/join`, {});
          location.href = `/t/${encodeURIComponent(tb.id)}`;
        } catch (err) {
          showError(err);
        }
      });
      box.append(h("p", { class: "invitation" }, t("room.invitation", { name: starter ? starter.name : room.name, game: gameTitle(tb.game) }), " ", take));
    } else {
      box.append(h("p", { class: "invitation" }, gameTitle(tb.game), " — ", t("room." + (tb.status === "waiting" ? "waiting" : "running")), " ",
        h("a", { class: "btn", href: `/t/${encodeURIComponent(tb.id)}` }, t("room.goTable"))));
    }
  }
}

// The next game: the last choice for the game (the room remembers it), else everyone here.
function planFor(game) {
  const room = state.room;
  const last = room.choices[game];
  if (last) return structuredClone(last);
  const info = state.games.find((g) => g.name === game);
  const here = room.members.filter((m) => m.here || m.id === room.you).map((m) => m.id);
  const seats = here.slice(0, info ? info.max_players : 4).map((id) => ({ member: id }));
  while (info && seats.length < info.min_players) seats.push({ bot: (state.bots[game] || ["random"]).slice(-1)[0] });
  return { game, seats, deals: 1 };
}

function seatSelect(i, seat) {
  const room = state.room;
  const sel = h("select", { id: `next-seat-${i}`, dataset: { seat: String(i) } });
  sel.append(h("option", { value: "" }, t("room.seatNobody")));
  for (const m of room.members) sel.append(h("option", { value: "m:" + m.id }, m.name));
  for (const b of state.bots[state.plan.game] || []) sel.append(h("option", { value: "b:" + b }, t("room.seatBot", { bot: botLevel(b) })));
  sel.value = seat.member ? "m:" + seat.member : seat.bot ? "b:" + seat.bot : "";
  sel.addEventListener("change", () => {
    const v = sel.value;
    const old = state.plan.seats[i] || {}; // a seat past the last one planned
    state.plan.seats[i] = v.startsWith("m:") ? { member: v.slice(2) } : v.startsWith("b:") ? { bot: v.slice(2), name: old.bot === v.slice(2) ? old.name : undefined } : {};
  });
  return h("p", { class: "field" }, h("label", { for: `next-seat-${i}` }, t("room.seat", { n: i + 1 })), sel);
}

function renderNext() {
  const sel = $("next-game");
  if (!state.plan || !state.room) return;
  if (sel.options.length !== state.games.length) {
    sel.replaceChildren(...state.games.map((g) => h("option", { value: g.name }, g.title)));
  }
  sel.value = state.plan.game;
  const info = state.games.find((g) => g.name === state.plan.game);
  const box = $("next-seats");
  box.replaceChildren();
  const count = info ? info.max_players : state.plan.seats.length;
  for (let i = 0; i < count; i++) box.append(seatSelect(i, state.plan.seats[i] || {}));
  renderClocks(info);
  $("next-deals-field").hidden = !(info && info.match);
  $("next-deals").value = String(state.plan.deals || 1);
}

// The turn clocks the server offers for the game (over days among them), as the lobby words them.
function renderClocks(info) {
  const sel = $("next-clock");
  const clocks = state.clocks[state.plan.game];
  sel.replaceChildren();
  if (!clocks) return;
  const own = info && info.words ? `${info.words}.clock` : null;
  const base = own && t(`${own}.normal`) !== `${own}.normal` ? own : "lobby.clock";
  for (const [name, seconds] of Object.entries(clocks.choices)) {
    const key = t(`${base}.${name}`) !== `${base}.${name}` ? `${base}.${name}` : `lobby.clock.${name}`;
    const words = t(key, { s: seconds });
    sel.append(h("option", { value: name }, seconds === null ? t(`${base}.off`) : words));
  }
  sel.value = state.plan.clock && clocks.choices[state.plan.clock] !== undefined ? state.plan.clock : clocks.default;
}

async function startNext(e) {
  e.preventDefault();
  const seats = state.plan.seats.filter((s) => s.member || s.bot);
  const body = { game: state.plan.game, seats, options: state.plan.options || {}, deals: Number($("next-deals").value) || 1 };
  if (state.plan.target) body.target = state.plan.target;
  body.clock = $("next-clock").value || null;
  try {
    const made = await postJSON(`/api/rooms/${encodeURIComponent(roomId)}/tables`, body);
    location.href = `/t/${encodeURIComponent(made.table)}`;
  } catch (err) {
    const box = $("next-error");
    box.textContent = errorText(err.code, err.message);
    box.hidden = false;
  }
}

function nameOf(id) {
  if (id.startsWith("seat:")) return id.slice(5);
  const m = state.room.members.find((x) => x.id === id);
  return m ? m.name : "?";
}

function chart(wins) {
  const NS = "http://www.w3.org/2000/svg";
  const entries = Object.entries(wins).sort((a, b) => b[1] - a[1]);
  const top = Math.max(1, ...entries.map((e) => e[1]));
  const row = 22;
  const svg = document.createElementNS(NS, "svg");
  svg.setAttribute("viewBox", `0 0 300 ${entries.length * row}`);
  svg.setAttribute("class", "tally-chart");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", `${t("room.chart")}: ${entries.map(([who, n]) => `${nameOf(who)} ${tn("room.wins", n)}`).join(", ")}`);
  entries.forEach(([who, n], i) => {
    const label = document.createElementNS(NS, "text");
    label.setAttribute("x", "0");
    label.setAttribute("y", String(i * row + 15));
    label.textContent = nameOf(who);
    const bar = document.createElementNS(NS, "rect");
    bar.setAttribute("x", "110");
    bar.setAttribute("y", String(i * row + 3));
    bar.setAttribute("height", "15");
    bar.setAttribute("width", String(Math.max(2, (n / top) * 160)));
    const count = document.createElementNS(NS, "text");
    count.setAttribute("x", String(116 + (n / top) * 160));
    count.setAttribute("y", String(i * row + 15));
    count.textContent = String(n);
    svg.append(label, bar, count);
  });
  return svg;
}

function renderTally(room) {
  const box = $("tally");
  box.replaceChildren();
  const games = Object.entries(room.tally);
  if (!games.length) {
    box.append(h("p", { class: "hint" }, t("room.noTally")));
    return;
  }
  for (const [game, g] of games) {
    const lead = g.month
      ? g.month.next ? t("room.leads", { name: nameOf(g.month.leader), a: g.month.wins, b: g.month.next })
        : tn("room.leadsAlone", g.month.wins, { name: nameOf(g.month.leader) })
      : null;
    const last = h("ol", { class: "tally-last" }, ...g.last.map((r) => h("li", { dataset: { table: r.table } },
      t(r.match ? "room.matchWonBy" : "room.wonBy", { names: listNames(r.winners.map(nameOf)) }), " ",
      h("a", { href: `/replay/${encodeURIComponent(r.table)}` }, t("room.replay")))));
    box.append(h("section", { class: "tally-game", dataset: { game } },
      h("h3", {}, gameTitle(game)),
      h("p", { class: "tally-counts" }, [tn("room.games", g.games), g.matches ? tn("room.matches", g.matches) : null].filter(Boolean).join(" · ")),
      lead ? h("p", { class: "tally-lead" }, lead) : null,
      chart(g.wins),
      h("details", { class: "tally-details" }, h("summary", {}, t("room.last")), last)));
  }
}

function renderTables(room) {
  const list = $("tables");
  list.replaceChildren();
  if (!room.tables.length) list.append(h("li", { class: "hint" }, t("room.noTables")));
  for (const tb of room.tables.slice(0, 30)) {
    const names = tb.seats.map((s) => s.name).join(", ");
    const link = tb.status === "over"
      ? h("a", { href: `/replay/${encodeURIComponent(tb.id)}` }, t("room.replay"))
      : h("a", { href: `/t/${encodeURIComponent(tb.id)}` }, t("room.goTable"));
    list.append(h("li", { dataset: { table: tb.id } }, `${gameTitle(tb.game)} — ${t("room." + (tb.status === "over" ? "over" : tb.status === "waiting" ? "waiting" : "running"))} — ${names} `, link));
  }
}

function render() {
  const room = state.room;
  if (!room) return;
  $("room-heading").textContent = room.name;
  document.title = `${room.name} — Mauseloch`;
  renderMembers(room);
  renderInvitations(room);
  renderTally(room);
  renderTables(room);
  // the game last chosen here, else the first the server offers (none: no plan to show yet)
  if (!state.plan && state.games.length) state.plan = planFor(Object.keys(room.choices)[0] || state.games[0].name);
  renderNext();
  const link = savedLink();
  $("link-box").hidden = !link;
  if (link) $("room-link").value = link;
  const me = room.members.find((m) => m.id === room.you);
  if (me && !$("me-name").value) $("me-name").value = me.name;
  if (me && !$("me-avatars").childElementCount) {
    state.me = me.avatar;
    avatarOptions($("me-avatars"), "me-avatar", me.avatar, (name) => { state.me = name; });
  }
}

async function refresh() {
  try {
    state.room = await getJSON(`/api/rooms/${encodeURIComponent(roomId)}`);
  } catch (err) {
    if (err.status === 404) {
      forgetRoom(roomId);
      state.room = null;
      $("room").hidden = true;
      showError({ code: null, message: t("room.notFound") });
      return false;
    }
    return true; // a hiccup: asked again at the next poll
  }
  noteRoom(roomId);
  state.avatars = state.room.avatars;
  $("room").hidden = false;
  $("room-error").hidden = true;
  render();
  return true;
}

async function main() {
  initI18n();
  mountLangSwitch($("lang-switch"));
  onLangChange(() => {
    render();
    if (!$("member-form").hidden) memberForm($("member-form").dataset.mode);
  });
  $("member-form").addEventListener("submit", submitMember);
  $("next-form").addEventListener("submit", startNext);
  $("next-game").addEventListener("change", () => {
    state.plan = planFor($("next-game").value);
    renderNext();
  });
  $("hints-toggle").addEventListener("change", () => act("/settings", { hints: $("hints-toggle").checked }));
  $("copy-link").addEventListener("click", () => copyLink($("room-link"), $("copy-status"), t("room.copied")));
  $("me-form").addEventListener("submit", (e) => {
    e.preventDefault();
    act("/me", { name: $("me-name").value.trim() || null, avatar: state.me });
  });
  $("other-device").addEventListener("click", async () => {
    const got = await postJSON(`/api/rooms/${encodeURIComponent(roomId)}/member-link`, {});
    $("device-link").value = location.origin + got.url;
    $("device-box").hidden = false;
  });
  $("lost-device").addEventListener("click", async () => {
    await postJSON(`/api/rooms/${encodeURIComponent(roomId)}/renew`, {});
    $("me-status").textContent = t("room.lostDeviceDone");
  });
  $("leave-room").addEventListener("click", async () => {
    if (!window.confirm(t("room.leaveConfirm"))) return;
    await postJSON(`/api/rooms/${encodeURIComponent(roomId)}/leave`, {});
    forgetRoom(roomId);
    location.href = "/";
  });
  const data = await loadGames().catch(() => ({ games: [], bots: {} }));
  state.games = data.games || [];
  state.bots = data.bots || {};
  state.clocks = data.clocks || {};
  applyLimits(data.limits);
  state.avatars = ["mouse", "cat", "fox", "owl", "bear", "rabbit", "hedgehog", "frog"];
  if (roomId === "new") {
    memberForm("create");
    return;
  }
  // The room's link or a member's own link: its secret after "#", out of the address bar at once.
  const hash = new URLSearchParams(location.hash.slice(1));
  if (hash.has("key") || hash.has("member")) history.replaceState(null, "", location.pathname);
  if (hash.has("member") && hash.has("token")) {
    await postJSON(`/api/rooms/${encodeURIComponent(roomId)}/open`, { member: hash.get("member"), token: hash.get("token") }).catch(showError);
  }
  if (hash.has("key")) saveLink(`${location.origin}/r/${encodeURIComponent(roomId)}#key=${hash.get("key")}`);
  const member = await refresh();
  if (!member && hash.has("key")) {
    showError(null);
    $("member-form").dataset.key = hash.get("key");
    memberForm("join");
  }
  setInterval(() => {
    if (state.room && !document.hidden) refresh();
  }, POLL_MS);
}

main();
