import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { backoffMs, createSseParser, type SseMessage } from '../../../web/src/lib/sse-parser';
import { timeOfEventId } from '../../../web/src/lib/event-time';

function parse(chunks: string[]) {
  const messages: SseMessage[] = [];
  const retries: number[] = [];
  const parser = createSseParser((message) => messages.push(message), (ms) => retries.push(ms));
  for (const chunk of chunks) parser.push(chunk);
  return { messages, retries, lastEventId: parser.lastEventId };
}

const STREAM = 'retry: 2000\n\n: heartbeat\n\nid: evt_1\nevent: task.progress\ndata: {"message":"half"}\n\nid: evt_2\nevent: stream.checkpoint\ndata: {}\n\ndata: line one\ndata: line two\n\n';

describe('the SSE parser of the dashboard', () => {
  it('dispatches events with their id and type, skips comments, and reports retry', () => {
    const { messages, retries, lastEventId } = parse([STREAM]);

    expect(messages).toEqual([
      { id: 'evt_1', event: 'task.progress', data: '{"message":"half"}' },
      { id: 'evt_2', event: 'stream.checkpoint', data: '{}' },
      { id: 'evt_2', event: 'message', data: 'line one\nline two' },
    ]);
    expect(retries).toEqual([2000]);
    expect(lastEventId).toBe('evt_2');
  });

  it('gives the same events however the stream is cut into chunks and whatever its line ends', () => {
    const whole = parse([STREAM]).messages;
    fc.assert(
      fc.property(fc.constantFrom('\n', '\r\n', '\r'), fc.array(fc.nat(), { maxLength: 12 }), (newline, cuts) => {
        const text = STREAM.replace(/\n/g, newline);
        const points = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort((a, b) => a - b);
        const chunks = [0, ...points].map((start, index, all) => text.slice(start, all[index + 1] ?? text.length));

        expect(parse(chunks).messages).toEqual(whole);
      }),
    );
  });

  it('keeps an id from an event without data for Last-Event-ID, and dispatches nothing for it', () => {
    const { messages, lastEventId } = parse(['id: evt_9\n\n']);

    expect(messages).toEqual([]);
    expect(lastEventId).toBe('evt_9');
  });

  it('backs off by doubling up to a cap', () => {
    const top = () => 1;

    expect([1, 2, 3, 4, 5, 6].map((failures) => backoffMs(failures, 1000, 15_000, top))).toEqual([1000, 2000, 4000, 8000, 15_000, 15_000]);
    expect(backoffMs(3, 1000, 15_000, () => 0)).toBe(2000);
  });

  it('reads the time of an event from its id (evt_ + ULID)', () => {
    expect(timeOfEventId('evt_01arz3ndektsv4rrffq69g5fav')).toBe('2016-07-30T23:54:10.259Z');
    expect(timeOfEventId('evt_x')).toBeUndefined();
  });
});
