// The session tree as Scheme procedures a strategy calls from on-command: checkpoints, undo, redo, rewind-to, fork.
import test from "ava";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { AgentSession } from "../../../host/session/agent.js";
import { FakeModel, type FakeReply } from "../../helpers/fake-model.js";
import { dataDir, gitRepo, records } from "./agent-helpers.js";

const STRATEGY = `(import (scheme base) (scheme write) (nodwyn strategy))
(define (run-turn message)
  (when (string=? message "undo inside a turn")
    (guard (e (#t (record-note (error-object-message e) "inside")))
      (undo)))
  (let loop ((reply (send (window))))
    (let ((calls (response-tool-calls reply)))
      (unless (null? calls)
        (for-each run-tool calls)
        (loop (send (window)))))))
(define (show x) (let ((p (open-output-string))) (write x p) (get-output-string p)))
(define (on-command name args)
  (cond ((string=? name "back") (record-note (show (undo)) "undo") #t)
        ((string=? name "again") (record-note (show (redo)) "redo") #t)
        ((string=? name "start") (record-note (show (rewind-to 0 :keep-files #t)) "rewind") #t)
        ((string=? name "tree") (record-note (show (checkpoints)) "tree") #t)
        ((string=? name "fork") (record-note (show (fork)) "strategy-fork") #t)
        ((string=? name "nothing") (guard (e (#t (record-note (error-object-message e) "error") #t)) (redo)))
        (else #f)))
(register-strategy! 'tree-test run-turn on-command)`;

test("a strategy's on-command rewinds, redoes, reads the tree and forks; undo inside a turn is refused", async (t) => {
  const root = gitRepo(t, { "a.txt": "alpha\n" });
  const data = dataDir(t);
  const file = join(root, "strategy.scm");
  writeFileSync(file, STRATEGY);
  const replies: FakeReply[] = [{ calls: [{ name: "fs-write", args: { path: "b.txt", text: "beta\n" } }] }, { text: "wrote b" }, { text: "inside" }];
  const agent = await AgentSession.open({
    origin: "chat",
    cwd: root,
    env: { PATH: process.env.PATH, HOME: root, NODWYN_DATA_DIR: data },
    provider: new FakeModel(replies),
    model: { id: "fake-1", server: "fake", contextWindow: 100_000 },
    askApproval: async () => "once",
    strategyFile: file,
  });
  await agent.turn("write b");
  t.true(existsSync(join(root, "b.txt")));
  t.true(await agent.command("tree", ""));
  t.true(await agent.command("back", ""));
  t.false(existsSync(join(root, "b.txt")));
  t.true(await agent.command("again", ""));
  t.is(readFileSync(join(root, "b.txt"), "utf8"), "beta\n");
  t.true(await agent.command("nothing", ""));
  t.true(await agent.command("start", ""));
  t.true(existsSync(join(root, "b.txt")), ":keep-files leaves the files");
  t.true(await agent.command("fork", ""));
  await agent.turn("undo inside a turn");
  agent.close();
  const recs = records(data, agent.id);
  const note = (topic: string) => recs.find((r) => r.kind === "note" && r.payload.topic === topic)?.payload.text as string;
  t.regex(note("tree"), /\(head \. 1\)/);
  t.regex(note("tree"), /\(files \. #\("b\.txt"\)\)/);
  t.regex(note("undo"), /\(from \. 1\) \(to \. 0\) \(files \. "restored"\) \(restored \. #\("b\.txt"\)\)/);
  t.regex(note("redo"), /\(from \. 0\) \(to \. 1\)/);
  t.regex(note("error"), /nothing to redo/);
  t.regex(note("rewind"), /\(files \. "kept"\)/);
  t.regex(note("strategy-fork"), /\(session \. "[^"]+"\) \(turn \. 0\)/);
  t.regex(note("inside"), /turn-running|a turn is running/);
  t.deepEqual(recs.filter((r) => r.kind === "head.move").map((r) => [r.payload.reason, r.payload.actor]), [["undo", "strategy"], ["redo", "strategy"], ["tree", "strategy"]]);
});
