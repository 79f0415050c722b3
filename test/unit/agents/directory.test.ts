import { describe, expect, it } from 'vitest';
import { BUILT_IN_AGENTS, canonicalAgentFilter, findAgentListing } from '#shared/agents/directory';
import { builtInManifests, findManifestBySlug } from '#shared/agents/manifests';

describe('the agent directory', () => {
  it('lists every built-in agent with its manifest’s slug, aliases and task types, in the same order', () => {
    expect(BUILT_IN_AGENTS.map(({ slug, aliases, task_types }) => ({ slug, aliases: [...aliases], task_types: [...task_types] }))).toEqual(
      builtInManifests.map((manifest) => ({ slug: manifest.slug, aliases: manifest.aliases, task_types: manifest.task_types.map((taskType) => taskType.task_type) })),
    );
  });

  it('resolves a slug or an alias to the canonical slug, and nothing else', () => {
    expect(findAgentListing('ai-readiness')?.slug).toBe('ai-readiness-agent');
    expect(findAgentListing('ai-readiness-agent')?.slug).toBe('ai-readiness-agent');
    expect(findAgentListing('sales')?.slug).toBe('sales');
    expect(findAgentListing('ai_readiness')).toBeUndefined();
    expect(findManifestBySlug('ai-readiness')?.slug).toBe('ai-readiness-agent');
  });

  it('turns an alias in a listing filter into its slug and keeps an unknown name, which matches nothing', () => {
    expect(canonicalAgentFilter('ai-readiness')).toBe('ai-readiness-agent');
    expect(canonicalAgentFilter('no-such-agent')).toBe('no-such-agent');
  });
});
