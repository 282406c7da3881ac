// The rest of the protocol a client needs, pure (no DOM, no Converse): topics and hashtags
// (reconmuc.md §5.3), addressing (§5.5), discovery and limits (§7), the requirements IQ (§4.1,
// §4.2, §5.1) and its result. Elements are the trees of ./xml.js.
import { elements, attr, textOf, parseXml } from './xml.js';
import { NS } from './batch-decoder.js';

export const FEATURE = NS.RECONMUC;
export const FEATURE_COMPACT = `${NS.RECONMUC}#compact`;
export const FEATURE_COMPACT_LIVE = `${NS.RECONMUC}#compact-live`;
export const FEATURE_COMPACT_DEFLATE = `${NS.RECONMUC}#compact-deflate`;
export const FEATURE_COMPACT_DEFLATE_LIVE = `${NS.RECONMUC}#compact-deflate-live`;
export const FEATURE_PRESENCES = `${NS.RECONMUC}#presences`;
export const LIMITS_FORM_TYPE = `${NS.RECONMUC}#limits`;
const DISCO_INFO = 'http://jabber.org/protocol/disco#info';
const DISCO_ITEMS = 'http://jabber.org/protocol/disco#items';
const RSM = 'http://jabber.org/protocol/rsm';
const DATA_FORMS = 'jabber:x:data';

/** A topic value normalised (§5.3 rule 2), or null when empty or longer than 64 characters. */
export function normaliseTopic(value) {
  let v = value.replace(/^[ \t\r\n]+|[ \t\r\n]+$/g, '');
  if (v.startsWith('#')) v = v.slice(1);
  v = v.toLowerCase();
  const length = [...v].length;
  return length >= 1 && length <= 64 ? v : null;
}

const HASHTAG = /(?<![\p{L}\p{Nd}_-])#([\p{L}\p{Nd}_-]{1,64})(?![\p{L}\p{Nd}_-])/gu;

/** The hashtags of a text, lowercased, in order, without duplicates (§5.3 rule 3). */
export function hashtags(text) {
  const out = [];
  for (const m of text.matchAll(HASHTAG)) {
    const t = m[1].toLowerCase();
    if (!out.includes(t)) out.push(t);
  }
  return out;
}

/**
 * What the user sends while following `active` (§5.13 rule 6): `{ body, topics }`, the body to send and
 * the values of its `<topic/>` elements. `known` are the topics the page knows (followed, or seen in the
 * room: the topic bar's); the first `quoted` code points of `text` are not the user's (Converse's
 * XEP-0461 reply fallback quotes the parent there), so their hashtags are not a choice of the user.
 *
 * The user chose the topic when what they typed carries a hashtag (at the start, in the middle, at the
 * end, in any case: §5.3 rule 3 lowercases it) of a known topic, or one with a letter in it: "hello dogs
 * people #Dogs" while following #cats is sent as typed, tagged dogs — not "… #Dogs #cats", which would
 * file it under a topic the user did not pick (and every reader on a standard client would see both).
 * A hashtag of digits alone that the page does not know ("see issue #35", "#1") reads as a number, not
 * a topic: the message is then the active topic's, and "#cats" is appended for standard clients, as
 * for a message without any hashtag. With no active topic the text is sent as typed, untagged.
 * The same text and arguments give the same answer for the body it returned (the stanza hook
 * recomputes the topics from the body sent).
 */
export function tagOutgoing(text, active, known = [], quoted = 0) {
  if (!active) return { body: text, topics: [] };
  const typed = quoted > 0 ? [...text].slice(quoted).join('') : text;
  const chosen = hashtags(typed).filter((t) => t === active || known.includes(t) || /\p{L}/u.test(t));
  if (chosen.length) return { body: text, topics: chosen.slice(0, 16) };
  return { body: `${text} #${active}`, topics: [active] };
}

/** A message's topics: its <topic/> elements (either namespace), or else the hashtags of its bodies (§5.3 rule 1). */
export function topicsOf(message) {
  const tagged = message.children.filter((c) => typeof c !== 'string' && c.local === 'topic'
    && (c.ns === NS.RECONMUC || c.ns === NS.LEGACY));
  const out = [];
  const add = (t) => { if (t && !out.includes(t)) out.push(t); };
  if (tagged.length) tagged.forEach((t) => add(normaliseTopic(textOf(t))));
  else elements(message, 'body', NS.CLIENT).forEach((b) => hashtags(textOf(b)).forEach(add));
  return out.slice(0, 16);
}

/** The stanza-id the room stamped on a message (XEP-0359, by the room), or null. */
export function roomStanzaId(message, room) {
  const sid = elements(message, 'stanza-id', NS.STANZA_ID).find((e) => attr(e, 'by') === room);
  return sid ? attr(sid, 'id') : null;
}

