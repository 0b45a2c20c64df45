// Web Push on the table page: "Tell me when it is my turn". The site's one service worker
// (/sw.js, its "Web Push" section) shows what the server pushes: your turn, a reminder before
// your time runs out, the game's end. The browser's PushSubscription goes to the server bound to
// the seats this browser's cookies open (POST /api/push/subscribe); nothing is pushed to a
// device that did not ask. docs/web.md "Push".

import { getJSON, postJSON } from "./api.js";
import { getLang, onLangChange, t } from "./i18n.js";

const supported = () =>
  "serviceWorker" in navigator && "PushManager" in window && "Notification" in window && window.isSecureContext;

/** Whether `clock` is a pace over days ("1h" … "7d": server/clock.py DAYS). */
export const overDays = (clock) => typeof clock === "string" && /^\d+[hd]$/.test(clock);

/** The VAPID public key (base64url) as the bytes PushManager.subscribe takes. */
function keyBytes(text) {
  const b64 = text.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (text.length % 4)) % 4);
  return Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
}

async function worker() {
  await navigator.serviceWorker.register("/sw.js", { scope: "/" });
  return navigator.serviceWorker.ready;
}

async function current() {
  const reg = await worker();
  return reg.pushManager.getSubscription();
}

/** Bind this device's subscription to the seats this browser holds now (a seat taken since). */
async function bind(sub) {
  await postJSON("/api/push/subscribe", { subscription: sub.toJSON(), lang: getLang() });
}

/** The switch in the seat's actions: `button` asks or stops; `status` says what happened. */
export function mountPush(button, status) {
  if (!button || !supported()) return;
  let subscribed = false;
  const show = () => {
    button.textContent = t(subscribed ? "push.stop" : "push.ask");
    button.setAttribute("aria-pressed", String(subscribed));
  };
  const say = (key) => {
    status.textContent = key ? t(key) : "";
    status.hidden = !key;
  };
  button.hidden = false;
  show();
  onLangChange(show);
  current()
    .then(async (sub) => {
      subscribed = Boolean(sub) && Notification.permission === "granted";
      show();
      if (subscribed) await bind(sub); // this seat too, as the device asked before
    })
    .catch(() => {});
  button.addEventListener("click", async () => {
    button.disabled = true;
    try {
      const sub = await current();
      if (subscribed && sub) {
        await postJSON("/api/push/unsubscribe", { endpoint: sub.endpoint });
        await sub.unsubscribe();
        subscribed = false;
        say("");
      } else {
        if ((await Notification.requestPermission()) !== "granted") {
          say("push.refused");
          return;
        }
        const { key } = await getJSON("/api/push/key");
        const reg = await worker();
        const made = sub || (await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(key) }));
        await bind(made);
        subscribed = true;
        say("push.asked");
      }
    } catch {
      say("push.none");
    } finally {
      button.disabled = false;
      show();
    }
  });
}
