import nodemailer from 'nodemailer';
import type { Runtime } from '#lib/local/runtime';
import { summarize, type LatencySummary } from './stats';

/** Issue 25, finding 3: 470 KiB of repeated `<script>` as an HTML body held /health for 3.7 s. */
const SCRIPT_FLOOD = '<script>'.repeat((470 * 1024) / 8);
const PROBE_INTERVAL_MS = 10;

export interface InboundMailStallReport {
  /** Bytes of the HTML body sent. */
  bodyBytes: number;
  /** Mails sent, each to an address with no trigger (the case) and then to a real trigger. */
  mails: number;
  /** /health with nothing else going on. */
  baseline: LatencySummary;
  /** /health asked every 10 ms while each mail was sent and handled. */
  duringMail: LatencySummary;
}

async function health(port: number): Promise<number> {
  const started = performance.now();
  const response = await fetch(`http://127.0.0.1:${port}/health`, { signal: AbortSignal.timeout(30_000) });
  await response.arrayBuffer();
  return performance.now() - started;
}

/**
 * /health latency while the 470 KiB `<script>` body arrives by SMTP: to an address with no
 * trigger (never parsed since the fix) and to a mail trigger's address (parsed in one linear pass).
 */
export async function measureInboundMailStall(runtime: Runtime, triggerAddress: string, rounds: number): Promise<InboundMailStallReport> {
  const baseline: number[] = [];
  for (let i = 0; i < 20; i++) baseline.push(await health(runtime.port));
  const during: number[] = [];
  const transport = nodemailer.createTransport({ host: '127.0.0.1', port: runtime.smtpPort, secure: false, ignoreTLS: true, connectionTimeout: 5_000, socketTimeout: 60_000 });
  let mails = 0;
  try {
    for (let round = 0; round < rounds; round++) {
      for (const to of [`t-nosuchtrigger2345678@${runtime.inboundDomain}`, triggerAddress]) {
        let sending = true;
        const probing = (async () => {
          while (sending) {
            during.push(await health(runtime.port));
            await new Promise((resolve) => setTimeout(resolve, PROBE_INTERVAL_MS));
          }
        })();
        try {
          await transport.sendMail({ from: 'mallory@attacker.example', to, subject: `flood ${round}`, html: SCRIPT_FLOOD, messageId: `<flood-${round}-${mails}@attacker.example>` });
          mails++;
        } finally {
          sending = false;
          await probing;
        }
      }
    }
  } finally {
    transport.close();
  }
  return { bodyBytes: Buffer.byteLength(SCRIPT_FLOOD), mails, baseline: summarize(baseline), duringMail: summarize(during) };
}
