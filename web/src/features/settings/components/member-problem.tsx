import { ProblemMessage } from '../../../components/problem-message';
import { memberConflictMessage } from '../api/members';

/** A failed members change in words: the refusals we can explain (last admin, taken email) plainly, others as the API said. */
export function MemberProblem({ error }: { error: unknown }) {
  const words = memberConflictMessage(error);
  if (!words) return <ProblemMessage error={error} />;
  return (
    <div className="problem" role="alert">
      <p>{words}</p>
    </div>
  );
}
