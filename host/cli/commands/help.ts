// `nodwyn help [COMMAND...]`: the same text as `nodwyn --help` or `nodwyn COMMAND --help`.

import { UsageError, type Command } from "../command.js";
import { commandHelp, mainHelp } from "../help.js";
import { findCommand } from "../parse-args.js";
import { nearest } from "../../session/near.js";
import { VERSION } from "../../session/node-interpreter.js";

export const helpCommand: Command = {
  name: "help",
  summary: "show the help of nodwyn or of a command",
  usage: "nodwyn help [COMMAND [SUBCOMMAND]]",
  args: { min: 0, max: 2, names: "[COMMAND [SUBCOMMAND]]" },
  async run(inv) {
    if (inv.args.length === 0) {
      inv.io.stdout.write(mainHelp(inv.registry, VERSION));
      return 0;
    }
    const chain: Command[] = [];
    let list: readonly Command[] = inv.registry;
    for (const w of inv.args) {
      const c = findCommand(list, w);
      if (c === undefined) {
        const near = nearest(w, list.map((x) => x.name));
        throw new UsageError(`no command '${w}'`, near !== undefined ? `did you mean '${near}'?` : "nodwyn --help lists the commands");
      }
      chain.push(c);
      list = c.subcommands ?? [];
    }
    inv.io.stdout.write(commandHelp(chain));
    return 0;
  },
};
