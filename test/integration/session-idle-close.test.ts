import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { documentClient, tableName } from '#shared/adapters/dynamodb/client';
import { scheduleKeys } from '#shared/adapters/scheduler/schedule-keys';
import type { Clock } from '#shared/domain/clock';
import { idleCloseSchedule } from '#shared/domain/session-schedule';
import { createSession } from '#shared/services/session-creation';
import { closeIfIdle } from '#shared/services/session-idle-close';
import { postMessage } from '#shared/services/session-messages';
import { getSession } from '#shared/services/sessions';
import { deployAgent } from '#shared/services/agents';
import { provisionForTest, uniqueTenant } from '../support/provisioned';

const T0 = Date.parse('2031-04-01T09:00:00.000Z');
const at = (minutes: number): Clock => ({ now: () => new Date(T0 + minutes * 60_000) });
const principal = { type: 'api_key' as const, id: 'key_test' };

async function scheduleExists(name: string): Promise<boolean> {
  const { Item } = await documentClient().send(new GetCommand({ TableName: tableName(), Key: scheduleKeys.schedule(name), ConsistentRead: true }));
  return Item !== undefined;
}

describe('a session closes itself when idle (the idle-close schedule target)', () => {
  beforeAll(async () => {
    await provisionForTest('idle');
  });

  it('schedules the close at creation, pushes it past later activity, then closes with idle_timeout', async () => {
    const tenant = uniqueTenant();
    await deployAgent(tenant, { agent_slug: 'sales' });
    const session = await createSession(tenant, { agent: 'sales', metadata: {}, idle_timeout_minutes: 10 }, at(0));
    expect(await scheduleExists(idleCloseSchedule(session, new Date(T0 + 10 * 60_000)).name)).toBe(true);

    // Early or doubled fires find the deadline ahead and leave the session open.
    expect(await closeIfIdle(tenant, session.session_id, at(5))).toBe('rescheduled');
    await postMessage(tenant, principal, session.session_id, { content: 'still here', priority: 'normal' }, at(8));
    expect(await closeIfIdle(tenant, session.session_id, at(10))).toBe('rescheduled');
    expect((await getSession(tenant, session.session_id)).status).toBe('open');
    expect(await scheduleExists(idleCloseSchedule(session, new Date(T0 + 18 * 60_000)).name)).toBe(true);

    expect(await closeIfIdle(tenant, session.session_id, at(18))).toBe('closed');
    const closed = await getSession(tenant, session.session_id);
    expect(closed).toMatchObject({ status: 'closed', close_reason: 'idle_timeout', closed_at: new Date(T0 + 18 * 60_000).toISOString() });
    // A late or repeated fire changes nothing more.
    expect(await closeIfIdle(tenant, session.session_id, at(30))).toBe('not_open');
    expect(await getSession(tenant, session.session_id)).toEqual(closed);
  });

  it('does nothing for a session that does not exist', async () => {
    expect(await closeIfIdle(uniqueTenant(), 'ses_01jzzzzzzzzzzzzzzzzzzzzzzz', at(0))).toBe('gone');
  });
});
