// The chat's messages among the game's events in the log, and messages that come twice.

import assert from "node:assert/strict";
import { test } from "node:test";
import { logLines, mergeChat } from "../../../web/log.js";

const ev = (action, type = "scored") => ({ action, type });
const msg = (n, version, text = `m${n}`) => ({ n, seat: "P1", name: "Ana", text, version, at: 0 });
const kinds = (lines) => lines.map((l) => ("chat" in l ? `c${l.chat.n}` : `e${l.event.action}`)).join(" ");

test("a message comes after the events of the actions made before it and before the others", () => {
  const events = [ev(1), ev(2), ev(2), ev(5)];
  assert.equal(
    kinds(logLines(events, [msg(1, 0), msg(2, 2), msg(3, 2), msg(4, 4), msg(5, 9)])),
    "c1 e1 e2 e2 c2 c3 c4 e5 c5",
  );
  assert.equal(kinds(logLines(events, [])), "e1 e2 e2 e5");
  assert.equal(kinds(logLines([], [msg(1, 3)])), "c1");
});

test("after a take-back a message of a lower version keeps its place among the messages", () => {
  // Written at version 4, then an action was taken back and one written at version 3.
  assert.equal(kinds(logLines([ev(1), ev(3), ev(4)], [msg(1, 4), msg(2, 3)])), "e1 e3 e4 c1 c2");
});

test("messages held and fetched again are each kept once, in the order written", () => {
  const held = [msg(1, 0), msg(3, 1)];
  const merged = mergeChat(held, [msg(2, 1), msg(3, 1), msg(4, 2)]);
  assert.deepEqual(
    merged.map((m) => m.n),
    [1, 2, 3, 4],
  );
  assert.deepEqual(
    held.map((m) => m.n),
    [1, 3],
    "what was held is not changed",
  );
});
