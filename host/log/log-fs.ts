// The file-system seam the session log goes through: the real fs by default, a failing one in tests.

import fs from "node:fs";
import fsExt from "fs-ext";

/** The flock(2) operations the log uses: exclusive or shared without waiting, and unlock. */
export type FlockOp = "exnb" | "shnb" | "un";

/**
 * The file operations the writer and reader use, all synchronous. The default is
 * node:fs plus flock from fs-ext; a test passes a wrapper that fails on chosen
 * calls to prove that a failed write or fsync poisons the writer.
 */
export interface LogFs {
  openSync(path: string, flags: number, mode?: number): number;
  closeSync(fd: number): void;
  /** Writes `length` bytes from `buffer[offset..]`; may write fewer (the caller loops). */
  writeSync(fd: number, buffer: Uint8Array, offset: number, length: number, position: number | null): number;
  readSync(fd: number, buffer: Uint8Array, offset: number, length: number, position: number): number;
  fsyncSync(fd: number): void;
  fdatasyncSync(fd: number): void;
  ftruncateSync(fd: number, length: number): void;
  unlinkSync(path: string): void;
  mkdirSync(path: string, options: { recursive: true; mode: number }): void;
  flockSync(fd: number, op: FlockOp): void;
  /** The file system's type (statfs f_type) holding `path`; absent or throwing: unknown. */
  statfsSync?(path: string): { readonly type: number };
}

/** The real file system. */
export const nodeLogFs: LogFs = {
  openSync: (path, flags, mode) => fs.openSync(path, flags, mode),
  closeSync: (fd) => fs.closeSync(fd),
  writeSync: (fd, buffer, offset, length, position) => fs.writeSync(fd, buffer, offset, length, position),
  readSync: (fd, buffer, offset, length, position) => fs.readSync(fd, buffer, offset, length, position),
  fsyncSync: (fd) => fs.fsyncSync(fd),
  fdatasyncSync: (fd) => fs.fdatasyncSync(fd),
  ftruncateSync: (fd, length) => fs.ftruncateSync(fd, length),
  unlinkSync: (path) => fs.unlinkSync(path),
  mkdirSync: (path, options) => void fs.mkdirSync(path, options),
  flockSync: (fd, op) => fsExt.flockSync(fd, op),
  statfsSync: (path) => fs.statfsSync(path),
};

/** statfs f_type values of the network file systems the log refuses (linux/magic.h). */
export const NETWORK_FS_TYPES: ReadonlyMap<number, string> = new Map([
  [0x6969, "NFS"],
  [0xff534d42, "CIFS"],
  [0xfe534d42, "SMB2"],
  [0x517b, "SMB"],
  [0x01021997, "9p"],
  [0x00c36400, "Ceph"],
  [0x564c, "NCP"],
  [0x6b414653, "AFS"],
]);

/** The network file system holding `dir`, or null (a local one, or the type could not be read). */
export function networkFsOf(fs: LogFs, dir: string): string | null {
  if (fs.statfsSync === undefined) return null;
  let type: number;
  try {
    type = fs.statfsSync(dir).type;
  } catch {
    return null;
  }
  // f_type is a signed long on some platforms: compare as unsigned 32 bits.
  return NETWORK_FS_TYPES.get(type >>> 0) ?? null;
}

/** Closes `fd` after another failure, which is the one to report: a failure of the close itself is dropped (the descriptor is gone either way). */
export function closeQuietly(fs: LogFs, fd: number): void {
  try {
    fs.closeSync(fd);
  } catch {
    // reporting the first failure
  }
}
