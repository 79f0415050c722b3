import { Fragment } from 'react';
import { JsonView } from '../../../components/json-view';
import type { ApprovalAction } from '../lib/action-fields';

/** What the approval will execute: an email as an email, any other action as its fields. */
export function ActionView({ action, label = 'Action' }: { action: ApprovalAction; label?: string }) {
  const { type, to, subject, body, ...rest } = action;
  if (typeof body !== 'string') {
    return (
      <div>
        <p>
          <span className="muted">{label}: </span>
          <code>{type}</code>
        </p>
        <JsonView value={action} label={`${label} (${type})`} />
      </div>
    );
  }
  return (
    <div className="email" role="group" aria-label={`${label}: ${type}`}>
      <dl className="facts">
        <dt>Action</dt>
        <dd>
          <code>{type}</code>
        </dd>
        {typeof to === 'string' && (
          <>
            <dt>To</dt>
            <dd>{to}</dd>
          </>
        )}
        {typeof subject === 'string' && (
          <>
            <dt>Subject</dt>
            <dd>{subject}</dd>
          </>
        )}
        {Object.entries(rest).map(([key, value]) => (
          <Fragment key={key}>
            <dt>{key}</dt>
            <dd>{typeof value === 'string' ? value : JSON.stringify(value)}</dd>
          </Fragment>
        ))}
      </dl>
      <div className="email-body">{body}</div>
    </div>
  );
}
