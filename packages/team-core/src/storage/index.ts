export type { AtomicWriteOptions } from './atomic-write.js';
export { createFileAtomically, fsyncDirectory, writeFileAtomically } from './atomic-write.js';
export type { ChangeBatcher, ChangeBatcherOptions } from './change-batcher.js';
export { createChangeBatcher, reportWatchError } from './change-batcher.js';
export { assertSafeSegment, containedPath, resolveContainedRealPath } from './contained-path.js';
export type { DocumentProblem } from './document.js';
export {
  DOCUMENT_VERSION,
  parseDocument,
  readDocumentFile,
  serializeDocument,
  toDocumentProblem,
} from './document.js';
export { assertEntryState, ENTRY_STATES } from './entry-states.js';
export type { RunEventInput, RunEventsRead } from './event-log.js';
export { appendRunEvent, readRunEvents, readRunEventsAfter } from './event-log.js';
export type { FileLock, LockOptions } from './file-lock.js';
export { acquireLock, lockFolderOf, withLock } from './file-lock.js';
export type { FileStore, FileStoreOptions } from './file-store/create-file-store.js';
export { createFileStore } from './file-store/create-file-store.js';
export {
  removeTreeWithRetry,
  renameWithRetry,
  retryWhileBusy,
  unlinkWithRetry,
} from './fs-retry.js';
export type { MemoryStore, MemoryStoreOptions } from './memory-store/create-memory-store.js';
export { createMemoryStore } from './memory-store/create-memory-store.js';
export { openPrivateAppend, writePrivateFile } from './private-files.js';
export { readEach } from './read-each.js';
export type { RunKeys } from './run-keys.js';
export { runKeys } from './run-keys.js';
export type {
  StoredDocument,
  UpdateDocumentOptions,
  UpdatedDocument,
} from './store-documents.js';
export {
  createDocument,
  putDocument,
  readDocument,
  updateDocument,
} from './store-documents.js';
export { assertEntryId, assertKeySegment, storeKeySegments } from './store-key.js';
export { assertAge, assertLogLine, assertStorableText, MAX_VALUE_BYTES } from './stored-text.js';
export type { RunPaths } from './teamkit-home.js';
export { assertRunId, expandHome, resolveTeamkitHome, runPaths } from './teamkit-home.js';
export type {
  AddEntryOptions,
  EntryListing,
  EntryMoveOutcome,
  EntryState,
  HeldLock,
  LogCursor,
  LogRead,
  MoveEntriesOptions,
  PendingTotals,
  ReadLogOptions,
  ReadOutcome,
  StoreChange,
  StoredValue,
  StoreEntryInfo,
  StoreKey,
  StoreRevision,
  StoreWatchOptions,
  TeamkitStore,
} from './teamkit-store.js';
