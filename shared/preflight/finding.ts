/**
 * One check's conclusion. `blocker`: the deploy fails or the stack cannot work until it is dealt
 * with; `request`: something to ask AWS for, the deploy works meanwhile; `note`: what to know or do
 * after the deploy; `pass`: nothing to do; `unchecked`: the call failed, so nothing is known.
 */
export type Verdict = 'pass' | 'note' | 'request' | 'blocker' | 'unchecked';

export type CheckName = 'lambda-concurrency' | 'ses-sending' | 'inbound-mail' | 'cloudfront';

export interface Finding {
  check: CheckName;
  verdict: Verdict;
  /** What was found, in one sentence with its figures. */
  summary: string;
  /** What to do about it, when anything. */
  action?: string;
  /** The command that does it, exactly as it is to be typed. */
  command?: string;
}

/** The IAM action each check's call needs: docs/deploying.md lists them for the preflight's credentials. */
export const CHECK_ACTIONS: Readonly<Record<CheckName, string | undefined>> = {
  'lambda-concurrency': 'lambda:GetAccountSettings',
  'ses-sending': 'ses:GetAccount',
  'inbound-mail': undefined,
  cloudfront: 'cloudfront:ListDistributions',
};

/** A finding for a call that failed: what failed, and the action the credentials may lack. */
export function uncheckedFinding(check: CheckName, what: string, error: { name: string; message: string }): Finding {
  const action = CHECK_ACTIONS[check];
  const summary = `Could not read ${what}: ${error.name}: ${error.message}`;
  if (error.name === 'CredentialsProviderError') return { check, verdict: 'unchecked', summary, action: 'Give the preflight the credentials you deploy with (--profile, or AWS_PROFILE).' };
  return { check, verdict: 'unchecked', summary, action: action ? `Run the preflight with credentials allowed ${action} (docs/deploying.md), or check this by hand.` : undefined };
}
