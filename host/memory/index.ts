// The conversation memory's public entry: events read from the log, turn cards, .mem files, BM25 search, recall (docs/memory-format.md).

/**
 * Reading events (shared with issue 16's recall forms): which records are
 * conversation events, their text in numbered lines, their headings.
 */
export {
  eventOf,
  eventLines,
  describeEvent,
  callText,
  outputText,
  replyCalls,
  isMemoryCall,
  shellExit,
  argsLine,
  contextPhrase,
  EVENT_CODES,
  type EventType,
  type EventInfo,
  type CallInfo,
} from "./events.js";
/** Turn cards and compaction notes. */
export { CardBuilder, cardLine, cardText, noteText, costText, type TurnCard, type CompactionNote, type CardCommand } from "./cards.js";
/** The fold of a log into events, postings, cards and notes. */
export { TaskFold, CALL_WEIGHT, type DocEntry, type TaskFacts, type FoldPoint, type Watermark } from "./fold.js";
/** The .mem file. */
export { encodeMem, writeMemFile, MemReader, MemMismatch, MEM_MAGIC, MEM_VERSION, MEM_EXTENSION, type MemHeader, type MemMeta } from "./mem-file.js";
/** One task's memory, checked against its log and brought up to date. */
export { openTask, memFileOf, deleteMemFile, MEM_FORMAT, type TaskView, type MemAction, type OpenTaskOptions } from "./task-memory.js";
/** Ranking and showing. */
export { rankViews, renderSearch, taskSummary, K1, B, DEFAULT_HITS, MAX_HITS, type MemorySearchResult, type TurnHits, type EventHit, type TaskSummary } from "./search.js";
export { recallEvent, RecallError, type RecallResult } from "./recall.js";
/** A running session's unfinished turn, held as its log writer writes it. */
export { HeldTurn, type HeldRecords, type WatchedWriter } from "./held.js";
/** The person's leave for earlier tasks. */
export { earlierTasksLeave, workspacesFile, howToAllow, type EarlierLeave } from "./workspaces.js";
/** A session's memory service (what the primitives call). */
export { ConversationMemory, MemoryError, projectOfFacts, type MemoryOptions } from "./memory.js";
/** Issue 16's recall forms: verbatim rows matched by LIKE over the raw payload. */
export {
  recallLog,
  recallEntry,
  recallSearch,
  likeFragment,
  bodyOf,
  RecallLogError,
  DEFAULT_RECALL_KINDS,
  RECALL_LOG_DEFAULTS,
  RECALL_SEARCH_DEFAULTS,
  MAX_RECALL_ROWS,
  RECALL_DEFAULTS,
  type RecallRow,
  type RecallLogQuery,
  type RecallLogResult,
  type RecallSearchQuery,
  type RecallSearchRow,
  type RecallSearchResult,
} from "./recall-log.js";
