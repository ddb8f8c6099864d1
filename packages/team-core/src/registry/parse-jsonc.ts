import { type Node, type ParseError, parseTree, printParseErrorCode } from 'jsonc-parser';
import { TeamkitError } from '../errors/index.js';

function lineAndColumn(text: string, offset: number): string {
  const before = text.slice(0, offset).split('\n');
  return `line ${before.length}, column ${(before.at(-1)?.length ?? 0) + 1}`;
}

function toValue(node: Node, text: string, where: string): unknown {
  switch (node.type) {
    case 'object': {
      const result: Record<string, unknown> = {};
      for (const property of node.children ?? []) {
        const [keyNode, valueNode] = property.children ?? [];
        if (keyNode === undefined || valueNode === undefined) continue;
        const key = String(keyNode.value);
        if (key === '__proto__' || Object.hasOwn(result, key)) {
          throw new TeamkitError(
            'INVALID_CONFIG',
            `${where}: ${key === '__proto__' ? 'reserved' : 'duplicate'} key "${key}" at ${lineAndColumn(text, keyNode.offset)}.`,
            { details: { path: where, key } },
          );
        }
        result[key] = toValue(valueNode, text, where);
      }
      return result;
    }
    case 'array':
      return (node.children ?? []).map((child) => toValue(child, text, where));
    default:
      return node.value;
  }
}

/** How deeply objects and arrays may nest in a JSON/JSONC config; real configs use a handful. */
export const MAX_JSONC_DEPTH = 64;

/**
 * Refuses text whose objects and arrays nest deeper than `maxDepth`, counted in one
 * pass that skips strings and comments. The parser recurses once per level, so without
 * this a file of 50,000 `[` (well under the size cap) overflows the stack.
 */
export function assertJsoncDepth(text: string, where: string, maxDepth = MAX_JSONC_DEPTH): void {
  let depth = 0;
  let index = 0;
  while (index < text.length) {
    const char = text[index];
    if (char === '"') {
      index += 1;
      while (index < text.length && text[index] !== '"') index += text[index] === '\\' ? 2 : 1;
    } else if (char === '/' && text[index + 1] === '/') {
      while (index < text.length && text[index] !== '\n') index += 1;
    } else if (char === '/' && text[index + 1] === '*') {
      const end = text.indexOf('*/', index + 2);
      index = end === -1 ? text.length : end + 1;
    } else if (char === '{' || char === '[') {
      depth += 1;
      if (depth > maxDepth) {
        throw new TeamkitError(
          'INVALID_CONFIG',
          `${where} nests objects and arrays more than ${maxDepth} levels deep (at ${lineAndColumn(text, index)}); Teamkit config files need only a few.`,
          { details: { path: where, maxDepth } },
        );
      }
    } else if (char === '}' || char === ']') {
      depth = Math.max(0, depth - 1);
    }
    index += 1;
  }
}

/**
 * Parses JSON with comments (JSONC). Comments are masked, so a commented-out key is
 * not live; trailing commas are accepted, as editors that write JSONC do. Syntax
 * errors, nesting deeper than {@link MAX_JSONC_DEPTH}, duplicate keys and `__proto__`
 * keys raise `INVALID_CONFIG` with a position.
 */
export function parseJsonc(text: string, where: string): unknown {
  assertJsoncDepth(text, where);
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, {
    allowTrailingComma: true,
    disallowComments: false,
    allowEmptyContent: false,
  });
  const first = errors[0];
  if (first !== undefined || root === undefined) {
    const reason =
      first === undefined
        ? 'it is empty'
        : `${printParseErrorCode(first.error)} at ${lineAndColumn(text, first.offset)}`;
    throw new TeamkitError('INVALID_CONFIG', `${where} is not valid JSON/JSONC: ${reason}.`, {
      details: { path: where },
    });
  }
  return toValue(root, text, where);
}
