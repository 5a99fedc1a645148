// Checkpoints and the session tree: git-backed captures of the working tree, and the tree of turns folded from the log.
export { CheckpointStore, CheckpointError, checkpointRef, type TreeEntry } from "./store.js";
export { SessionTree, type TreeTurn, type TurnCheckpoint, type HeadMove } from "./tree.js";
