/**
 * The rules the import graph must keep (test/unit/repo/floors.test.ts), as pure functions over
 * edges so that the checker itself is tested on small made-up graphs.
 */
import type { ImportEdge } from './import-graph.ts';

/** For each top-level folder under a rule, the other top-level folders it may import. */
export type Floors = Record<string, readonly string[]>;

const topFolder = (path: string) => path.split('/')[0] as string;

const describeEdge = (edge: ImportEdge) => `${edge.from}:${edge.line} imports '${edge.specifier}'`;

/**
 * Every import that leaves its floor: a file under a ruled folder importing a repository file
 * outside that folder and outside the folders it may import. Packages are always allowed.
 */
export function floorLeaks(edges: readonly ImportEdge[], floors: Floors): string[] {
  const leaks: string[] = [];
  for (const edge of edges) {
    if (edge.to === undefined) continue;
    const from = topFolder(edge.from);
    const allowed = floors[from];
    const to = topFolder(edge.to);
    if (!allowed || to === from || allowed.includes(to)) continue;
    const may =
      allowed.length > 0 ? `only ${[from, ...allowed].map((f) => `${f}/`).join(', ')}` : `only ${from}/`;
    leaks.push(`${describeEdge(edge)} (${edge.to}): ${from}/ may import ${may} and packages`);
  }
  return leaks;
}

/** A unit of the cycle check: what a file belongs to (undefined: the file is left out). */
export type UnitOf = (path: string) => string | undefined;

/** Top-level folders: `agent/api/x.ts` → `agent`. */
export const topLevelUnit: UnitOf = (path) => (path.includes('/') ? topFolder(path) : undefined);

/**
 * The children of one folder: `agent/api/x.ts` → `agent/api/`, `agent/context.ts` → itself.
 * Test files are left out: nothing imports them, so they close no cycle, but counted in their
 * folder they would join it to everything they test.
 */
export const childUnit =
  (folder: string): UnitOf =>
  (path) => {
    if (!path.startsWith(`${folder}/`) || /\.test\.ts$/.test(path)) return undefined;
    const [child, ...rest] = path.slice(folder.length + 1).split('/');
    return rest.length > 0 ? `${folder}/${child}/` : path;
  };

/** A set of units that import each other around (a strongly connected component of two or more). */
export interface Cycle {
  units: string[];
  /** One way around it, each step naming an importing file and its import. */
  path: string[];
}

/** Every cycle between units (Tarjan's algorithm over the unit graph), each with one way around it. */
export function unitCycles(edges: readonly ImportEdge[], unitOf: UnitOf): Cycle[] {
  const graph = new Map<string, Map<string, ImportEdge>>();
  for (const edge of edges) {
    if (edge.to === undefined) continue;
    const from = unitOf(edge.from);
    const to = unitOf(edge.to);
    if (from === undefined || to === undefined || from === to) continue;
    const out = graph.get(from) ?? new Map<string, ImportEdge>();
    if (!out.has(to)) out.set(to, edge);
    graph.set(from, out);
    if (!graph.has(to)) graph.set(to, new Map());
  }
  return components(graph).map((units) => ({ units: units.sort(), path: wayAround(graph, units) }));
}

function components(graph: Map<string, Map<string, ImportEdge>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (unit: string) => {
    index.set(unit, index.size);
    low.set(unit, index.get(unit) as number);
    stack.push(unit);
    onStack.add(unit);
    for (const next of graph.get(unit)?.keys() ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(unit, Math.min(low.get(unit) as number, low.get(next) as number));
      } else if (onStack.has(next))
        low.set(unit, Math.min(low.get(unit) as number, index.get(next) as number));
    }
    if (low.get(unit) !== index.get(unit)) return;
    const component: string[] = [];
    let member: string | undefined;
    do {
      member = stack.pop() as string;
      onStack.delete(member);
      component.push(member);
    } while (member !== unit);
    if (component.length > 1) found.push(component);
  };
  for (const unit of [...graph.keys()].sort()) if (!index.has(unit)) visit(unit);
  return found;
}

/** The shortest way from the component's first unit back to itself (breadth first, inside the component). */
function wayAround(graph: Map<string, Map<string, ImportEdge>>, units: string[]): string[] {
  const members = new Set(units);
  const start = units[0] as string;
  const cameFrom = new Map<string, { unit: string; edge: ImportEdge }>();
  const queue = [start];
  for (let i = 0; i < queue.length; i++) {
    const unit = queue[i] as string;
    for (const [next, edge] of graph.get(unit) ?? []) {
      if (!members.has(next) || cameFrom.has(next)) continue;
      cameFrom.set(next, { unit, edge });
      if (next === start) return stepsTo(start, cameFrom);
      queue.push(next);
    }
  }
  return [];
}

function stepsTo(start: string, cameFrom: Map<string, { unit: string; edge: ImportEdge }>): string[] {
  const steps: string[] = [];
  let unit = start;
  do {
    const step = cameFrom.get(unit) as { unit: string; edge: ImportEdge };
    steps.unshift(`${step.unit} → ${unit}: ${describeEdge(step.edge)}`);
    unit = step.unit;
  } while (unit !== start);
  return steps;
}

/**
 * The cycles not covered by a known one (a known cycle covers any cycle within its units): a new
 * cycle, or a known one grown by a unit.
 */
export function newCycles(cycles: readonly Cycle[], known: readonly (readonly string[])[]): Cycle[] {
  return cycles.filter((cycle) => !known.some((units) => cycle.units.every((unit) => units.includes(unit))));
}

/** The known cycles no longer there as listed (fixed or shrunk): the list must follow, so it cannot regrow. */
export function staleKnownCycles(
  cycles: readonly Cycle[],
  known: readonly (readonly string[])[],
): string[][] {
  const present = new Set(cycles.map((cycle) => cycle.units.join(' ')));
  return known.filter((units) => !present.has([...units].sort().join(' '))).map((units) => [...units]);
}

export const describeCycle = (cycle: Cycle) =>
  `cycle between ${cycle.units.join(', ')}:\n  ${cycle.path.join('\n  ')}`;
