// metav1.Condition handling with apimachinery's semantics (meta.SetStatusCondition): conditions are keyed by
// type; lastTransitionTime changes only when the status flips; reason, message and observedGeneration always
// follow the newest state.
export interface Condition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  observedGeneration?: number;
  lastTransitionTime: string;
  reason: string;
  message: string;
}

export function setCondition(conditions: Condition[] | undefined, next: Omit<Condition, 'lastTransitionTime'>, now: Date): Condition[] {
  const list = conditions ? [...conditions] : [];
  const index = list.findIndex((c) => c.type === next.type);
  const previous = index === -1 ? undefined : list[index];
  const updated: Condition = {
    ...next,
    lastTransitionTime: previous && previous.status === next.status ? previous.lastTransitionTime : now.toISOString(),
  };
  if (index === -1) list.push(updated);
  else list[index] = updated;
  return list;
}

export function findCondition(conditions: Condition[] | undefined, type: string): Condition | undefined {
  return conditions?.find((c) => c.type === type);
}
