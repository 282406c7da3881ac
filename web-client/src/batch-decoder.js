// Reads ReConMUC batches strictly, as reconmuc.md §5.9 and §5.13 require of a receiver, with the
// same rules as the Java codec's BatchDecoder (codec/src/main/java/org/reconmuc/codec/batch/):
// count equals the number of items; a plain batch holds only <forwarded/> items and white space,
// each an XEP-0203 delay and then a jabber:client message; a deflate batch has no child elements,
// its base64 text decodes to exactly compressed-size bytes, which inflate (raw DEFLATE) to exactly
// size bytes of UTF-8 — refused before inflating when size is above this decoder's limit, and never
// inflated past size + 1 bytes (the bomb guard); compact items (<m/>) are expanded to the
// forwarded items they stand for (§5.9 rule 7); a deflate-stream batch continues the session's
// stream (one inflater kept from batch to batch, numbered 1, 2, 3…; after a gap or a corrupt
// batch its batches are refused until one starts a new stream); a deflate-live batch (§5.9 rule
// 8.7) says only its number: compact, its items timed from the Unix epoch, its text base 85, no
// count or size (it holds at least one item and never inflates past the decoder's limit). No DTD, comment or processing
// instruction anywhere. A batch that breaks a rule is refused whole with a MalformedBatchError.
//
// Plain JS, no DOM: runs in the browser (the Converse.js plugin) and under Node (the vector tests).
// Keep one decoder per receiving session and room: the deflate stream's state lives here.

import { ZStream, zlibInflateInit2, zlibInflate, Z_OK, Z_STREAM_END, Z_SYNC_FLUSH, Z_BUF_ERROR } from 'pako';
import { parseXml, serialize, element, elements, attr, textOf, XmlError, XML_NS } from './xml.js';

export const NS = {
  RECONMUC: 'urn:reconmuc:0',
  LEGACY: 'http://joom.com/extensions',
  FORWARD: 'urn:xmpp:forward:0',
  DELAY: 'urn:xmpp:delay',
  CLIENT: 'jabber:client',
  STANZA_ID: 'urn:xmpp:sid:0',
  OCCUPANT_ID: 'urn:xmpp:occupant-id:0',
  REPLY: 'urn:xmpp:reply:0',
  REFERENCE: 'urn:xmpp:reference:0',
};

/** The default bomb guard: the most bytes a batch may declare it inflates to (as the Java codec). */
export const DEFAULT_MAX_INFLATED_BYTES = 16 * 1024 * 1024;

/** The four bytes that end a sync flush, left out on the wire (§5.9 rule 8.1). */
const SYNC_TRAILER = [0x00, 0x00, 0xff, 0xff];

/** A batch refused whole; the message names the rule it breaks. */
export class MalformedBatchError extends Error {
  constructor(message) {
    super(message);
    this.name = 'MalformedBatchError';
  }
}

const FORMS = {
  forwarded: { attribute: null, item: 'forwarded', ns: NS.FORWARD },
  compact: { attribute: 'compact', item: 'm', ns: NS.RECONMUC },
};
const ENCODINGS = { plain: null, deflate: 'deflate', 'deflate-stream': 'deflate-stream', 'deflate-live': 'deflate-live' };

/** §5.9 rule 8.7: the 85 digits of a deflate-live batch's text, in order of value. */
export const BASE85_ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz!#$%()*+,-./:;=?@[]^_{}';
const BASE85_VALUE = new Map([...BASE85_ALPHABET].map((c, i) => [c, i]));

function require(rule, text) {
  if (!rule) throw new MalformedBatchError(text);
}

function positive(name, value) {
  const v = value.trim();
  if (/^\+?[0-9]+$/.test(v)) {
    const n = Number(v);
    if (n > 0 && n <= 2147483647) return n;
  }
  throw new MalformedBatchError(`'${name}' must be a positive integer, not '${value}'`);
}

/** The last second an item may have: XEP-0082 dates, years 0000 to 9999. */
const LAST_MS = Date.UTC(9999, 11, 31, 23, 59, 59);

