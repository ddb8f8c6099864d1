import { describe, expect, it } from 'vitest';
import { findLastToolResult, findLastUserText, findToolResults } from './find-last-tool-result.js';

const body = {
  messages: [
    { role: 'system', content: 'be brief' },
    {
      role: 'user',
      content: [
        { type: 'text', text: 'first ' },
        { type: 'text', text: 'ask' },
      ],
    },
    {
      role: 'assistant',
      content: null,
      tool_calls: [
        { id: 'a', type: 'function', function: { name: 'one', arguments: '{}' } },
        { id: 'b', type: 'function', function: { name: 'two', arguments: '{"x":1}' } },
      ],
    },
    { role: 'tool', tool_call_id: 'a', content: 'out a' },
    { role: 'tool', tool_call_id: 'b', content: [{ type: 'text', text: 'out b' }] },
  ],
};

describe('findLastToolResult', () => {
  it('returns the newest tool result joined with its call', () => {
    expect(findLastToolResult(body)).toEqual({
      toolCallId: 'b',
      content: 'out b',
      toolName: 'two',
      arguments: '{"x":1}',
    });
    expect(findToolResults(body).map((result) => result.toolCallId)).toEqual(['a', 'b']);
  });

  it('returns undefined when the conversation has no tool result', () => {
    expect(findLastToolResult({ messages: [{ role: 'user', content: 'hi' }] })).toBeUndefined();
    expect(findLastToolResult({})).toBeUndefined();
  });

  it('reads the last user text from string or part content', () => {
    expect(findLastUserText(body)).toBe('first ask');
    expect(findLastUserText({ messages: [] })).toBeUndefined();
  });
});
