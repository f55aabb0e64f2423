import { withoutTrailingSlashes } from '../lib/trailing-slashes.ts';
import { isRecord, ownField } from '../domain/json-guards.ts';
import { basicAuthorization, databaseUrl, type CouchLocation, type Fetch } from './couch-client.ts';

/**
 * Sync's 'Test': each thing a sync needs, checked in order, said in one sentence each, the first
 * failure last (docs/sync.md): the server answers, it lets this page in (CORS, with the settings
 * to change), the user and password, and the database (created when it is missing and allowed).
 */
export interface CouchCheck {
  ok: boolean;
  lines: string[];
}

/** The CouchDB settings that let this page in. */
export function corsFix(origin: string): string {
  return (
    `The server answered but does not let this page in (CORS). In CouchDB's Fauxton: Settings → CORS → ` +
    `Enable CORS, for ${origin}; or in its configuration: [chttpd] enable_cors = true, and under [cors] ` +
    `origins = ${origin}, credentials = true, methods = GET, PUT, POST, HEAD, DELETE, ` +
    `headers = accept, authorization, content-type, origin, referer.`
  );
}

export async function checkCouch(
  location: CouchLocation,
  origin: string,
  fetcher: Fetch = (...args) => fetch(...args),
): Promise<CouchCheck> {
  const server = withoutTrailingSlashes(location.url);
  const host = new URL(server).host;
  const lines: string[] = [];
  const fail = (line: string): CouchCheck => ({ ok: false, lines: [...lines, line] });
  const call = (url: string, init: RequestInit = {}) =>
    fetcher(url, {
      ...init,
      credentials: 'omit',
      headers: { accept: 'application/json', authorization: basicAuthorization(location) },
    });

  let welcome: Response;
  try {
    welcome = await fetcher(`${server}/`, { credentials: 'omit', headers: { accept: 'application/json' } });
  } catch {
    // An opaque request that goes through shows the server is there: CORS refused the real one.
    const answers = await fetcher(`${server}/`, { mode: 'no-cors', credentials: 'omit' }).then(
      () => true,
      () => false,
    );
    return fail(
      answers ? corsFix(origin) : `No server answered at ${host}: check the address, and that it runs.`,
    );
  }
  const about: unknown = await welcome.json().catch(() => undefined);
  const version = isRecord(about) ? ownField(about, 'version') : undefined;
  if (!welcome.ok || typeof version !== 'string')
    return fail(`${host} answered, but not as a CouchDB server (${welcome.status}).`);
  const vendor =
    isRecord(about) && ownField(about, 'couchdb') !== undefined ? 'CouchDB' : 'a CouchDB-compatible server';
  lines.push(`Reached ${vendor} ${version} at ${host}, and it lets this page in.`);

  const session = await call(`${server}/_session`);
  if (session.status === 401) return fail('The server refused the user name or password.');
  if (!session.ok) return fail(`The server could not check the user (${session.status}).`);
  lines.push(`Signed in as ${location.username}.`);

  const database = databaseUrl(location);
  const found = await call(database);
  if (found.status === 401 || found.status === 403)
    return fail(`This user may not use the database ${location.database}: add them to its members.`);
  if (found.ok) {
    lines.push(`The database ${location.database} is there.`);
    return { ok: true, lines };
  }
  if (found.status !== 404)
    return fail(`The database ${location.database} could not be read (${found.status}).`);
  const created = await call(database, { method: 'PUT' });
  if (created.status === 401 || created.status === 403)
    return fail(
      `The database ${location.database} does not exist, and this user may not create it: create it on the server, or use an admin.`,
    );
  if (!created.ok && created.status !== 412)
    return fail(`The database ${location.database} could not be created (${created.status}).`);
  lines.push(`The database ${location.database} was created.`);
  return { ok: true, lines };
}