/** The XEP-0461 reply of a message: { id, to } of its first <reply/>, or null. */
export function replyOf(message) {
  const r = elements(message, 'reply', NS.REPLY)[0];
  return r ? { id: attr(r, 'id'), to: attr(r, 'to') } : null;
}

/**
 * Whether a message is addressed to the occupant `nick` of `room` (§5.5 rule 3.1 and 3.2): its body
 * starts with the nick and ':' or ',' (case-insensitively), or an XEP-0372 mention names its occupant JID.
 */
export function isAddressedTo(message, nick, room) {
  const body = elements(message, 'body', NS.CLIENT).map(textOf)[0] ?? '';
  const start = body.replace(/^\s+/, '');
  const n = nick.toLowerCase();
  if (start.toLowerCase().startsWith(n) && [':', ','].includes(start.charAt(nick.length))) return true;
  return elements(message, 'reference', NS.REFERENCE).some((r) => attr(r, 'type') === 'mention'
    && decodeURIComponentSafe(attr(r, 'uri') ?? '') === `xmpp:${room}/${nick}`);
}

function decodeURIComponentSafe(s) {
  try { return decodeURIComponent(s); } catch { return s; }
}

/**
 * What a disco#info result says about ReConMUC (§7): { supported, compact, compactLive,
 * compactDeflate, compactDeflateLive, limits }.
 * Limits are numbers or null; history-size is required, max-volume defaults to it, max-time to 86400.
 */
export function readDiscoInfo(iq) {
  const query = elements(iq, 'query', DISCO_INFO)[0];
  const features = query ? elements(query, 'feature', DISCO_INFO).map((f) => attr(f, 'var')) : [];
  const limits = { historySize: null, maxVolume: null, maxTime: 86400, maxFilterEntries: null };
  const form = query && elements(query, 'x', DATA_FORMS).find((x) => elements(x, 'field', DATA_FORMS)
    .some((f) => attr(f, 'var') === 'FORM_TYPE' && elements(f, 'value', DATA_FORMS).map(textOf)[0] === LIMITS_FORM_TYPE));
  if (form) {
    const value = (name) => {
      const f = elements(form, 'field', DATA_FORMS).find((x) => attr(x, 'var') === name);
      const v = f ? Number.parseInt((elements(f, 'value', DATA_FORMS).map(textOf)[0] ?? '').trim(), 10) : NaN;
      return Number.isFinite(v) ? v : null;
    };
    limits.historySize = value('history-size');
    limits.maxVolume = value('max-volume') ?? limits.historySize;
    limits.maxTime = value('max-time') ?? 86400;
    limits.maxFilterEntries = value('max-filter-entries');
  }
  return {
    supported: features.includes(FEATURE),
    compact: features.includes(FEATURE_COMPACT),
    compactLive: features.includes(FEATURE_COMPACT_LIVE),
    compactDeflate: features.includes(FEATURE_COMPACT_DEFLATE),
    compactDeflateLive: features.includes(FEATURE_COMPACT_DEFLATE_LIVE),
    limits,
  };
}

/** Past this many occupants (the room's disco#info `muc#roominfo_occupants`) a room is big. */
export const BIG_ROOM = 1000;
/** The time bound asked for in a big room when the user gave none: a digest a minute. */
export const BIG_ROOM_TIME = 60;
/** The presence level asked for in a big room (§5.17): see bigRoomLevel. */
export const BIG_ROOM_LEVEL = 'moderators';

/**
 * The presence level to join a room with (§5.17), or null to join as any XEP-0045 client does: a
 * room is big when it advertises more than `threshold` occupants; only a room that honours levels
 * (`urn:reconmuc:0#presences`, §7 rule 6) is asked. `moderators` rather than `none`: a person in a
 * crowd wants to see who can act there (and the list stays true for them, §5.17 rule 3), and a room
 * has a handful of moderators, so the join costs about what `none` costs; everyone else is listed on
 * demand, a page of disco#items at a time.
 */
export function bigRoomLevel(occupants, honoursLevels, threshold = BIG_ROOM, level = BIG_ROOM_LEVEL) {
  const n = Number.parseInt(occupants ?? '', 10);
  return honoursLevels && Number.isFinite(n) && n > threshold ? level : null;
}

/** The <presences/> element a join carries to ask for a presence level (§4.13, §5.17). */
export function presencesElement(level) {
  return `<presences xmlns='${NS.RECONMUC}' level='${esc(level)}'/>`;
}

/**
 * The requirements stated on entering (§4.1) within the room's `limits` (readDiscoInfo's): `asked`
 * holds the user's topic, time and volume (null where not given). A small room: the topic as the
 * filter, the time (30 s) and volume (20) asked for. A big room: a digest — no filter unless the
 * user follows a topic, the time bound asked for or else BIG_ROOM_TIME, and the room's largest
 * volume unless the user gave one, so that the digest comes by the clock, not every 20 messages.
 */
