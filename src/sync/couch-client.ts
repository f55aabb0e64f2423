import { withoutTrailingSlashes } from '../lib/trailing-slashes.ts';
import { isRecord, ownField } from '../domain/json-guards.ts';

/**
 * The part of CouchDB's HTTP API that replication needs, over fetch (docs/sync.md): documents with
 * revisions, the changes feed, bulk writes. CouchDB, IBM Cloudant, pouchdb-server and every other
 * server that speaks the protocol answer it alike. Basic authentication on every request: no
 * cookie session, so no third-party cookie rules apply.
 */

export interface CouchLocation {
  /** The server's address, without the database: https://host:6984 */
  url: string;
  database: string;
  username: string;
  password: string;
}

/** A document as the server holds it. */
export interface CouchDocument {
  _id: string;
  _rev?: string;
  _deleted?: boolean;
  /** The revisions that lost a conflict, when asked for (`conflicts=true`). */
  _conflicts?: string[];
  [field: string]: unknown;
}

export interface CouchChange {
  id: string;
  seq: string;
  deleted: boolean;
  /** The document's revision after the change (its winning one). */
  rev?: string;
}

/** A refusal or failure, with what it means for the user in one sentence. */
export class CouchError extends Error {
  constructor(
    message: string,
    readonly status: number,
    /** CouchDB's own `error` field ('conflict', 'unauthorized', 'not_found', …); 'network' when no answer came. */
    readonly reason: string,
    /** A 404 for a document that was deleted (a tombstone), not one that never was. */
    readonly deleted = false,
  ) {
    super(message);
    this.name = 'CouchError';
  }
}

export type Fetch = typeof fetch;

export interface CouchClient {
  readonly location: CouchLocation;
  /** GET a document; undefined when it never existed, `{ _id, _deleted: true }` when it was deleted. */
  get(id: string, options?: { conflicts?: boolean; rev?: string }): Promise<CouchDocument | undefined>;
  /** PUT a document (with its `_rev` to change one): its new revision; a CouchError 'conflict' (409) when `_rev` is not the latest. */
  put(document: CouchDocument): Promise<string>;
  /**
   * Many documents at once, by id: each one's latest revision (undefined: never written; deleted:
   * a tombstone), with the revisions it conflicts with (`_conflicts`).
   */
  getMany(ids: string[]): Promise<Map<string, CouchDocument>>;
  /** Many writes at once: each one's new revision, or why it failed. */
  bulkDocs(
    documents: CouchDocument[],
  ): Promise<({ id: string; rev: string } | { id: string; error: string })[]>;
  /**
   * Stores bytes as a document's attachment, creating the document (a file's own); a CouchError
   * 'conflict' when the document is there already, 413 when the server takes nothing that large.
   */
  putAttachment(id: string, name: string, blob: Blob): Promise<void>;
  /** A document's attachment; undefined when there is none. */
  getAttachment(id: string, name: string): Promise<Blob | undefined>;
  /**
   * The changes after `since`, without their documents (a device fetches only what it did not
   * write itself); `waitMs` > 0 waits that long for one (long polling) when there are none yet.
   */
  changes(
    since: string,
    options?: { limit?: number; waitMs?: number; signal?: AbortSignal },
  ): Promise<{ results: CouchChange[]; lastSeq: string }>;
}

/** Basic authentication's header value (UTF-8 names and passwords included). */
export const basicAuthorization = ({ username, password }: Pick<CouchLocation, 'username' | 'password'>) =>
  `Basic ${btoa(String.fromCharCode(...new TextEncoder().encode(`${username}:${password}`)))}`;

/** The database's address: its name encoded (CouchDB allows `/` in names, written %2F). */
export function databaseUrl(location: CouchLocation): string {
  return `${withoutTrailingSlashes(location.url)}/${encodeURIComponent(location.database)}`;
}

async function couchError(response: Response): Promise<CouchError> {
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    body = undefined;
  }
  const error = isRecord(body) ? ownField(body, 'error') : undefined;
  const reason = isRecord(body) ? ownField(body, 'reason') : undefined;
  const code = typeof error === 'string' ? error : String(response.status);
  const said = typeof reason === 'string' && reason ? reason : response.statusText;
  return new CouchError(`${response.status} · ${said || code}`, response.status, code, reason === 'deleted');
}

