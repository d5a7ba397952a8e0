// @ts-check
// Motion on the table: a tile coming into place, a figure leaving the board, the dragon's and the fairy's moves,
// points floating up from a scored feature, a score counting up. Everything is skipped when the player asks the
// system for reduced motion (prefers-reduced-motion), and nothing here changes what the table shows once it is over.

/** Whether the player asked for reduced motion. */
export const reducedMotion = () => !!globalThis.matchMedia?.("(prefers-reduced-motion: reduce)").matches;

/**
 * Run a Web Animation on `node` unless motion is reduced; `then` runs when it ends (at once without motion).
 * @param {Element} node
 * @param {Keyframe[]} frames
 * @param {number} ms
 * @param {() => void} [then]
 */
export function animate(node, frames, ms, then) {
  if (reducedMotion() || typeof node.animate !== "function") {
    then?.();
    return;
  }
  const a = node.animate(frames, { duration: ms, easing: "cubic-bezier(.2,.7,.3,1)" });
  if (then) a.onfinish = then;
}

/**
 * A number counting from `from` to its `to`, in `el`'s text (at once without motion).
 * @param {HTMLElement} el
 * @param {number} from
 * @param {number} to
 * @param {number} [ms]
 */
export function countUp(el, from, to, ms = 700) {
  el.textContent = String(to);
  if (reducedMotion() || from === to || typeof requestAnimationFrame !== "function") return;
  const start = performance.now();
  el.classList.add("counting");
  const step = (now) => {
    const k = Math.min(1, (now - start) / ms);
    el.textContent = String(Math.round(from + (to - from) * (1 - (1 - k) ** 3)));
    if (k < 1) requestAnimationFrame(step);
    else el.classList.remove("counting");
  };
  el.textContent = String(from);
  requestAnimationFrame(step);
}
