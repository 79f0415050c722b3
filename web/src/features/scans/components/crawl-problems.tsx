import type { CrawlProblem } from '../api/use-scans';
import { reasonText } from '../lib/crawl-problem-reasons';


/** The links and pages a completed scan could not use, and why (the API's first 20). */
export function CrawlProblems({ problems }: { problems: CrawlProblem[] }) {
  if (problems.length === 0) return null;
  return (
    <section aria-labelledby="crawl-problems-heading">
      <h3 id="crawl-problems-heading">Pages not audited ({problems.length})</h3>
      <ul>
        {problems.map((problem) => (
          <li key={`${problem.url} ${problem.reason}`} className="wrap-anywhere">
            <code>{problem.url}</code>: {reasonText(problem.reason)}
            {problem.detail && <span className="muted"> ({problem.detail})</span>}
          </li>
        ))}
      </ul>
    </section>
  );
}
