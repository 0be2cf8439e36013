import { afterEach, describe, expect, it } from 'vitest';
import { parseSelectors } from '../events/selectors.ts';
import { tempDir } from '../test-support/harness.ts';
import { MAX_CANDIDATES } from './event-text.ts';
import { type NewEvent, Store } from './store.ts';

const dirs: { remove(): void }[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) dir.remove();
});
const newDir = () => {
  const dir = tempDir();
  dirs.push(dir);
  return dir.path;
};

const event = (over: Partial<NewEvent> = {}): NewEvent => ({
  timestamp: 1_700_000_000,
  severity: 'info',
  message: 'No node user input to delete',
  event_code: 'update_node_userinput',
  source_type: 'node',
  event_source: { node_id: 'n1', node_org: 'o1', pattern: '', config_state: 'configured' },
  ...over,
});

const select = (query: string) => parseSelectors(query, 1_700_000_000);
/** What GET /eventlog sends, parsed back. */
const pages = (store: Store, afterId: number, query: string, pageSize?: number) =>
  JSON.parse(`[${[...store.eventPages(afterId, select(query), pageSize)].join(',')}]`) as {
    record_id: string;
  }[];
const ids = (events: { record_id: string }[]) => events.map((e) => e.record_id);

describe('Store.eventPages', () => {
  it('writes the same events as events(), page by page, whatever their text holds', () => {
    const store = Store.open(newDir());
    store.addEvent(event({ message: 'quotes " and \\ backslash, newline \n tab \t bell \u0007' }));
    store.addEvent(event({ message: 'ünïcödé — 日本語 😀', severity: 'error' }));
    store.addEvent(
      event({ event_source: { list: ['a', 'b'], nested: { n: 1.5, t: true, f: false, z: null }, s: 'x"y' } }),
    );
    store.addEvent(event({ source_type: 'agreement', event_code: 'received_proposal' }));
    store.addEvent(event({ timestamp: 1_700_003_600 }));

    for (const pageSize of [1, 2, 5, 500]) {
      expect(pages(store, 0, '', pageSize)).toEqual(store.events(0));
      expect(pages(store, 2, '', pageSize)).toEqual(store.events(2));
    }
    expect(ids(pages(store, 0, 'source_type=node&severity=info', 2))).toEqual(['1', '3', '5']);
    expect(ids(pages(store, 0, 'list=b', 2))).toEqual(['3']);
    expect(pages(store, 0, 'message=~nothing like it')).toEqual([]);
    store.close();
  });
});

describe('message substrings through the trigram index', () => {
  it('finds exactly the events containing the text: case-sensitive, in order, quotes and Unicode', () => {
    const store = Store.open(newDir());
    store.addEvent(event({ message: 'Start node configuration/registration for node n1.' })); // 1
    store.addEvent(event({ message: 'abc then bcd' })); // 2: both trigrams of "abcd", not "abcd"
    store.addEvent(event({ message: 'say "hi" to the ünïcorn' })); // 3
    store.addEvent(event({ message: 'Registration with a capital R' })); // 4
    for (let i = 0; i < 20; i++) store.addEvent(event());

    expect(ids(pages(store, 0, 'message=~registration'))).toEqual(['1']);
    expect(ids(pages(store, 0, 'message=~Registration'))).toEqual(['4']);
    expect(ids(pages(store, 0, 'message=~abcd'))).toEqual([]);
    expect(ids(pages(store, 0, 'message=~bc'))).toEqual(['2']); // too short for the index
    expect(ids(pages(store, 0, `message=~${encodeURIComponent('"hi"')}`))).toEqual(['3']);
    expect(ids(pages(store, 0, 'message=~ünïc'))).toEqual(['3']);
    expect(ids(pages(store, 1, 'message=~registration'))).toEqual([]);
    expect(ids(pages(store, 0, 'message=~reg%00istration'))).toEqual([]);
    expect(ids(pages(store, 0, 'message=~*)"(NEAR'))).toEqual([]);
    expect(ids(store.events(0, select('message=~istration')))).toEqual(['1', '4']);
    store.close();
  });

  it('reads only the candidate events when the text is rare', () => {
    const store = Store.open(newDir());
    store.addEvent(event({ message: 'node registration started' }));
    for (let i = 0; i < 200; i++) store.addEvent(event());
    // A selector SQLite cannot test itself calls back into JavaScript once per event it reads.
    let reads = 0;
    const counting = (query: string) =>
      select(query).map((f) => {
        if (f.sql) return f;
        const test = (v: unknown) => {
          reads++;
          return f.test(v);
        };
        return { ...f, test };
      });
    expect(ids(store.events(0, counting('node_id=>a&message=~registration')))).toEqual(['1']);
    expect(reads).toBe(1);
    // Without a rare text every event is read.
    reads = 0;
    expect(store.events(0, counting('node_id=>a'))).toHaveLength(201);
    expect(reads).toBe(201);
    store.close();
  });

  it('still finds every event when the text is too common for the index', () => {
    const store = Store.open(newDir());
    const count = MAX_CANDIDATES + 20;
    store.transaction(() => {
      for (let i = 0; i < count; i++) store.addEvent(event({ message: `user input ${i}` }));
    });
    const found = pages(store, 0, 'message=~user input', 100);
    expect(found).toHaveLength(count);
    expect(found.at(-1)?.record_id).toBe(String(count));
    expect(ids(pages(store, 0, 'message=~input 519'))).toEqual(['520']);
    store.close();
  });

  it('forgets cleared events, and keeps numbering after them', () => {
    const store = Store.open(newDir());
    store.addEvent(event({ message: 'node registration started' }));
    store.clearEvents();
    expect(pages(store, 0, 'message=~registration')).toEqual([]);
    store.addEvent(event({ message: 'node registration started again' }));
    expect(ids(pages(store, 0, 'message=~registration'))).toEqual(['2']);
    store.close();
  });

  it('indexes the events of a database written before the index existed', () => {
    const dir = newDir();
    const { DatabaseSync } = process.getBuiltinModule('node:sqlite');
    const old = new DatabaseSync(`${dir}/agent.db`);
    old.exec(`CREATE TABLE events (
      record_id INTEGER PRIMARY KEY AUTOINCREMENT, timestamp INTEGER NOT NULL, severity TEXT NOT NULL,
      message TEXT NOT NULL, event_code TEXT NOT NULL, source_type TEXT NOT NULL, event_source TEXT NOT NULL) STRICT`);
    old
      .prepare(
        'INSERT INTO events (timestamp, severity, message, event_code, source_type, event_source) VALUES (?, ?, ?, ?, ?, ?)',
      )
      .run(1, 'info', 'an old registration', 'x', 'node', '{}');
    old.close();

    const store = Store.open(dir);
    expect(ids(pages(store, 0, 'message=~registration'))).toEqual(['1']);
    store.addEvent(event({ message: 'a new registration' }));
    expect(ids(pages(store, 0, 'message=~registration'))).toEqual(['1', '2']);
    store.close();
  });
});
