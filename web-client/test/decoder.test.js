// Runs the protocol's batch vectors through the web client's decoder (node --test).
import test from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { BatchDecoder, MalformedBatchError, serialize, parseXml, describeItem, base85, BASE85_ALPHABET } from '../src/batch-decoder.js';
import { withoutIndentation } from '../src/xml.js';
import { VECTORS, list, read, batchText } from './vectors.js';

const ROOM = 'chat@conference.example.org';
const canonical = (items) => items.map((f) => serialize(withoutIndentation(f)));

function decodeVector(decoder, name) {
  const { stanza } = read(name);
  const message = parseXml(stanza);
  const from = message.attrs.find((a) => a.local === 'from').value;
  return decoder.decode(batchText(stanza), from);
}

test('index.txt lists every batch vector, and each decodes', () => {
  const names = list().filter((n) => read(n).stanza.includes('<batch'));
  assert.deepEqual(names.sort(), ['batch-compact-3.xml', 'batch-compact-deflate-1.xml', 'batch-compact-deflate-2.xml',
    'batch-compact-deflate-live-1.xml', 'batch-compact-live-1.xml', 'batch-deflate-3.xml', 'batch-plain-3.xml']);
});

test('a live item: the retained messages with their delays, then the message sent at once, without one', () => {
  const b = decodeVector(new BatchDecoder(), 'batch-compact-deflate-live-1');
  assert.equal(b.live, true);
  assert.equal(b.items.length, 4);
  const plain = canonical(decodeVector(new BatchDecoder(), 'batch-plain-3').items);
  assert.deepEqual(canonical(b.items.slice(0, 3)), plain);
  const live = describeItem(b.items[3]);
  assert.equal(live.live, true);
  assert.equal(live.stamp, null);
  assert.equal(live.from, `${ROOM}/Dave`);
  assert.equal(live.body, 'Alice: the 9 pm show still has seats');
  assert.equal(decodeVector(new BatchDecoder(), 'batch-compact-deflate-1').live, false);
  assert.deepEqual([b.encoding, b.form, b.count, b.n], ['deflate-live', 'compact', 4, 1]);
});

test('compact-live: the same moment as one compact batch, the same items, the last live', () => {
  const inStream = decodeVector(new BatchDecoder(), 'batch-compact-deflate-live-1');
  const compact = decodeVector(new BatchDecoder(), 'batch-compact-live-1');
  assert.deepEqual([compact.encoding, compact.form, compact.live], ['plain', 'compact', true]);
  assert.deepEqual(canonical(compact.items), canonical(inStream.items));
});

test('base 85 (reconmuc.md 5.9 rule 8.7): four bytes in five digits, a last group of k bytes in k + 1', () => {
  assert.deepEqual([...base85('00000')], [0, 0, 0, 0]);
  assert.deepEqual([...base85('0RjUA')], [1, 2, 3, 4]);
  assert.deepEqual([...base85('0Rj')], [1, 2]);
  assert.equal(BASE85_ALPHABET.length, 85);
  assert.ok(![...'"&\'<>'].some((c) => BASE85_ALPHABET.includes(c)), 'nothing XML escapes');
  assert.deepEqual([...base85('0 0\n')], [0], 'white space ignored; two digits are one byte');
  assert.throws(() => base85('000000'), /one digit/);
  assert.throws(() => base85('}}}}}'), /more than four bytes/);
  assert.throws(() => base85('0000~'), /not a base-85 digit/);
});

test('plain batch: three forwarded items in room order, with their delays', () => {
  const b = decodeVector(new BatchDecoder(), 'batch-plain-3');
  assert.equal(b.form, 'forwarded');
  assert.equal(b.encoding, 'plain');
  assert.equal(b.items.length, 3);
  const items = b.items.map(describeItem);
  assert.deepEqual(items.map((i) => i.stamp), ['2011-03-21T09:00:05Z', '2011-03-21T09:00:20Z', '2011-03-21T09:00:41Z']);
  assert.deepEqual(items.map((i) => i.from), [`${ROOM}/Bob`, `${ROOM}/Carol`, `${ROOM}/Bob`]);
  assert.equal(items[0].body, 'Anyone seen the new Almodóvar film?');
  assert.equal(items[2].stanzaId, 'c5b8f2de-3c1e-4b7a-9a51-0d2f3e4a5b03');
});

