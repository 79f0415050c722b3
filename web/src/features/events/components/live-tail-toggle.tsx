import type { StreamState } from '../../../api/event-stream';

const WORDS: Record<StreamState, string> = { connecting: 'Connecting…', live: 'Live: new events appear at the end.', reconnecting: 'Reconnecting…', stopped: '' };

/** The live tail's switch and, while on, its connection state in words. */
export function LiveTailToggle({ on, state, disabledReason, onChange }: { on: boolean; state: StreamState; disabledReason?: string; onChange: (on: boolean) => void }) {
  return (
    <div className="live-tail">
      <label className="check">
        <input type="checkbox" checked={on} disabled={Boolean(disabledReason)} aria-describedby="live-tail-state" onChange={(event) => onChange(event.target.checked)} />
        Live tail
      </label>
      <span id="live-tail-state" className="live muted" role="status">
        {disabledReason ?? (on ? WORDS[state] : '')}
      </span>
    </div>
  );
}
