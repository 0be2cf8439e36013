/**
 * The first PEM block of a text: what `/-----BEGIN (L)-----[\s\S]+?-----END \1-----/` finds, in
 * time linear in the text. That regex (a lazy body and a back-reference) scans to the end of the
 * text from every BEGIN marker without an END: a megabyte of markers blocked the agent for
 * minutes. Here every marker is read once, and each BEGIN looks its END up in a table.
 */
export function firstPemBlock(text: string): { pem: string; label: string } | undefined {
  const ends = new Map<string, number[]>(); // label → positions of its END markers, ascending
  for (const end of markers(text, '-----END ')) {
    const positions = ends.get(end.label) ?? [];
    positions.push(end.at);
    ends.set(end.label, positions);
  }
  for (const begin of markers(text, '-----BEGIN ')) {
    const positions = ends.get(begin.label);
    // The body holds at least one character.
    const at = positions && firstAtLeast(positions, begin.after + 1);
    if (at === undefined) continue;
    const endLength = '-----END '.length + begin.label.length + '-----'.length;
    return { pem: text.slice(begin.at, at + endLength), label: begin.label };
  }
  return undefined;
}

/** Each `<lead><LABEL>-----` in the text: where it starts, its label and where it ends. */
function* markers(text: string, lead: string): Generator<{ at: number; label: string; after: number }> {
  for (let at = text.indexOf(lead); at >= 0; at = text.indexOf(lead, at + 1)) {
    const start = at + lead.length;
    let i = start;
    while (i < text.length && isLabelChar(text.charCodeAt(i))) i++;
    if (i > start && text.startsWith('-----', i)) yield { at, label: text.slice(start, i), after: i + 5 };
  }
}

/** `[A-Z0-9 ]` */
const isLabelChar = (c: number) => (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 32;

/** The first value ≥ `min` of an ascending list (binary search). */
function firstAtLeast(sorted: number[], min: number): number | undefined {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if ((sorted[mid] as number) < min) low = mid + 1;
    else high = mid;
  }
  return sorted[low];
}
