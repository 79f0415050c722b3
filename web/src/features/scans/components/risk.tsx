/** A risk score and level in words: "72 of 100, high". The colour repeats the level, never replaces it. */
export function Risk({ score, level }: { score?: number | null; level?: string | null }) {
  if (score === undefined || score === null || !level) return <span className="muted">not scored yet</span>;
  return (
    <span className={`risk risk-${level}`}>
      <strong>{score}</strong> of 100, {level}
    </span>
  );
}
