// The plugin in a real browser: headless Chromium (Debian's package) driven by puppeteer-core,
// against a real Prosody (WebSocket, the page) and the real component, with a Smack client.
// Alice and Bob use the page; Carol is test/SmackPeer.java. Screenshots: web-client/screenshots/.
import test from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { mkdirSync } from 'node:fs';
import { startServers, startPeer, runDir, until, WEB, DOMAIN } from './harness.js';
import { VECTORS, read, batchText } from './vectors.js';
import { launch, openPage } from './browser.js';

const ROOM = `web@${DOMAIN}`;
const SHOTS = path.join(WEB, 'screenshots');

const state = (page, room = ROOM) => page.evaluate((r) => {
  const s = globalThis.reconmuc?.rooms.get(r);
  return s && { status: s.status, requirements: s.requirements, active: s.active, batches: s.batches, refused: s.refused,
    delayed: s.delayed, topics: Object.fromEntries(s.topics) };
}, room);

/** The messages shown in a room, top to bottom: text, classes and the time Converse sorts them by. */
const shown = (page, room = ROOM) => page.evaluate((r) => [...document.querySelectorAll(`converse-muc[jid="${r}"] .message.chat-msg`)]
  .map((e) => ({ text: e.querySelector('.chat-msg__text')?.textContent.trim() ?? '', classes: e.className.split(/\s+/),
    time: e.dataset.isodate })), room);

/** The first words of the messages shown that are among `words`, top to bottom (with their times, for the log). */
const order = async (page, words) => (await shown(page)).map((m) => ({ word: m.text.split(/\s/)[0], time: m.time }))
  .filter((m) => words.includes(m.word));

const find = async (page, word) => (await shown(page)).find((m) => m.text.includes(word));

