// The page in a big room, measured (issue 45: "the web page in Chromium joins the 20,000-occupant
// room and shows its last messages within 5 s"). Not a test: web-client/bench-big-room.sh runs it.
//
// A real Prosody and the component (as the browser tests start them); Carol (test/SmackPeer.java)
// makes the room; irc-replay's light bots fill it (90 % relaxed, 60-s digests, level none) and speak
// 60 lines of the IRC logs (2 a second). A person then opens the room as a person does — the rooms
// list's "Add groupchat", the room's address, "Join" — right after Carol says a marker; the page
// counts from the click of "Join" to the frame the marker is painted in (the room's last message,
// from its archive), with the stanzas' times in the page and on the socket. Two cases:
//   --joins N (3): the room quiet, no digest due: each join waits until the component and Prosody
//     are idle (the digests of what was said before have gone);
//   --storms K,L… (1,60): a join for each K, clicked 46 s after Carol began saying K messages, when
//     the room sends them in a digest to every relaxed occupant (due 45–60 s after the first, §5.7
//     rule 2.2): 17,955 batches of K messages.
// Each on a fresh page (a new browser context, a new user). Writes result.json and screenshots to --out.
import path from 'node:path';
import os from 'node:os';
import { mkdirSync, writeFileSync, readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { startServers, startPeer, fillRoom, runDir, until, ROOT, DOMAIN } from './harness.js';
import { launch, openPage } from './browser.js';

const opts = { bots: 19950, joins: 3, storms: '1,60', out: null, room: `crowd@${DOMAIN}` };
for (let i = 2; i + 1 < process.argv.length; i += 2) {
  const [k, v] = [process.argv[i].replace(/^--/, ''), process.argv[i + 1]];
  if (!(k in opts)) throw new Error(`unknown option --${k} (bots, joins, storms, out, room)`);
  opts[k] = typeof opts[k] === 'number' ? Number(v) : v;
}
if (!opts.out) throw new Error('--out DIR is needed');
const log = (s) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${s}`);
const loadavg = () => readFileSync('/proc/loadavg', 'utf8').trim();
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** CPU seconds (user + system) of a process and its children that were waited for. */
function cpuSeconds(pid) {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) / 100; // utime stime cutime cstime, in ticks
  } catch {
    return null;
  }
}

/** Times in the page: the click of "Join", stanzas on the socket, and the frame the marker is first painted in. */
function instrument(page, room, marker) {
  return page.evaluate((r, m) => {
    window.__bench = { events: [] };
    const mark = (what) => window.__bench.events.push({ what, t: performance.now() });
    const DISCO_INFO = /<query[^>]* xmlns=["']http:\/\/jabber.org\/protocol\/disco#info["']/;
    const DISCO_ITEMS = /<query[^>]* xmlns=["']http:\/\/jabber.org\/protocol\/disco#items["']/;
    for (const s of window.__sockets) {
      const send = s.send.bind(s);
      s.send = (d) => {
        const x = String(d);
        if (DISCO_INFO.test(x) && x.includes(r)) mark('disco#info of the room sent');
        if (x.startsWith('<presence') && x.includes(`${r}/`)) mark('join presence sent');
        if (x.includes('urn:xmpp:mam:2') && x.includes(r)) mark('archive query sent');
        if (x.includes('consistency-requirements')) mark('requirements sent');
        if (DISCO_ITEMS.test(x) && x.includes(r)) mark('occupant page asked');
        return send(d);
      };
      s.addEventListener('message', (e) => {
        const x = String(e.data);
        if (x.startsWith('<iq') && DISCO_INFO.test(x) && x.includes(`from='${r}'`)) mark('disco#info of the room answered');
        if (x.startsWith('<presence') && x.includes(`from='${r}/`) && x.includes("code='110'")) mark('own presence received (entered)');
        if (x.includes('<result') && x.includes('urn:xmpp:mam:2')) mark('archive message received');
        if (x.includes('<fin') && x.includes('urn:xmpp:mam:2')) mark('archive page received (fin)');
        if (x.includes('consistency-requirements') && x.includes("type='result'")) mark('requirements answered');
        if (DISCO_ITEMS.test(x) && x.includes(`from='${r}'`)) mark('occupant page received');
      });
    }
    document.addEventListener('click', (e) => {
      if (e.target.matches?.('converse-add-muc-modal input[type="submit"][name="join"]')) {
        window.__bench.click = performance.now();
        const frame = () => {
          const muc = document.querySelector(`converse-muc[jid="${r}"]`);
          const texts = [...(muc?.querySelectorAll('.message.chat-msg .chat-msg__text') ?? [])].map((x) => x.textContent);
          if (!window.__bench.firstMessage && texts.length) window.__bench.firstMessage = performance.now();
          if (texts.some((x) => x.includes(m))) {
            window.__bench.marker = performance.now();
            window.__bench.shown = texts.length;
            return;
          }
          if (!window.__bench.count && muc?.querySelector('.reconmuc-occupant-count')) window.__bench.count = performance.now();
          requestAnimationFrame(frame);
        };
        requestAnimationFrame(frame);
      }
    }, true);
  }, room, marker);
}

