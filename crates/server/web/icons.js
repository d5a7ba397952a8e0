// @ts-check
// The table's own icons for its buttons, drawn as SVG: the fonts a browser has may lack the symbols (⏮, ⏭, ⟲ …)
// and draw an empty box instead. Each is a 24 × 24 drawing in the button's text colour; the button's label says
// what it does, the icon is hidden from screen readers.

const SVGNS = "http://www.w3.org/2000/svg";

// [path, filled] pairs: a filled shape, or a line drawn with the text colour.
const ICONS = {
  start: [
    ["M6 5v14", false],
    ["M19 5 9 12l10 7z", true],
  ],
  back: [["M16 5 7 12l9 7z", true]],
  forward: [["M8 5l9 7-9 7z", true]],
  end: [
    ["M18 5v14", false],
    ["M5 5l10 7-10 7z", true],
  ],
  play: [["M7 4.5l12 7.5-12 7.5z", true]],
  pause: [["M8 5v14M16 5v14", false]],
  rotateLeft: [
    ["M5.5 13a7 7 0 1 0 2-5.5", false],
    ["M7.5 3.5v4h4", false],
  ],
  rotateRight: [
    ["M18.5 13a7 7 0 1 1-2-5.5", false],
    ["M16.5 3.5v4h-4", false],
  ],
  takeBack: [
    ["M9 14 4 9l5-5", false],
    ["M4 9h10a5.5 5.5 0 0 1 0 11h-3", false],
  ],
  confirm: [["M5 12.5l4.5 4.5L19 7", false]],
  zoomIn: [["M12 5v14M5 12h14", false]],
  zoomOut: [["M5 12h14", false]],
  fit: [["M4 9V4h5M20 9V4h-5M4 15v5h5M20 15v5h-5", false]],
  close: [["M6 6l12 12M18 6 6 18", false]],
  arrow: [["M12 20V5M6 11l6-6 6 6", false]],
  soundOn: [
    ["M4 9h4l5-4v14l-5-4H4z", true],
    ["M16 9a4 4 0 0 1 0 6M18.5 6.5a8 8 0 0 1 0 11", false],
  ],
  soundOff: [
    ["M4 9h4l5-4v14l-5-4H4z", true],
    ["M16.5 9.5l5 5M21.5 9.5l-5 5", false],
  ],
};

// The icon `name`, turned by `rotate` degrees (the dragon's four steps share one arrow).
export function uiIcon(name, rotate = 0) {
  const svg = document.createElementNS(SVGNS, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("class", `ui-icon ui-icon-${name}`);
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  const g = document.createElementNS(SVGNS, "g");
  if (rotate) g.setAttribute("transform", `rotate(${rotate} 12 12)`);
  for (const [d, filled] of ICONS[name] || []) {
    const p = document.createElementNS(SVGNS, "path");
    p.setAttribute("d", d);
    if (filled) p.setAttribute("fill", "currentColor");
    else {
      p.setAttribute("fill", "none");
      p.setAttribute("stroke", "currentColor");
      p.setAttribute("stroke-width", "2.2");
      p.setAttribute("stroke-linecap", "round");
      p.setAttribute("stroke-linejoin", "round");
    }
    g.append(p);
  }
  svg.append(g);
  return svg;
}

export const ICON_NAMES = Object.keys(ICONS);
