// Where a retained message goes among those shown (src/room-order.js), under node --test: as
// Converse.js places it, by sorting on `time` (a stable sort, as its collection's sortBy).
import test from 'node:test';
import assert from 'node:assert/strict';
import { roomSequence, roomOrder, retainedTime } from '../src/room-order.js';

const at = (iso) => Date.parse(iso);
/** Converse's order: by time, equal times in the order they arrived. */
const converseOrder = (messages) => messages.map((m, i) => ({ ...m, i }))
  .sort((a, b) => a.time - b.time || a.i - b.i).map((m) => m.text);
/** A retained message as the plugin hands it to Converse: its time from retainedTime. */
const arrive = (shown, text, stamp, id) => {
  const precision = /\.\d/.test(stamp) ? 1 : 1000;
  shown.push({ text, id, time: retainedTime(at(stamp), precision, id, shown) });
};

test('stanza-ids of this component are a prefix and a base-36 counter, in the room\'s order', () => {
  assert.deepEqual(roomSequence('Xy_-3kQ9aZb0-1z'), { prefix: 'Xy_-3kQ9aZb0-', seq: '1z' });
  assert.equal(roomSequence('OPAQUE'), null);
  assert.equal(roomSequence(null), null);
  assert.ok(roomOrder('p-9', 'p-a') < 0, '9 < a in base 36');
  assert.ok(roomOrder('p-z', 'p-10') < 0, 'z < 10 in base 36');
  assert.ok(roomOrder('p-10', 'p-z') > 0);
  assert.equal(roomOrder('p-1', 'q-2'), 0, 'another prefix: unknown');
  assert.equal(roomOrder('p-1', 'p-1'), 0);
  assert.equal(roomOrder(null, 'p-1'), 0);
});

test('issue 35 item 5: a retained message stamped in whole seconds stays below a live one it followed in that second', () => {
  // Live cat1 shown at 06:00:05.700; dog1, sent after it, flushed later in a compact batch stamped 06:00:05.
  const shown = [{ text: 'before', id: 'P-1', time: at('2026-11-27T06:00:04.100Z') },
    { text: 'cat1', id: 'P-2', time: at('2026-11-27T06:00:05.700Z') }];
  // Before: the stamp alone, 06:00:05.000, sorted dog1 above cat1.
  assert.deepEqual(converseOrder([...shown, { text: 'dog1', time: at('2026-11-27T06:00:05Z') }]), ['before', 'dog1', 'cat1']);
  arrive(shown, 'dog1', '2026-11-27T06:00:05Z', 'P-3');
  arrive(shown, 'dog2', '2026-11-27T06:00:05Z', 'P-4');
  arrive(shown, 'dog3', '2026-11-27T06:00:07Z', 'P-5');
  assert.deepEqual(converseOrder(shown), ['before', 'cat1', 'dog1', 'dog2', 'dog3']);
  assert.equal(new Date(shown[2].time).toISOString(), '2026-11-27T06:00:05.701Z', '1 ms after cat1');
  assert.equal(new Date(shown[4].time).toISOString(), '2026-11-27T06:00:07.000Z', 'a later stamp is kept');
});

test('a retained message the room sent before a live one in the same second stays above it', () => {
  // dog1 at 06:00:05.200 (retained), cat1 at 06:00:05.700 (at once): the room's order is dog1, cat1.
  const shown = [{ text: 'cat1', id: 'P-b', time: at('2026-11-27T06:00:05.700Z') }];
  arrive(shown, 'dog1', '2026-11-27T06:00:05Z', 'P-a');
  assert.deepEqual(converseOrder(shown), ['dog1', 'cat1']);
  assert.equal(shown[1].time, at('2026-11-27T06:00:05Z'), 'its stamp, unchanged');
});

test('the room\'s order wins over a stamp later than a message that followed it (the browser\'s clock behind)', () => {
  const shown = [{ text: 'cat1', id: 'P-1', time: at('2026-11-27T06:00:03.000Z') },
    { text: 'cat2', id: 'P-3', time: at('2026-11-27T06:00:04.000Z') }];
  arrive(shown, 'dog1', '2026-11-27T06:00:06.250Z', 'P-2');
  assert.deepEqual(converseOrder(shown), ['cat1', 'dog1', 'cat2']);
  // Between two messages shown out of the room's order already: after the one it followed.
  const odd = [{ text: 'b', id: 'P-5', time: 1000 }, { text: 'a', id: 'P-3', time: 1000 }];
  arrive(odd, 'x', new Date(500).toISOString(), 'P-4');
  assert.equal(odd[2].time, 1001);
});

test('without the room\'s order (opaque stanza-ids): arrival order within the stamp\'s precision', () => {
  const shown = [{ text: 'mine', id: null, time: at('2026-11-27T06:00:05.700Z') },
    { text: 'later', id: 'uuid-other-room', time: at('2026-11-27T06:00:09.000Z') }];
  arrive(shown, 'opaque', '2026-11-27T06:00:05Z', 'OPAQUE');
  assert.deepEqual(converseOrder(shown), ['mine', 'opaque', 'later']);
  // A stamp with a fraction is precise: a message shown later in that second is not moved before.
  const precise = [{ text: 'live', id: null, time: at('2026-11-27T06:00:05.700Z') }];
  arrive(precise, 'exact', '2026-11-27T06:00:05.300Z', 'OPAQUE');
  assert.deepEqual(converseOrder(precise), ['exact', 'live']);
});
