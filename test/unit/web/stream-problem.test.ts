import { describe, expect, it } from 'vitest';
import { ProblemError, problemFromStreamFrame } from '../../../web/src/api/problem-error';
import { createSseParser, type SseMessage } from '../../../web/src/lib/sse-parser';

/** The frame the API ends an open stream with once its caller is refused (docs/api.md, GET /events/stream). */
const revokedFrame =
  'id: evt_01jd7x4z9k2m3n4p5q6r7s8t9v\nevent: error\ndata: {"type":"/v1/problems/unauthorized","title":"Unauthorized","status":401,"detail":"The API key is unknown or revoked.","code":"unauthorized"}\n\n';

describe("the dashboard's reading of a stream's final error frame", () => {
  it('turns the frame into the ProblemError the same refusal as an HTTP answer would throw', () => {
    const messages: SseMessage[] = [];
    createSseParser((message) => messages.push(message), () => undefined).push(revokedFrame);

    const problem = problemFromStreamFrame(messages[0].data);

    expect(messages.map(({ id, event }) => ({ id, event }))).toEqual([{ id: 'evt_01jd7x4z9k2m3n4p5q6r7s8t9v', event: 'error' }]);
    expect(problem).toBeInstanceOf(ProblemError);
    expect(problem).toMatchObject({ status: 401, code: 'unauthorized', message: 'Unauthorized: The API key is unknown or revoked.' });
  });

  it('keeps a 403 a client error, and reads a frame that is not a problem as a server error (reconnect)', () => {
    expect(problemFromStreamFrame('{"status":403,"title":"Forbidden","code":"forbidden"}')).toMatchObject({ status: 403, code: 'forbidden' });
    expect(problemFromStreamFrame('not json')).toMatchObject({ status: 500, code: 'unknown' });
    expect(problemFromStreamFrame('{"status":200}')).toMatchObject({ status: 500 });
  });
});
