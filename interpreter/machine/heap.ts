// What the machine reads of the JS heap for the memory budget: bytes in use, the engine's limit, a collection.
//
// The interpreter imports no Node module (it could run in a browser), so the
// probe is either handed in by the host or found by feature detection: Node's
// `v8` module through `process.getBuiltinModule` (no import, and nothing held
// across a start-up snapshot but the functions themselves).

/** The machine's view of the JS heap. */
export interface HeapProbe {
  /**
   * Bytes in use by JS objects: the old generation and large objects, plus
   * memory held outside the heap for them (array buffers). The young
   * generation may be left out — it is garbage-heavy and bounded by the
   * engine's settings — so that short-lived data never counts.
   */
  used(): number;
  /** The most the engine lets the heap hold, in bytes (Infinity when unknown). */
  limit(): number;
  /**
   * Collects garbage now. Optional: without it, a measure over the budget
   * cannot be confirmed and ends the evaluation as it is.
   */
  collect?(): void;
}

interface V8Module {
  getHeapSpaceStatistics(): { space_name: string; space_used_size: number }[];
  getHeapStatistics(): { heap_size_limit: number; external_memory?: number };
  setFlagsFromString(flags: string): void;
}

/** The probe of this engine when it is Node's V8, else null. */
export function detectHeapProbe(): HeapProbe | null {
  const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  if (typeof proc?.getBuiltinModule !== "function") return null;
  const getModule = proc.getBuiltinModule.bind(proc);
  const v8 = getModule("node:v8") as V8Module | undefined;
  if (v8 === undefined || typeof v8.getHeapSpaceStatistics !== "function") return null;
  // gc(): the process's own when it runs with --expose-gc, else one made on first
  // use (a fresh context sees the function once the flag is set).
  let gc: (() => void) | null | undefined = typeof (globalThis as { gc?: unknown }).gc === "function" ? (globalThis as { gc: () => void }).gc : undefined;
  return {
    used() {
      let n = 0;
      for (const s of v8.getHeapSpaceStatistics()) if (s.space_name !== "new_space") n += s.space_used_size;
      return n + (v8.getHeapStatistics().external_memory ?? 0);
    },
    limit() {
      return v8.getHeapStatistics().heap_size_limit;
    },
    collect() {
      if (gc === undefined) {
        gc = null;
        try {
          v8.setFlagsFromString("--expose-gc");
          const vm = getModule("node:vm") as { runInNewContext(code: string): unknown } | undefined;
          const f = vm?.runInNewContext("gc");
          if (typeof f === "function") gc = f as () => void;
        } catch {
          gc = null;
        }
      }
      gc?.();
    },
  };
}
