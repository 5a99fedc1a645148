// The index's preparing thread: redacts, hashes and cuts into chunks and words the texts the main thread read through the guard.
//
// Started by prepare-thread.ts for a large refresh. It imports only the
// redactor and prepare.ts (never fs-ext: see there). Its redactor is made as
// the session's is (the default rules, the registered secrets given in
// workerData), so what it returns is what the main thread would have made.

import { parentPort, workerData } from "node:worker_threads";
import { Redactor } from "../redact/index.js";
import { decodeText, hashText, prepareDoc, redactKeepingLines } from "./prepare.js";
import type { FromPrepare, ToPrepare } from "./prepare-thread.js";

const redactor = new Redactor();
for (const s of (workerData as { secrets: string[] }).secrets) redactor.registerSecret(s);

const port = parentPort;
if (port === null) throw new Error("prepare-worker.js runs as a worker thread");
port.on("message", (m: ToPrepare) => {
  const out: FromPrepare["out"] = [];
  const buf = Buffer.from(m.buf);
  for (const f of m.files) {
    try {
      const text = redactKeepingLines(redactor, decodeText(buf.subarray(f.off, f.off + f.len)));
      const hash = hashText(text);
      out.push({ hash, length: text.length, doc: prepareDoc(f.path, hash, text) });
    } catch (e) {
      out.push({ error: e instanceof Error ? e.message : String(e) });
    }
  }
  port.postMessage({ seq: m.seq, out } satisfies FromPrepare);
});
