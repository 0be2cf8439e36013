/**
 * The node policy constraint language: comparisons `name op value` joined by `&&` / `||` (also
 * `AND` / `OR`), with parentheses. Operators: `==`, `=`, `!=`, `<`, `>`, `<=`, `>=`, `in`; a value
 * is a bare word (number, boolean, version, version range) or a double-quoted string; `in` takes a
 * comma-separated list. `&&` binds tighter than `||`.
 */
export type Constraint =
  | { kind: 'and' | 'or'; left: Constraint; right: Constraint }
  | { kind: 'compare'; name: string; op: string; value: string | string[] };

export class ConstraintError extends Error {}

/**
 * Longest expression and deepest parenthesis nesting accepted: the parser recurses once per
 * parenthesis, so unbounded nesting would overflow the stack (a 500) instead of answering 400.
 */
export const MAX_CONSTRAINT_LENGTH = 8192;
export const MAX_CONSTRAINT_DEPTH = 64;

type Token = { type: 'word' | 'string' | 'op' | 'and' | 'or' | 'open' | 'close' | 'comma'; text: string };

const OPERATORS = ['==', '!=', '<=', '>=', '=', '<', '>'];

function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < source.length) {
    const ch = source[i] as string;
    if (/\s/.test(ch)) {
      i++;
      continue;
    }
    const two = source.slice(i, i + 2);
    if (two === '&&' || two === '||') {
      tokens.push({ type: two === '&&' ? 'and' : 'or', text: two });
      i += 2;
      continue;
    }
    const op = OPERATORS.find((candidate) => source.startsWith(candidate, i));
    if (op) {
      tokens.push({ type: 'op', text: op });
      i += op.length;
      continue;
    }
    if (ch === '(' || ch === ')' || ch === ',') {
      tokens.push({ type: ch === '(' ? 'open' : ch === ')' ? 'close' : 'comma', text: ch });
      i++;
      continue;
    }
    if (ch === '"') {
      let text = '';
      i++;
      while (i < source.length && source[i] !== '"') {
        if (source[i] === '\\' && i + 1 < source.length) i++;
        text += source[i];
        i++;
      }
      if (i >= source.length) throw new ConstraintError('a quoted string is not closed');
      i++;
      tokens.push({ type: 'string', text });
      continue;
    }
    if (ch === '&' || ch === '|' || ch === '!')
      throw new ConstraintError(`unexpected '${ch}' (use && or ||)`);
    // A version range such as [1.0.0,2.0.0) is one word, comma and closing bracket included.
    const start = i;
    if (ch === '[') {
      while (i < source.length && source[i] !== ']' && source[i] !== ')') i++;
      if (i >= source.length) throw new ConstraintError('a version range is not closed');
      i++;
    } else {
      while (i < source.length && !/[\s()",=!<>&|]/.test(source[i] as string)) i++;
    }
    const text = source.slice(start, i);
    const keyword = text.toUpperCase();
    if (keyword === 'AND' || keyword === 'OR') tokens.push({ type: keyword === 'AND' ? 'and' : 'or', text });
    else if (keyword === 'IN') tokens.push({ type: 'op', text: 'in' });
    else tokens.push({ type: 'word', text });
  }
  return tokens;
}

/** Parses one constraint expression; throws ConstraintError saying what is wrong. */
export function parseConstraint(source: string): Constraint {
  if (source.length > MAX_CONSTRAINT_LENGTH)
    throw new ConstraintError(`the expression is longer than ${MAX_CONSTRAINT_LENGTH} characters`);
  const tokens = tokenize(source);
  if (tokens.length === 0) throw new ConstraintError('the expression is empty');
  let pos = 0;
  let depth = 0;
  const peek = () => tokens[pos];
  const after = () => (pos > 0 ? ` after '${tokens[pos - 1]?.text}'` : '');

  function expression(): Constraint {
    let left = conjunction();
    while (peek()?.type === 'or') {
      pos++;
      left = { kind: 'or', left, right: conjunction() };
    }
    return left;
  }

  function conjunction(): Constraint {
    let left = unit();
    while (peek()?.type === 'and') {
      pos++;
      left = { kind: 'and', left, right: unit() };
    }
    return left;
  }

  function unit(): Constraint {
    const token = peek();
    if (!token) throw new ConstraintError(`the expression ends too early${after()}`);
    if (token.type === 'open') {
      pos++;
      if (++depth > MAX_CONSTRAINT_DEPTH)
        throw new ConstraintError(`parentheses are nested deeper than ${MAX_CONSTRAINT_DEPTH}`);
      const inner = expression();
      depth--;
      if (peek()?.type !== 'close') throw new ConstraintError(`a ')' is missing${after()}`);
      pos++;
      return inner;
    }
    if (token.type !== 'word')
      throw new ConstraintError(`expected a property name but found '${token.text}'`);
    pos++;
    const op = peek();
    if (op?.type !== 'op')
      throw new ConstraintError(`expected an operator after property name '${token.text}'`);
    pos++;
    const values = [value(token.text, op.text)];
    while (op.text === 'in' && peek()?.type === 'comma') {
      pos++;
      values.push(value(token.text, op.text));
    }
    return {
      kind: 'compare',
      name: token.text,
      op: op.text,
      value: op.text === 'in' ? values : (values[0] as string),
    };
  }

  function value(name: string, op: string): string {
    const token = peek();
    if (token?.type !== 'word' && token?.type !== 'string') {
      throw new ConstraintError(`expected a value after '${name} ${op}'`);
    }
    pos++;
    return token.text;
  }

  const tree = expression();
  const rest = peek();
  if (rest) throw new ConstraintError(`unexpected '${rest.text}'${after()}`);
  return tree;
}
