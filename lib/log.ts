/**
 * One JSON object per line on stdout/stderr (CloudWatch and humans both read it). Callers pass only
 * what is safe to keep: never a header, a body, a password or a token.
 */
type Fields = Record<string, unknown>;

const write = (level: 'info' | 'warn' | 'error', msg: string, fields: Fields = {}) => {
  const line = JSON.stringify({ time: new Date().toISOString(), level, msg, ...fields });
  if (level === 'error') console.error(line);
  else console.log(line);
};

export const log = {
  info: (msg: string, fields?: Fields) => write('info', msg, fields),
  warn: (msg: string, fields?: Fields) => write('warn', msg, fields),
  error: (msg: string, fields?: Fields) => write('error', msg, fields),
};
