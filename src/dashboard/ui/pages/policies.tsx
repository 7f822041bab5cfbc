// Security policies: the list with each policy's state under gw's documented UI labels (Active, Draft, Access
// Denied), its rate limit, quota and key expiry; each name links to the policy's page (policy-edit.tsx), where it
// is edited and deleted, and "Create policy" opens the form for a new one.
import { useEffect, useState } from 'preact/hooks';
import { call } from '../api-client.ts';
import { Problem } from '../parts/problem.tsx';
import { href } from '../router.ts';
import { mayWrite, operatorManaged, type SessionView } from '../session.ts';

export const STATE_LABELS: Record<string, string> = { active: 'Active', draft: 'Draft', deny: 'Access Denied' };

export const EXPIRY_CHOICES: { seconds: number; label: string }[] = [
  { seconds: 0, label: 'Never' },
  { seconds: 3600, label: '1 hour' },
  { seconds: 86_400, label: '24 hours' },
  { seconds: 7 * 86_400, label: '7 days' },
  { seconds: 30 * 86_400, label: '30 days' },
  { seconds: 365 * 86_400, label: '1 year' },
];

interface StoredPolicy {
  id: string;
  name: string;
  state?: string;
  rate?: number;
  per?: number;
  quota_max?: number;
  quota_renewal_rate?: number;
  key_expires_in?: number;
  tags?: string[];
}

const quotaText = (p: StoredPolicy): string =>
  p.quota_max === undefined || p.quota_max < 0 ? 'unlimited' : `${p.quota_max} per ${p.quota_renewal_rate ?? 0} s`;

export function PoliciesPage({ session }: { session: SessionView }) {
  const [policies, setPolicies] = useState<StoredPolicy[] | undefined>();
  const [error, setError] = useState<unknown>();

  useEffect(() => {
    call<{ Data: StoredPolicy[] }>('GET', '/api/portal/policies?p=-2').then(
      ({ data }) => setPolicies(data.Data),
      (e: unknown) => setError(e),
    );
  }, []);

  if (error) return <Problem error={error} what="list the policies" />;
  return (
    <section aria-labelledby="policies-title">
      <h1 id="policies-title">Policies</h1>
      {operatorManaged(session) && (
        <p class="managed-note" role="note">
          This organisation's policies are managed by the operator: shown read-only.
        </p>
      )}
      {mayWrite(session, 'policies') && (
        <p class="actions">
          <a class="button" href={href('policies', 'new')}>
            Create policy
          </a>
        </p>
      )}
      <p class="count" role="status">
        {policies === undefined ? 'Loading policies…' : `${policies.length} ${policies.length === 1 ? 'policy' : 'policies'}`}
      </p>
      {policies !== undefined && policies.length === 0 ? (
        <p>No policies yet. A policy sets the access rights, limits and quota of the keys that apply it.</p>
      ) : (
        <table class="list" aria-labelledby="policies-title">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">State</th>
              <th scope="col">Rate limit</th>
              <th scope="col">Quota</th>
              <th scope="col">Key expiry</th>
              <th scope="col">Tags</th>
            </tr>
          </thead>
          <tbody>
            {(policies ?? []).map((p) => (
              <tr key={p.id}>
                <td>
                  <a href={href('policies', p.id)}>{p.name}</a>
                </td>
                <td>{STATE_LABELS[p.state ?? 'active'] ?? p.state}</td>
                <td>{p.rate ? `${p.rate} per ${p.per ?? 0} s` : 'none'}</td>
                <td>{quotaText(p)}</td>
                <td>{EXPIRY_CHOICES.find((c) => c.seconds === (p.key_expires_in ?? 0))?.label ?? `${p.key_expires_in} s`}</td>
                <td>{(p.tags ?? []).join(', ')}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