/** An XEP-0082 date-time in UTC (as java.time.Instant.parse reads it), in milliseconds. */
function instant(value) {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?Z$/.exec(value);
  const ms = m ? Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6], m[7] ? Math.floor(Number(m[7]) * 1000) : 0) : NaN;
  if (!m || Number.isNaN(ms) || +m[2] > 12 || +m[3] > 31 || +m[4] > 23 || +m[5] > 59 || +m[6] > 59) {
    throw new MalformedBatchError(`'stamp' is not an XEP-0082 date and time: '${value}'`);
  }
  return ms;
}

/** An instant as java.time.Instant.toString() writes it (no fraction when whole seconds). */
export function formatInstant(ms) {
  const iso = new Date(ms).toISOString();
  return ms % 1000 === 0 ? iso.replace('.000Z', 'Z') : iso;
}

function readHeader(batch) {
  let count = null; let size = null; let compressedSize = null; let n = null;
  let encoding = null; let form = null; let stamp = null; let sid = null;
  for (const a of batch.attrs) {
    if (a.ns) continue; // others may extend the element in their own namespaces
    switch (a.local) {
      case 'count': count = positive(a.local, a.value); break;
      case 'size': size = positive(a.local, a.value); break;
      case 'compressed-size': compressedSize = positive(a.local, a.value); break;
      case 'n': n = positive(a.local, a.value); break;
      case 'encoding': encoding = a.value; break;
      case 'form': form = a.value; break;
      case 'stamp': stamp = a.value; break;
      case 'sid': sid = a.value; break;
      default: throw new MalformedBatchError(`unknown attribute '${a.local}' on a batch`);
    }
  }
  const enc = Object.keys(ENCODINGS).find((k) => ENCODINGS[k] === encoding);
  if (enc === 'deflate-live') {
    // §5.9 rule 8.7: compact, timed from the Unix epoch; the payload says how many items there are.
    require(count === null && form === null && stamp === null && sid === null && size === null && compressedSize === null
      && n !== null, "a deflate-live batch has only 'encoding' and 'n'");
    return { count: null, encoding: enc, form: 'compact', size: null, compressedSize: null, stamp: 0, sid: null, n };
  }
  require(count !== null, "a batch needs 'count'");
  require(enc, `unknown encoding '${encoding}'`);
  const f = Object.keys(FORMS).find((k) => FORMS[k].attribute === form);
  require(f, `unknown form '${form}'`);
  if (enc === 'plain') require(size === null && compressedSize === null && n === null, 'a plain batch has no size, compressed-size or n');
  if (enc === 'deflate') require(size !== null && compressedSize !== null && n === null, "a deflate batch needs 'size' and 'compressed-size' (and no 'n')");
  if (enc === 'deflate-stream') require(size !== null && n !== null && compressedSize === null, "a deflate-stream batch needs 'n' and 'size' (and no 'compressed-size')");
  let at = null;
  if (f === 'compact') {
    require(stamp !== null, "a compact batch has a 'stamp'");
    at = instant(stamp);
  } else {
    require(stamp === null && sid === null, "only a compact batch has 'stamp' and 'sid'");
  }
  return { count, encoding: enc, form: f, size, compressedSize, stamp: at, sid, n };
}

/** Strict base64 (RFC 4648 §4), XML white space ignored. */
function base64(text) {
  const s = text.replace(/[ \t\r\n]/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(s) || s.length % 4 === 1 || (s.includes('=') && s.length % 4 !== 0)) {
    throw new MalformedBatchError('the payload is not base64');
  }
  let bin;
  try {
    bin = atob(s);
  } catch (e) {
    throw new MalformedBatchError(`the payload is not base64: ${e.message}`);
  }
  const bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  return bytes;
}

/** §5.9 rule 8.7's base 85, XML white space ignored. */
export function base85(text) {
  const s = text.replace(/[ \t\r\n]/g, '');
  if (s.length % 5 === 1) throw new MalformedBatchError('the payload is not base 85: a last group of one digit');
  const bytes = new Uint8Array(Math.floor(s.length / 5) * 4 + Math.max(0, (s.length % 5) - 1));
  let out = 0;
  for (let i = 0; i < s.length; i += 5) {
    const m = Math.min(5, s.length - i);
    let value = 0;
    for (let d = 0; d < 5; d++) {
      const digit = d < m ? BASE85_VALUE.get(s[i + d]) : 84;
      if (digit === undefined) throw new MalformedBatchError(`the payload is not base 85: '${s[i + d]}' is not a base-85 digit`);
      value = value * 85 + digit;
    }
    if (value > 0xffffffff) throw new MalformedBatchError('the payload is not base 85: a group worth more than four bytes');
    for (let j = 0; j < m - 1; j++) bytes[out++] = Math.floor(value / 2 ** (24 - 8 * j)) % 256;
  }
  return bytes;
}

