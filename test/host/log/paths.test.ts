// Where logs live: the data directory's resolution and what a session id may be.

import test from "ava";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import {
  InvalidSessionIdError,
  isValidSessionId,
  newSessionId,
  resolveDataDir,
  sessionLogPath,
} from "../../../host/log/index.js";

test("NODWYN_DATA_DIR wins over XDG_DATA_HOME and HOME", (t) => {
  t.is(resolveDataDir({ NODWYN_DATA_DIR: "/d/n", XDG_DATA_HOME: "/x", HOME: "/h" }), "/d/n");
});

test("without NODWYN_DATA_DIR the data dir is $XDG_DATA_HOME/nodwyn", (t) => {
  t.is(resolveDataDir({ XDG_DATA_HOME: "/x/share", HOME: "/h" }), "/x/share/nodwyn");
});

test("without either it is ~/.local/share/nodwyn", (t) => {
  t.is(resolveDataDir({ HOME: "/home/u" }), "/home/u/.local/share/nodwyn");
  t.is(resolveDataDir({}), join(homedir(), ".local", "share", "nodwyn"));
});

test("empty variables count as unset, and a relative XDG_DATA_HOME is ignored", (t) => {
  t.is(resolveDataDir({ NODWYN_DATA_DIR: "", XDG_DATA_HOME: "", HOME: "/h" }), "/h/.local/share/nodwyn");
  t.is(resolveDataDir({ XDG_DATA_HOME: "rel/share", HOME: "/h" }), "/h/.local/share/nodwyn");
});

test("a relative NODWYN_DATA_DIR is taken from the current directory", (t) => {
  t.is(resolveDataDir({ NODWYN_DATA_DIR: "data" }), resolve("data"));
});

test("a session's log is <data>/sessions/<id>.jsonl", (t) => {
  t.is(sessionLogPath("20261009T034803Z-3981612f", "/d"), "/d/sessions/20261009T034803Z-3981612f.jsonl");
});

test("session ids are safe file names", (t) => {
  for (const ok of ["a", "A1", "20261009T034803Z-3981612f", "x.y_z-1", "a".repeat(128)]) t.true(isValidSessionId(ok), ok);
  for (const bad of ["", ".", "..", ".hidden", "-x", "_x", "a/b", "../x", "a\\b", "a b", "a\0b", "é", "a".repeat(129), "a:b"])
    t.false(isValidSessionId(bad), JSON.stringify(bad));
});

test("a bad session id is refused with a typed error before any path is made", (t) => {
  const e = t.throws(() => sessionLogPath("../etc/passwd", "/d"), { instanceOf: InvalidSessionIdError });
  t.is(e!.code, "LOG_INVALID_SESSION");
  t.true(e!.message.includes('"../etc/passwd"'));
});

test("new session ids are valid, carry the UTC time, and differ", (t) => {
  const at = new Date(Date.UTC(2026, 9, 9, 3, 48, 3, 999));
  const a = newSessionId(at);
  const b = newSessionId(at);
  t.regex(a, /^20261009T034803Z-[0-9a-f]{8}$/);
  t.regex(newSessionId(new Date(Date.UTC(2027, 0, 2, 3, 4, 5))), /^20270102T030405Z-[0-9a-f]{8}$/);
  t.true(isValidSessionId(a));
  t.not(a, b);
});
