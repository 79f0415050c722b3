/**
 * Captures the JSON lines Powertools writes (log lines on stdout, ERROR-level ones on stderr, EMF
 * metrics on stdout) and keeps them off the test output.
 */
export function captureJsonOutput() {
  const lines: string[] = [];
  const streams = [process.stdout, process.stderr];
  const originals = streams.map((stream) => stream.write);
  streams.forEach((stream, index) => {
    const original = originals[index].bind(stream) as (...args: unknown[]) => boolean;
    stream.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
      const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
      if (!text.trimStart().startsWith('{')) return original(chunk, ...rest);
      lines.push(...text.split('\n').filter((line) => line.trim() !== ''));
      return true;
    }) as typeof stream.write;
  });
  return {
    /** Every JSON line so far, parsed, in the order written. */
    json(): Record<string, any>[] {
      return lines.flatMap((line) => {
        try {
          return [JSON.parse(line) as Record<string, any>];
        } catch {
          return [];
        }
      });
    },
    clear: () => void (lines.length = 0),
    restore: () => streams.forEach((stream, index) => (stream.write = originals[index])),
  };
}