function encodedText(batch, decode = base64) {
  let text = '';
  for (const c of batch.children) {
    if (typeof c !== 'string') throw new MalformedBatchError('an encoded batch has no child elements');
    text += c;
  }
  return decode(text);
}

function utf8(bytes) {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch (e) {
    throw new MalformedBatchError('the payload is not UTF-8');
  }
}

function newInflater() {
  const strm = new ZStream();
  if (zlibInflateInit2(strm, -15) !== Z_OK) throw new Error('cannot start an inflater');
  return strm;
}

/**
 * Runs the inflater over `input` into at most `limit` bytes of output.
 * Returns { produced, status, remaining }.
 */
function run(strm, input, limit, flush) {
  strm.input = input;
  strm.next_in = 0;
  strm.avail_in = input.length;
  strm.output = new Uint8Array(limit);
  strm.next_out = 0;
  strm.avail_out = limit;
  let status = Z_OK;
  // zlib consumes all it can in one call; a few more are allowed for output it holds back.
  for (let i = 0; i < 8 && status === Z_OK && strm.avail_in > 0 && strm.avail_out > 0; i++) {
    status = zlibInflate(strm, flush);
  }
  return { produced: strm.next_out, status, remaining: strm.avail_in, output: strm.output };
}

/**
 * Continues a stream's inflater over `input`, its output grown as it comes (from `first` bytes)
 * and never past `limit` + 1 bytes: a bomb is caught at the first byte too many. Stops when all
 * input is used and the output not filled, when nothing more comes, the stream ends or an error comes.
 * Returns { produced, status, remaining, output }.
 */
function inflateUpTo(strm, input, limit, first) {
  strm.input = input;
  strm.next_in = 0;
  strm.avail_in = input.length;
  const chunks = [];
  let produced = 0;
  let status = Z_OK;
  let size = Math.min(first, limit + 1);
  while (produced <= limit) {
    const out = new Uint8Array(Math.min(size, limit + 1 - produced));
    strm.output = out;
    strm.next_out = 0;
    strm.avail_out = out.length;
    status = zlibInflate(strm, Z_SYNC_FLUSH);
    chunks.push(out.subarray(0, strm.next_out));
    produced += strm.next_out;
    if (status !== Z_OK || (strm.next_out < out.length && (strm.avail_in === 0 || strm.next_out === 0))) break;
    if (strm.next_out === out.length) size *= 2;
  }
  const output = new Uint8Array(produced);
  let at = 0;
  for (const c of chunks) {
    output.set(c, at);
    at += c.length;
  }
  return { produced, status, remaining: strm.avail_in, output };
}

/**
 * Inflates one complete raw DEFLATE stream that must produce exactly `size` bytes and end there;
 * refuses a size above `limit` before inflating anything (reconmuc.md §5.13 rule 4).
 */
export function inflateRawExactly(deflated, size, limit) {
  if (size < 0 || size > limit) {
    throw new MalformedBatchError(`refusing to inflate a declared size of ${size} bytes (the limit is ${limit})`);
  }
  const r = run(newInflater(), deflated, size + 1, Z_SYNC_FLUSH);
  if (r.produced > size) throw new MalformedBatchError(`the payload inflates to more than its size of ${size} bytes`);
  if (r.status < 0 && r.status !== Z_BUF_ERROR) throw new MalformedBatchError('the payload is not raw DEFLATE');
  if (r.status !== Z_STREAM_END) throw new MalformedBatchError('the payload is not one complete raw DEFLATE stream');
  if (r.produced !== size) throw new MalformedBatchError(`size is ${size} but the payload inflates to ${r.produced} bytes`);
  if (r.remaining !== 0) throw new MalformedBatchError('bytes follow the end of the DEFLATE stream');
  return r.output.subarray(0, size);
}

