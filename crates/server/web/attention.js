// @ts-check
// Knowing it is your turn while the table's tab is in the background: the tab's title and its icon change, and,
// if the player asked for it (off by default, kept in localStorage), a short chime sounds, made by WebAudio on the
// spot: nothing is fetched. Back in the foreground, the title and the icon are the table's again.

const store = typeof localStorage === "undefined" ? null : localStorage;
const SOUND_KEY = "carc.sound";

// The page's own icon, and the same with a red dot: something waits for you.
const ALERT_ICON = `data:image/svg+xml,${encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="4" fill="#8fb35a"/>' +
    '<path d="M0 0h32L24 10H8z" fill="#c98b4a"/><path d="M2 0h28l-7 8H9z" fill="#b8763c"/>' +
    '<rect x="14" y="14" width="4" height="18" fill="#efe3c2"/>' +
    '<circle cx="23" cy="23" r="8" fill="#d4321c" stroke="#fff" stroke-width="2.5"/></svg>',
)}`;

let wanted = false; // it is this browser's turn
let title = null; // the text the title gets while it is (a function of the language, so that a switch applies)
let plainTitle = null;
let plainIcon = null;

function iconLink() {
  return document.querySelector("link[rel~=icon]");
}

function apply() {
  const link = iconLink();
  if (plainTitle === null) plainTitle = document.title;
  if (plainIcon === null && link) plainIcon = link.getAttribute("href");
  const on = wanted && document.visibilityState === "hidden";
  document.title = on && title ? `${title()} · ${plainTitle}` : plainTitle;
  if (link) link.setAttribute("href", on ? ALERT_ICON : plainIcon);
  document.documentElement.dataset.attention = on ? "turn" : "";
}

if (typeof document !== "undefined") document.addEventListener("visibilitychange", apply);

// Say whether it is this browser's turn now (`label`: the title's words). `fresh`: it has just become so (someone
// else moved): then the chime sounds, if asked for and the tab is in the background.
export function yourTurn(mine, label, fresh = false) {
  wanted = mine;
  title = label;
  apply();
  if (mine && fresh && soundOn() && document.visibilityState === "hidden") chime();
}

// The table is left: the title and the icon are the page's own again.
export function leave() {
  wanted = false;
  apply();
}

export function soundOn() {
  return store?.getItem(SOUND_KEY) === "1";
}

// Switch the chime on or off. Switched on (a click: the browser lets a page start its sound then), it sounds once,
// so that the player knows what to listen for.
export function setSound(on) {
  if (on) store?.setItem(SOUND_KEY, "1");
  else store?.removeItem(SOUND_KEY);
  if (on) chime();
}

let audio = null;

// Two short soft notes, a fifth apart, made on the spot.
export function chime() {
  const Context = globalThis.AudioContext || globalThis.webkitAudioContext;
  if (!Context) return;
  try {
    audio ||= new Context();
    if (audio.state === "suspended") audio.resume().catch(() => {});
    const now = audio.currentTime;
    [660, 990].forEach((hz, i) => {
      const at = now + i * 0.16;
      const tone = audio.createOscillator();
      const gain = audio.createGain();
      tone.type = "sine";
      tone.frequency.value = hz;
      gain.gain.setValueAtTime(0.0001, at);
      gain.gain.exponentialRampToValueAtTime(0.18, at + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, at + 0.38);
      tone.connect(gain).connect(audio.destination);
      tone.start(at);
      tone.stop(at + 0.4);
    });
  } catch {
    // No sound here: the title and the icon still say it.
  }
}

// A page that starts with the chime on may not sound before the player's first click: that click lets it.
if (typeof document !== "undefined") {
  document.addEventListener(
    "pointerdown",
    () => {
      if (audio?.state === "suspended") audio.resume().catch(() => {});
    },
    { once: true },
  );
}
