/**
 * The invoice checker's worker: `npx tsx examples/invoice-checker/worker.ts` from the repository
 * root, with GATEHOUSE_AGENT_KEY (an `agent` key of `invoice-checker`) and optionally GATEHOUSE_URL.
 * It runs until SIGTERM or Ctrl-C, which let the task in hand finish first.
 */
import { createWorker } from '@gatehouse/worker';
import { handleInvoiceCheck } from './handle-invoice-check.ts';

const apiKey = process.env.GATEHOUSE_AGENT_KEY;
if (!apiKey) {
  // Checked before anything starts: without a key every claim would be refused, over and over.
  console.error('GATEHOUSE_AGENT_KEY is not set: make one with POST /v1/api-keys {"role": "agent", "agent": "invoice-checker", ...}.');
  process.exit(1);
}

const worker = createWorker({
  agent: 'invoice-checker',
  apiKey,
  baseUrl: process.env.GATEHOUSE_URL ?? 'http://127.0.0.1:3000/v1',
  handlers: { 'invoice.check': handleInvoiceCheck },
});

await worker.start();
await worker.stopped;
