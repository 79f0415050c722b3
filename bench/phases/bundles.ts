import { measureBundles } from '../bundles';
import type { BenchConfig } from '../config';
import { benchFunctions } from '../functions';
import type { BundleReport } from '../results';

export function run(config: BenchConfig): Promise<BundleReport> {
  return measureBundles(benchFunctions(), config.initRuns, config.initNode);
}
