/**
 * Finds a path `from → … → to` along `blocks` edges, or `undefined`. Adding the edge
 * `to blocks from` closes a cycle exactly when such a path exists.
 */
export function findDependencyPath(
  blocksOf: (id: string) => readonly string[],
  from: string,
  to: string,
): string[] | undefined {
  const parent = new Map<string, string | undefined>([[from, undefined]]);
  const queue = [from];
  for (let head = 0; head < queue.length; head += 1) {
    const current = queue[head] as string;
    if (current === to) {
      const path: string[] = [];
      for (let node: string | undefined = to; node !== undefined; node = parent.get(node)) {
        path.unshift(node);
      }
      return path;
    }
    for (const next of blocksOf(current)) {
      if (!parent.has(next)) {
        parent.set(next, current);
        queue.push(next);
      }
    }
  }
  return undefined;
}
