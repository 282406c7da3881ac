// Debian's Chromium, headless, driven by puppeteer-core (nothing is downloaded).
import { existsSync } from 'node:fs';
import puppeteer from 'puppeteer-core';

const CHROMIUM = process.env.CHROMIUM || ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find(existsSync);

/** Chromium without any network but loopback (no name is resolved). */
export function launch() {
  return puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1', '--window-size=1280,800'],
    defaultViewport: { width: 1280, height: 800 },
  });
}

/** A page of its own (a separate browser context: no shared storage), its WebSockets and what it sent on them recorded. */
export async function openPage(browser, url, log) {
  const context = await browser.createBrowserContext();
  const page = await context.newPage();
  await page.evaluateOnNewDocument(() => {
    const Original = window.WebSocket;
    window.__sockets = [];
    window.__sent = []; // the frames the page sent
    window.__in = []; // the frames the page received
    window.WebSocket = class extends Original {
      constructor(...args) {
        super(...args);
        window.__sockets.push(this);
        this.addEventListener('message', (e) => window.__in.push(String(e.data)));
      }

      send(data) {
        window.__sent.push(String(data));
        return super.send(data);
      }
    };
  });
  page.on('pageerror', (e) => log(`page error: ${e.message}`));
  page.on('console', (m) => { if (m.text().includes('[reconmuc]') || process.env.WEB_TEST_VERBOSE) log(`console: ${m.type()} ${m.text().slice(0, 400)}`); });
  await page.goto(url);
  return page;
}

