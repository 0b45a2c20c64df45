// The ladder name a person plays rated seats under, and the secret this browser keeps for it (no
// account): asked once, where a seat is taken at a rated table (the lobby's create form, the
// table's join panel), and remembered for the next rated table. The server checks the name.

const SECRET_KEY = "ml_ladder_secret";
const NAME_KEY = "ml_ladder_name";
export const LADDER_NAME_MAX = 24; // characters, as the server's ladder takes them

function stored(key) {
  try {
    return localStorage.getItem(key) || "";
  } catch {
    return "";
  }
}

function keep(key, value) {
  try {
    localStorage.setItem(key, value);
  } catch {
    /* private mode: for this page only */
  }
}

/** This browser's ladder secret, made once (it proves the names this browser claimed are its own). */
export function ladderSecret() {
  let s = stored(SECRET_KEY);
  if (!s) {
    const bytes = new Uint8Array(18);
    crypto.getRandomValues(bytes);
    s = [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
    keep(SECRET_KEY, s);
  }
  return s;
}

/** The ladder name this browser played under last, else `fallback` (the name typed for the table). */
export function savedLadderName(fallback = "") {
  return stored(NAME_KEY) || fallback.slice(0, LADDER_NAME_MAX);
}

/** Fill `field` (the ladder name) from `nameField` (the name for the table) as it is typed, until
    the ladder name is typed itself or this browser played under one before: one name, asked once. */
export function followName(field, nameField) {
  const saved = stored(NAME_KEY);
  if (saved) {
    field.value = saved;
    field.dataset.own = "1";
  } else {
    field.value = nameField.value.trim().slice(0, LADDER_NAME_MAX);
  }
  field.addEventListener("input", () => { field.dataset.own = "1"; });
  nameField.addEventListener("input", () => {
    if (!field.dataset.own) field.value = nameField.value.trim().slice(0, LADDER_NAME_MAX);
  });
}

/** The ladder name `field` holds; the name for the table while the ladder name was never typed
    (a name filled in from this browser's memory sends no input event to follow). */
export function ladderName(field, nameField) {
  const own = field.value.trim();
  if (own || field.dataset.own) return own;
  return nameField ? nameField.value.trim().slice(0, LADDER_NAME_MAX) : "";
}

/** What a create or join request carries for a rated seat: `{name, secret}`; the name is kept. */
export function ladderEntry(name) {
  const clean = name.trim();
  keep(NAME_KEY, clean);
  return { name: clean, secret: ladderSecret() };
}
