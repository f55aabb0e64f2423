import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { treeConversation, type Row } from '../domain/__fixtures__/conversations.ts';
import type { Conversation } from '../domain/conversation.ts';
import { conversationRecord } from '../domain/conversation-record.ts';
import { mergeConversations } from '../domain/message-tree.ts';
import { startCouchServer } from '../../tools/couch-server/couch-server.mjs';
import { basicAuthorization, createCouchClient, type CouchLocation } from './couch-client.ts';
import { createReplicator, documentIdOf, type LocalSide, type ReplicationMemory } from './replicator.ts';

type CouchServer = Awaited<ReturnType<typeof startCouchServer>>;
let server: CouchServer;

const admin = { name: 'me', password: 'pw' };
beforeAll(async () => {
  server = await startCouchServer({ admin });
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

/** A device: its stored conversations (merged as storage merges), its deletions, its replicator. */
function device(location: CouchLocation) {
  const stored = new Map<string, Conversation>();
  const deleted = new Set<string>();
  const streaming = new Set<string>();
  let memory: ReplicationMemory = { since: '0' };
  const local: LocalSide = {
    read: async (id) => stored.get(id),
    async absorb(remote) {
      if (deleted.has(remote.id)) return false;
      const mine = stored.get(remote.id);
      stored.set(remote.id, mine ? mergeConversations(mine, remote) : remote);
      return true;
    },
    async remove(id) {
      deleted.add(id);
      stored.delete(id);
    },
    streaming: (id) => streaming.has(id),
  };
  const replicator = createReplicator({
    client: createCouchClient(location),
    local,
    memory,
    remember: (next) => (memory = next),
  });
  return {
    stored,
    streaming,
    replicator,
    /** An edit made here and saved (as the app's store saves it: merged). */
    save(conversation: Conversation) {
      const mine = stored.get(conversation.id);
      stored.set(conversation.id, mine ? mergeConversations(conversation, mine) : conversation);
    },
    deleteHere(id: string) {
      deleted.add(id);
      stored.delete(id);
      return replicator.pushDeletion(id);
    },
  };
}

const texts = (conversation: Conversation | undefined) =>
  (conversation?.messages ?? []).map((message) =>
    message.parts.map((part) => ('text' in part ? part.text : '')).join(''),
  );

const question: Row[] = [
  ['s', null, 'system', 'You are a helpful assistant.'],
  ['q1', 's', 'user', 'Hello'],
  ['a1', 'q1', 'assistant', 'Hi there'],
];

describe('replication with a CouchDB-protocol server', () => {
  it('sends a conversation from one device and the other receives it', async () => {
    const location = await freshLocation();
    const laptop = device(location);
    const phone = device(location);
    laptop.save(treeConversation('c1', question));
    expect(await laptop.replicator.push('c1')).toBe(true);
    expect(await phone.replicator.pull()).toBe(1);
    expect(texts(phone.stored.get('c1'))).toEqual(['You are a helpful assistant.', 'Hello', 'Hi there']);
    // Its own echo is not applied again.
    expect(await laptop.replicator.pull()).toBe(0);
  });

  it('edits made on both devices while apart are merged, nothing lost, the same on both', async () => {
    const location = await freshLocation();
    const laptop = device(location);
    const phone = device(location);
    laptop.save(treeConversation('c1', question));
    await laptop.replicator.push('c1');
    await phone.replicator.pull();
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
    await laptop.replicator.push('c1');
    // The phone's write did not see the laptop's: refused (409), merged, sent again.
    await phone.replicator.push('c1');
    await laptop.replicator.pull();
    const onLaptop = laptop.stored.get('c1');
    const onPhone = phone.stored.get('c1');
    const all = ['s', 'q1', 'a1', 'q2', 'a2', 'q3', 'a1b'];
    expect(onLaptop?.messages.map((message) => message.id).sort()).toEqual([...all].sort());
    expect(onPhone?.messages.map((message) => message.id).sort()).toEqual([...all].sort());
    const remote = (await createCouchClient(location).get(documentIdOf('c1')))?.['conversation'] as {
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
    await laptop.replicator.push('c1');
    await phone.replicator.pull();
    // The phone looks at the other version: its view differs, its content does not.
    phone.save({ ...(phone.stored.get('c1') as Conversation), activeLeafId: 'a1b' });
    const before = (await client.get(documentIdOf('c1')))?._rev;
    await phone.replicator.push('c1');
    await laptop.replicator.push('c1');
    expect((await client.get(documentIdOf('c1')))?._rev).toBe(before);
    expect(phone.stored.get('c1')?.activeLeafId).toBe('a1b');
  });

  it('a conflict the server holds (another client replicated) is resolved by the merge, the losers removed', async () => {
    const location = await freshLocation();
    const client = createCouchClient(location);
    const laptop = device(location);
    laptop.save(treeConversation('c1', question));
    await laptop.replicator.push('c1');
    const base = await client.get(documentIdOf('c1'));
    // Two revisions written apart, as a replicating client leaves them: a conflict.
    const branch = (suffix: string, rows: Row[]) => ({
      ...base,
      _rev: `2-${suffix.repeat(32)}`,
      _revisions: { start: 2, ids: [suffix.repeat(32), (base?._rev ?? '').split('-')[1]] },
      conversation: conversationRecord(treeConversation('c1', rows)),
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
    const location = await freshLocation();
    const laptop = device(location);
    const phone = device(location);
    laptop.save(treeConversation('c1', question));
    await laptop.replicator.push('c1');
    await phone.replicator.pull();
    await laptop.deleteHere('c1');
    await phone.replicator.pull();
    expect(phone.stored.has('c1')).toBe(false);
    // A device that had not heard of it, sending its copy late, does not bring it back: it forgets it too.
    const tablet = device(location);
    tablet.save(treeConversation('c1', [...question, ['q2', 'a1', 'user', 'Late']]));
    expect(await tablet.replicator.push('c1')).toBe(true);
    expect(tablet.stored.has('c1')).toBe(false);
    expect(await createCouchClient(location).get(documentIdOf('c1'))).toEqual({
      _id: documentIdOf('c1'),
      _deleted: true,
    });
  });

  it('a conversation streaming here is neither sent nor rewritten until the reply ends', async () => {
    const location = await freshLocation();
    const laptop = device(location);
    const phone = device(location);
    laptop.save(treeConversation('c1', question));
    await laptop.replicator.push('c1');
    await phone.replicator.pull();
    phone.streaming.add('c1');
    phone.save(treeConversation('c1', [...question, ['q2', 'a1', 'user', 'Streaming now']]));
    expect(await phone.replicator.push('c1')).toBe(false);
    laptop.save(treeConversation('c1', [...question, ['q3', 'a1', 'user', 'Meanwhile']]));
    await laptop.replicator.push('c1');
    await phone.replicator.pull();
    expect(phone.stored.get('c1')?.messages.map((message) => message.id)).not.toContain('q3');
    // The reply ends: its conversation is sent, merged with what came meanwhile.
    phone.streaming.delete('c1');
    expect(await phone.replicator.push('c1')).toBe(true);
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
    await phone.replicator.push('c0');
    await phone.replicator.push('c1');
    await phone.deleteHere('c1');
    for (let index = 0; index < 150; index++) laptop.save(treeConversation(`c${index}`, question));
    const left = await laptop.replicator.pushMany([...laptop.stored.keys()]);
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
