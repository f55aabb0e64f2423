import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { treeConversation, type Row } from '../domain/__fixtures__/conversations.ts';
import type { AttachmentPart } from '../domain/attachments.ts';
import type { Conversation } from '../domain/conversation.ts';
import { conversationRecord } from '../domain/conversation-record.ts';
import { mergeConversations } from '../domain/message-tree.ts';
import type { Project } from '../domain/projects.ts';
import type { Prompt } from '../domain/prompts.ts';
import { startCouchServer } from '../../tools/couch-server/couch-server.mjs';
import { basicAuthorization, createCouchClient, type CouchLocation } from './couch-client.ts';
import { createReplicator, type LocalRecords, type ReplicationMemory } from './replicator.ts';
import { encryptedSealer, encryptionKeyFor, type Sealer } from './sealing.ts';
import { conversationKind, documentId, projectKind, promptKind, type SyncedKind } from './synced-kinds.ts';

type CouchServer = Awaited<ReturnType<typeof startCouchServer>>;
let server: CouchServer;

const admin = { name: 'me', password: 'pw' };
/** The server's limit on one attachment (CouchDB's `max_attachment_size`), small for the test. */
const attachmentLimit = 64 * 1024;
beforeAll(async () => {
  server = await startCouchServer({ admin, maxAttachmentSize: attachmentLimit });
});
afterAll(async () => {
  await server?.stop();
});

let databases = 0;
/** A fresh database on the server, created as a user would. */
async function freshLocation(): Promise<CouchLocation> {
  const location = {
    url: server.url,
    database: `chats-${++databases}`,
    username: admin.name,
    password: admin.password,
  };
  await fetch(`${server.url}/${location.database}`, {
    method: 'PUT',
    headers: { authorization: basicAuthorization(location) },
  });
  return location;
}

/** One kind's records on a device, merged as the app's storage merges them; `deleted`: deleted here, refused from the server. */
function memoryRecords<T>(kind: SyncedKind<T>, streaming: ReadonlySet<string> = new Set()) {
  const stored = new Map<string, T>();
  const deleted = new Set<string>();
  const records: LocalRecords<T> = {
    kind,
    read: async (id) => stored.get(id),
    async absorb(remote) {
      const id = kind.idOf(remote);
      if (deleted.has(id)) return false;
      const mine = stored.get(id);
      stored.set(id, mine === undefined ? remote : kind.merge(mine, remote));
      return true;
    },
    // Deleted by the server: gone, though not refused if the server brings it back.
    async remove(id) {
      stored.delete(id);
    },
    streaming: (id) => streaming.has(id),
  };
  return { stored, deleted, records };
}

/** A device: its stored records and files, its replicator. */
function device(location: CouchLocation, sealer?: Sealer) {
  const streaming = new Set<string>();
  const conversations = memoryRecords(conversationKind, streaming);
  const projects = memoryRecords(projectKind);
  const prompts = memoryRecords(promptKind);
  const files = new Map<string, Blob>();
  const onServer = new Set<string>();
  const leftOut = new Set<string>();
  let memory: ReplicationMemory = { since: '0' };
  const replicator = createReplicator({
    client: createCouchClient(location),
    records: [conversations.records, projects.records, prompts.records],
    files: {
      read: async (id) => files.get(id),
      // Held bytes are stored with the write that follows: here at once.
      stage: (id, blob) => files.set(id, blob),
      unstage: (id) => files.delete(id),
      onServer: (id) => onServer.has(id),
      markOnServer: (id) => onServer.add(id),
      leftOut: (id) => leftOut.add(id),
    },
    ...(sealer && { sealer }),
    memory,
    remember: (next) => (memory = next),
  });
  const conversationDocument = (id: string) => documentId('conversation', id);
  return {
    stored: conversations.stored,
    projects: projects.stored,
    prompts: prompts.stored,
    files,
    leftOut,
    streaming,
    replicator,
    push: (id: string) => replicator.push(conversationDocument(id)),
    /** An edit made here and saved (as the app's store saves it: merged). */
    save(conversation: Conversation) {
      const mine = conversations.stored.get(conversation.id);
      conversations.stored.set(conversation.id, mine ? mergeConversations(conversation, mine) : conversation);
    },
    deleteHere(id: string) {
      conversations.deleted.add(id);
      conversations.stored.delete(id);
      return replicator.pushDeletion(conversationDocument(id));
    },
    /** Pulls until the feed has nothing more. */
    async pullAll() {
      let applied = 0;
      for (let count = await replicator.pull(); count > 0; count = await replicator.pull()) applied += count;
      return applied;
    },
  };
}

