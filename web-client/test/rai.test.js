// XEP-0437 room activity indicators in Converse.js 14 itself (its muc_subscribe_to_rai), in headless
// Chromium against a real Prosody (WebSocket, the page) and the real component, with a Smack client.
// Alice creates #news and reads #lobby instead: Converse leaves #news and subscribes with a presence to
// the service; Carol (test/SmackPeer.java) speaks in #news; Alice's room list marks #news, once.
import test from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { mkdirSync } from 'node:fs';
import { startServers, startPeer, runDir, until, WEB, DOMAIN } from './harness.js';
import { launch, openPage } from './browser.js';

const NEWS = `news@${DOMAIN}`;
const LOBBY = `lobby@${DOMAIN}`;
const RAI = 'urn:xmpp:rai:0';

/** What Converse knows of a room: its connection status, and whether the room list marks it. */
const roomState = (page, jid) => page.evaluate((j) => {
  const item = document.querySelector(`converse-rooms-list li[data-room-jid="${j}"]`);
  return { listed: Boolean(item), marked: Boolean(item?.querySelector('.msgs-indicator')) };
}, jid);

/** The activity notices Alice's page received from the service (frames with <rai xmlns='urn:xmpp:rai:0'>). */
const notices = (page) => page.evaluate((ns) => window.__received.filter((f) => f.includes(ns) && f.includes('<message')), RAI);

/**
 * Alice's page asks #news for its disco#info on her socket and waits for the answer: the room has handled
 * what Carol sent before, and any notice it caused came first (Alice runs without XEP-0198, which would
 * count this stanza Converse did not send).
 */
async function barrier(page, room) {
  const id = `barrier-${Date.now()}`;
  await page.evaluate((r, i) => window.__sockets[window.__sockets.length - 1].send(
    `<iq xmlns="jabber:client" type="get" to="${r}" id="${i}"><query xmlns="http://jabber.org/protocol/disco#info"/></iq>`), room, id);
  await until('the room\'s answer', () => page.evaluate((i) => window.__received.some((f) => f.includes(i) && f.includes('result')), id), 15000);
}

/** Alice shows another room (Converse's own route): the one shown before is hidden. */
const show = (page, jid) => page.evaluate((j) => { location.hash = `#converse/room?jid=${j}`; }, jid);

test('Converse.js subscribes to activity indicators for a room it leaves, and marks it when Carol speaks', { timeout: 180000 }, async (t) => {
  const log = (s) => t.diagnostic(s);
  const servers = await startServers(runDir('rai'));
  let browser; let carol;
  try {
    browser = await launch();
    const alice = await openPage(browser, `${servers.pageUrl}?jid=alice@insecure.localhost&password=pw&room=${NEWS}&nick=Alice&rai=on&smacks=off&bookmarks=off`, log);
    await until('Alice in #news', async () => (await roomState(alice, NEWS)).listed
      && alice.evaluate(() => document.querySelector('converse-muc .chat-content') !== null), 60000);
    await alice.evaluate(() => {
      window.__received = [];
      for (const s of window.__sockets) s.addEventListener('message', (e) => window.__received.push(String(e.data)));
    });
    // Carol joins Alice's room (Alice created it: its owner, the affiliation Converse asks for RAI).
    carol = await startPeer({ c2s: servers.c2s, room: NEWS, nick: 'Carol', log });

    // 1. Alice reads #lobby: Converse leaves #news and sends the service <presence><rai/></presence>.
    await show(alice, LOBBY);
    await until('the subscription sent', () => alice.evaluate((ns) => window.__sent.some((f) => f.includes(ns)), RAI), 30000)
      .catch(async (e) => {
        log(`Alice sent: ${(await alice.evaluate(() => window.__sent.slice(-12))).join('\n')}`);
        log(`hidden: ${await alice.evaluate(() => [...document.querySelectorAll('converse-muc')].map((m) => `${m.getAttribute('jid')} ${m.className} ${m.hidden}`).join('; '))}`);
        throw e;
      });
    await until('the subscription sent to the service', () => alice.evaluate((ns, d) => window.__sent.some((f) => f.includes(ns)
      && f.includes('<presence') && f.includes(`to="${d}"`)), RAI, DOMAIN), 30000);
    const sent = await alice.evaluate((ns) => window.__sent.find((f) => f.includes(ns)), RAI);
    log(`Alice sent: ${sent}`);
    assert.ok(await alice.evaluate((n) => window.__sent.some((f) => f.includes(`to="${n}/Alice"`) && f.includes('unavailable')), NEWS),
      'Converse left #news');

    // 2. Carol speaks in #news until Alice's list marks it (the first may reach the room before Alice's leave).
    for (let i = 1; !(await roomState(alice, NEWS)).marked; i++) {
      assert.ok(i <= 10, 'the room list marks #news');
      await carol.cmd(`send - news${i} while Alice reads the lobby`);
      await until('a notice or a moment', async () => (await roomState(alice, NEWS)).marked, 2000).catch(() => null);
    }
    await carol.cmd('send - one more in #news');
    await carol.cmd('send - and another');
    await barrier(alice, NEWS);
    const first = await notices(alice);
    log(`notices: ${first.join(' | ')}`);
    // Every subscription the page sent, with the notices: two notices are right after two subscriptions.
    log(`subscriptions sent: ${(await alice.evaluate((ns) => window.__sent.filter((f) => f.includes(ns)), RAI)).join(' | ')}`);
    // and every presence to #news or to the service (a rejoin and a second leave would earn a second notice, rightly)
    log(`presences sent: ${(await alice.evaluate((n, d) => window.__sent.filter((f) => f.includes('<presence')
      && (f.includes(`to="${n}/`) || f.includes(`to="${d}"`))), NEWS, DOMAIN)).join(' | ')}`);
    assert.equal(first.length, 1, 'one notice, however much Carol says');
    assert.ok(first[0].includes(`<activity>${NEWS}</activity>`), first[0]);
    assert.ok(first[0].includes(`from="${DOMAIN}"`) || first[0].includes(`from='${DOMAIN}'`), 'from the service');
    mkdirSync(path.join(WEB, 'screenshots'), { recursive: true });
    await alice.screenshot({ path: path.join(WEB, 'screenshots', 'alice-room-activity.png') });

    // 3. Back in #news the mark goes; when she reads #lobby again, Converse leaves #news again, and the
    //    next message in it earns a new notice.
    await show(alice, NEWS);
    await until('#news no longer marked', async () => !(await roomState(alice, NEWS)).marked, 30000);
    await until('Alice back in #news', () => alice.evaluate((n) => window.__sent.filter((f) => f.includes(`to="${n}/Alice"`)
      && f.includes('http://jabber.org/protocol/muc')).length >= 2, NEWS), 30000);
    await show(alice, LOBBY);
    for (let i = 1; (await notices(alice)).length < 2; i++) {
      assert.ok(i <= 10, 'a second notice after Alice was in #news again');
      await carol.cmd(`send - again${i} while Alice reads the lobby`);
      await until('a second notice', async () => (await notices(alice)).length >= 2, 2000).catch(() => null);
    }
    await until('#news marked again', async () => (await roomState(alice, NEWS)).marked, 10000);
  } finally {
    if (carol) await carol.quit();
    if (browser) await browser.close();
    await servers.stop();
  }
});
