// The protocol's non-batch vectors against the web client's pure helpers (node --test).
import test from 'node:test';
import assert from 'node:assert/strict';
import { parseXml, serialize, withoutIndentation, elements } from '../src/xml.js';
import { topicsOf, isAddressedTo, replyOf, readDiscoInfo, requirementsElement, readRequirements, topicSwitch,
  normaliseTopic, roomStanzaId, tagOutgoing, bigRoomLevel, presencesElement, requirementsOnEntering, occupantPageRequest,
  readOccupantPage } from '../src/protocol.js';
import { list, read } from './vectors.js';

const ROOM = 'chat@conference.example.org';
const stanza = (name) => parseXml(read(name).stanza, { defaultNs: 'jabber:client' });
const child = (iq) => iq.children.find((c) => typeof c !== 'string');
// Attribute order carries no meaning in XML: sorted before comparing.
const sorted = (el) => ({ ...el, attrs: [...el.attrs].sort((a, b) => a.local.localeCompare(b.local)),
  children: el.children.map((c) => (typeof c === 'string' ? c : sorted(c))) });
const canon = (el) => serialize(sorted(withoutIndentation(el)));

test('every vector index.txt lists is one stanza this XML reader accepts', () => {
  const names = list();
  assert.ok(names.length >= 60, `${names.length} vectors`);
  for (const n of names) {
    const el = stanza(n);
    assert.ok(['iq', 'message', 'presence'].includes(el.local), n);
    assert.equal(el.ns, 'jabber:client', n);
  }
});

test('topics: <topic/> in either namespace, else the hashtags of the body', () => {
  assert.deepEqual(topicsOf(stanza('topic-message')), ['gossip']);
  assert.deepEqual(topicsOf(stanza('topic-message-legacy')), ['xmpp']);
  assert.deepEqual(topicsOf(stanza('topic-message-listing-3')), ['xmpp']);
  assert.deepEqual(topicsOf(stanza('paper-listing-3')), ['xmpp']);
  assert.deepEqual(topicsOf(stanza('hashtag-message')), ['android', 'xmpp']);
  assert.deepEqual(topicsOf(stanza('addressed-message')), []);
  assert.equal(normaliseTopic('  #XMPP '), 'xmpp');
  assert.equal(normaliseTopic('#'), null);
  assert.equal(normaliseTopic('x'.repeat(65)), null);
});

test('what the user sends: the active topic appended only when the user typed no topic of their own', () => {
  const known = ['cats', 'dogs'];
  // issue 35 item 5: following #cats, "hello dogs people #dogs" left as "… #dogs #cats".
  assert.deepEqual(tagOutgoing('hello dogs people #dogs', 'cats', known), { body: 'hello dogs people #dogs', topics: ['dogs'] });
  // Any case, at the start, in the middle; several.
  assert.deepEqual(tagOutgoing('hello #DoGs people', 'cats', known), { body: 'hello #DoGs people', topics: ['dogs'] });
  assert.deepEqual(tagOutgoing('#Dogs: who walks them?', 'cats', known), { body: '#Dogs: who walks them?', topics: ['dogs'] });
  assert.deepEqual(tagOutgoing('#dogs and #Cats', 'cats', known), { body: '#dogs and #Cats', topics: ['dogs', 'cats'] });
  assert.deepEqual(tagOutgoing('the #CATS again', 'cats', known), { body: 'the #CATS again', topics: ['cats'] });
  // A topic the page has not seen yet, with a letter in it: the user's choice too.
  assert.deepEqual(tagOutgoing('#birds anyone?', 'cats', known), { body: '#birds anyone?', topics: ['birds'] });
  // No hashtag, or none of the user's (a number, "C#", an e-mail address): the active topic's tag.
  assert.deepEqual(tagOutgoing('hello', 'cats', known), { body: 'hello #cats', topics: ['cats'] });
  assert.deepEqual(tagOutgoing('see issue #35', 'cats', known), { body: 'see issue #35 #cats', topics: ['cats'] });
  assert.deepEqual(tagOutgoing('C# or a#b@x.org', 'cats', known), { body: 'C# or a#b@x.org #cats', topics: ['cats'] });
  // Digits alone count when the page knows them as a topic.
  assert.deepEqual(tagOutgoing('plans for #2026', 'cats', [...known, '2026']), { body: 'plans for #2026', topics: ['2026'] });
  // A hashtag in Converse's reply quote (XEP-0461 fallback, the first code points) is not the user's.
  const quote = '> Bob:\n> #dogs woof\n';
  assert.deepEqual(tagOutgoing(`${quote}me too`, 'cats', known, [...quote].length), { body: `${quote}me too #cats`, topics: ['cats'] });
  assert.deepEqual(tagOutgoing(`${quote}#dogs me too`, 'cats', known, [...quote].length).topics, ['dogs']);
  // The stanza hook asks again about the body sent: the same topics.
  for (const text of ['hello', 'see issue #35', 'hello dogs people #dogs', '#dogs and #Cats']) {
    const first = tagOutgoing(text, 'cats', known);
    assert.deepEqual(tagOutgoing(first.body, 'cats', known), first, text);
  }
  // No active topic: as typed, untagged.
  assert.deepEqual(tagOutgoing('hello #dogs', null, known), { body: 'hello #dogs', topics: [] });
});

