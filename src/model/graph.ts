// Small graph helpers shared by validation (cycles) and normalization (ordering).

/**
 * A cycle reachable in the graph, as the list of nodes along it (first node repeated at the
 * end), or undefined. Nodes are visited in the given order so the reported cycle is stable.
 */
export function findCycle(nodes: readonly string[], edges: (node: string) => readonly string[]): string[] | undefined {
  const state = new Map<string, 1 | 2>(); // 1 = on the stack, 2 = done
  const stack: string[] = [];
  const visit = (n: string): string[] | undefined => {
    state.set(n, 1);
    stack.push(n);
    for (const m of edges(n)) {
      const s = state.get(m);
      if (s === 1) return [...stack.slice(stack.indexOf(m)), m];
      if (s === undefined) {
        const found = visit(m);
        if (found) return found;
      }
    }
    stack.pop();
    state.set(n, 2);
    return undefined;
  };
  for (const n of nodes) {
    if (state.has(n)) continue;
    const found = visit(n);
    if (found) return found;
  }
  return undefined;
}

/**
 * Kahn's topological order where `preds(n)` must come before n; ties keep the input order,
 * so the same definition always yields the same order. Assumes no cycle.
 */
export function stableTopoOrder(nodes: readonly string[], preds: (node: string) => readonly string[]): string[] {
  const position = new Map(nodes.map((n, i) => [n, i]));
  const remaining = new Map(nodes.map((n) => [n, new Set(preds(n).filter((p) => position.has(p)))]));
  const order: string[] = [];
  while (order.length < nodes.length) {
    const ready = nodes.find((n) => remaining.has(n) && remaining.get(n)!.size === 0);
    if (ready === undefined) throw new Error("stableTopoOrder: the graph has a cycle");
    order.push(ready);
    remaining.delete(ready);
    for (const deps of remaining.values()) deps.delete(ready);
  }
  return order;
}
