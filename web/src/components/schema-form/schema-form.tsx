import type { Field } from '../../lib/schema-form/fields';
import type { FormErrors, FormValue, FormValues } from '../../lib/schema-form/values';
import { SchemaField } from './schema-field';

interface SchemaFormProps {
  fields: Field[];
  values: FormValues;
  errors: FormErrors;
  onChange: (path: string, value: FormValue) => void;
}

/** The controls of a form generated from a JSON Schema (the caller owns the <form> and its buttons). */
export function SchemaFields({ fields, values, errors, onChange }: SchemaFormProps) {
  if (!fields.length) return <p className="muted">This task type takes no input.</p>;
  return (
    <>
      {fields.map((field) => (
        <SchemaField key={field.path} field={field} values={values} errors={errors} onChange={onChange} />
      ))}
    </>
  );
}
