// T14's last case: a sessions folder on a network file system (found with statfs) is refused, unless NODWYN_ALLOW_NETWORK_FS=1.
import test from "ava";
import { existsSync, statfsSync } from "node:fs";
import { createSessionLog, networkFsOf, nodeLogFs, openForAppend, readLog, sessionLogPath, LogNetworkFsError, NETWORK_FS_TYPES, type LogFs } from "../../../host/log/index.js";
import { tempDataDir } from "./helpers.js";

const START = { version: "0.0.0", origin: "t14" };

/** The real file system, with statfs saying the folder is of `type`. */
function onFs(type: number): LogFs {
  return { ...nodeLogFs, statfsSync: () => ({ type }) };
}

test("a sessions folder on NFS is refused at create and at open-for-append, naming the folder and what to do; nothing is created", (t) => {
  const dir = tempDataDir(t);
  const nfs = onFs(0x6969);
  const e = t.throws(() => createSessionLog("s", START, { dataDir: dir, fs: nfs, env: {} }), { instanceOf: LogNetworkFsError });
  t.is(e!.code, "LOG_NETWORK_FS");
  t.is(e!.fsType, "NFS");
  t.regex(e!.message, /is on NFS, where the log's lock and fsync cannot be relied on: set NODWYN_DATA_DIR to a folder on a local disk, or NODWYN_ALLOW_NETWORK_FS=1/);
  t.false(existsSync(sessionLogPath("s", dir)));
  // A log made on a local disk, then found on a network mount, is refused for appending too.
  createSessionLog("s", START, { dataDir: dir, env: {} }).close();
  t.throws(() => openForAppend("s", { dataDir: dir, fs: nfs, env: {}, resume: START }), { instanceOf: LogNetworkFsError });
});

test("NODWYN_ALLOW_NETWORK_FS=1 lets the person use it anyway", (t) => {
  const dir = tempDataDir(t);
  const env = { NODWYN_ALLOW_NETWORK_FS: "1" };
  const w = createSessionLog("s", START, { dataDir: dir, fs: onFs(0xff534d42), env });
  w.append("note", { text: "on CIFS" });
  w.close();
  const { writer } = openForAppend("s", { dataDir: dir, fs: onFs(0xff534d42), env, resume: START });
  t.is(writer.lastSeq, 3);
  writer.close();
  t.deepEqual([...readLog(w.file)].map((r) => r.kind), ["session.start", "note", "session.resume"]);
});

test("every type in the table is refused (as a signed f_type too), a local one and an unreadable one are not", (t) => {
  const dir = tempDataDir(t);
  for (const [type, name] of NETWORK_FS_TYPES) {
    t.is(networkFsOf(onFs(type), dir), name);
    t.is(networkFsOf(onFs(type | 0), dir), name); // what a signed 32-bit f_type looks like
  }
  t.is(networkFsOf(onFs(0xef53), dir), null); // ext4
  t.is(networkFsOf({ ...nodeLogFs, statfsSync: () => { throw new Error("EPERM"); } }, dir), null);
  // The real statfs of the test's folder: not a network file system here, so every other test can run.
  t.is(networkFsOf(nodeLogFs, dir), NETWORK_FS_TYPES.get(statfsSync(dir).type >>> 0) ?? null);
});
