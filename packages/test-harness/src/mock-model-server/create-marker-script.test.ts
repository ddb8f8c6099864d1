import { describe, expect, it } from 'vitest';
import { createMarkerScript, requestsWithMarker } from './create-marker-script.js';
import type { MockModelRequest } from './mock-model-script.js';

function request(
  index: number,
  messages: { role: string; content: string }[],
  tools = true,
): MockModelRequest {
  return {
    index,
    flavour: 'chat-completions',
    method: 'POST',
    path: '/v1/chat/completions',
    stream: true,
    headers: {},
    body: { messages, ...(tools ? { tools: [{ type: 'function' }] } : {}) },
    exhausted: false,
  };
}

describe('createMarkerScript', () => {
  it('plays each marked turn step by step, the newest marker first, and ends it with "<name> done"', async () => {
    const script = createMarkerScript({
      one: [{ text: 'one-a' }, { text: 'one-b' }],
      two: [{ text: 'two-a' }],
    });
    const first = [{ role: 'user', content: '[turn:one] go' }];
    const resumed = [
      ...first,
      { role: 'assistant', content: 'one done' },
      { role: 'user', content: '[turn:two] again' },
    ];
    const answers = [
      await script(request(0, first), 0),
      await script(request(1, first), 1),
      await script(request(2, first), 2),
      await script(request(3, resumed), 3),
      await script(request(4, resumed), 4),
    ];
    expect(answers).toEqual([
      { text: 'one-a' },
      { text: 'one-b' },
      { text: 'one done' },
      { text: 'two-a' },
      { text: 'two done' },
    ]);
  });

  it('answers requests without tools aside and leaves unmarked ones to the fallback', async () => {
    const script = createMarkerScript(
      { one: [{ text: 'one-a' }] },
      { sideAnswer: { text: 'Title' } },
    );
    expect(await script(request(0, [{ role: 'user', content: '[turn:one]' }], false), 0)).toEqual({
      text: 'Title',
    });
    expect(await script(request(1, [{ role: 'user', content: 'no marker' }]), 1)).toBeUndefined();
    expect(await script(request(2, [{ role: 'user', content: '[turn:one]' }]), 2)).toEqual({
      text: 'one-a',
    });
  });

  it('finds the requests of one turn', () => {
    const requests = [
      request(0, [{ role: 'user', content: '[turn:one]' }]),
      request(1, [{ role: 'user', content: '[turn:two]' }]),
    ];
    expect(requestsWithMarker(requests, 'two').map((entry) => entry.index)).toEqual([1]);
  });
});
