// `nodwyn index …`: the repository index's tools (host/cli/index-command.ts).
export { indexCommandSpec as indexCommand } from "../index-command.js";