/** Expands compact items in order (§5.9 rule 7). */
class Expansion {
  constructor(header, room) {
    this.header = header;
    this.room = room;
    this.at = header.stamp;
    this.previousSuffix = -1;
    this.live = false; // whether an item was live (§5.9 rule 8.6): it must be the last
    this.expanded = 0; // items expanded so far
  }

  expand(m) {
    if (this.live) throw new MalformedBatchError('a live item is the last of its batch');
    let nick = null; let id = null; let occupantId = null; let lang = null; let suffix = null; let stanzaId = null;
    let step = 0;
    let timed = false;
    // The first item of a deflate-live batch is timed from the Unix epoch (§5.9 rule 8.7): up to the year 9999.
    const fromEpoch = this.expanded === 0 && this.header.encoding === 'deflate-live';
    for (const a of m.attrs) {
      if (a.ns === XML_NS && a.local === 'lang') { lang = a.value; continue; }
      if (a.ns) throw new MalformedBatchError(`a compact item has no attribute '${a.local}' in ${a.ns}`);
      switch (a.local) {
        case 'n': nick = a.value; break;
        case 'id': id = a.value; break;
        case 'o': occupantId = a.value; break;
        case 's': suffix = a.value; break;
        case 'sid': stanzaId = a.value; break;
        case 't':
          step = /^[+-]?[0-9]+$/.test(a.value) ? Number(a.value) : -1;
          timed = true;
          if (!(step >= 0 && step <= (fromEpoch ? 253402300799 : 31536000))) {
            throw new MalformedBatchError(`'t' is a whole number of seconds, not '${a.value}'`);
          }
          break;
        case 'l':
          if (a.value !== '1') throw new MalformedBatchError(`'l' marks a live item with '1', not '${a.value}'`);
          // Compact batches (compact-live) and live streams (compact-deflate-live) hold them.
          if (this.header.encoding !== 'plain' && this.header.encoding !== 'deflate-live') {
            throw new MalformedBatchError(`no live item in a ${this.header.encoding} batch`);
          }
          this.live = true;
          break;
        default: throw new MalformedBatchError(`unknown attribute '${a.local}' on a compact item`);
      }
    }
    if (!nick) throw new MalformedBatchError("a compact item needs 'n', its sender's nick");
    if (fromEpoch && !timed) throw new MalformedBatchError("the first item of a deflate-live batch has 't', its time since the Unix epoch");
    // XEP-0082 years have four digits; the Java decoder refuses the same (MalformedBatches vectors).
    if (this.at + step * 1000 > LAST_MS) throw new MalformedBatchError("'t' takes an item past the year 9999");
    this.expanded++;
    stanzaId = this.stanzaId(suffix, stanzaId);
    this.at += step * 1000;
    const children = [];
    for (const c of m.children) {
      if (typeof c === 'string') {
        if (c.trim() !== '') throw new MalformedBatchError('a compact item holds elements, not text');
        children.push(c);
      } else {
        children.push(c);
      }
    }
    const messageAttrs = [];
    if (lang !== null) messageAttrs.push({ local: 'lang', ns: XML_NS, prefix: 'xml', value: lang });
    const plain = (l, v) => ({ local: l, ns: null, prefix: '', value: v });
    messageAttrs.push(plain('from', `${this.room}/${nick}`), plain('type', 'groupchat'));
    if (id !== null) messageAttrs.push(plain('id', id));
    if (occupantId !== null) children.push(element('occupant-id', NS.OCCUPANT_ID, [['id', occupantId]]));
    if (stanzaId !== null) children.push(element('stanza-id', NS.STANZA_ID, [['by', this.room], ['id', stanzaId]]));
    const message = { local: 'message', ns: NS.CLIENT, prefix: '', attrs: messageAttrs, children };
    // A live item is the message as broadcast at once: no delay (§5.9 rule 8.6).
    if (this.live) return element('forwarded', NS.FORWARD, [], [message]);
    const delay = element('delay', NS.DELAY, [['stamp', formatInstant(this.at)], ['from', this.room]]);
    return element('forwarded', NS.FORWARD, [], [delay, message]);
  }

