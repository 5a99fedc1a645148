// `nodwyn replay SESSION [--window SEQ]`: the transcript of a log, or the exact request of one llm.req, rebuilt and verified.

import { LogError, readLog, type LogRecord } from "../log/index.js";
import { WindowError, replayRequest, requestsOf } from "../window/index.js";
import { EXIT, UsageError, flag, optionValue, type Invocation } from "./command.js";
import { sessionArg } from "./session-arg.js";
import { formatEntry, transcriptEntry } from "./transcript.js";

async function write(stream: NodeJS.WritableStream, text: string): Promise<void> {
  if (!stream.write(text)) await new Promise<void>((resolve) => stream.once("drain", () => resolve()));
}

/** Runs `nodwyn replay`; returns the exit code. */
export async function runReplay(inv: Invocation): Promise<number> {
  const s = sessionArg(inv.args[0] as string, inv, { paths: true });
  const seqV = optionValue(inv, "--window");
  const json = flag(inv, "--json");
  if (flag(inv, "--canonical") && seqV === undefined) throw new UsageError("--canonical needs --window SEQ", "e.g. nodwyn replay last --window 12 --canonical");
  try {
    if (seqV !== undefined) {
      const r = replayRequest(readLog(s.file, { through: Number(seqV) }), Number(seqV));
      if (flag(inv, "--canonical")) await write(inv.io.stdout, r.canonical);
      else if (json) await write(inv.io.stdout, JSON.stringify({ seq: r.seq, recipe: r.recipe, digest: r.digest, verified: true, request: r.request }, null, 2) + "\n");
      else await write(inv.io.stdout, JSON.stringify(r.request, null, 2) + "\n");
      inv.io.stderr.write(`nodwyn replay: the llm.req at seq ${r.seq} (${r.recipe}) rebuilt from seq 1-${r.seq - 1} and its recorded recipe: digest ${r.digest} verified\n`);
      return EXIT.ok;
    }
    const reader = readLog(s.file);
    const seen: LogRecord[] = [];
    let buf = "";
    for (const r of reader) {
      if (r.kind === "llm.req") seen.push(r);
      const e = transcriptEntry(r);
      buf += json ? JSON.stringify(e) + "\n" : formatEntry(e);
      if (buf.length >= 64 * 1024) {
        await write(inv.io.stdout, buf);
        buf = "";
      }
    }
    await write(inv.io.stdout, buf);
    const tail = reader.summary?.tail;
    if (tail) inv.io.stderr.write(`nodwyn replay: ${s.file}:${tail.line}: the last line is incomplete (${tail.bytes} bytes); not shown\n`);
    const q = requestsOf(seen);
    if (q.without.length > 0)
      inv.io.stderr.write(
        `nodwyn replay: ${q.without.length} of the log's ${q.without.length + q.withRecipe.length} requests record no recipe (a log from before recipes): the transcript replays, but their exact requests cannot be reconstructed\n`,
      );
    return EXIT.ok;
  } catch (e) {
    if (e instanceof WindowError) {
      inv.io.stderr.write(`nodwyn replay: ${s.file}: ${e.message} [${e.code}]\n`);
      return EXIT.error;
    }
    if (e instanceof LogError) {
      inv.io.stderr.write(`nodwyn replay: ${e.message}\n`);
      return EXIT.error;
    }
    throw e;
  }
}
