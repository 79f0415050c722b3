interface EmailDraft {
  to?: string;
  subject?: string;
  body?: string;
  tone?: string;
}

/** A drafted email as an email: To, Subject, then the body as written. */
export function EmailDraftView({ draft }: { draft: EmailDraft }) {
  return (
    <article className="email" aria-label={`Email draft: ${draft.subject ?? ''}`}>
      <dl className="facts">
        <dt>To</dt>
        <dd>{draft.to}</dd>
        <dt>Subject</dt>
        <dd>{draft.subject}</dd>
        {draft.tone && (
          <>
            <dt>Tone</dt>
            <dd>{draft.tone}</dd>
          </>
        )}
      </dl>
      <div className="email-body">{draft.body}</div>
    </article>
  );
}
