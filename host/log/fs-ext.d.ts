// Types for the parts of the fs-ext package the session log uses (it ships none).
declare module "fs-ext" {
  /** flock(2) on `fd`; throws an errno error (EAGAIN when a non-blocking lock is held elsewhere). */
  export function flockSync(fd: number, flags: "sh" | "ex" | "shnb" | "exnb" | "un"): void;
  const fsExt: { flockSync: typeof flockSync };
  export default fsExt;
}