const documentIdOf = (id: string) => documentId('conversation', id);

const texts = (conversation: Conversation | undefined) =>
  (conversation?.messages ?? []).map((message) =>
    message.parts.map((part) => ('text' in part ? part.text : '')).join(''),
  );

const question: Row[] = [
  ['s', null, 'system', 'You are a helpful assistant.'],
  ['q1', 's', 'user', 'Hello'],
  ['a1', 'q1', 'assistant', 'Hi there'],
];

/** A fresh database and two devices on it, the laptop's conversation 'c1' already on the phone too. */
async function sharedConversation() {
  const location = await freshLocation();
  const laptop = device(location);
  const phone = device(location);
  laptop.save(treeConversation('c1', question));
  await laptop.push('c1');
  await phone.replicator.pull();
  return { location, laptop, phone };
}

describe('replication with a CouchDB-protocol server', () => {
  it('sends a conversation from one device and the other receives it', async () => {
    const location = await freshLocation();
    const laptop = device(location);
    const phone = device(location);
    laptop.save(treeConversation('c1', question));
    expect(await laptop.push('c1')).toBe(true);
    expect(await phone.replicator.pull()).toBe(1);
    expect(texts(phone.stored.get('c1'))).toEqual(['You are a helpful assistant.', 'Hello', 'Hi there']);
    // Its own echo is not applied again.
    expect(await laptop.replicator.pull()).toBe(0);
  });

  it('edits made on both devices while apart are merged, nothing lost, the same on both', async () => {
    const { location, laptop, phone } = await sharedConversation();
    // Apart: each adds a turn of its own (and the phone regenerates the first reply).
    laptop.save(
      treeConversation('c1', [
        ...question,
        ['q2', 'a1', 'user', 'From the laptop'],
        ['a2', 'q2', 'assistant', 'L'],
      ]),
    );
    phone.save(
      treeConversation('c1', [
        ...question,
        ['q3', 'a1', 'user', 'From the phone'],
        ['a1b', 'q1', 'assistant', 'Another hello'],
      ]),
    );
    await laptop.push('c1');
    // The phone's write did not see the laptop's: refused (409), merged, sent again.
    await phone.push('c1');
    await laptop.replicator.pull();
    const onLaptop = laptop.stored.get('c1');
    const onPhone = phone.stored.get('c1');
    const all = ['s', 'q1', 'a1', 'q2', 'a2', 'q3', 'a1b'];
    expect(onLaptop?.messages.map((message) => message.id).sort()).toEqual([...all].sort());
    expect(onPhone?.messages.map((message) => message.id).sort()).toEqual([...all].sort());
    const remote = (await createCouchClient(location).get(documentIdOf('c1')))?.['data'] as {
      messages: unknown[];
      otherMessages?: unknown[];
    };
    expect(remote.messages.length + (remote.otherMessages?.length ?? 0)).toBe(all.length);
  });

  it('devices on different branches settle: a copy the server already holds is not written again', async () => {
    const location = await freshLocation();
    const client = createCouchClient(location);
    const laptop = device(location);
    const phone = device(location);
    const rows: Row[] = [...question, ['a1b', 'q1', 'assistant', 'Another hello']];
    laptop.save(treeConversation('c1', rows, { activeLeafId: 'a1' }));
    await laptop.push('c1');
    await phone.replicator.pull();
    // The phone looks at the other version: its view differs, its content does not.
    phone.save({ ...(phone.stored.get('c1') as Conversation), activeLeafId: 'a1b' });
    const before = (await client.get(documentIdOf('c1')))?._rev;
    await phone.push('c1');
    await laptop.push('c1');
    expect((await client.get(documentIdOf('c1')))?._rev).toBe(before);
    expect(phone.stored.get('c1')?.activeLeafId).toBe('a1b');
  });

  it('a conflict the server holds (another client replicated) is resolved by the merge, the losers removed', async () => {
    const location = await freshLocation();
    const client = createCouchClient(location);
    const laptop = device(location);
    laptop.save(treeConversation('c1', question));
    await laptop.push('c1');
    const base = await client.get(documentIdOf('c1'));
    // Two revisions written apart, as a replicating client leaves them: a conflict.
    const branch = (suffix: string, rows: Row[]) => ({
      ...base,
      _rev: `2-${suffix.repeat(32)}`,
      _revisions: { start: 2, ids: [suffix.repeat(32), (base?._rev ?? '').split('-')[1]] },
      data: conversationRecord(treeConversation('c1', rows)),
    });
    const response = await fetch(`${server.url}/${location.database}/_bulk_docs`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: basicAuthorization(location) },
      body: JSON.stringify({
        new_edits: false,
        docs: [
          branch('a', [...question, ['qa', 'a1', 'user', 'Branch A']]),
          branch('b', [...question, ['qb', 'a1', 'user', 'Branch B']]),
        ],
      }),
    });
    expect(response.ok).toBe(true);
    expect((await client.get(documentIdOf('c1'), { conflicts: true }))?._conflicts).toHaveLength(1);

    const phone = device(location);
    await phone.replicator.pull();
    expect(phone.stored.get('c1')?.messages.map((message) => message.id)).toEqual(
      expect.arrayContaining(['qa', 'qb']),
    );
    const after = await client.get(documentIdOf('c1'), { conflicts: true });
    expect(after?._conflicts).toBeUndefined();
  });

  it('a deletion reaches the other device, and a deleted conversation never comes back', async () => {
    const { location, laptop, phone } = await sharedConversation();
    await laptop.deleteHere('c1');
    await phone.replicator.pull();
    expect(phone.stored.has('c1')).toBe(false);
    // A device that had not heard of it, sending its copy late, does not bring it back: it forgets it too.
    const tablet = device(location);
    tablet.save(treeConversation('c1', [...question, ['q2', 'a1', 'user', 'Late']]));
    expect(await tablet.push('c1')).toBe(true);
    expect(tablet.stored.has('c1')).toBe(false);
    expect(await createCouchClient(location).get(documentIdOf('c1'))).toEqual({
      _id: documentIdOf('c1'),
      _deleted: true,
    });
  });

  it('a conversation streaming here is neither sent nor rewritten until the reply ends', async () => {
    const { laptop, phone } = await sharedConversation();
    phone.streaming.add('c1');
    phone.save(treeConversation('c1', [...question, ['q2', 'a1', 'user', 'Streaming now']]));
    expect(await phone.push('c1')).toBe(false);
    laptop.save(treeConversation('c1', [...question, ['q3', 'a1', 'user', 'Meanwhile']]));
    await laptop.push('c1');
    await phone.replicator.pull();
    expect(phone.stored.get('c1')?.messages.map((message) => message.id)).not.toContain('q3');
    // The reply ends: its conversation is sent, merged with what came meanwhile.
    phone.streaming.delete('c1');
    expect(await phone.push('c1')).toBe(true);
    expect(phone.stored.get('c1')?.messages.map((message) => message.id)).toEqual(
      expect.arrayContaining(['q2', 'q3']),
    );
  });

  it('a long history goes in bulk: merged with what the server has, tombstones respected', async () => {
    const location = await freshLocation();
    const laptop = device(location);
    const phone = device(location);
    // On the server already: one the phone wrote (the laptop has an older copy), one deleted.
    phone.save(treeConversation('c0', [...question, ['p1', 'a1', 'user', 'Phone turn']]));
    phone.save(treeConversation('c1', question));
    await phone.push('c0');
    await phone.push('c1');
    await phone.deleteHere('c1');
    for (let index = 0; index < 150; index++) laptop.save(treeConversation(`c${index}`, question));
    const left = await laptop.replicator.pushMany([...laptop.stored.keys()].map(documentIdOf));
    expect(left).toEqual([]);
    expect(laptop.stored.has('c1')).toBe(false);
    expect(laptop.stored.get('c0')?.messages.map((message) => message.id)).toContain('p1');
    let applied = 0;
    for (let page = phone.replicator.pull(); ; page = phone.replicator.pull()) {
      const count = await page;
      if (count === 0) break;
      applied += count;
    }
    expect(applied).toBeGreaterThanOrEqual(148);
    expect(phone.stored.size).toBe(149);
    expect(phone.stored.has('c1')).toBe(false);
  });

  it('projects and prompts: the later change wins whole on both devices, deletions reach the other', async () => {
    const location = await freshLocation();
    const laptop = device(location);
    const phone = device(location);
    laptop.projects.set('p1', project('p1', 'Garden', '2026-01-01T00:00:00.000Z'));
    laptop.prompts.set('t1', prompt('t1', 'Summarise', '2026-01-01T00:00:00.000Z'));
    await laptop.replicator.push(documentId('project', 'p1'));
    await laptop.replicator.push(documentId('prompt', 't1'));
    expect(await phone.pullAll()).toBe(2);
    expect(phone.projects.get('p1')?.name).toBe('Garden');
    expect(phone.prompts.get('t1')?.title).toBe('Summarise');
    // Renamed on both while apart: the later rename wins, on both.
    phone.projects.set('p1', project('p1', 'Allotment', '2026-01-03T00:00:00.000Z'));
    laptop.projects.set('p1', project('p1', 'Vegetables', '2026-01-02T00:00:00.000Z'));
    await phone.replicator.push(documentId('project', 'p1'));
    await laptop.replicator.push(documentId('project', 'p1'));
    await phone.pullAll();
    expect(laptop.projects.get('p1')?.name).toBe('Allotment');
    expect(phone.projects.get('p1')?.name).toBe('Allotment');
    await phone.replicator.pushDeletion(documentId('prompt', 't1'));
    await laptop.pullAll();
    expect(laptop.prompts.has('t1')).toBe(false);
    // Undone on the phone (Undo brings back the same prompt): written over its tombstone, it
    // returns to the laptop; a device merely late with its copy would have obeyed the tombstone.
    phone.prompts.set('t1', prompt('t1', 'Summarise', '2026-01-01T00:00:00.000Z'));
    expect(await phone.replicator.push(documentId('prompt', 't1'), { revive: true })).toBe(true);
    await laptop.pullAll();
    expect(laptop.prompts.get('t1')?.title).toBe('Summarise');
  });

  it('files go as attachments of their own documents; one over the server’s limit is left out, said on both', async () => {
    const location = await freshLocation();
    const laptop = device(location);
    const phone = device(location);
    const small = new Blob([new Uint8Array(1000).fill(7)], { type: 'image/png' });
    const large = new Blob([new Uint8Array(attachmentLimit + 1)], { type: 'application/pdf' });
    laptop.files.set('f-small', small);
    laptop.files.set('f-large', large);
    laptop.save(withFiles('c1', [file('f-small', small), file('f-large', large)]));
    expect(await laptop.push('c1')).toBe(true);
    expect(laptop.leftOut.has('f-large')).toBe(true);
    await phone.pullAll();
    const received = phone.files.get('f-small');
    expect(received?.type).toBe('image/png');
    expect(new Uint8Array((await received?.arrayBuffer()) ?? new ArrayBuffer(0))).toEqual(
      new Uint8Array(1000).fill(7),
    );
    expect(phone.files.has('f-large')).toBe(false);
    expect(phone.leftOut.has('f-large')).toBe(true);
    expect(phone.stored.get('c1')?.messages.at(-1)?.parts).toHaveLength(3);
  });

  it('sealed end to end: the server holds no plaintext; the same passphrase reads it, another does not', async () => {
    const location = await freshLocation();
    const client = createCouchClient(location);
    const made = await encryptionKeyFor(client, 'correct horse');
    expect(made).toMatchObject({ ok: true, created: true });
    const again = await encryptionKeyFor(client, 'correct horse');
    expect(again).toMatchObject({ ok: true, created: false });
    expect(await encryptionKeyFor(client, 'wrong horse')).toEqual({ ok: false, reason: 'wrong-passphrase' });
    if (!made.ok || !again.ok) return;
    const laptop = device(location, encryptedSealer(made.key));
    const phone = device(location, encryptedSealer(again.key));
    const plain = device(location);
    const secret = 'The secret garden is behind the shed';
    const bytes = new Blob([new TextEncoder().encode(secret)], { type: 'text/plain' });
    laptop.files.set('f1', bytes);
    laptop.save(withFiles('c1', [file('f1', bytes)], secret));
    laptop.prompts.set('t1', prompt('t1', secret, '2026-01-01T00:00:00.000Z'));
    await laptop.push('c1');
    await laptop.replicator.push(documentId('prompt', 't1'));
    const everything = await fetch(
      `${server.url}/${location.database}/_all_docs?include_docs=true&attachments=true`,
      { headers: { authorization: basicAuthorization(location) } },
    ).then((response) => response.text());
    const attachment = await fetch(`${server.url}/${location.database}/file:f1/data`, {
      headers: { authorization: basicAuthorization(location) },
    }).then((response) => response.text());
    for (const held of [everything, attachment]) {
      expect(held).not.toContain('secret garden');
      expect(held).not.toContain('Summarise');
    }
    expect(everything).toContain('"_id":"conversation:c1"');
    await phone.pullAll();
    expect(texts(phone.stored.get('c1'))).toContain(secret);
    expect(phone.prompts.get('t1')?.title).toBe(secret);
    expect(await phone.files.get('f1')?.text()).toBe(secret);
    // A device without the key reads nothing of it, and writes nothing over it.
    expect(await plain.pullAll()).toBe(0);
    expect(plain.stored.size).toBe(0);
    const before = (await client.get(documentIdOf('c1')))?._rev;
    plain.save(treeConversation('c1', question));
    expect(await plain.push('c1')).toBe(true);
    expect((await client.get(documentIdOf('c1')))?._rev).toBe(before);
  });

  it('a wrong password is refused with the server’s reason', async () => {
    const guarded = await startCouchServer({ admin: { name: 'me', password: 'right' } });
    try {
      const client = createCouchClient({
        url: guarded.url,
        database: 'chats',
        username: 'me',
        password: 'wrong',
      });
      await expect(client.changes('0')).rejects.toMatchObject({ status: 401 });
    } finally {
      await guarded.stop();
    }
  });
});

function project(id: string, name: string, updatedAt: string): Project {
  return { id, name, instructions: '', files: [], createdAt: '2026-01-01T00:00:00.000Z', updatedAt };
}

function prompt(id: string, title: string, updatedAt: string): Prompt {
  return { id, title, body: 'Summarise {{text}}', createdAt: '2026-01-01T00:00:00.000Z', updatedAt };
}

function file(id: string, blob: Blob): AttachmentPart {
  const kind = blob.type.startsWith('image/') ? 'image' : blob.type === 'application/pdf' ? 'pdf' : 'text';
  return { type: 'attachment', id, kind, name: `${id}.bin`, mimeType: blob.type, size: blob.size };
}

/** A conversation whose question carries these files. */
function withFiles(id: string, files: AttachmentPart[], text = 'What is in these?'): Conversation {
  const conversation = treeConversation(id, [...question.slice(0, 2)]);
  const [system, ask] = conversation.messages as [
    Conversation['messages'][number],
    Conversation['messages'][number],
  ];
  return { ...conversation, messages: [system, { ...ask, parts: [...files, { type: 'text', text }] }] };
}
