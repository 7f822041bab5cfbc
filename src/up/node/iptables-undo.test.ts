// The teardown's iptables step: from the rules before the node and the rules now, the iptables-restore input that
// removes exactly what was added (rules in existing chains deleted one by one, new chains flushed and deleted) and
// leaves every rule and chain that was there before.
import { describe, expect, it } from 'vitest';
import { iptablesUndoScript } from './teardown.ts';

describe('iptablesUndoScript', () => {
  it('deletes added rules of existing chains, then flushes and deletes added chains, table by table', () => {
    const before = ['filter :INPUT ACCEPT', 'filter :OUTPUT ACCEPT', 'filter -A INPUT -p tcp --dport 22 -j ACCEPT'];
    const now = [
      ...before,
      'filter :KUBE-FIREWALL - ',
      'filter -A INPUT -j KUBE-FIREWALL',
      'filter -A KUBE-FIREWALL -m comment --comment "block incoming localnet connections" -j DROP',
      'nat :OUTPUT ACCEPT',
      'nat :KUBE-SERVICES -',
      'nat -A OUTPUT -m comment --comment "kubernetes service portals" -j KUBE-SERVICES',
    ];
    expect(iptablesUndoScript(before, now)).toBe(
      [
        '*filter',
        '-D INPUT -j KUBE-FIREWALL',
        '-F KUBE-FIREWALL',
        '-X KUBE-FIREWALL',
        'COMMIT',
        '*nat',
        '-D OUTPUT -m comment --comment "kubernetes service portals" -j KUBE-SERVICES',
        '-F KUBE-SERVICES',
        '-X KUBE-SERVICES',
        'COMMIT',
        '',
      ].join('\n'),
    );
  });

  it('writes nothing when nothing was added', () => {
    const rules = ['filter :INPUT ACCEPT', 'filter -A INPUT -j ACCEPT'];
    expect(iptablesUndoScript(rules, rules)).toBe('');
  });
});
