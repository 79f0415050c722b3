/**
 * AWS's CloudFormation linter (cfn-lint, `pip install cfn-lint`) over synthesized templates, for
 * one region at a time: it knows which resource types and properties each region has.
 */
import { execFile, spawnSync } from 'node:child_process';
import { dirname } from 'node:path';

/**
 * The warning classes the templates may have, each with why; docs/deploying.md ("Checked before it
 * deploys") lists the same (test/unit/docs/deploying.test.ts checks). Any other warning fails the test.
 */
export const ACCEPTED_LINT_WARNINGS: Readonly<Record<string, string>> = {
  W3005: "CDK writes a DependsOn on each function's role and its default policy, though the function already references the role (Fn::GetAtt): redundant for ordering, harmless, and CDK's to write, not ours.",
};

export interface LintFinding {
  level: 'Error' | 'Warning' | 'Informational';
  rule: string;
  file: string;
  line: number;
  message: string;
}

/** The installed cfn-lint's version, or undefined when it is not on PATH. */
export function cfnLintVersion(): string | undefined {
  const result = spawnSync('cfn-lint', ['--version'], { encoding: 'utf8' });
  return result.status === 0 ? result.stdout.trim() : undefined;
}

interface RawFinding {
  Filename: string;
  Level: LintFinding['level'];
  Location: { Start: { LineNumber: number } };
  Message: string;
  Rule: { Id: string };
}

/** Every finding of cfn-lint over `templates` as deployed in `region`. */
export function lintTemplates(templates: readonly string[], region: string): Promise<LintFinding[]> {
  return new Promise((resolve, reject) => {
    // Exit codes encode the worst level found; the JSON on stdout is the answer either way.
    execFile('cfn-lint', ['--regions', region, '--format', 'json', '--non-zero-exit-code', 'none', '--', ...templates], { cwd: dirname(templates[0]), maxBuffer: 64 * 1024 * 1024, timeout: 600_000 }, (error, stdout, stderr) => {
      if (error) return reject(new Error(`cfn-lint failed in ${region}: ${error.message}\n${stderr}`));
      try {
        const raw = JSON.parse(stdout) as RawFinding[];
        resolve(raw.map((finding) => ({ level: finding.Level, rule: finding.Rule.Id, file: finding.Filename, line: finding.Location.Start.LineNumber, message: finding.Message })));
      } catch {
        reject(new Error(`cfn-lint answered no JSON in ${region}:\n${stdout.slice(0, 2000)}\n${stderr}`));
      }
    });
  });
}

/** The findings a deploy must not have: every error, and each warning of a class not accepted above. */
export function unacceptedFindings(findings: readonly LintFinding[]): LintFinding[] {
  return findings.filter((finding) => finding.level === 'Error' || (finding.level === 'Warning' && !(finding.rule in ACCEPTED_LINT_WARNINGS)));
}
