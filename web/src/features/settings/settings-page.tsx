import * as Tabs from '@radix-ui/react-tabs';
import { useSearchParams } from 'react-router';
import { Page } from '../../components/page';
import { ApiKeysPanel } from './components/api-keys-panel';
import { MembersPanel } from './components/members-panel';
import { RetentionPanel } from './components/retention-panel';
import { UsagePanel } from './components/usage-panel';

const TABS = [
  { value: 'api-keys', label: 'API keys', panel: <ApiKeysPanel /> },
  { value: 'members', label: 'Members', panel: <MembersPanel /> },
  { value: 'retention', label: 'Data retention', panel: <RetentionPanel /> },
  { value: 'usage', label: 'Usage', panel: <UsagePanel /> },
];

/** Settings: `API keys`, `Members`, `Data retention` and `Usage` as tabs; the open tab is in the URL. */
export function SettingsPage() {
  const [params, setParams] = useSearchParams();
  const tab = TABS.some((item) => item.value === params.get('tab')) ? (params.get('tab') as string) : 'api-keys';
  return (
    <Page title="Settings" intro="Your tenant's API keys, members, data retention and usage.">
      <Tabs.Root value={tab} onValueChange={(value) => setParams({ tab: value }, { replace: true })} activationMode="manual">
        <Tabs.List className="tabs" aria-label="Settings sections">
          {TABS.map((item) => (
            <Tabs.Trigger key={item.value} value={item.value} className="tab">
              {item.label}
            </Tabs.Trigger>
          ))}
        </Tabs.List>
        {TABS.map((item) => (
          <Tabs.Content key={item.value} value={item.value} className="tab-panel">
            {item.panel}
          </Tabs.Content>
        ))}
      </Tabs.Root>
    </Page>
  );
}
