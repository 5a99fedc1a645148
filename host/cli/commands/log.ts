// `nodwyn log …`: the session-log tools (host/cli/log-command.ts), loaded with the log's modules.
export { logCommandSpec as logCommand } from "../log-command.js";
