// The wire shapes of the governance API's request bodies, zod only: a label definition (gw\'s documented {name, values}),
// the labels applied to an API, and a token to issue. Objects are strict: an unknown field is refused by name, so a
// typo (`value` for `values`) cannot silently turn a predefined label into free text.
import { z } from 'zod';
import { labelKeyOf } from './label-key.ts';

export const LABEL_NAME_MAX = 100;
export const LABEL_VALUE_MAX = 256;
export const LABEL_VALUES_MAX = 500;

const labelValue = z
  .string({ error: 'must be a string' })
  .trim()
  .min(1, { message: 'must not be empty', abort: true })
  .max(LABEL_VALUE_MAX, `must be at most ${LABEL_VALUE_MAX} characters`);

/** POST /api/labels and PUT /api/labels/{id}: `values` empty or absent makes a free-text label. */
export const LabelBody = z.strictObject({
  name: z
    .string({ error: 'is required: a string' })
    .trim()
    .min(1, { message: 'must not be empty', abort: true })
    .max(LABEL_NAME_MAX, `must be at most ${LABEL_NAME_MAX} characters`)
    .refine((name) => labelKeyOf(name) !== '', 'must contain a letter or a digit'),
  values: z
    .array(labelValue, { error: 'must be a list of strings' })
    .max(LABEL_VALUES_MAX, `must hold at most ${LABEL_VALUES_MAX} values`)
    .nullish()
    .transform((values) => values ?? [])
    .superRefine((values, context) => {
      const seen = new Set<string>();
      values.forEach((value, index) => {
        if (seen.has(value.toLowerCase())) context.addIssue({ code: 'custom', path: [index], message: `"${value}" is listed twice` });
        seen.add(value.toLowerCase());
      });
    }),
});
export type LabelBody = z.output<typeof LabelBody>;

/** PUT and PATCH /api/{api-id}/labels: label name or key -> value; null (PATCH) removes the label from the API. */
export const ApiLabelsBody = z.strictObject({
  labels: z.record(z.string(), labelValue.nullable(), { error: 'is required: an object of label name -> value' }),
});
export type ApiLabelsBody = z.output<typeof ApiLabelsBody>;

export const TOKEN_ROLES = ['admin', 'member'] as const;
export type TokenRole = (typeof TOKEN_ROLES)[number];

/** POST /api/tokens (and `gw governance token create`). */
export const TokenBody = z.strictObject({
  name: z.string({ error: 'is required: a string' }).trim().min(1, 'must not be empty').max(LABEL_NAME_MAX, `must be at most ${LABEL_NAME_MAX} characters`),
  role: z.enum(TOKEN_ROLES, { error: (issue) => (issue.input === undefined ? 'is required: admin or member' : 'must be admin or member') }),
});
export type TokenBody = z.output<typeof TokenBody>;
