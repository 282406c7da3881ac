// Bytes in the browser: one conversation (a slice of a real IRC log, replayed by a Smack client)
// measured as the bytes the page's WebSocket frames carry (Chrome DevTools Protocol,
// Network.webSocketFrameReceived), for pages in the same room at once: Converse.js without the
// plugin (standard MUC), and with the plugin in relaxed mode for each aggregation.
//   node test/bytes.js [LOG] [FIRST_LINE] [COUNT] [PAUSE_MS]   (prints JSON)
import { readFileSync } from 'node:fs';
import { startServers, startPeer, runDir, until, DOMAIN } from './harness.js';
import { launch, openPage } from './browser.js';

const [logFile = '/work/shared/irc-logs/ubuntu/2014-01-08.train-c.raw.txt', first = '1000', count = '200', pause = '50'] = process.argv.slice(2);
const lines = readFileSync(logFile, 'utf8').split('\n').slice(Number(first) - 1)
  .map((l) => /^\[\d\d:\d\d\] <[^>]+> (.+)$/.exec(l)?.[1]).filter(Boolean).slice(0, Number(count));
const ROOM = `bytes@${DOMAIN}`;
const PAGES = [
  ['standard (no plugin)', '&plugin=off'],
  ['relaxed, plain', '&aggregation=plain'],
  ['relaxed, deflate', '&aggregation=deflate'],
  ['relaxed, compact', '&aggregation=compact'],
  ['relaxed, compact-deflate', '&aggregation=compact-deflate'],
];

// The replay sends faster than the default per-occupant rate (10/s, burst 20) allows.
const servers = await startServers(runDir('bytes'), { componentArgs: ['--rate-messages-per-second', '100', '--rate-burst', '200'] });
let browser; let carol;
try {
  carol = await startPeer({ c2s: servers.c2s, room: ROOM, nick: 'Replay' });
  browser = await launch();
  const pages = [];
  for (const [i, [name, extra]] of PAGES.entries()) {
    const user = `reader${i}`;
    const page = await openPage(browser, `${servers.pageUrl}?jid=${user}@insecure.localhost&password=pw&room=${ROOM}`
      + `&nick=${user}&time=10&volume=20${extra}`, () => {});
    const cdp = await page.createCDPSession();
    const meter = { frames: 0, bytes: 0 };
    await cdp.send('Network.enable');
    cdp.on('Network.webSocketFrameReceived', (e) => { meter.frames += 1; meter.bytes += Buffer.byteLength(e.response.payloadData, 'utf8'); });
    pages.push({ name, page, meter, relaxed: !extra.includes('plugin=off') });
  }
  for (const p of pages) {
    await until(`${p.name} joined`, () => p.page.evaluate((r) => document.querySelector(`converse-muc[jid="${r}"] converse-muc-message-form textarea`), ROOM), 60000);
    if (p.relaxed) await until(`${p.name} relaxed`, () => p.page.evaluate((r) => globalThis.reconmuc?.rooms.get(r)?.status === 'relaxed', ROOM), 30000);
  }
  await new Promise((r) => setTimeout(r, 2000)); // presences, disco, MAM settle
  for (const p of pages) { p.meter.frames = 0; p.meter.bytes = 0; }
  const started = Date.now();
  await carol.cmd(`replay ${lines.length} ${pause}`, lines);
  // Messages in the room's model (Converse renders only part of a long history into the DOM).
  const count = (p) => p.page.evaluate((r) => document.querySelector(`converse-muc[jid="${r}"]`)?.model?.messages
    .filter((m) => m.get('type') === 'groupchat' && m.get('body')).length ?? 0, ROOM);
  for (const p of pages) await until(`${p.name} shows all ${lines.length}`, async () => (await count(p)) >= lines.length, 60000, 250);
  const result = {
    log: logFile, first_line: Number(first), messages: lines.length, pause_ms: Number(pause),
    text_bytes: lines.reduce((n, l) => n + Buffer.byteLength(l), 0), seconds: (Date.now() - started) / 1000,
    pages: [],
  };
  for (const p of pages) {
    const s = p.relaxed ? await p.page.evaluate((r) => {
      const st = globalThis.reconmuc.rooms.get(r);
      return { batches: st.batches.length, delayed: st.delayed, refused: st.refused.length, aggregation: st.requirements.aggregation };
    }, ROOM) : null;
    result.pages.push({ page: p.name, frames: p.meter.frames, bytes: p.meter.bytes, shown: await count(p), ...(s || {}) });
  }
  const base = result.pages[0].bytes;
  for (const p of result.pages) p.of_standard = Number((p.bytes / base).toFixed(3));
  console.log(JSON.stringify(result, null, 2));
} finally {
  await browser?.close();
  await carol?.quit();
  await servers.stop();
}
