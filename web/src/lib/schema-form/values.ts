import type { Field, JsonSchema } from './fields';

/** What the form holds per field path: text as typed, a checkbox, or the chosen options. */
export type FormValue = string | boolean | string[];
export type FormValues = Record<string, FormValue>;
export type FormErrors = Record<string, string>;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function stringProblem(text: string, schema: JsonSchema): string | undefined {
  if (typeof schema.minLength === 'number' && text.length < schema.minLength) return `Use at least ${schema.minLength} characters.`;
  if (typeof schema.maxLength === 'number' && text.length > schema.maxLength) return `Use at most ${schema.maxLength} characters.`;
  if (Array.isArray(schema.enum) && !schema.enum.includes(text)) return `Choose one of: ${schema.enum.join(', ')}.`;
  if (typeof schema.pattern === 'string' && !new RegExp(schema.pattern, 'u').test(text)) return `Does not match the expected form (${schema.pattern}).`;
  if (schema.format === 'email' && !EMAIL.test(text)) return 'Enter an email address.';
  if (schema.format === 'date-time' && Number.isNaN(Date.parse(text))) return 'Enter a date and time (2025-03-01T09:00:00Z).';
  return undefined;
}

function numberProblem(value: number, schema: JsonSchema, integer: boolean): string | undefined {
  if (integer && !Number.isInteger(value)) return 'Enter a whole number.';
  if (typeof schema.minimum === 'number' && value < schema.minimum) return `Enter ${schema.minimum} or more.`;
  if (typeof schema.maximum === 'number' && value > schema.maximum) return `Enter ${schema.maximum} or less.`;
  return undefined;
}

function listProblem(items: string[], schema: JsonSchema): string | undefined {
  if (typeof schema.minItems === 'number' && items.length < schema.minItems) return `Give at least ${schema.minItems}.`;
  if (typeof schema.maxItems === 'number' && items.length > schema.maxItems) return `Give at most ${schema.maxItems}.`;
  for (const item of items) {
    const problem = stringProblem(item, (schema.items ?? {}) as JsonSchema);
    if (problem) return `"${item}": ${problem}`;
  }
  return undefined;
}

/** Whether anything was entered in a field under `path` (a checkbox ticked, text typed, an option chosen). */
function filledWithin(path: string, values: FormValues): boolean {
  return Object.entries(values).some(([key, value]) => key.startsWith(`${path}.`) && (value === true || (typeof value === 'string' ? value.trim() !== '' : Array.isArray(value) && value.length > 0)));
}

/** One field's value for the input (undefined: leave it out), or the reason it is not valid. */
function valueOf(field: Field, values: FormValues, errors: FormErrors): unknown {
  const raw = values[field.path];
  const fail = (message: string) => void (errors[field.path] = message);
  switch (field.kind) {
    case 'object': {
      // An optional object left blank is left out: its own required fields apply only once it is given.
      if (!field.required && !filledWithin(field.path, values)) return undefined;
      const built = buildObject(field.fields, values, errors);
      return Object.keys(built).length || field.required ? built : undefined;
    }
    case 'boolean':
      return raw === true ? true : field.required ? false : undefined;
    case 'string-list': {
      const items = Array.isArray(raw) ? raw : typeof raw === 'string' ? raw.split('\n').map((line) => line.trim()).filter(Boolean) : [];
      if (!items.length) return field.required ? fail('Required.') : undefined;
      const problem = listProblem(items, field.schema);
      return problem ? fail(problem) : items;
    }
    default: {
      const text = typeof raw === 'string' ? raw.trim() : '';
      if (!text) return field.required ? fail('Required.') : undefined;
      if (field.kind === 'string') {
        const problem = stringProblem(text, field.schema);
        return problem ? fail(problem) : text;
      }
      if (field.kind === 'number' || field.kind === 'integer') {
        const number = Number(text);
        if (!Number.isFinite(number)) return fail('Enter a number.');
        const problem = numberProblem(number, field.schema, field.kind === 'integer');
        return problem ? fail(problem) : number;
      }
      if (field.kind !== 'json') return text;
      try {
        const parsed: unknown = JSON.parse(text);
        if (field.expects === 'array' && !Array.isArray(parsed)) return fail('Enter a JSON array ([...]).');
        if (field.expects === 'object' && (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))) return fail('Enter a JSON object ({...}).');
        if (Array.isArray(parsed)) {
          const problem = listCountProblem(parsed, field.schema);
          if (problem) return fail(problem);
        }
        return parsed;
      } catch {
        return fail('Not valid JSON.');
      }
    }
  }
}

function listCountProblem(items: unknown[], schema: JsonSchema): string | undefined {
  if (typeof schema.minItems === 'number' && items.length < schema.minItems) return `Give at least ${schema.minItems}.`;
  if (typeof schema.maxItems === 'number' && items.length > schema.maxItems) return `Give at most ${schema.maxItems}.`;
  return undefined;
}

function buildObject(fields: Field[], values: FormValues, errors: FormErrors): Record<string, unknown> {
  const built: Record<string, unknown> = {};
  for (const field of fields) {
    const value = valueOf(field, values, errors);
    if (value !== undefined) built[field.path.split('.').pop()!] = value;
  }
  return built;
}

/** The task input the form describes, and every field's complaint (empty when it may be sent). */
export function buildInput(fields: Field[], values: FormValues): { input: Record<string, unknown>; errors: FormErrors } {
  const errors: FormErrors = {};
  const input = buildObject(fields, values, errors);
  return { input, errors };
}

/** The form's values for an input (the schema's example, or defaults), the inverse of buildInput. */
export function valuesFrom(fields: Field[], input: Record<string, unknown> = {}): FormValues {
  const values: FormValues = {};
  for (const field of fields) {
    const name = field.path.split('.').pop()!;
    const value = input[name] ?? field.schema.default;
    if (field.kind === 'object') Object.assign(values, valuesFrom(field.fields, (value ?? {}) as Record<string, unknown>));
    else if (field.kind === 'boolean') values[field.path] = value === true;
    else if (field.kind === 'string-list') values[field.path] = field.options ? ((value as string[] | undefined) ?? []) : ((value as string[] | undefined) ?? []).join('\n');
    else if (field.kind === 'json') values[field.path] = value === undefined ? '' : JSON.stringify(value, null, 2);
    else values[field.path] = value === undefined ? '' : String(value);
  }
  return values;
}
