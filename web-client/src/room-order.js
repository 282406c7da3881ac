// Where a retained message goes among the messages already shown: in the room's order, not by a
// coarse stamp. Converse.js sorts a room's messages by their `time` (a stable sort: equal times keep
// the order they arrived in), and takes a delayed message's time from its XEP-0203 stamp, a live
// one's from the browser's clock on arrival. A compact batch carries whole seconds (reconmuc.md
// §5.9 rule 7), so a message the room retained at 06:00:05.900 arrives stamped 06:00:05 and would sort
// above a message the room sent at once at 06:00:05.300 (shown at 06:00:05.3xx), though it followed
// it in the room. The room's order is known from its stanza-ids where it mints them as a prefix and
// a counter (this component does: prefix "-" base-36 sequence of its log, the `sid` and `s` of a
// compact batch); where it is not known, a message already shown within the stamp's precision
// counts as earlier (the order of arrival). Pure: no DOM, no Converse (tested under Node).

/** A stanza-id read as a prefix and a base-36 counter (its last run of digits and lower-case letters), or null. */
export function roomSequence(id) {
  const m = /^(.*[^0-9a-z])([0-9a-z]+)$/.exec(id ?? '');
  return m ? { prefix: m[1], seq: m[2].replace(/^0+(?=.)/, '') } : null;
}

/**
 * The room's order of two messages by their stanza-ids: negative when `a` came first, positive when
 * `b` did, 0 when unknown (either has none, different prefixes, or the same id).
 */
export function roomOrder(a, b) {
  const x = roomSequence(a);
  const y = roomSequence(b);
  if (!x || !y || x.prefix !== y.prefix || x.seq === y.seq) return 0;
  // Base 36 without leading zeros: the longer is larger; of equal length, '0'-'9' < 'a'-'z' in code order.
  return x.seq.length !== y.seq.length ? x.seq.length - y.seq.length : (x.seq < y.seq ? -1 : 1);
}

/**
 * The time (milliseconds since the epoch) to give a retained message so that it sorts after every
 * shown message it followed in the room and, where its stamp allows, before every one that followed
 * it: its stamp, or 1 ms after the latest message it followed where that is later; the room's order
 * wins over the stamp.
 * @param {number} stamp its delay's stamp, ms since the epoch
 * @param {number} precision the stamp's precision in ms: 1000 for whole seconds, 1 with a fraction
 * @param {?string} id its stanza-id by the room
 * @param {Iterable<{time: number, id: ?string}>} shown the messages shown: time (ms) and room stanza-id
 */
export function retainedTime(stamp, precision, id, shown) {
  let after = -Infinity; // the latest time of a message it followed
  let before = Infinity; // the earliest time of a message that followed it
  for (const m of shown) {
    if (id && m.id === id) continue; // itself (a duplicate Converse drops)
    const order = roomOrder(m.id, id);
    if (order < 0 || (order === 0 && m.time >= stamp && m.time < stamp + precision)) after = Math.max(after, m.time);
    else if (order > 0) before = Math.min(before, m.time);
  }
  let time = Math.max(stamp, after + 1);
  if (time >= before) time = Math.max(after + 1, before - 1); // a stamp later than a message that followed it
  return time;
}