/**
 * One person: logs in, opens the room through Converse's "Add groupchat" dialogue, and is timed.
 * `beforeClick` runs once the dialogue is filled in (a storm join waits there for the digests).
 */
async function join(browser, servers, carol, n, kind, beforeClick = async () => {}) {
  const nick = `Visitor${n}`;
  const marker = `marker-${n} the last word before ${nick} came`;
  const page = await openPage(browser, `${servers.pageUrl}?jid=visitor${n}@insecure.localhost&password=pw&nick=${nick}`, log);
  await page.waitForSelector('.show-add-muc-modal', { timeout: 60000 });
  await page.evaluate(() => document.querySelector('.show-add-muc-modal').click());
  await page.waitForSelector('converse-add-muc-modal form.add-chatroom input[name="nickname"]', { visible: true, timeout: 30000 });
  await page.type('converse-add-muc-modal converse-autocomplete input', opts.room);
  await page.$eval('converse-add-muc-modal input[name="nickname"]', (el, v) => { el.value = v; }, nick);
  await beforeClick();
  const said = Date.now();
  await carol.cmd(`send - ${marker}`);
  // How far behind the room and the server are: Carol's message back to her. A quiet join clicks once it
  // is back (it is then in the archive); a storm join at once, not to miss the digests.
  const back = until('the marker back at Carol', async () => (await carol.cmd('last')).includes(marker), 120000, 20)
    .then(() => Date.now() - said, () => null);
  if (kind === 'quiet') await back;
  await instrument(page, opts.room, marker);
  // The same stanzas as the browser's network stack saw them (Chromium's DevTools protocol): when they
  // crossed the socket, whatever the page's main thread was busy with.
  const cdp = await page.createCDPSession();
  await cdp.send('Network.enable');
  const wire = [];
  cdp.on('Network.webSocketFrameSent', (e) => wire.push({ way: 'out', t: e.timestamp * 1000, d: e.response.payloadData }));
  cdp.on('Network.webSocketFrameReceived', (e) => wire.push({ way: 'in', t: e.timestamp * 1000, d: e.response.payloadData }));
  const load = loadavg();
  if (process.env.BENCH_PROFILE) { // the page's CPU profile of the join, for chrome://inspect or speedscope
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    await cdp.send('Profiler.start');
  }
  await page.click('converse-add-muc-modal input[type="submit"][name="join"]');
  let failed = null;
  await until('the marker shown', () => page.evaluate(() => window.__bench.marker != null), 120000).catch(async (e) => {
    failed = e.message;
    await page.screenshot({ path: path.join(opts.out, `${nick}-not-shown.png`) });
  });
  // The occupant list: the room's size and a first page.
  await until('the first page of occupants', () => page.evaluate((r) => document.querySelectorAll(
    `converse-muc[jid="${r}"] .reconmuc-occupant`).length >= 100, opts.room), 60000).catch(() => null);
  const b = await page.evaluate((r) => ({ ...window.__bench, heading: document.querySelector(
    `converse-muc[jid="${r}"] .reconmuc-occupant-count`)?.textContent.trim() ?? null,
  listed: document.querySelectorAll(`converse-muc[jid="${r}"] .reconmuc-occupant`).length,
  presences: window.__in.filter((f) => f.startsWith('<presence') && f.includes(`from='${r}/`)).length }), opts.room);
  if (process.env.BENCH_PROFILE) {
    const { profile } = await cdp.send('Profiler.stop');
    writeFileSync(path.join(opts.out, `${nick}.cpuprofile`), JSON.stringify(profile));
  }
  const since = (t) => (t == null ? null : Math.round(t - b.click));
  const r = opts.room;
  const at = (way, test) => wire.find((f) => f.way === way && test(f.d))?.t;
  const joinSent = at('out', (d) => d.startsWith('<presence') && d.includes(`${r}/`));
  const network = Object.fromEntries(Object.entries({
    'own presence (entered)': at('in', (d) => d.startsWith('<presence') && d.includes(`from='${r}/`) && d.includes("code='110'")),
    'archive query sent': at('out', (d) => d.includes('urn:xmpp:mam:2') && d.includes(r)),
    'first archive message': at('in', (d) => d.includes('<result') && d.includes('urn:xmpp:mam:2')),
    'archive page done (fin)': at('in', (d) => d.includes('<fin') && d.includes('urn:xmpp:mam:2')),
    'requirements answered': at('in', (d) => d.includes('consistency-requirements') && d.includes("type='result'")),
    'first occupant page': at('in', (d) => /<query[^>]* xmlns=["']http:\/\/jabber.org\/protocol\/disco#items["']/.test(d) && d.includes(`from='${r}'`)),
  }).map(([k, t]) => [k, t == null || joinSent == null ? null : Math.round(t - joinSent)]));
  await cdp.detach();
  const result = {
    visitor: nick,
    kind,
    failed,
    load_at_click: load,
    marker_back_to_carol_ms: await back,
    click_to_marker_ms: since(b.marker),
    click_to_first_message_ms: since(b.firstMessage),
    messages_shown: b.shown,
    occupant_heading: b.heading,
    occupants_listed: b.listed,
    presences_received: b.presences,
    // Each step's first time after the click (and for the archive's messages, also the last).
    // On the socket (the browser's network stack), from the join presence sent.
    network_from_join_presence_ms: network,
    steps_ms: b.events.filter((e) => e.t >= b.click).filter((e, i, all) => all.findIndex((x) => x.what === e.what) === i
      || (e.what === 'archive message received' && all.findLastIndex((x) => x.what === e.what) === i))
      .map((e) => ({ what: e.what, ms: since(e.t) })),
  };
  log(`${nick} (${kind}): click -> the last messages ${result.click_to_marker_ms} ms (${result.occupant_heading}; load ${load})`
    + `${failed ? ` ${failed}` : ''}`);
  if (n === 1 || kind !== 'quiet') await page.screenshot({ path: path.join(opts.out, `${nick}-${kind.replace(/ /g, '-')}.png`) });
  await page.browserContext().close();
  return result;
}

async function main() {
  mkdirSync(opts.out, { recursive: true });
  const started = new Date();
  const before = loadavg();
  log(`load before: ${before}`);
  const dir = runDir('bench-big-room');
  // The component's default room limit is 10,000 occupants: above the room, as irc-replay's scale sets it.
  const servers = await startServers(dir, { componentArgs: ['--max-occupants', String(Math.max(2 * opts.bots, 1000))] });
  let fill; let carol; let browser;
  const results = [];
  let filled;
  try {
    carol = await startPeer({ c2s: servers.c2s, room: opts.room, nick: 'Carol' }); // makes the room, and owns it
    const t0 = Date.now();
    const talk = ['--messages', '60', '--rate', '2'];
    fill = await fillRoom({ c2s: servers.c2s, room: opts.room, bots: opts.bots, dir, log, timeoutMs: 1800000,
      options: ['--relaxed-share', '0.9', '--presence-level', 'none', ...talk] });
    filled = (Date.now() - t0) / 1000;
    log(`filled ${opts.bots} in ${filled.toFixed(0)} s`);
    browser = await launch();
    const pids = { prosody: servers.prosody.pid, component: servers.component.pid };
    const cpuOf = () => Object.values(pids).reduce((sum, p) => sum + (cpuSeconds(p) ?? 0), 0);
    // Quiet: 100 s after the last thing said (its digests are due 45–60 s after it), then until the
    // component and Prosody together use less than 0.3 CPU-s a second for 5 s running.
    const quiet = async (since) => {
      await sleep(Math.max(0, since + 100000 - Date.now()));
      const start = Date.now();
      for (let calm = 0, last = cpuOf(); calm < 5; ) {
        await sleep(1000);
        const now = cpuOf();
        calm = now - last < 0.3 ? calm + 1 : 0;
        last = now;
      }
      log(`quiet after ${((Date.now() - start) / 1000).toFixed(0)} s more`);
    };
    let lastSaid = Date.now() + 30000; // the bots' 60 lines at 2 a second
    let n = 0;
    for (let q = 0; q < opts.joins; q++) {
      await quiet(lastSaid);
      const cpu0 = Object.fromEntries(Object.entries(pids).map(([k, p]) => [k, cpuSeconds(p)]));
      const r = await join(browser, servers, carol, ++n, 'quiet');
      lastSaid = Date.now();
      r.cpu_seconds = Object.fromEntries(Object.entries(pids).map(([k, p]) => [k, +(cpuSeconds(p) - cpu0[k]).toFixed(1)]));
      results.push(r);
    }
    for (const size of String(opts.storms).split(',').filter(Boolean).map(Number)) {
      await quiet(lastSaid);
      const cpu0 = Object.fromEntries(Object.entries(pids).map(([k, p]) => [k, cpuSeconds(p)]));
      const r = await join(browser, servers, carol, ++n, `digest of ${size}`, async () => {
        const first = Date.now();
        // Within the room's 10 messages a second per occupant.
        await carol.cmd(`replay ${size} 120`, Array.from({ length: size }, (_, i) => `word ${i + 1} of ${size} before visitor ${n} comes`));
        await sleep(Math.max(0, first + 46000 - Date.now()));
      });
      lastSaid = Date.now();
      r.cpu_seconds = Object.fromEntries(Object.entries(pids).map(([k, p]) => [k, +(cpuSeconds(p) - cpu0[k]).toFixed(1)]));
      results.push(r);
    }
  } finally {
    if (browser) await browser.close();
    if (carol) await carol.quit();
    if (fill) await fill.stop();
    await servers.stop();
  }
  const after = loadavg();
  log(`load after: ${after}`);
  const figures = (kind) => {
    const each = results.filter((r) => r.kind === kind).map((r) => r.click_to_marker_ms);
    const sorted = each.filter((t) => t != null).sort((x, y) => x - y);
    return { each, median: sorted[Math.floor((sorted.length - 1) / 2)] ?? null, max: sorted.at(-1) ?? null,
      not_shown_within_120_s: each.filter((t) => t == null).length };
  };
  const summary = {
    date: started.toISOString(),
    command: `web-client/bench-big-room.sh ${process.argv.slice(2).join(' ')}`.trim(),
    machine: { cpus: os.cpus().length, model: os.cpus()[0]?.model, memory_gb: Math.round(os.totalmem() / 2 ** 30),
      chromium: execFileSync(process.env.CHROMIUM || 'chromium', ['--version'], { stdio: ['ignore', 'pipe', 'ignore'] }).toString().trim() },
    load_before: before,
    load_after: after,
    room: { bots: opts.bots, occupants_at_first_join: opts.bots + 2, relaxed_share: 0.9, bot_presence_level: 'none',
      bots_said: '60 lines of the IRC logs at 2 a second after the fill', fill_seconds: Math.round(filled) },
    click_to_last_messages_ms: Object.fromEntries([...new Set(results.map((r) => r.kind))].map((k) => [k, figures(k)])),
    joins: results,
  };
  writeFileSync(path.join(opts.out, 'result.json'), `${JSON.stringify(summary, null, 2)}\n`);
  log(`wrote ${path.relative(ROOT, opts.out)}/result.json: click -> last messages: ${Object.entries(summary.click_to_last_messages_ms)
    .map(([k, f]) => `${k} ${f.each.join(', ')} ms`).join('; ')}`);
}

main().catch((e) => { console.error(e); process.exit(1); });
