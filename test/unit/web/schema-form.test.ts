import { describe, expect, it } from 'vitest';
import { builtInManifests } from '#shared/agents/manifests';
import { fieldsOf } from '../../../web/src/lib/schema-form/fields';
import { buildInput, valuesFrom } from '../../../web/src/lib/schema-form/values';

const schema = {
  type: 'object',
  required: ['scope', 'product'],
  properties: {
    scope: { type: 'string', enum: ['full', 'quick'] },
    limit: { type: 'integer', minimum: 1, maximum: 100, default: 25 },
    ratio: { type: 'number' },
    urgent: { type: 'boolean', default: false },
    signals: { type: 'array', maxItems: 2, items: { type: 'string', enum: ['hiring', 'funding', 'expansion'] } },
    countries: { type: 'array', items: { type: 'string', pattern: '^[A-Za-z]{2}$' } },
    product: { type: 'object', required: ['name'], properties: { name: { type: 'string', minLength: 1 }, email: { type: 'string', format: 'email' } } },
    questions: { type: 'array', minItems: 1, items: { type: 'object', properties: { id: { type: 'string' } } } },
  },
};

describe('forms generated from an input JSON Schema', () => {
  it('makes a field of the right kind for each property, with required marks and nested objects', () => {
    const fields = fieldsOf(schema);

    expect(fields.map((field) => [field.path, field.kind, field.required])).toEqual([
      ['scope', 'string', true],
      ['limit', 'integer', false],
      ['ratio', 'number', false],
      ['urgent', 'boolean', false],
      ['signals', 'string-list', false],
      ['countries', 'string-list', false],
      ['product', 'object', true],
      ['questions', 'json', false],
    ]);
    expect(fields[6].kind === 'object' && fields[6].fields.map((field) => field.path)).toEqual(['product.name', 'product.email']);
    expect(fields[0].label).toBe('Scope');
  });

  it('builds the input from valid values, leaving out what was not filled in', () => {
    const fields = fieldsOf(schema);
    const values = { ...valuesFrom(fields), scope: 'full', signals: ['hiring'], countries: 'DE\n at \n', 'product.name': 'Gatehouse', questions: '[{"id":"Q1"}]' };

    const { input, errors } = buildInput(fields, values);

    expect(errors).toEqual({});
    expect(input).toEqual({ scope: 'full', limit: 25, signals: ['hiring'], countries: ['DE', 'at'], product: { name: 'Gatehouse' }, questions: [{ id: 'Q1' }] });
  });

  it('leaves out an optional object left blank, and asks for its required fields once any is given', () => {
    const invoice = { type: 'object', required: ['amount'], properties: { amount: { type: 'number' }, purchase_order: { type: 'object', required: ['number', 'amount'], properties: { number: { type: 'string' }, amount: { type: 'number' } } } } };
    const fields = fieldsOf(invoice);

    expect(buildInput(fields, { amount: '12' })).toEqual({ input: { amount: 12 }, errors: {} });
    expect(buildInput(fields, { amount: '12', 'purchase_order.number': 'PO-1' })).toEqual({ input: { amount: 12, purchase_order: { number: 'PO-1' } }, errors: { 'purchase_order.amount': 'Required.' } });
  });

  it('checks values the way the schema does and names the field of each complaint', () => {
    const fields = fieldsOf(schema);
    const values = { ...valuesFrom(fields), limit: '0', ratio: 'many', signals: ['hiring', 'funding', 'expansion'], countries: 'DEU', 'product.email': 'nobody', questions: '{"id":1}' };

    const { errors } = buildInput(fields, values);

    expect(errors).toEqual({
      scope: 'Required.',
      limit: 'Enter 1 or more.',
      ratio: 'Enter a number.',
      signals: 'Give at most 2.',
      countries: expect.stringContaining('"DEU"'),
      'product.name': 'Required.',
      'product.email': 'Enter an email address.',
      questions: 'Enter a JSON array ([...]).',
    });
  });

  it("round-trips every built-in task type's example through the form unchanged", () => {
    for (const manifest of builtInManifests) {
      for (const taskType of manifest.task_types) {
        const example = (taskType.input_schema.examples as Record<string, unknown>[])[0];
        const fields = fieldsOf(taskType.input_schema);

        const { input, errors } = buildInput(fields, valuesFrom(fields, example));

        expect(errors, taskType.task_type).toEqual({});
        expect(input, taskType.task_type).toEqual(expect.objectContaining(example));
      }
    }
  });
});