test('replies name their parent by the room stanza-id; the broadcast carries it', () => {
  const reply = replyOf(stanza('reply-message'));
  assert.equal(reply.id, roomStanzaId(stanza('topic-message-broadcast'), ROOM));
  assert.equal(reply.to, `${ROOM}/Bob`);
});

test('addressing: nick and colon (any case), or an XEP-0372 mention', () => {
  assert.ok(isAddressedTo(stanza('addressed-message'), 'Alice', ROOM));
  assert.ok(!isAddressedTo(stanza('addressed-message'), 'Carol', ROOM));
  assert.ok(isAddressedTo(stanza('mention-message'), 'Carol', ROOM));
  assert.ok(!isAddressedTo(stanza('mention-message'), 'Alice', ROOM));
});

test('discovery: the room and service results', () => {
  const room = readDiscoInfo(stanza('disco-info-result-room'));
  assert.deepEqual(room, { supported: true, compact: true, compactLive: true, compactDeflate: true, compactDeflateLive: true,
    limits: { historySize: 100, maxVolume: 100, maxTime: 3600, maxFilterEntries: 8 } });
  assert.ok(readDiscoInfo(stanza('disco-info-result-service')).supported);
  assert.ok(!readDiscoInfo(parseXml("<iq xmlns='jabber:client' type='result'><query xmlns='http://jabber.org/protocol/disco#info'>"
    + "<feature var='http://jabber.org/protocol/muc'/></query></iq>")).supported);
});

test('the requests this client writes are the vectors', () => {
  const same = (vector, element) => assert.equal(canon(parseXml(element)), canon(child(stanza(vector))), vector);
  same('requirements-set-listing-1', requirementsElement({ filter: ['xmpp', 'android', 'chess']
    .map((value) => ({ element: 'topic', value, active: true })), time: 60, volume: 20 }));
  same('requirements-set-listing-2', requirementsElement(topicSwitch('xmpp', 'pubsub')));
  same('requirements-set-defaults', requirementsElement({}));
  same('requirements-set-standard', requirementsElement({ standard: true }));
  for (const a of ['deflate', 'compact', 'compact-deflate', 'none']) {
    same(`requirements-set-aggregation-${a}`, requirementsElement({ aggregation: a }));
  }
  same('requirements-set-nick-filter', requirementsElement({ filter: [{ element: 'nick', value: 'Bob' }], volume: 10 }));
  same('paper-listing-1', requirementsElement({ filter: ['xmpp', 'android', 'chess']
    .map((value) => ({ element: 'topic', value, active: true })), time: 60, volume: 20 }, 'http://joom.com/extensions'));
});

