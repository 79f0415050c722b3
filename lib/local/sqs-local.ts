import { startFauxqs } from 'fauxqs';

export interface SqsLocal {
  endpoint: string;
  stop(): Promise<void>;
}

/** Starts fauxqs, an SQS emulator, in library mode on a free loopback port. */
export async function startSqsLocal(): Promise<SqsLocal> {
  const server = await startFauxqs({ port: 0, host: '127.0.0.1', logger: false });
  return { endpoint: `http://127.0.0.1:${server.port}`, stop: () => server.stop() };
}
