import { execFileSync } from 'node:child_process';
import { cpus, loadavg, totalmem } from 'node:os';
import type { MachineInfo } from './results';

export function machineInfo(): MachineInfo {
  const cores = cpus();
  return {
    node: process.version,
    platform: process.platform,
    arch: process.arch,
    cpus: cores.length,
    cpuModel: cores[0]?.model.trim() ?? 'unknown',
    memoryGb: totalmem() / 1024 ** 3,
    loadAverage: loadavg(),
  };
}

/** The commit measured, marked `-dirty` when the worktree has uncommitted changes. */
export function gitCommit(): string {
  try {
    const commit = execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], { encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { encoding: 'utf8' }).trim().length > 0;
    return dirty ? `${commit}-dirty` : commit;
  } catch {
    return 'unknown';
  }
}