test('deflate, compact and the first batch of a deflate stream all hold exactly the plain batch items', () => {
  const plain = canonical(decodeVector(new BatchDecoder(), 'batch-plain-3').items);
  for (const name of ['batch-deflate-3', 'batch-compact-3', 'batch-compact-deflate-1']) {
    const b = decodeVector(new BatchDecoder(), name);
    assert.deepEqual(canonical(b.items), plain, name);
  }
});

test('a deflate stream keeps its context: batch 2 inflates after batch 1, and only then', () => {
  const d = new BatchDecoder();
  decodeVector(d, 'batch-compact-deflate-1');
  const two = decodeVector(d, 'batch-compact-deflate-2');
  assert.equal(two.n, 2);
  assert.equal(two.items.length, 2);
  const items = two.items.map(describeItem);
  assert.equal(items[0].stamp, '2011-03-21T09:02:10Z');
  assert.ok(items.every((i) => i.from.startsWith(`${ROOM}/`) && i.body));
  // The same batch alone (a session that did not see the stream start) is refused.
  assert.throws(() => decodeVector(new BatchDecoder(), 'batch-compact-deflate-2'), MalformedBatchError);
  // And a repeated batch 2 is a gap: n='3' was due.
  assert.throws(() => decodeVector(d, 'batch-compact-deflate-2'), /n='3' was due/);
});

const MALFORMED = path.join(VECTORS, 'malformed');
const malformed = list(MALFORMED);

test('malformed/index.txt lists twenty-five batches', () => {
  assert.equal(malformed.length, 25);
});

for (const name of malformed) {
  test(`malformed/${name} is refused whole, for the rule its comment names`, () => {
    const { comment, stanza } = read(name, MALFORMED);
    const refused = /Refused:\s*(.+)/.exec(comment)[1].trim();
    const after = /After:\s*(\S+)/.exec(comment);
    const d = new BatchDecoder(1000000); // the limit the Java tests read them with (a deflate-live bomb stops there)
    if (after) decodeVector(d, after[1]);
    const from = parseXml(stanza).attrs.find((a) => a.local === 'from').value;
    assert.throws(() => d.decode(batchText(stanza), from), (e) => {
      assert.ok(e instanceof MalformedBatchError, `${name}: ${e}`);
      assert.ok(e.message.includes(refused), `${name}: '${e.message}' does not say '${refused}'`);
      return true;
    });
  });
}

test('a stream refused for a gap stays lost until a batch starts a new one', () => {
  const d = new BatchDecoder();
  decodeVector(d, 'batch-compact-deflate-1');
  const { stanza } = read('deflate-stream-skipped-number', MALFORMED);
  assert.throws(() => d.decode(batchText(stanza), ROOM), MalformedBatchError);
  assert.throws(() => decodeVector(d, 'batch-compact-deflate-2'), MalformedBatchError);
  decodeVector(d, 'batch-compact-deflate-1');
  assert.equal(decodeVector(d, 'batch-compact-deflate-2').items.length, 2);
});

test('a decoder limit below the declared size refuses before inflating', () => {
  assert.throws(() => decodeVector(new BatchDecoder(1000), 'batch-deflate-3'), /refusing to inflate a declared size of 1453/);
});

test('no DTD, comment or processing instruction in a batch', () => {
  const d = new BatchDecoder();
  for (const bad of [
    "<!DOCTYPE batch><batch xmlns='urn:reconmuc:0' count='1'/>",
    "<batch xmlns='urn:reconmuc:0' count='1'><!-- hi --></batch>",
    "<batch xmlns='urn:reconmuc:0' count='1'><?pi x?></batch>",
    "<batch xmlns='urn:reconmuc:0' count='1'>&ent;</batch>",
  ]) {
    assert.throws(() => d.decode(bad, ROOM), MalformedBatchError, bad);
  }
});
