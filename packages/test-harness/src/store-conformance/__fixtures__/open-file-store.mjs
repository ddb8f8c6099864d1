// Opens the file store in a worker process of the store conformance suite.
import { createFileStore } from '@teamkit/team-core/storage';

export function openStore({ root }) {
  return createFileStore({ root });
}