  stanzaId(suffix, full) {
    if (suffix !== null && full !== null) throw new MalformedBatchError("a compact item has 's' or 'sid', not both");
    if (full !== null) {
      this.previousSuffix = -1;
      return full;
    }
    const prefix = this.header.sid;
    if (prefix === null) {
      if (suffix !== null) throw new MalformedBatchError("'s' needs the batch's 'sid'");
      return null;
    }
    let value;
    if (suffix !== null) {
      if (!/^[1-9a-z][0-9a-z]{0,11}$/.test(suffix) && suffix !== '0') {
        throw new MalformedBatchError(`'s' is a base-36 number, not '${suffix}'`);
      }
      value = parseInt(suffix, 36);
    } else if (this.previousSuffix >= 0) {
      value = this.previousSuffix + 1;
    } else {
      throw new MalformedBatchError("a compact item without 's' follows an item with one"
        + " (the first item of a batch with 'sid' has 's' or 'sid')");
    }
    this.previousSuffix = value;
    return prefix + value.toString(36);
  }
}

/** Checks a forwarded item: an XEP-0203 delay and then a jabber:client message, no text beside them. */
function forwardedItem(f) {
  for (const c of f.children) {
    if (typeof c === 'string' && c.trim() !== '') {
      throw new MalformedBatchError('a forwarded item holds no text beside its delay and message');
    }
  }
  const kids = elements(f).map((c) => `{${c.ns}}${c.local}`);
  if (kids.length !== 2 || kids[0] !== `{${NS.DELAY}}delay` || kids[1] !== `{${NS.CLIENT}}message`) {
    throw new MalformedBatchError(`a forwarded item holds an XEP-0203 <delay/> and then a <message xmlns='${NS.CLIENT}'/>, not [${kids}]`);
  }
  return f;
}

function items(container, header, expansion) {
  const form = FORMS[header.form];
  const out = [];
  for (const c of container.children) {
    if (typeof c === 'string') {
      if (c.trim() !== '') throw new MalformedBatchError('a batch holds no text between its items');
      continue;
    }
    if (c.local !== form.item || c.ns !== form.ns) {
      throw new MalformedBatchError(`a batch holds only <${form.item} xmlns='${form.ns}'/> items, not <${c.local} xmlns='${c.ns}'/>`);
    }
    out.push(header.form === 'compact' ? expansion.expand(c) : forwardedItem(c));
  }
  return out;
}

function parse(text) {
  try {
    return parseXml(text);
  } catch (e) {
    if (e instanceof XmlError) throw new MalformedBatchError(`not acceptable XML: ${e.message}`);
    throw e;
  }
}

/**
 * One item of a decoded batch, as a client uses it: the forwarded element, and its message's
 * parts (the message element, the delay's stamp).
 */
export function describeItem(forwarded) {
  const kids = elements(forwarded);
  const [delay, message] = kids.length === 1 ? [null, kids[0]] : kids;
  return {
    live: delay === null,
    stamp: delay === null ? null : attr(delay, 'stamp'),
    from: attr(message, 'from'),
    id: attr(message, 'id'),
    message,
    forwarded,
    body: elements(message, 'body', NS.CLIENT).map(textOf)[0] ?? null,
    stanzaId: (elements(message, 'stanza-id', NS.STANZA_ID)[0] && attr(elements(message, 'stanza-id', NS.STANZA_ID)[0], 'id')) || null,
  };
}

export class BatchDecoder {
  /** @param {number} [maxInflatedBytes] refuse batches declaring more inflated bytes than this */
  constructor(maxInflatedBytes = DEFAULT_MAX_INFLATED_BYTES) {
    this.maxInflatedBytes = maxInflatedBytes;
    this.stream = null; // the session's inflater
    this.nextInStream = 0; // the number the next batch of the stream must carry (0: none yet)
  }

  /** Forgets the session's deflate stream (the room starts a new one, numbered from 1). */
  resetStream() {
    this.stream = null;
    this.nextInStream = 0;
  }

