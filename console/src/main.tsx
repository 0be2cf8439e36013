import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { ApiError, api, type Orgs, signedIn, signIn, signOut, type WhoAmI, whenSignedOut } from './api.ts';
import { SecretsPage, ServicesPage, UsersPage } from './pages/catalog.tsx';
import { Deployments } from './pages/deployments.tsx';
import { Fleet } from './pages/fleet.tsx';
import { Node } from './pages/node.tsx';
import { Nodes } from './pages/nodes.tsx';
import { href, type PageProps, useData, useRefresh, useRoute } from './state.ts';
import './style.css';

const PAGES: {
  id: string;
  label: string;
  show: (me: WhoAmI) => boolean;
  view: (props: PageProps) => preact.JSX.Element;
}[] = [
  { id: 'fleet', label: 'Fleet', show: (me) => me.can.readNodes, view: Fleet },
  { id: 'nodes', label: 'Nodes', show: (me) => me.can.readNodes, view: Nodes },
  { id: 'node', label: '', show: (me) => me.can.readNodes, view: Node },
  { id: 'deployments', label: 'Deployments', show: () => true, view: Deployments },
  { id: 'services', label: 'Services', show: () => true, view: ServicesPage },
  {
    id: 'secrets',
    label: 'Secrets',
    show: (me) => me.kind === 'user' || me.kind === 'root',
    view: SecretsPage,
  },
  {
    id: 'users',
    label: 'Users and orgs',
    show: (me) => me.can.manageUsers || me.can.listOrgs,
    view: UsersPage,
  },
];

function SignIn({ onSignedIn }: { onSignedIn: (me: WhoAmI) => void }) {
  const [error, setError] = useState('');
  const submit = async (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    try {
      onSignedIn(await signIn(`${form.get('org')}/${form.get('user')}`, String(form.get('password') ?? '')));
    } catch (failure) {
      setError(
        failure instanceof ApiError && failure.status === 401
          ? 'Wrong organization, user or password.'
          : String(failure),
      );
    }
  };
  return (
    <main class="signin">
      <h1>Open Exchange console</h1>
      <form onSubmit={submit} aria-label="Sign in">
        <label>
          Organization <input name="org" required autocomplete="organization" />
        </label>
        <label>
          User <input name="user" required autocomplete="username" />
        </label>
        <label>
          Password or API key{' '}
          <input name="password" type="password" required autocomplete="current-password" />
        </label>
        <button type="submit">Sign in</button>
        {error ? <p role="alert">{error}</p> : null}
      </form>
    </main>
  );
}

const ORG_STORE = 'oe-console-org';

/** Root and hub admins look at any org: the one picked is kept in the tab. */
function OrgPicker({ org, onPick }: { org: string; onPick: () => void }) {
  const { data } = useData(() => api<Orgs>('GET', '/v1/orgs'), []);
  return (
    <label class="org-picker">
      Organization{' '}
      <select
        value={org}
        onChange={(event) => {
          sessionStorage.setItem(ORG_STORE, (event.currentTarget as HTMLSelectElement).value);
          onPick();
        }}
      >
        {Object.keys(data?.orgs ?? { [org]: null }).map((id) => (
          <option key={id} value={id}>
            {id}
          </option>
        ))}
      </select>
    </label>
  );
}

function App() {
  const [me, setMe] = useState<WhoAmI | undefined>(undefined);
  const [checking, setChecking] = useState(signedIn());
  const route = useRoute();
  const tick = useRefresh();
  useEffect(() => {
    whenSignedOut(() => setMe(undefined));
    if (signedIn())
      api<WhoAmI>('GET', '/v1/console/whoami')
        .then(setMe, () => signOut())
        .finally(() => setChecking(false));
  }, []);
  if (checking) return <p aria-busy="true">Loading…</p>;
  if (!me) return <SignIn onSignedIn={setMe} />;
  const visible = PAGES.filter((page) => page.show(me));
  const page = visible.find((p) => p.id === route.page) ?? visible[0];
  const org = (me.can.listOrgs && sessionStorage.getItem(ORG_STORE)) || me.org;
  return (
    <>
      <header>
        <nav aria-label="Console">
          <ul>
            {visible
              .filter((p) => p.label)
              .map((p) => (
                <li key={p.id}>
                  <a href={href(p.id)} aria-current={p.id === page?.id ? 'page' : undefined}>
                    {p.label}
                  </a>
                </li>
              ))}
          </ul>
        </nav>
        {me.can.listOrgs ? <OrgPicker org={org} onPick={() => setMe({ ...me })} /> : null}
        <span class="who" data-testid="who">
          {me.id} ({me.role})
        </span>
        <button type="button" onClick={signOut}>
          Sign out
        </button>
      </header>
      <main>
        {page ? (
          <page.view me={me} org={org} route={route} tick={tick} />
        ) : (
          <p>Nothing to show for {me.id}.</p>
        )}
      </main>
    </>
  );
}

const root = document.getElementById('app');
if (root) render(<App />, root);
