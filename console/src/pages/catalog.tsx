import { useState } from 'preact/hooks';
import {
  ApiError,
  api,
  maybe,
  type Orgs,
  type Patterns,
  type Policies,
  type Services,
  seg,
  type Users,
} from '../api.ts';
import { type PageProps, useData } from '../state.ts';
import { deployersOf } from './deployers.ts';

/** Services: service × version × architecture, and the deployment policies and patterns that deploy each. */
export function ServicesPage({ org, tick }: PageProps) {
  const { data, error } = useData(async () => {
    const [services, policies, patterns] = await Promise.all([
      maybe<Services>(`/v1/orgs/${seg(org)}/services`),
      maybe<Policies>(`/v1/orgs/${seg(org)}/business/policies`),
      maybe<Patterns>(`/v1/orgs/${seg(org)}/patterns`),
    ]);
    return {
      services: Object.values(services?.services ?? {}),
      policies: policies?.businessPolicy ?? {},
      patterns: patterns?.patterns ?? {},
    };
  }, [org, tick]);
  if (error) return <p role="alert">{error}</p>;
  if (!data) return <p aria-busy="true">Loading…</p>;
  const byUrl = new Map<string, { versions: Set<string>; arches: Set<string>; cells: Set<string> }>();
  for (const service of data.services) {
    const entry = byUrl.get(service.url) ?? { versions: new Set(), arches: new Set(), cells: new Set() };
    entry.versions.add(service.version);
    entry.arches.add(service.arch);
    entry.cells.add(`${service.version}|${service.arch}`);
    byUrl.set(service.url, entry);
  }
  return (
    <section aria-labelledby="services-title">
      <h1 id="services-title">Services</h1>
      {byUrl.size === 0 ? <p>No services published in {org}.</p> : null}
      {[...byUrl].map(([url, entry]) => {
        const deployers = deployersOf(org, url, data.policies, data.patterns);
        const arches = [...entry.arches].sort();
        return (
          <article key={url} aria-labelledby={`svc-${url}`}>
            <h2 id={`svc-${url}`}>{url}</h2>
            <table>
              <thead>
                <tr>
                  <th scope="col">Version</th>
                  {arches.map((arch) => (
                    <th key={arch} scope="col">
                      {arch}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {[...entry.versions].sort().map((version) => (
                  <tr key={version}>
                    <th scope="row">{version}</th>
                    {arches.map((arch) => (
                      <td key={arch}>{entry.cells.has(`${version}|${arch}`) ? '✓' : ''}</td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
            <p>Deployed by: {deployers.length ? deployers.join(', ') : 'no deployment policy or pattern'}</p>
          </article>
        );
      })}
    </section>
  );
}

/**
 * Secrets: names only. A value can be set (a write-only form, never pre-filled); the page never
 * asks for one (it never calls GET /secrets/{name}).
 */
export function SecretsPage({ me, org, tick }: PageProps) {
  const [notice, setNotice] = useState('');
  const { data, error, reload } = useData(
    () => maybe<string[]>(`/v1/orgs/${seg(org)}/secrets`).then((names) => names ?? []),
    [org, tick],
  );
  const save = async (event: Event) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const fields = new FormData(form);
    const name = String(fields.get('name') ?? '').trim();
    const value = String(fields.get('value') ?? '');
    try {
      await api('PUT', `/v1/orgs/${seg(org)}/secrets/${name.split('/').map(seg).join('/')}`, {
        key: name,
        value,
      });
      setNotice(`Secret ${name} set.`);
      form.reset();
      reload();
    } catch (failure) {
      setNotice(failure instanceof ApiError ? failure.message : String(failure));
    }
  };
  return (
    <section aria-labelledby="secrets-title">
      <h1 id="secrets-title">Secrets</h1>
      <p class="muted">Names only: values are write-only here.</p>
      {error ? <p role="alert">{error}</p> : null}
      {notice ? <p role="status">{notice}</p> : null}
      <ul data-testid="secret-names">
        {(data ?? []).map((name) => (
          <li key={name}>{name}</li>
        ))}
      </ul>
      {me.can.writeSecrets ? (
        <form onSubmit={save} aria-label="Set a secret" autocomplete="off">
          <label>
            Name <input name="name" required pattern="[A-Za-z0-9_\/\-]+" />
          </label>
          <label>
            Value <input name="value" type="password" required autocomplete="new-password" />
          </label>
          <button type="submit">Set value</button>
        </form>
      ) : null}
    </section>
  );
}

/** Users of the org (org admins), and the orgs (hub admins, root). */
export function UsersPage({ me, org, tick }: PageProps) {
  const { data, error } = useData(
    async () => ({
      users: me.can.manageUsers ? await maybe<Users>(`/v1/orgs/${seg(org)}/users`) : undefined,
      orgs: me.can.listOrgs ? await maybe<Orgs>('/v1/orgs') : undefined,
    }),
    [org, tick],
  );
  if (error) return <p role="alert">{error}</p>;
  if (!data) return <p aria-busy="true">Loading…</p>;
  return (
    <section aria-labelledby="users-title">
      <h1 id="users-title">Users and orgs</h1>
      {data.users ? (
        <table data-testid="users-table">
          <caption>Users of {org}</caption>
          <thead>
            <tr>
              <th scope="col">User</th>
              <th scope="col">Admin</th>
              <th scope="col">Hub admin</th>
              <th scope="col">Email</th>
              <th scope="col">Updated</th>
            </tr>
          </thead>
          <tbody>
            {Object.entries(data.users.users).map(([id, user]) => (
              <tr key={id}>
                <th scope="row">{id}</th>
                <td>{user.admin ? 'yes' : ''}</td>
                <td>{user.hubAdmin ? 'yes' : ''}</td>
                <td>{user.email}</td>
                <td>{user.lastUpdated}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {data.orgs ? (
        <table data-testid="orgs-table">
          <caption>Organizations</caption>
          <thead>
            <tr>
              <th scope="col">Org</th>
              <th scope="col">Label</th>
              <th scope="col">Type</th>
            </tr>
          </thead>
          <tbody>
            {Object.entries(data.orgs.orgs).map(([id, entry]) => (
              <tr key={id}>
                <th scope="row">{id}</th>
                <td>{entry.label}</td>
                <td>{entry.orgType}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </section>
  );
}
