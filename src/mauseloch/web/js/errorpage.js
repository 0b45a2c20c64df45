// The server's error pages (server/errors.py): the server wrote them in the language the browser
// asks for; a language chosen on another page (localStorage) wins, and the switch works here too.
import { initI18n, mountLangSwitch, onLangChange, t } from "./i18n.js";

function fillText() {
  const text = document.getElementById("error-text");
  const status = document.body.dataset.status;
  if (text) text.textContent = t(`errorpage.${text.dataset.kind}.text`, { status });
  document.title = `${document.querySelector("h1").textContent} – ${t("app.title")}`;
}

initI18n();
fillText();
onLangChange(fillText);
const button = document.getElementById("lang-switch");
mountLangSwitch(button);
button.hidden = false;