  /**
   * Decodes one `<batch xmlns='urn:reconmuc:0'/>` given as XML text, from the room `roomJid`
   * (the bare JID the batch came from; needed to expand compact items).
   * Returns `{ form, encoding, count, n, items, live }`, each item a forwarded element (see
   * describeItem); when `live`, the last item is a message sent at once (no delay, §5.9 rule 8.6).
   * @throws {MalformedBatchError} naming the first rule the batch breaks
   */
  decode(batchXml, roomJid) {
    const batch = parse(batchXml);
    if (batch.local !== 'batch' || batch.ns !== NS.RECONMUC) {
      throw new MalformedBatchError(`not a <batch xmlns='${NS.RECONMUC}'/> but <${batch.local} xmlns='${batch.ns}'/>`);
    }
    const header = readHeader(batch);
    if (header.form === 'compact' && !roomJid) {
      throw new TypeError("a compact batch is expanded with its room's JID: decode(xml, room)");
    }
    const expansion = new Expansion(header, roomJid);
    let list;
    if (header.encoding === 'plain') {
      list = items(batch, header, expansion);
    } else {
      const payload = header.encoding === 'deflate' ? this.inflate(batch, header) : this.inflateStream(batch, header);
      const wrapper = header.form === 'compact' ? `<payload xmlns="${NS.RECONMUC}">` : '<payload>';
      list = items(parse(`${wrapper}${payload}</payload>`), header, expansion);
    }
    if (header.count === null ? list.length === 0 : list.length !== header.count) {
      throw new MalformedBatchError(header.count === null ? 'a batch holds at least one item'
        : `count is ${header.count} but the batch holds ${list.length} items`);
    }
    return { form: header.form, encoding: header.encoding, count: list.length, n: header.n, items: list, live: expansion.live };
  }

  inflate(batch, header) {
    const deflated = encodedText(batch);
    if (deflated.length !== header.compressedSize) {
      throw new MalformedBatchError(`compressed-size is ${header.compressedSize} but the payload has ${deflated.length} bytes`);
    }
    return utf8(inflateRawExactly(deflated, header.size, this.maxInflatedBytes));
  }

  inflateStream(batch, header) {
    const live = header.encoding === 'deflate-live';
    const deflated = encodedText(batch, live ? base85 : base64);
    const n = header.n;
    if (n === 1) {
      this.resetStream();
      this.stream = newInflater();
    } else if (this.stream === null || n !== this.nextInStream) {
      const expected = this.stream === null ? "a new stream (n='1')" : `n='${this.nextInStream}'`;
      this.resetStream();
      throw new MalformedBatchError(`${header.encoding} batch n='${n}' where ${expected} was due: the stream is lost;`
        + ' ask for the aggregation again to start a new one');
    }
    if (!live && header.size > this.maxInflatedBytes) {
      this.resetStream();
      throw new MalformedBatchError(`refusing to inflate a declared size of ${header.size} bytes (the limit is ${this.maxInflatedBytes})`);
    }
    // A deflate-live batch has no size: the decoder's own limit guards it.
    const limit = live ? this.maxInflatedBytes : header.size;
    const input = new Uint8Array(deflated.length + SYNC_TRAILER.length);
    input.set(deflated, 0);
    input.set(SYNC_TRAILER, deflated.length);
    let r;
    try {
      r = inflateUpTo(this.stream, input, limit, live ? Math.max(1024, deflated.length * 8) : limit + 1);
      if (r.status < 0 && r.status !== Z_BUF_ERROR) {
        throw new MalformedBatchError('the payload does not continue the deflate stream');
      }
      if (r.produced > limit) {
        throw new MalformedBatchError(live ? `the payload inflates to more than the limit of ${limit} bytes`
          : `the payload inflates to more than its size of ${header.size} bytes`);
      }
      if ((!live && r.produced !== header.size) || r.remaining !== 0 || r.status === Z_STREAM_END) {
        throw new MalformedBatchError(r.status === Z_STREAM_END ? `a ${header.encoding} batch ended the stream`
          : !live ? `size is ${header.size} but the payload inflates to ${r.produced} bytes`
            : 'the payload does not end where its batch does');
      }
    } catch (e) {
      this.resetStream();
      throw e;
    }
    this.nextInStream = n + 1;
    return utf8(r.output);
  }
}

export { serialize, parseXml, elements, attr, textOf };
