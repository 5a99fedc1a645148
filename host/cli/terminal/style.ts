// Colour for a terminal: on for a TTY, off with NO_COLOR, --no-color or TERM=dumb, forced with FORCE_COLOR or --color.

/** Whether to colour what goes to `stream`. `flag` is --color (true), --no-color (false) or neither. */
export function colorEnabled(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv, flag?: boolean): boolean {
  if (flag !== undefined) return flag;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== "") return false;
  const force = env.FORCE_COLOR;
  if (force !== undefined && force !== "") return force !== "0" && force !== "false";
  return stream.isTTY === true && env.TERM !== "dumb";
}

/** The roles text is coloured by; the same palette for the REPL and chat. */
export interface Style {
  readonly enabled: boolean;
  prompt(s: string): string;
  error(s: string): string;
  warning(s: string): string;
  dim(s: string): string;
  bold(s: string): string;
  /** Values, by kind. */
  number(s: string): string;
  string(s: string): string;
  symbol(s: string): string;
  keyword(s: string): string;
  boolean(s: string): string;
  special(s: string): string;
  /** A location (file:line:col). */
  location(s: string): string;
  /** What the user is told to type: a command, a name. */
  code(s: string): string;
}

const sgr = (open: number, close: number) => (s: string) => (s === "" ? s : `\x1b[${open}m${s}\x1b[${close}m`);

const ON: Style = {
  enabled: true,
  prompt: sgr(32, 39),
  error: sgr(31, 39),
  warning: sgr(33, 39),
  dim: sgr(2, 22),
  bold: sgr(1, 22),
  number: sgr(33, 39),
  string: sgr(32, 39),
  symbol: (s) => s,
  keyword: sgr(35, 39),
  boolean: sgr(33, 39),
  special: sgr(36, 39),
  location: sgr(2, 22),
  code: sgr(36, 39),
};

const id = (s: string) => s;
const OFF: Style = {
  enabled: false,
  prompt: id,
  error: id,
  warning: id,
  dim: id,
  bold: id,
  number: id,
  string: id,
  symbol: id,
  keyword: id,
  boolean: id,
  special: id,
  location: id,
  code: id,
};

/** The style for an output: colours when enabled, the identity otherwise. */
export function styleFor(enabled: boolean): Style {
  return enabled ? ON : OFF;
}
