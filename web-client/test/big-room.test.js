// A person in a big room (issue 45, item 4): headless Chromium against a real Prosody and the real
// component, in a room that irc-replay's light bots fill (BIG_ROOM_BOTS, 1,500 by default). The page
// reads the room's size before joining, joins at the presence level `moderators` and states a
// digest (no filter, 60 s); it shows the room's last messages, the room's size, and the occupants a
// page of disco#items at a time as the list is scrolled. Carol (test/SmackPeer.java) speaks.
import test from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { mkdirSync } from 'node:fs';
import { startServers, startPeer, fillRoom, runDir, until, WEB, DOMAIN } from './harness.js';
import { launch, openPage } from './browser.js';
import { parseXml, elements, attr } from '../src/xml.js';

const ROOM = `crowd@${DOMAIN}`;
const BOTS = Number.parseInt(process.env.BIG_ROOM_BOTS || '1500', 10);
const HISTORY = 30;

const frames = (page, way) => page.evaluate((w) => (w === 'sent' ? window.__sent : window.__in), way);
const quote = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const attrIs = (name, value) => new RegExp(`\\s${name}=["']${quote(value)}["']`);

/** What the page shows of the room: the messages, top to bottom, and the occupant list. */
const view = (page) => page.evaluate((r) => {
  const muc = document.querySelector(`converse-muc[jid="${r}"]`);
  const list = muc?.querySelector('converse-muc-occupants');
  return {
    messages: [...(muc?.querySelectorAll('.message.chat-msg') ?? [])].map((e) => ({
      text: e.querySelector('.chat-msg__text')?.textContent.trim() ?? '', delayed: e.classList.contains('reconmuc-delayed') })),
    heading: list?.querySelector('.occupants-heading')?.textContent.trim() ?? null,
    moderators: [...(list?.querySelectorAll('converse-muc-occupant-list-item') ?? [])].map((e) => e.textContent.trim()),
    listed: [...(list?.querySelectorAll('.reconmuc-occupant') ?? [])].map((e) => e.textContent.trim()),
    more: list?.querySelector('.reconmuc-occupants-more')?.textContent.trim() ?? null,
  };
}, ROOM);

const state = (page) => page.evaluate((r) => {
  const s = globalThis.reconmuc?.rooms.get(r);
  const b = globalThis.reconmuc?.bigRooms.get(r);
  return { status: s?.status, requirements: s?.requirements, batches: s?.batches ?? [], delayed: s?.delayed ?? 0,
    big: b ? { level: b.level, count: b.pages.count, loaded: b.pages.nicks.length, pages: b.pages.pages } : null };
}, ROOM);

/** The last frames each way, for a failure's log. */
async function dump(page, log) {
  for (const way of ['sent', 'in']) log(`${way}:\n${(await frames(page, way)).slice(-25).map((f) => f.slice(0, 600)).join('\n')}`);
  log(`state: ${JSON.stringify(await state(page))}`);
}

/** Scrolls the occupant list to its end, as a user does. */
const scrollOccupants = (page) => page.evaluate((r) => {
  const list = document.querySelector(`converse-muc[jid="${r}"] .reconmuc-occupant-pages`);
  list.scrollTop = list.scrollHeight;
}, ROOM);