export function requirementsOnEntering(limits, { topic = null, time = null, volume = null } = {}, big = false) {
  const caps = [limits.historySize, limits.maxVolume].filter((v) => v != null);
  const volumeCap = caps.length ? Math.min(...caps) : null;
  const maxTime = limits.maxTime ?? 86400;
  const t = normaliseTopic(topic || '');
  const wantedVolume = volume ?? (big ? volumeCap ?? 20 : 20);
  return {
    filter: t ? [{ element: 'topic', value: t, active: true }] : [],
    time: Math.max(1, Math.min(time ?? (big ? BIG_ROOM_TIME : 30), maxTime)),
    volume: Math.max(1, Math.min(wantedVolume, volumeCap ?? 20)),
  };
}

/**
 * A disco#items request for one page of a room's occupants (XEP-0045 §6.5, XEP-0059): at most
 * `max`, after the occupant `after` (the last nick of the page before; none: from the start).
 */
export function occupantPageRequest(room, id, after = null, max = 100) {
  return `<iq xmlns='jabber:client' type='get' to='${esc(room)}' id='${esc(id)}'><query xmlns='${DISCO_ITEMS}'>`
    + `<set xmlns='${RSM}'><max>${max}</max>${after != null ? `<after>${esc(after)}</after>` : ''}</set></query></iq>`;
}

/**
 * A page of occupants in a disco#items result: { items: [{ jid, nick }], count, last } — count the
 * room's size the page states (XEP-0059 <count/>), or null; last its last nick, or null.
 */
export function readOccupantPage(iq) {
  const query = elements(iq, 'query', DISCO_ITEMS)[0];
  if (!query) return { items: [], count: null, last: null };
  const items = elements(query, 'item', DISCO_ITEMS).map((i) => ({ jid: attr(i, 'jid'), nick: attr(i, 'name') ?? '' }));
  const set = elements(query, 'set', RSM)[0];
  const text = (name) => { const e = set && elements(set, name, RSM)[0]; return e ? textOf(e) : null; };
  const count = Number.parseInt(text('count') ?? '', 10);
  return { items, count: Number.isFinite(count) ? count : null, last: text('last') ?? items.at(-1)?.nick ?? null };
}

const esc = (s) => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/'/g, '&apos;');

/**
 * The <consistency-requirements/> element of a set (§4.1, §4.2): `filter` a list of
 * { element: 'topic'|'nick', value, active }, then time, volume, aggregation — each only if given —
 * or <standard/> alone.
 */
export function requirementsElement({ filter, time, volume, aggregation, standard } = {}, ns = NS.RECONMUC) {
  if (standard) return `<consistency-requirements xmlns='${ns}'><standard/></consistency-requirements>`;
  let out = `<consistency-requirements xmlns='${ns}'>`;
  if (filter) {
    out += filter.length ? `<filter>${filter.map((e) => `<filter-entry element='${esc(e.element ?? 'topic')}' value='${esc(e.value)}'${
      e.active === false ? " active='false'" : e.active === true ? " active='true'" : ''}/>`).join('')}</filter>` : '<filter/>';
  }
  if (time != null) out += `<time>${time}</time>`;
  if (volume != null) out += `<volume>${volume}</volume>`;
  if (aggregation != null) out += `<aggregation>${esc(aggregation)}</aggregation>`;
  return `${out}</consistency-requirements>`;
}

/** The update a topic switch sends (as Joom and reconmuc-smack's switchTopic): the old topic off, the new one on. */
export function topicSwitch(from, to) {
  const filter = [];
  if (from && from !== to) filter.push({ element: 'topic', value: from, active: false });
  if (to) filter.push({ element: 'topic', value: to, active: true });
  return { filter };
}

/** The effective requirements in a result (§5.2 rule 4): { standard } or { filter, time, volume, aggregation }. */
export function readRequirements(iq) {
  const cr = iq.children.find((c) => typeof c !== 'string' && c.local === 'consistency-requirements');
  if (!cr) return null;
  const ns = cr.ns;
  if (elements(cr, 'standard', ns).length) return { standard: true };
  const num = (n) => { const e = elements(cr, n, ns)[0]; return e ? Number.parseInt(textOf(e).trim(), 10) : null; };
  const filter = elements(cr, 'filter', ns).flatMap((f) => elements(f, 'filter-entry', ns))
    .map((e) => ({ element: attr(e, 'element'), value: attr(e, 'value'), active: attr(e, 'active') !== 'false' }));
  const agg = elements(cr, 'aggregation', ns)[0];
  return { standard: false, filter, time: num('time'), volume: num('volume'), aggregation: agg ? textOf(agg).trim() : null };
}

export { parseXml };
