import { useMe } from '../api/me';
import { CopyableId } from './copyable-id';

const KINDS: Record<string, string> = { user: 'Person', api_key: 'API key', chat: 'Chat user' };

/** Who did something (`{type, id}`): its kind in words, its copyable id, and "you" when it is the viewer. */
export function Principal({ principal }: { principal: { type: string; id: string } | null | undefined }) {
  const me = useMe();
  if (!principal) return <span className="muted">Outside the API</span>;
  const kind = KINDS[principal.type] ?? principal.type;
  return (
    <span className="principal">
      {kind} <CopyableId value={principal.id} label={`${kind.toLowerCase()} id`} />
      {me.data?.principal.id === principal.id && <strong> (you)</strong>}
    </span>
  );
}
