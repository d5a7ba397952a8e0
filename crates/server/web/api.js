// @ts-check
// The server's API (docs/server-api.md) as the table uses it, and the seats' tokens this browser keeps.

export async function call(method, path, body, token) {
  const headers = {};
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const resp = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  let data = null;
  try {
    data = await resp.json();
  } catch {
    data = null;
  }
  return { status: resp.status, ok: resp.ok, data };
}
export const get = (p, token) => call("GET", p, undefined, token);
export const post = (p, body, token) => call("POST", p, body, token);

// Every token this browser holds, by game: { P1: token, ... }.
export function tokens(id) {
  try {
    return JSON.parse(localStorage.getItem(`carc.tokens.${id}`) || "{}");
  } catch {
    return {};
  }
}
export function keepToken(id, seat, token) {
  const all = tokens(id);
  all[seat] = token;
  localStorage.setItem(`carc.tokens.${id}`, JSON.stringify(all));
}

// The seat a browser holding several (hot seat) showed last in game `id`: a reload asks for its view first.
export function lastSeat(id) {
  return sessionStorage.getItem(`carc.seat.${id}`);
}
export function keepLastSeat(id, seat) {
  sessionStorage.setItem(`carc.seat.${id}`, seat);
}
