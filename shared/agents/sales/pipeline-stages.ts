/**
 * The stages of the sales pipeline, on their own: the manifest's input schema lists them, and API
 * routes that read manifests must not pull the pipeline report, which brings the lead source and its
 * sample data, built at every cold start (its size: docs/benchmarks.md).
 */
export const pipelineStages = ['contacted', 'engaged', 'meeting', 'proposal', 'won', 'lost'] as const;

export type PipelineStage = (typeof pipelineStages)[number];
