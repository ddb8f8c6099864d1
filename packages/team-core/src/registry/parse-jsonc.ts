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

/**
 * Parses JSON with comments (JSONC). Comments are masked, so a commented-out key is
 * not live; trailing commas are accepted, as editors that write JSONC do. Syntax
 * errors, duplicate keys and `__proto__` keys raise `INVALID_CONFIG` with a position.
 */
export function parseJsonc(text: string, where: string): unknown {
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
