// Where config.toml is: NODWYN_CONFIG, else $XDG_CONFIG_HOME/nodwyn/config.toml, else ~/.config/nodwyn/config.toml.

import { homedir } from "node:os";
import { isAbsolute, join, resolve } from "node:path";

/** Where the configuration file is, and whether NODWYN_CONFIG named it (then it must exist). */
export interface ConfigLocation {
  readonly path: string;
  readonly explicit: boolean;
}

/**
 * The configuration file: `$NODWYN_CONFIG` (relative to the current directory),
 * else `$XDG_CONFIG_HOME/nodwyn/config.toml` when XDG_CONFIG_HOME is absolute (a
 * relative one is ignored, as the XDG base directory specification says), else
 * `~/.config/nodwyn/config.toml`. An empty variable counts as unset.
 */
export function configLocation(env: Readonly<Record<string, string | undefined>> = process.env): ConfigLocation {
  const own = env.NODWYN_CONFIG;
  if (own) return { path: resolve(own), explicit: true };
  const xdg = env.XDG_CONFIG_HOME;
  if (xdg && isAbsolute(xdg)) return { path: join(xdg, "nodwyn", "config.toml"), explicit: false };
  const home = env.HOME || homedir();
  return { path: join(home, ".config", "nodwyn", "config.toml"), explicit: false };
}

/** The configuration file's path (configLocation's path). */
export function configPath(env: Readonly<Record<string, string | undefined>> = process.env): string {
  return configLocation(env).path;
}
