import type { Field } from '../../lib/schema-form/fields';
import type { FormErrors, FormValue, FormValues } from '../../lib/schema-form/values';

interface FieldProps {
  field: Field;
  values: FormValues;
  errors: FormErrors;
  onChange: (path: string, value: FormValue) => void;
}

const idOf = (path: string) => `field-${path.replace(/[^A-Za-z0-9_-]/g, '-')}`;

function RequiredMark({ required }: { required: boolean }) {
  if (!required) return null;
  return (
    <>
      {' '}
      <span className="required-mark" aria-hidden="true">
        *
      </span>
      <span className="visually-hidden">(required)</span>
    </>
  );
}

function Hint({ id, text }: { id: string; text?: string }) {
  return text ? (
    <span id={id} className="field-hint">
      {text}
    </span>
  ) : null;
}

function ErrorText({ id, text }: { id: string; text?: string }) {
  return text ? (
    <span id={id} className="field-error">
      {text}
    </span>
  ) : null;
}

/** One field of a schema form: a labelled control, its description, and its error next to it. */
export function SchemaField({ field, values, errors, onChange }: FieldProps) {
  const id = idOf(field.path);
  const error = errors[field.path];
  const hint = [field.description, field.kind === 'string-list' && !field.options ? 'One per line.' : '', field.kind === 'json' ? `JSON ${field.expects === 'array' ? 'array' : 'value'}.` : ''].filter(Boolean).join(' ');
  const described = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  const common = { id, 'aria-describedby': described, 'aria-invalid': error ? true : undefined, 'aria-required': field.required || undefined };
  const value = values[field.path];

  if (field.kind === 'object' || (field.kind === 'string-list' && field.options)) {
    return (
      <fieldset aria-describedby={described}>
        <legend>
          {field.label}
          <RequiredMark required={field.required} />
        </legend>
        <Hint id={`${id}-hint`} text={hint} />
        {field.kind === 'object'
          ? field.fields.map((child) => <SchemaField key={child.path} field={child} values={values} errors={errors} onChange={onChange} />)
          : field.options!.map((option) => {
              const chosen = Array.isArray(value) ? value : [];
              return (
                <label key={option} className="check">
                  <input type="checkbox" checked={chosen.includes(option)} onChange={(event) => onChange(field.path, event.target.checked ? [...chosen, option] : chosen.filter((item) => item !== option))} />
                  {option.replace(/_/g, ' ')}
                </label>
              );
            })}
        <ErrorText id={`${id}-error`} text={error} />
      </fieldset>
    );
  }

  if (field.kind === 'boolean') {
    return (
      <div className="field">
        <label className="check" htmlFor={id}>
          <input type="checkbox" {...common} checked={value === true} onChange={(event) => onChange(field.path, event.target.checked)} />
          {field.label}
          <RequiredMark required={field.required} />
        </label>
        <Hint id={`${id}-hint`} text={hint} />
        <ErrorText id={`${id}-error`} text={error} />
      </div>
    );
  }

  const text = typeof value === 'string' ? value : '';
  const change = (next: string) => onChange(field.path, next);
  let control;
  if (field.kind === 'string' && field.options) {
    control = (
      <select {...common} value={text} onChange={(event) => change(event.target.value)}>
        <option value="">{field.required ? 'Choose…' : '(none)'}</option>
        {field.options.map((option) => (
          <option key={option} value={option}>
            {option.replace(/_/g, ' ')}
          </option>
        ))}
      </select>
    );
  } else if (field.kind === 'json' || field.kind === 'string-list' || (field.kind === 'string' && Number(field.schema.maxLength ?? 0) > 300)) {
    control = <textarea {...common} value={text} spellCheck={field.kind !== 'json'} onChange={(event) => change(event.target.value)} />;
  } else {
    const type = field.kind === 'number' || field.kind === 'integer' ? 'number' : field.schema.format === 'email' ? 'email' : 'text';
    control = <input {...common} type={type} step={field.kind === 'integer' ? 1 : field.kind === 'number' ? 'any' : undefined} value={text} onChange={(event) => change(event.target.value)} />;
  }
  return (
    <div className="field">
      <label htmlFor={id}>
        {field.label}
        <RequiredMark required={field.required} />
      </label>
      {control}
      <Hint id={`${id}-hint`} text={hint} />
      <ErrorText id={`${id}-error`} text={error} />
    </div>
  );
}