export function createCouchClient(
  location: CouchLocation,
  fetcher: Fetch = (...args) => fetch(...args),
): CouchClient {
  const base = databaseUrl(location);
  const authorization = basicAuthorization(location);
  async function answer(
    path: string,
    init: RequestInit = {},
    { contentType = 'application/json', accept = 'application/json' } = {},
  ): Promise<Response> {
    let response: Response;
    try {
      response = await fetcher(`${base}${path}`, {
        ...init,
        headers: {
          accept,
          authorization,
          ...(init.body ? { 'content-type': contentType } : {}),
        },
        credentials: 'omit',
      });
    } catch (error) {
      if (init.signal?.aborted) throw error;
      throw new CouchError(`No answer from ${new URL(base).host}.`, 0, 'network');
    }
    if (!response.ok) throw await couchError(response);
    return response;
  }
  const call = async (path: string, init: RequestInit = {}): Promise<unknown> =>
    (await answer(path, init)).json();
  const docPath = (id: string) => `/${encodeURIComponent(id)}`;
  /**
   * Whether a missing document was deleted (a tombstone) rather than never written: not every
   * server says so in its 404 (pouchdb-server answers 'missing'), `_all_docs` does.
   */
  async function deleted(id: string): Promise<boolean> {
    const body = await call('/_all_docs', { method: 'POST', body: JSON.stringify({ keys: [id] }) });
    const rows = isRecord(body) ? ownField(body, 'rows') : undefined;
    const row: unknown = Array.isArray(rows) ? rows[0] : undefined;
    const value = isRecord(row) ? ownField(row, 'value') : undefined;
    return isRecord(value) && ownField(value, 'deleted') === true;
  }

  return {
    location,
    async get(id, { conflicts = false, rev } = {}) {
      const query = new URLSearchParams();
      if (conflicts) query.set('conflicts', 'true');
      if (rev) query.set('rev', rev);
      try {
        const body = await call(`${docPath(id)}${query.size ? `?${query}` : ''}`);
        return isRecord(body) ? (body as CouchDocument) : undefined;
      } catch (error) {
        if (!(error instanceof CouchError && error.status === 404)) throw error;
        return error.deleted || (await deleted(id)) ? { _id: id, _deleted: true } : undefined;
      }
    },
    async getMany(ids) {
      const body = await call('/_all_docs?include_docs=true&conflicts=true', {
        method: 'POST',
        body: JSON.stringify({ keys: ids }),
      });
      const rows = isRecord(body) ? ownField(body, 'rows') : undefined;
      const found = new Map<string, CouchDocument>();
      for (const row of Array.isArray(rows) ? (rows as unknown[]) : []) {
        if (!isRecord(row)) continue;
        const id = ownField(row, 'id');
        const value = ownField(row, 'value');
        const doc = ownField(row, 'doc');
        if (typeof id !== 'string') continue;
        if (isRecord(value) && ownField(value, 'deleted') === true)
          found.set(id, { _id: id, _deleted: true });
        else if (isRecord(doc)) found.set(id, doc as CouchDocument);
      }
      return found;
    },
    async put(document) {
      const body = await call(docPath(document._id), { method: 'PUT', body: JSON.stringify(document) });
      const rev = isRecord(body) ? ownField(body, 'rev') : undefined;
      if (typeof rev !== 'string')
        throw new CouchError('The server did not say the new revision.', 0, 'bad_answer');
      return rev;
    },
    async bulkDocs(documents) {
      const body = await call('/_bulk_docs', { method: 'POST', body: JSON.stringify({ docs: documents }) });
      return (Array.isArray(body) ? (body as unknown[]) : []).map((entry) => {
        const id = isRecord(entry) ? String(ownField(entry, 'id') ?? '') : '';
        const rev = isRecord(entry) ? ownField(entry, 'rev') : undefined;
        const error = isRecord(entry) ? ownField(entry, 'error') : undefined;
        return typeof error === 'string' || typeof rev !== 'string'
          ? { id, error: String(error ?? 'unknown') }
          : { id, rev };
      });
    },
    async putAttachment(id, name, blob) {
      await answer(
        `${docPath(id)}/${encodeURIComponent(name)}`,
        { method: 'PUT', body: blob },
        {
          contentType: blob.type || 'application/octet-stream',
        },
      );
    },
    async getAttachment(id, name) {
      try {
        return await (
          await answer(`${docPath(id)}/${encodeURIComponent(name)}`, {}, { accept: '*/*' })
        ).blob();
      } catch (error) {
        if (error instanceof CouchError && error.status === 404) return undefined;
        throw error;
      }
    },
    async changes(since, { limit = 100, waitMs = 0, signal } = {}) {
      const query = new URLSearchParams({
        since,
        limit: String(limit),
        style: 'main_only',
      });
      if (waitMs > 0) {
        query.set('feed', 'longpoll');
        query.set('timeout', String(waitMs));
      }
      const body = await call(`/_changes?${query}`, { signal });
      const results = isRecord(body) ? ownField(body, 'results') : undefined;
      const lastSeq = isRecord(body) ? ownField(body, 'last_seq') : undefined;
      return {
        results: (Array.isArray(results) ? (results as unknown[]) : []).flatMap((entry): CouchChange[] => {
          if (!isRecord(entry)) return [];
          const id = ownField(entry, 'id');
          const seq = ownField(entry, 'seq');
          const changes = ownField(entry, 'changes');
          const first: unknown = Array.isArray(changes) ? changes[0] : undefined;
          const rev = isRecord(first) ? ownField(first, 'rev') : undefined;
          if (typeof id !== 'string') return [];
          return [
            {
              id,
              seq: typeof seq === 'string' ? seq : JSON.stringify(seq),
              deleted: ownField(entry, 'deleted') === true,
              ...(typeof rev === 'string' && { rev }),
            },
          ];
        }),
        lastSeq: typeof lastSeq === 'string' ? lastSeq : JSON.stringify(lastSeq ?? since),
      };
    },
  };
}
