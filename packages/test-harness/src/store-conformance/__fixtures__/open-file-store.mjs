// Opens the file store in a worker process of the store conformance suite.
import { createFileStore } from '@teamkit/team-core';

export function openStore({ root }) {
  return createFileStore({ root });
}