async function shot(page, name) {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`) });
}

test('relaxed consistency in Converse.js: at once, batched, released, replies, bad batches', { timeout: 240000 }, async (t) => {
  const log = (s) => t.diagnostic(s);
  const servers = await startServers(runDir('browser'));
  let browser; let carol;
  try {
    // Carol (Smack) creates the room; a volume of 3 and a long time bound make the batches deterministic.
    carol = await startPeer({ c2s: servers.c2s, room: ROOM, nick: 'Carol', log });
    browser = await launch();
    const url = (user, topic, extra = '') => `${servers.pageUrl}?jid=${user.toLowerCase()}@insecure.localhost&password=pw`
      + `&room=${ROOM}&nick=${user}&topic=${topic}&volume=3&time=600${extra}`;
    // Alice: compact-deflate; no stream management, since the test puts forged stanzas on her socket
    // and XEP-0198 would (rightly) count them as sent by the server. Erin: the default,
    // compact-deflate-live, where what comes at once travels in her stream too (§5.9 rule 8.6).
    const alice = await openPage(browser, url('Alice', 'cats', '&smacks=off&aggregation=compact-deflate'), log);
    const bob = await openPage(browser, url('Bob', 'dogs', '&aggregation=deflate'), log);
    const erin = await openPage(browser, url('Erin', 'cats'), log);
    for (const [name, page] of [['Alice', alice], ['Bob', bob], ['Erin', erin]]) {
      await until(`${name} in relaxed mode`, async () => (await state(page))?.status === 'relaxed', 60000);
    }
    assert.equal((await state(alice)).requirements.aggregation, 'compact-deflate');
    assert.equal((await state(erin)).requirements.aggregation, 'compact-deflate-live');
    assert.deepEqual((await state(alice)).requirements.filter, [{ element: 'topic', value: 'cats', active: true }]);
    assert.equal((await state(bob)).requirements.aggregation, 'deflate');
    // A small room is joined as before: no presence level, the whole occupant list as Converse keeps it.
    const join = (await alice.evaluate(() => window.__sent)).find((f) => f.startsWith('<presence') && f.includes(`${ROOM}/Alice`));
    assert.ok(join && !join.includes('urn:reconmuc:0'), `a plain XEP-0045 join: ${join}`);
    assert.equal(await alice.evaluate((r) => globalThis.reconmuc.bigRooms.has(r)
      || document.querySelector(`converse-muc[jid="${r}"] .reconmuc-occupant-pages`) !== null, ROOM), false);

    // 1. The follower of a topic gets its messages at once; the rest wait for a batch.
    //    cat1 and dog1 go early in one second, so that the compact batches' whole-second stamp of dog1
    //    is earlier than cat1's arrival: dog1 is still shown below cat1, in the room's order (issue 35).
    await until('the start of a second', () => Date.now() % 1000 < 100, 3000, 5);
    await carol.cmd('send cats cat1 the cat sleeps');
    await until('cat1 at Alice', () => find(alice, 'cat1'), 10000);
    assert.ok(!(await find(alice, 'cat1')).classes.includes('reconmuc-delayed'), 'cat1 came at once');
    await carol.cmd('send dogs dog1 the dog barks');
    await carol.cmd('send dogs dog2 the dog runs');
    await until('dog2 at Bob', () => find(bob, 'dog2'), 10000);
    assert.ok(!(await find(bob, 'dog1')).classes.includes('reconmuc-delayed'));
    assert.equal(await find(alice, 'dog1'), undefined, 'dog1 is retained for Alice');
    assert.equal(await find(bob, 'cat1'), undefined, 'cat1 is retained for Bob');
    await carol.cmd('send dogs dog3 the dog eats');
    await until('the batch at Alice', async () => (await state(alice)).batches.length === 1, 10000);
    const a1 = await state(alice);
    assert.deepEqual(a1.batches.map((b) => [b.form, b.encoding, b.n, b.count]), [['compact', 'deflate-stream', 1, 3]]);
    for (const w of ['dog1', 'dog2', 'dog3']) {
      await until(`${w} shown at Alice`, () => find(alice, w), 5000);
      assert.ok((await find(alice, w)).classes.includes('reconmuc-delayed'), `${w} is marked delayed`);
    }
    assert.equal(a1.topics.dogs.unread, 3);
    const pets = ['cat1', 'dog1', 'dog2', 'dog3'];
    const atAlice = await order(alice, pets);
    log(`Alice's order: ${JSON.stringify(atAlice)}`);
    assert.deepEqual(atAlice.map((m) => m.word), pets, 'the room\'s order at Alice, whatever the stamps');
    // Erin got cat1 as a live item (a batch of one, shown at once), and the dogs in a flush of her stream.
    await until('the flush at Erin', async () => (await state(erin)).batches.length === 2, 10000);
    assert.deepEqual((await state(erin)).batches.map((b) => [b.n, b.count, b.live]), [[1, 1, true], [2, 3, false]]);
    assert.ok(!(await find(erin, 'cat1')).classes.includes('reconmuc-delayed'), 'the live cat1 is not marked delayed');
    for (const w of ['dog1', 'dog2', 'dog3']) {
      await until(`${w} shown at Erin`, () => find(erin, w), 5000);
      assert.ok((await find(erin, w)).classes.includes('reconmuc-delayed'), `${w} is marked delayed at Erin`);
    }
    const atErin = await order(erin, pets);
    log(`Erin's order: ${JSON.stringify(atErin)}`);
    assert.deepEqual(atErin.map((m) => m.word), pets, 'the room\'s order at Erin');
    assert.equal(await alice.$eval('.reconmuc-topic[data-topic="dogs"]', (b) => b.dataset.unread), '3');
    await shot(alice, 'alice-batch-delayed');

    // 2. A topic switch releases the backlog: Bob follows cats and gets cat1 from the room at once.
    await bob.type('.reconmuc-new-topic input', 'cats');
    await bob.keyboard.press('Enter');
    await until('cat1 released to Bob', () => find(bob, 'cat1'), 10000);
    assert.ok((await find(bob, 'cat1')).classes.includes('reconmuc-delayed'), 'the released cat1 is marked delayed');
    const b1 = await state(bob);
    assert.equal(b1.active, 'cats');
    assert.deepEqual(b1.requirements.filter, [{ element: 'topic', value: 'cats', active: true }]);
    assert.deepEqual(b1.batches.map((b) => [b.form, b.encoding, b.count]), [['forwarded', 'deflate', 1]]);
    assert.deepEqual((await order(bob, pets)).map((m) => m.word), pets, 'the released cat1 above the dogs it came before');
    await shot(bob, 'bob-topic-switch-release');

    // 3. What Alice sends carries her topic; a reply to it reaches her at once, highlighted, whatever its topic.
    await alice.type('converse-muc-message-form textarea', 'question42 who feeds the cat?');
    await alice.keyboard.press('Enter');
    await until('question42 at Bob (cats)', () => find(bob, 'question42'), 10000);
    assert.match((await find(bob, 'question42')).text, /#cats/, 'tagged with the active topic');
    assert.match(await alice.evaluate(() => globalThis.__sent.find((f) => f.includes('question42'))),
      /<topic xmlns=["']urn:reconmuc:0["']>cats<\/topic>/, 'in a <topic/> element the room reads');
    await carol.cmd('reply question42 birds answer42 I do, every morning');
    await until('the reply at Alice', () => find(alice, 'answer42'), 10000);
    const reply = await find(alice, 'answer42');
    assert.ok(reply.classes.includes('reconmuc-reply-to-me'), `highlighted: ${reply.classes}`);
    assert.ok(!reply.classes.includes('reconmuc-delayed'), 'the reply came at once');
    await carol.cmd('send birds Alice: mention77 look at this');
    await until('the mention at Alice', () => find(alice, 'mention77'), 10000);
    assert.ok((await find(alice, 'mention77')).classes.includes('reconmuc-mention'));
    await shot(alice, 'alice-reply-and-mention');

    // 4. Bad batches, forged and put on Alice's WebSocket as if the server had sent them: refused whole,
    //    the page goes on, and her deflate stream starts again.
    const me = await alice.evaluate(() => globalThis.__sockets.length);
    assert.ok(me >= 1);
    const before = (await shown(alice)).length;
    const forge = (name) => {
      const { stanza } = read(name, path.join(VECTORS, 'malformed'));
      return `<message xmlns='jabber:client' from='${ROOM}' to='alice@insecure.localhost' type='groupchat'>${batchText(stanza)}</message>`;
    };
    const inject = (xml) => alice.evaluate((x) => {
      const ws = globalThis.__sockets.at(-1);
      ws.dispatchEvent(new MessageEvent('message', { data: x }));
    }, xml);
    for (const name of ['deflate-bomb.xml', 'compact-count-mismatch.xml', 'deflate-stream-skipped-number.xml']) {
      await inject(forge(name));
    }
    // A batch from an occupant's JID is never read (§5.13 rule 2).
    await inject(`<message xmlns='jabber:client' from='${ROOM}/Carol' to='alice@insecure.localhost' type='groupchat'>`
      + `${batchText(read('batch-plain-3').stanza)}</message>`);
    await until('three refusals', async () => (await state(alice)).refused.length === 3, 10000);
    const refused = (await state(alice)).refused.map((r) => r.reason);
    assert.match(refused[0], /more than its size of 100/);
    assert.match(refused[1], /count is 2/);
    assert.match(refused[2], /n='3' where n='2' was due/);
    assert.equal((await shown(alice)).length, before, 'nothing of the bad batches is shown');
    // The page still works: at once, and a new stream (n='1') for the next batch.
    await carol.cmd('send cats cat2 after the bad batches');
    await until('cat2 at Alice', () => find(alice, 'cat2'), 10000);
    for (const w of ['fish1', 'fish2', 'fish3']) await carol.cmd(`send fish ${w} swims`);
    await until('a new batch at Alice', async () => (await state(alice)).batches.length === 2, 10000);
    const last = (await state(alice)).batches.at(-1);
    assert.deepEqual([last.encoding, last.n], ['deflate-stream', 1], 'the stream was started again');
    await until('fish3 at Alice', () => find(alice, 'fish3'), 5000);
    // At Erin, cat2 came live and took along what was retained for her since (the birds: the reply
    // and the mention), shown delayed at their times.
    await until('cat2 at Erin', () => find(erin, 'cat2'), 10000);
    assert.ok(!(await find(erin, 'cat2')).classes.includes('reconmuc-delayed'));
    for (const w of ['answer42', 'mention77']) {
      await until(`${w} at Erin`, () => find(erin, w), 5000);
      assert.ok((await find(erin, w)).classes.includes('reconmuc-delayed'), `${w} came along, delayed`);
    }
    const carried = (await state(erin)).batches.find((b) => b.live && b.count === 3);
    assert.ok(carried, `a live batch carried the two retained messages: ${JSON.stringify((await state(erin)).batches)}`);
    await shot(alice, 'alice-after-bad-batches');

    // 5. A hashtag Alice types herself is her choice of topic: sent as typed, tagged with it, not with
    //    her active #cats too (issue 35: "hello dogs people #dogs" left as "… #dogs #cats").
    await alice.type('converse-muc-message-form textarea', 'hello dogs people #Dogs');
    await alice.keyboard.press('Enter');
    const sent = await until('Alice sent it', () => alice.evaluate(() => globalThis.__sent.find((f) => f.includes('hello dogs people'))), 10000);
    log(`Alice sent: ${sent}`);
    assert.match(sent, /<body>hello dogs people #Dogs<\/body>/, 'the body as typed');
    assert.match(sent, /<topic xmlns=["']urn:reconmuc:0["']>dogs<\/topic>/, 'tagged with the topic she typed');
    assert.doesNotMatch(sent, /cats/, 'not with her active topic');
    await until('shown as typed', async () => (await find(alice, 'hello dogs people'))?.text === 'hello dogs people #Dogs', 10000);

    // 6. A room without the feature (Prosody's own MUC) stays a normal room.
    const dave = await openPage(browser, `${servers.pageUrl}?jid=dave@insecure.localhost&password=pw`
      + '&room=plain@conference.localhost&nick=Dave&topic=cats', log);
    await until('Dave in a plain room', async () => (await state(dave, 'plain@conference.localhost'))?.status === 'standard', 60000);
    await dave.type('converse-muc-message-form textarea', 'plain99 hello');
    await dave.keyboard.press('Enter');
    await until('Dave sees his message', async () => (await shown(dave, 'plain@conference.localhost')).some((m) => m.text === 'plain99 hello'), 10000);
    await shot(dave, 'dave-plain-room');
  } finally {
    await browser?.close();
    await carol?.quit();
    await servers.stop();
  }
});