test(`a big room (${BOTS} light bots) in Converse.js: moderators' presences only, a digest, the last messages, the occupants a page at a time`,
  { timeout: 420000 }, async (t) => {
    const log = (s) => t.diagnostic(s);
    const dir = runDir('big-room');
    const servers = await startServers(dir);
    let fill; let carol; let browser;
    try {
      // Bot 0 creates the room (its owner: a moderator); the others join at level none, 90 % of them relaxed.
      fill = await fillRoom({ c2s: servers.c2s, room: ROOM, bots: BOTS, options: ['--relaxed-share', '0.9'], log, dir });
      carol = await startPeer({ c2s: servers.c2s, room: ROOM, nick: 'Carol', log });
      const history = Array.from({ length: HISTORY }, (_, i) => `history-${String(i + 1).padStart(2, '0')} said before Alice came`);
      await carol.cmd(`replay ${HISTORY} 120`, history); // within the room's 10 messages a second

      browser = await launch();
      const url = (user, extra = '') => `${servers.pageUrl}?jid=${user.toLowerCase()}@insecure.localhost&password=pw&room=${ROOM}`
        + `&nick=${user}${extra}`;
      const opened = Date.now();
      const alice = await openPage(browser, url('Alice'), log);

      // 1. The last messages: the room's archive (Converse's MAM query on entering), Carol's last one at the bottom.
      await until('the last messages shown', async () => (await view(alice)).messages.some((m) => m.text.startsWith('history-30')), 60000)
        .catch(async (e) => { await dump(alice, log); throw e; });
      log(`Alice sees the last messages ${Date.now() - opened} ms after the page opened (login included)`);
      const shownHistory = (await view(alice)).messages.map((m) => m.text.split(' ')[0]).filter((w) => w.startsWith('history-'));
      assert.deepEqual(shownHistory, history.map((h) => h.split(' ')[0]), 'every history message, in order');

      // 2. What the page sent: disco#info first (the room's size), then the join at level moderators, then a digest.
      await until('Alice relaxed', async () => (await state(alice)).status === 'relaxed', 30000);
      const sent = await frames(alice, 'sent');
      const info = sent.findIndex((f) => f.startsWith('<iq') && attrIs('to', ROOM).test(f) && f.includes('disco#info'));
      const join = sent.findIndex((f) => f.startsWith('<presence') && attrIs('to', `${ROOM}/Alice`).test(f)
        && f.includes('http://jabber.org/protocol/muc'));
      assert.ok(info >= 0 && join > info, `disco#info (${info}) before the join (${join})`);
      const levels = elements(parseXml(sent[join], { defaultNs: 'jabber:client' }), 'presences', 'urn:reconmuc:0');
      assert.deepEqual(levels.map((l) => attr(l, 'level')), ['moderators'], sent[join]);
      const required = sent.find((f) => f.includes('consistency-requirements'));
      log(`Alice's requirements: ${required}`);
      assert.match(required, /<filter\/>/);
      assert.match(required, /<time>60<\/time>/);
      const a = await state(alice);
      assert.deepEqual([a.requirements.filter, a.requirements.time, a.requirements.volume, a.requirements.aggregation],
        [[], 60, 100, 'compact-deflate-live'], 'a digest: no filter, 60 s, the room\'s largest volume');
      assert.equal(a.big.level, 'moderators');

      // 3. What the room sent her: the moderators' presences (bot 0, the owner) and her own, not 1,500.
      const presences = (await frames(alice, 'in')).filter((f) => f.startsWith('<presence') && new RegExp(`\\sfrom=["']${quote(ROOM)}/`).test(f));
      log(`presences from the room: ${presences.length}`);
      assert.equal(presences.length, 2, presences.join('\n'));
      assert.ok(presences.some((f) => f.includes('role="moderator"') || f.includes("role='moderator'")), 'a moderator\'s');
      assert.ok(presences.some((f) => f.includes('code="110"') || f.includes("code='110'")), 'her own');

      // 4. The occupant list: the room's size, the moderator, and a first page of everyone; more on scrolling.
      const total = BOTS + 2; // the bots, Carol and Alice
      await until('the first page of occupants', async () => (await view(alice)).listed.length === 100, 30000);
      let v = await view(alice);
      assert.equal(v.heading, `${total.toLocaleString('en')} participants`);
      assert.equal(v.moderators.length, 1, `one moderator: ${v.moderators}`);
      assert.equal((await state(alice)).big.pages, 1, 'one page loaded: only what is in view');
      mkdirSync(path.join(WEB, 'screenshots'), { recursive: true });
      await alice.screenshot({ path: path.join(WEB, 'screenshots', 'alice-big-room.png') });
      for (const n of [200, 300]) {
        await scrollOccupants(alice);
        await until(`${n} occupants listed after scrolling`, async () => (await view(alice)).listed.length === n, 30000);
      }
      v = await view(alice);
      assert.equal(new Set(v.listed).size, 300, 'no occupant twice');
      const pageRequests = (await frames(alice, 'sent')).filter((f) => f.includes('disco#items') && attrIs('to', ROOM).test(f));
      assert.equal(pageRequests.length, 3, pageRequests.join('\n'));
      assert.match(pageRequests[0], /<max>100<\/max>/);
      assert.ok(pageRequests[1].includes(`<after>${v.listed[99]}</after>`), `the second page after the 100th: ${pageRequests[1]}`);
      assert.ok(pageRequests[2].includes(`<after>${v.listed[199]}</after>`), pageRequests[2]);

      // 5. The digest: Bob (time bound 4 s) gets what Carol says now in one batch, marked delayed;
      //    Alice (60 s) does not have it yet.
      const bob = await openPage(browser, url('Bob', '&time=4'), log);
      await until('Bob relaxed', async () => (await state(bob)).status === 'relaxed', 60000);
      assert.equal((await state(bob)).requirements.time, 4);
      const before = (await state(bob)).batches.length;
      await carol.cmd('replay 3 120', ['digest-1 after Bob came', 'digest-2 after Bob came', 'digest-3 after Bob came']);
      await until('the digest at Bob', async () => (await view(bob)).messages.filter((m) => m.text.startsWith('digest-')).length === 3, 30000);
      const digest = (await view(bob)).messages.filter((m) => m.text.startsWith('digest-'));
      assert.ok(digest.every((m) => m.delayed), 'marked delayed');
      assert.ok((await state(bob)).batches.length > before, 'in a batch');
      assert.equal((await view(alice)).messages.filter((m) => m.text.startsWith('digest-')).length, 0, 'retained for Alice (60 s)');
      await bob.screenshot({ path: path.join(WEB, 'screenshots', 'bob-big-room-digest.png') });
    } finally {
      if (browser) await browser.close();
      if (carol) await carol.quit();
      if (fill) await fill.stop();
      await servers.stop();
    }
  });
