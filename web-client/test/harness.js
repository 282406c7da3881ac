// Starts the real parts of a browser test on free loopback ports: Prosody (deploy/prosody/
// templates, with WebSocket and the page), the component jar, and Smack peers; stops them again.
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync, appendFileSync, copyFileSync, readdirSync, existsSync, mkdtempSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import readline from 'node:readline';

export const WEB = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const ROOT = path.resolve(WEB, '..');
export const DOMAIN = 'reconmuc.localhost';
const SECRET = 's3cret-web-test';
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** `n` distinct free ports: held open together while chosen, so that no two are the same. */
export async function freePorts(n) {
  const servers = await Promise.all(Array.from({ length: n }, () => new Promise((resolve, reject) => {
    const s = net.createServer();
    s.unref();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => resolve(s));
  })));
  const ports = servers.map((s) => s.address().port);
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  return ports;
}

function portOpen(port) {
  return new Promise((resolve) => {
    const s = net.connect(port, '127.0.0.1');
    s.on('connect', () => { s.destroy(); resolve(true); });
    s.on('error', () => resolve(false));
  });
}

/** Waits (bounded) until `check()` is truthy. */
export async function until(what, check, timeoutMs = 20000, stepMs = 100) {
  const end = Date.now() + timeoutMs;
  for (let i = 0; Date.now() < end; i++) {
    const v = await check();
    if (v) return v;
    await sleep(stepMs);
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
}

function render(template, values) {
  return template.replace(/\$\{([A-Z][A-Z0-9_]*)}/g, (all, name) => {
    if (!(name in values)) throw new Error(`template placeholder \${${name}} has no value`);
    return values[name];
  });
}

/** A run directory under target/ (web-client/target/web-test-*). */
export function runDir(name) {
  mkdirSync(path.join(WEB, 'target'), { recursive: true });
  return mkdtempSync(path.join(WEB, 'target', `web-test-${name}-`));
}

/** Prosody + the component, attached. Returns { c2s, http, component, pageUrl, stop }. */
export async function startServers(dir, { jar = path.join(ROOT, 'component/target/reconmuc-component.jar'), componentArgs = [] } = {}) {
  if (!existsSync(jar)) throw new Error(`no component jar at ${jar}: mvn -B -o -q -pl component -am package -DskipTests`);
  const [c2s, comp, http] = await freePorts(3);
  const pdir = path.join(dir, 'prosody');
  for (const d of ['data', 'certs', 'plugins']) mkdirSync(path.join(pdir, d), { recursive: true });
  for (const f of readdirSync(path.join(ROOT, 'deploy/prosody/plugins'))) {
    copyFileSync(path.join(ROOT, 'deploy/prosody/plugins', f), path.join(pdir, 'plugins', f));
  }
  writeFileSync(path.join(pdir, 'prosody.cfg.lua'), render(readFileSync(path.join(ROOT, 'deploy/prosody/prosody.cfg.lua.template'), 'utf8'), {
    DIR: pdir, LISTEN_ADDRESS: '127.0.0.1', MUC_MODULES: '', C2S_PORT: String(c2s), COMPONENT_PORT: String(comp),
    COMPONENT_DOMAIN: DOMAIN, COMPONENT_SECRET: SECRET,
  }));
  writeFileSync(path.join(pdir, 'web.cfg.lua'), render(readFileSync(path.join(ROOT, 'deploy/prosody/web.cfg.lua.template'), 'utf8'), {
    LISTEN_ADDRESS: '127.0.0.1', HTTP_PORT: String(http), WEB_ROOT: WEB, MIME_TYPES: path.join(ROOT, 'deploy/prosody/mime.types'),
  }));
  const procs = [];
  const start = (cmd, args, log) => {
    const out = [];
    const p = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    writeFileSync(log, '');
    // Appended as it comes: Prosody logs every login, and rewriting the whole log each time made
    // filling a room of 20,000 crawl (the server waiting on its full stdout).
    p.stdout.on('data', (d) => { out.push(d); appendFileSync(log, d); });
    p.stderr.on('data', (d) => { out.push(d); appendFileSync(log, d); });
    p.text = () => Buffer.concat(out).toString();
    procs.push(p);
    return p;
  };
  const prosody = start('prosody', ['--config', path.join(pdir, 'prosody.cfg.lua'), '-F'], path.join(dir, 'prosody.log'));
  await until('Prosody on its ports', async () => {
    if (prosody.exitCode !== null) throw new Error(`prosody exited: ${prosody.text()}`);
    return (await portOpen(c2s)) && (await portOpen(comp)) && (await portOpen(http));
  });
  const component = start('java', ['-jar', jar, '--server-host', '127.0.0.1', '--server-port', String(comp),
    '--domain', DOMAIN, '--secret', SECRET, '--store', 'none', ...componentArgs], path.join(dir, 'component.log'));
  await until('the component to attach', () => {
    if (component.exitCode !== null) throw new Error(`component exited: ${component.text()}`);
    return component.text().includes(`component connected to 127.0.0.1:${comp} as ${DOMAIN}`);
  }, 60000);
  const stop = async () => {
    for (const p of procs.reverse()) {
      if (p.exitCode === null) p.kill('SIGTERM');
    }
    await Promise.all(procs.map((p) => (p.exitCode !== null ? null
      : Promise.race([new Promise((r) => p.once('exit', r)), sleep(10000).then(() => p.kill('SIGKILL'))]))));
  };
  return { c2s, http, component, prosody, pageUrl: `http://127.0.0.1:${http}/files/index.html`, stop, dir };
}

/** The Java class path of the Smack peer: reconmuc-smack's and servers' (smack-tcp) runtime class paths. */
export function peerClassPath() {
  const files = ['reconmuc-smack/target/test.classpath', 'servers/target/test.classpath'].map((f) => path.join(ROOT, f));
  for (const f of files) {
    if (!existsSync(f)) {
      throw new Error(`no ${f}: mvn -B -o -q -pl reconmuc-smack,servers -am package -DskipTests`);
    }
  }
  const jar = path.join(ROOT, 'reconmuc-smack/target/reconmuc-smack-0.1.0-SNAPSHOT.jar');
  const classes = existsSync(jar) ? jar : path.join(ROOT, 'reconmuc-smack/target/classes');
  return [classes, ...files.map((f) => readFileSync(f, 'utf8').trim())].join(':');
}

/** A Smack client (test/SmackPeer.java) in `room` as `nick`; `cmd(line)` answers its "ok …" line. */
export async function startPeer({ c2s, room, nick, user = nick.toLowerCase(), log }) {
  const p = spawn('java', ['-cp', peerClassPath(), path.join(WEB, 'test/SmackPeer.java'), '127.0.0.1', String(c2s),
    'insecure.localhost', user, room, nick], { stdio: ['pipe', 'pipe', 'pipe'] });
  const lines = [];
  const waiters = [];
  const errors = [];
  readline.createInterface({ input: p.stdout }).on('line', (l) => {
    if (log) log(`${nick}> ${l}`);
    if (waiters.length) waiters.shift()(l); else lines.push(l);
  });
  p.stderr.on('data', (d) => errors.push(d.toString()));
  const next = (ms = 30000) => new Promise((resolve, reject) => {
    if (lines.length) { resolve(lines.shift()); return; }
    const t = setTimeout(() => reject(new Error(`${nick}: no answer within ${ms} ms; stderr: ${errors.join('').slice(-2000)}`)), ms);
    waiters.push((l) => { clearTimeout(t); resolve(l); });
  });
  const first = await next(60000);
  if (!first.startsWith('ok joined')) throw new Error(`${nick}: ${first} ${errors.join('')}`);
  return {
    async cmd(line, extra = []) {
      p.stdin.write(`${[line, ...extra].join('\n')}\n`);
      const answer = await next(Math.max(30000, extra.length * 1000));
      if (!answer.startsWith('ok')) throw new Error(`${nick}: '${line}' -> ${answer}`);
      return answer;
    },
    async quit() {
      if (p.exitCode !== null) return;
      p.stdin.write('quit\n');
      await Promise.race([new Promise((r) => p.once('exit', r)), sleep(5000).then(() => p.kill('SIGKILL'))]);
    },
  };
}

/**
 * A crowd: `bots` light bots of irc-replay's `fill` (irc-replay/target/irc-replay.jar) logged in to
 * Prosody's c2s port and kept in `room` (bot 0 creates it, and so owns it) until stop(). Extra
 * `options` are fill's (e.g. ['--relaxed-share', '0.9']). Resolves once fill says `filled N`.
 */
export async function fillRoom({ c2s, room, bots, options = [], log = () => {}, dir, timeoutMs = 300000 }) {
  const jar = path.join(ROOT, 'irc-replay/target/irc-replay.jar');
  if (!existsSync(jar)) throw new Error(`no ${jar}: mvn -B -o -q -pl irc-replay -am package -DskipTests`);
  const args = ['-jar', jar, 'fill', '--endpoint', `127.0.0.1:${c2s}`, '--room', room, '--bots', String(bots), ...options];
  if (dir) args.push('--worker-errors', dir);
  const p = spawn('java', args, { stdio: ['pipe', 'pipe', 'pipe'] });
  const errors = [];
  p.stderr.on('data', (d) => errors.push(d.toString()));
  const started = Date.now();
  await new Promise((resolve, reject) => {
    const t = setTimeout(() => { p.kill('SIGKILL'); reject(new Error(`fill: not filled within ${timeoutMs} ms: ${errors.join('').slice(-2000)}`)); }, timeoutMs);
    readline.createInterface({ input: p.stdout }).on('line', (l) => {
      if (!l.startsWith('[worker')) log(`fill> ${l}`);
      if (l === `filled ${bots}`) { clearTimeout(t); resolve(); }
    });
    p.once('exit', (code) => { clearTimeout(t); reject(new Error(`fill exited (${code}) before the room was filled: ${errors.join('').slice(-2000)}`)); });
  });
  log(`fill: ${bots} bots in ${room} after ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return {
    process: p,
    async stop() {
      if (p.exitCode !== null) return;
      p.stdin.end(); // fill holds the bots until its input closes
      await Promise.race([new Promise((r) => p.once('exit', r)), sleep(20000).then(() => p.kill('SIGKILL'))]);
    },
  };
}