test('results: effective requirements and standard', () => {
  assert.deepEqual(readRequirements(stanza('requirements-result-listing-2')), { standard: false,
    filter: ['android', 'chess', 'pubsub'].map((value) => ({ element: 'topic', value, active: true })),
    time: 60, volume: 20, aggregation: 'plain' });
  assert.deepEqual(readRequirements(stanza('requirements-result-standard')), { standard: true });
  assert.deepEqual(readRequirements(stanza('requirements-result-defaults')).filter, []);
  assert.equal(elements(stanza('error-bad-request-unknown-aggregation-response'), 'error').length, 1);
});

test('a big room: joined at level moderators where the room honours levels and counts more than the threshold', () => {
  assert.equal(bigRoomLevel('1001', true), 'moderators');
  assert.equal(bigRoomLevel('1000', true), null, 'the threshold itself is not big');
  assert.equal(bigRoomLevel('20000', false), null, 'a room without urn:reconmuc:0#presences is joined as XEP-0045 says');
  assert.equal(bigRoomLevel(undefined, true), null, 'a room that does not say its size');
  assert.equal(bigRoomLevel('60', true, 50, 'none'), 'none');
  // The element the join carries is the vector's.
  const vector = elements(stanza('presence-join-presences-moderators'), 'presences', 'urn:reconmuc:0')[0];
  assert.equal(canon(parseXml(presencesElement('moderators'))), canon(vector));
});

test('requirements on entering: as before in a small room, a digest by the clock in a big one', () => {
  const limits = readDiscoInfo(stanza('disco-info-result-room')).limits; // history 100, max-time 3600
  assert.deepEqual(requirementsOnEntering(limits, {}), { filter: [], time: 30, volume: 20 });
  assert.deepEqual(requirementsOnEntering(limits, { topic: '#Cats', time: 600, volume: 3 }),
    { filter: [{ element: 'topic', value: 'cats', active: true }], time: 600, volume: 3 });
  assert.deepEqual(requirementsOnEntering(limits, {}, true), { filter: [], time: 60, volume: 100 });
  assert.deepEqual(requirementsOnEntering(limits, { time: 4, volume: 500 }, true), { filter: [], time: 4, volume: 100 });
  assert.deepEqual(requirementsOnEntering({ ...limits, maxTime: 30 }, {}, true).time, 30, 'within max-time');
  assert.deepEqual(requirementsOnEntering({ historySize: null, maxVolume: null, maxTime: null }, {}, true),
    { filter: [], time: 60, volume: 20 }, 'a room that states no volume limit');
});

test('a page of occupants: the XEP-0059 request and its result', () => {
  const first = parseXml(occupantPageRequest('big@muc.example', 'p1'));
  const set = elements(elements(first, 'query', 'http://jabber.org/protocol/disco#items')[0], 'set', 'http://jabber.org/protocol/rsm')[0];
  assert.equal(serialize(withoutIndentation(set)), '<set xmlns="http://jabber.org/protocol/rsm"><max>100</max></set>');
  assert.match(occupantPageRequest('big@muc.example', 'p2', "O'Brien<3"), /<after>O&apos;Brien&lt;3<\/after>/);
  const page = readOccupantPage(parseXml("<iq xmlns='jabber:client' type='result'><query xmlns='http://jabber.org/protocol/disco#items'>"
    + "<item jid='big@muc.example/a' name='a'/><item jid='big@muc.example/b' name='b'/>"
    + "<set xmlns='http://jabber.org/protocol/rsm'><first index='0'>a</first><last>b</last><count>20000</count></set></query></iq>"));
  assert.deepEqual(page, { items: [{ jid: 'big@muc.example/a', nick: 'a' }, { jid: 'big@muc.example/b', nick: 'b' }], count: 20000, last: 'b' });
  assert.deepEqual(readOccupantPage(parseXml("<iq xmlns='jabber:client' type='result'><query xmlns='http://jabber.org/protocol/disco#items'/></iq>")),
    { items: [], count: null, last: null });
});
