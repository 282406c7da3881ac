// A big room's occupant list, loaded a page at a time (src/occupant-pages.js; node --test).
import test from 'node:test';
import assert from 'node:assert/strict';
import { OccupantPages, PAGE } from '../src/occupant-pages.js';

const page = (nicks, count = null) => ({ items: nicks.map((nick) => ({ jid: `big@muc.example/${nick}`, nick })), count });
const nicks = (from, to) => Array.from({ length: to - from }, (_, i) => `n${from + i}`);

test('pages follow one another after the last nick, until one comes short', () => {
  const p = new OccupantPages(250);
  assert.deepEqual(p.next(), { after: null, max: PAGE });
  p.loading = true;
  assert.equal(p.next(), null, 'one request at a time');
  p.accept(page(nicks(0, 100), 251));
  assert.equal(p.count, 251, 'the size the page states');
  assert.deepEqual(p.next(), { after: 'n99', max: PAGE });
  p.accept(page(nicks(100, 200)));
  assert.equal(p.count, 251, 'a page without <count/> keeps the last known size');
  p.accept(page(nicks(200, 251)));
  assert.equal(p.complete, true);
  assert.equal(p.next(), null);
  assert.equal(p.nicks.length, 251);
  assert.equal(p.pages, 3);
});

test('an occupant who left between two pages: the next page starts before him, and nobody is listed twice', () => {
  const p = new OccupantPages();
  p.accept(page(nicks(0, 100)));
  p.missing(); // n99 left
  assert.deepEqual(p.next(), { after: 'n98', max: PAGE });
  p.missing(); // and n98
  assert.deepEqual(p.next(), { after: 'n97', max: PAGE });
  p.accept(page(nicks(100, 200))); // the room lists from n100 (n98 and n99 stay listed here: the list is no live view)
  assert.equal(p.nicks.length, 200);
  assert.deepEqual(p.next(), { after: 'n199', max: PAGE }, 'after the new last nick again');
  p.accept(page(['n150', 'n151', ...nicks(200, 250)]));
  assert.equal(new Set(p.nicks).size, p.nicks.length, 'nobody twice');
  assert.equal(p.nicks.length, 250);
  assert.equal(p.complete, true);
});
