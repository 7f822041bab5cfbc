// Rate limit, quota and throttling inputs, the same six on a policy and on each API it grants (Tyk's
// `access_rights[id].limit`): each labelled (with the API's name when per API) and its refusal shown beside it.
import { LIMIT_FIELDS, type LimitField, type LimitInputs } from '../policy-form.ts';
import { Field } from './field.tsx';

const LABELS: Record<LimitField, string> = {
  rate: 'Rate (requests)',
  per: 'Per (seconds)',
  quota_max: 'Quota (requests)',
  quota_renewal_rate: 'Quota renews every (seconds)',
  throttle_interval: 'Throttle retry interval (seconds)',
  throttle_retry_limit: 'Throttle retry limit',
};

const HINTS: Partial<Record<LimitField, string>> = {
  quota_max: '-1: unlimited',
  throttle_retry_limit: 'Retries before 429; empty or -1: no throttling',
};

export interface LimitInputsProps {
  /** Unique id prefix of the inputs. */
  idPrefix: string;
  /** Put before each label (an API's name), or '' for the policy's own limits. */
  labelPrefix: string;
  value: LimitInputs;
  disabled: boolean;
  onChange: (value: LimitInputs) => void;
  errorOf: (field: LimitField) => string | undefined;
}

export function LimitInputsFields({ idPrefix, labelPrefix, value, disabled, onChange, errorOf }: LimitInputsProps) {
  return (
    <div class="limit-grid">
      {LIMIT_FIELDS.map((field) => {
        const id = `${idPrefix}-${field.replace(/_/g, '-')}`;
        return (
          <Field key={field} id={id} label={`${labelPrefix}${LABELS[field]}`} hint={HINTS[field]} error={errorOf(field)}>
            {(d, invalid) => (
              <input
                id={id}
                inputMode="numeric"
                value={value[field]}
                disabled={disabled}
                aria-describedby={d}
                aria-invalid={invalid}
                onInput={(e) => onChange({ ...value, [field]: e.currentTarget.value })}
              />
            )}
          </Field>
        );
      })}
    </div>
  );
}
