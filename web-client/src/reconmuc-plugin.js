// ReConMUC relaxed consistency for Converse.js 14 (reconmuc.md): in a room whose disco#info lists
// urn:reconmuc:0 it states the occupant's requirements on entering and on every topic switch,
// shows a topic bar with unread counts (as Joom's topic list), tags what the user sends with the
// active topic, reads every batch form with ./batch-decoder.js and hands each retained message to
// Converse as the room's message at its original time, marked "delayed"; replies to the user and
// mentions of the user are highlighted. A room without the feature stays a plain MUC room.
// A big room (its disco#info, read before joining, counts more than reconmuc_big_room occupants) is
// joined at the presence level `moderators` (§5.17) with a digest for requirements, and its occupant
// list is loaded a page of disco#items at a time as the user scrolls (./occupant-pages.js).
// Batches that break the protocol's rules are refused whole (logged, counted) and the page goes on.
import { BatchDecoder, MalformedBatchError, NS, describeItem, serialize } from './batch-decoder.js';
import { parseXml, element } from './xml.js';
import * as P from './protocol.js';
import { retainedTime } from './room-order.js';
import { OccupantPages } from './occupant-pages.js';
import converse from 'converse.js';
const PLUGIN = 'reconmuc';

/** Everything the plugin knows about one room, also exposed as window.reconmuc for tests and curious users. */
class RoomState {
  constructor(jid) {
    this.jid = jid;
    this.status = 'discovering'; // discovering | relaxed | standard | error
    this.discovery = null;
    this.requirements = null; // the effective requirements the room answered
    this.active = null; // the active topic
    this.topics = new Map(); // topic -> { unread, seen }
    this.decoder = new BatchDecoder();
    this.optedIn = false;
    this.batches = []; // { at, form, encoding, n, count }
    this.refused = []; // { at, reason }
    this.delayed = 0; // messages shown from batches
    this.counted = new Set(); // stanza-ids already counted
  }

  topic(name) {
    if (!this.topics.has(name)) this.topics.set(name, { unread: 0, seen: 0 });
    return this.topics.get(name);
  }
}

const rooms = new Map();
const bigRooms = new Map(); // room JID -> { level, pages: OccupantPages }, decided before joining
const fromBatch = new WeakSet(); // message elements this plugin built from batch items
const serializer = () => new XMLSerializer();
const toTree = (el) => parseXml(serializer().serializeToString(el), { defaultNs: 'jabber:client' });
const toElement = (text) => new DOMParser().parseFromString(text, 'text/xml').documentElement;
const bare = (jid) => (jid || '').split('/')[0];

converse.plugins.add(PLUGIN, {
  dependencies: ['converse-muc', 'converse-muc-views'],

  initialize() {
    const { _converse } = this;
    const { api } = _converse;
    const { Strophe, stx } = converse.env;
    const log = (level, ...args) => console[level]('[reconmuc]', ...args);

    api.settings.extend({
      reconmuc_topic: null, // the topic followed on entering
      reconmuc_time: null, // the time bound asked for, seconds (capped by the room's max-time); null: 30, in a big room 60
      reconmuc_volume: null, // the volume bound asked for (capped by the room's max-volume); null: 20, in a big room the most it takes
      reconmuc_aggregation: 'auto', // auto: compact-deflate-live, else compact-deflate where offered (§5.9 rule 9), else deflate
      reconmuc_big_room: P.BIG_ROOM, // a room of more occupants than this is big
      reconmuc_big_room_level: P.BIG_ROOM_LEVEL, // the presence level a big room is joined at (moderators or none)
    });

    globalThis.reconmuc = { rooms, bigRooms, version: 1 };

    const own = (muc) => `${muc.get('jid')}/${muc.get('nick')}`;

    async function sendRequirements(muc, state, requirements) {
      const iq = toElement(`<iq xmlns='jabber:client' type='set' to='${muc.get('jid')}' id='${api.connection.get().getUniqueId('reconmuc')}'>`
        + `${P.requirementsElement(requirements)}</iq>`);
      state.optedIn = true; // before sending: a release comes right after the result (§5.2 rule 5)
      const result = await api.sendIQ(iq, 10000, false);
      if (!result || result.getAttribute('type') !== 'result') {
        const text = result?.querySelector('text')?.textContent || 'no answer';
        throw new Error(`the room refused the requirements: ${text}`);
      }
      state.requirements = P.readRequirements(toTree(result));
      return state.requirements;
    }

    async function discover(jid) {
      const iq = toElement(`<iq xmlns='jabber:client' type='get' to='${jid}' id='${api.connection.get().getUniqueId('disco')}'>`
        + "<query xmlns='http://jabber.org/protocol/disco#info'/></iq>");
      const result = await api.sendIQ(iq, 10000, false);
      if (!result || result.getAttribute('type') !== 'result') return { supported: false };
      return P.readDiscoInfo(toTree(result));
    }

    function chooseAggregation(d) {
      const asked = api.settings.get('reconmuc_aggregation');
      if (asked && asked !== 'auto') {
        if (asked === 'compact' && !d.compact) return 'deflate';
        if (asked === 'compact-live' && !d.compactLive) return d.compact ? 'compact' : 'deflate';
        if (asked === 'compact-deflate' && !d.compactDeflate) return 'deflate';
        if (asked === 'compact-deflate-live' && !d.compactDeflateLive) return d.compactDeflate ? 'compact-deflate' : 'deflate';
        return asked;
      }
      if (d.compactDeflateLive) return 'compact-deflate-live';
      return d.compactDeflate ? 'compact-deflate' : 'deflate';
    }

    async function onEntered(muc) {
      const jid = muc.get('jid');
      const state = new RoomState(jid);
      rooms.set(jid, state);
      render(muc);
      try {
        const d = await discover(jid);
        state.discovery = d;
        if (!d.supported) {
          state.status = 'standard';
          log('info', `${jid} does not advertise ${P.FEATURE}: a plain MUC room`);
          render(muc);
          return;
        }
        const asked = ['topic', 'time', 'volume'].reduce((a, k) => ({ ...a, [k]: api.settings.get(`reconmuc_${k}`) ?? null }), {});
        const requirements = P.requirementsOnEntering(d.limits, asked, bigRooms.has(jid));
        state.active = requirements.filter[0]?.value ?? null;
        if (state.active) state.topic(state.active);
        await sendRequirements(muc, state, { ...requirements, aggregation: chooseAggregation(d) });
        state.status = 'relaxed';
      } catch (e) {
        state.status = 'error';
        state.error = String(e.message || e);
        log('warn', jid, state.error);
      }
      render(muc);
    }

    async function switchTopic(muc, topic) {
      const state = rooms.get(muc.get('jid'));
      const t = P.normaliseTopic(topic || '');
      if (!state || state.status !== 'relaxed' || !t || t === state.active) return;
      const before = state.active;
      state.active = t;
      state.topic(t).unread = 0;
      render(muc);
      try {
        await sendRequirements(muc, state, P.topicSwitch(before, t));
      } catch (e) {
        state.active = before;
        log('warn', 'topic switch refused:', e.message);
      }
      render(muc);
    }

    // ---- batches ----------------------------------------------------------------------------
    const batchOf = (stanza) => Array.from(stanza.children).find((c) => c.localName === 'batch' && c.namespaceURI === NS.RECONMUC);

    async function onBatch(muc, stanza, batchEl, handle) {
      const jid = muc.get('jid');
      const state = rooms.get(jid);
      const from = stanza.getAttribute('from');
      if (!state || !state.optedIn || from !== jid) {
        // §5.13 rule 2: only from the bare JID of a room we opted in with.
        log('warn', `ignoring a batch from ${from}`);
        return;
      }
      let batch;
      try {
        batch = state.decoder.decode(serializer().serializeToString(batchEl), jid);
      } catch (e) {
        if (!(e instanceof MalformedBatchError)) throw e;
        state.refused.push({ at: new Date().toISOString(), reason: e.message });
        log('warn', `refused a batch from ${jid}: ${e.message}`);
        render(muc);
        if (['deflate-stream', 'deflate-live'].includes(batchEl.getAttribute('encoding')) && state.requirements?.aggregation) {
          // §5.13 rule 5: the stream is lost; stating the aggregation again starts a new one.
          sendRequirements(muc, state, { aggregation: state.requirements.aggregation })
            .catch((err) => log('warn', 'could not restart the deflate stream:', err.message));
        }
        return;
      }
      state.batches.push({ at: new Date().toISOString(), form: batch.form, encoding: batch.encoding, n: batch.n, count: batch.count,
        live: batch.live });
      for (const forwarded of batch.items) {
        const item = describeItem(forwarded);
        const message = { ...item.message, attrs: [...item.message.attrs], children: [...item.message.children] };
        message.attrs.push({ local: 'to', ns: null, prefix: '', value: api.connection.get().jid });
        if (item.live) {
          // A live item (§5.9 rule 8.6): the message as broadcast at once, shown as any live one.
          await handle.call(muc, toElement(serialize(message)));
          continue;
        }
        message.children.push(element('delay', NS.DELAY, [['stamp', item.stamp], ['from', jid]]));
        const el = toElement(serialize(message));
        fromBatch.add(el);
        state.delayed += 1;
        await handle.call(muc, el); // in order: parents before their replies
      }
      render(muc);
    }

    const MUC = _converse.exports.MUC;
    const handleMessageStanza = MUC.prototype.handleMessageStanza;
    MUC.prototype.handleMessageStanza = async function reconmucHandleMessageStanza(stanza) {
      const el = stanza?.tree?.() ?? stanza;
      const batchEl = el?.getAttribute?.('type') === 'groupchat' ? batchOf(el) : null;
      if (batchEl) return onBatch(this, el, batchEl, handleMessageStanza);
      return handleMessageStanza.call(this, stanza);
    };

    // ---- where a retained message goes: the room's order wins over a coarse stamp (./room-order.js) ----
    // Converse sorts by `time`, a delayed message's from its stamp; a compact batch's stamps are whole
    // seconds, which would put a retained message above one it followed in the same second.
    function placeRetained(muc, stanza, attrs) {
      const jid = muc.get('jid');
      const stamp = Date.parse(attrs.time);
      const text = Array.from(stanza.children).find((c) => c.localName === 'delay' && c.namespaceURI === NS.DELAY)
        ?.getAttribute('stamp') ?? '';
      if (!Number.isFinite(stamp)) return attrs.time;
      const precision = /\.\d/.test(text) ? 1 : 1000;
      const shown = muc.messages.models.map((m) => ({ time: Date.parse(m.get('time')), id: m.get(`stanza_id ${jid}`) ?? null }))
        .filter((m) => Number.isFinite(m.time));
      const time = retainedTime(stamp, precision, attrs[`stanza_id ${jid}`] ?? null, shown);
      return time === stamp ? attrs.time : new Date(time).toISOString();
    }

    // ---- what each message is to this user: topics, delayed, reply to me, mention -------------
    api.listen.on('parseMUCMessage', (stanza, attrs, chatbox) => {
      const muc = chatbox ?? (attrs.from_muc && api.rooms.get(attrs.from_muc));
      const state = muc && rooms.get(muc.get('jid'));
      if (!state || !muc || attrs.type !== 'groupchat') return attrs;
      let tree;
      try {
        tree = toTree(stanza.querySelector?.('forwarded > message') ?? stanza);
      } catch (e) {
        return attrs;
      }
      const topics = P.topicsOf(tree);
      attrs.reconmuc_topics = topics;
      attrs.reconmuc_delayed = fromBatch.has(stanza);
      if (attrs.reconmuc_delayed) attrs.time = placeRetained(muc, stanza, attrs);
      if (attrs.sender !== 'me' && attrs.body) {
        const parent = attrs.reply_to_id && muc.getReferencedMessage?.(attrs.reply_to_id);
        attrs.reconmuc_reply_to_me = Boolean(attrs.reply_to_id
          && (parent ? parent.get('sender') === 'me' : attrs.reply_to === own(muc)));
        attrs.reconmuc_mention = P.isAddressedTo(tree, muc.get('nick'), muc.get('jid'));
        const key = attrs[`stanza_id ${muc.get('jid')}`] || attrs.msgid;
        if (!attrs.is_archived && key && !state.counted.has(key)) {
          state.counted.add(key);
          for (const t of topics) {
            const c = state.topic(t);
            c.seen += 1;
            if (t !== state.active) c.unread += 1;
          }
          queueMicrotask(() => render(muc));
        }
      }
      return attrs;
    });

    // ---- what the user sends: tagged with the active topic, unless the user typed a topic's hashtag -----
    // P.tagOutgoing decides (and says why); both hooks ask it, the second about the body the first made.
    const quotedOf = (fallback) => fallback?.[Strophe.NS.REPLY]?.end ?? 0; // XEP-0461 quote, before the typed text
    const tagging = (state, body, fallback) => P.tagOutgoing(body, state.active, [...state.topics.keys()], quotedOf(fallback));

    api.listen.on('getOutgoingMessageAttributes', (chat, attrs) => {
      const state = rooms.get(chat.get?.('jid'));
      if (state?.status === 'relaxed' && state.active && attrs.body) {
        const { body } = tagging(state, attrs.body, attrs.fallback); // "#topic" for readers on standard clients (§5.13 rule 6)
        if (body !== attrs.body) {
          attrs.body = body;
          attrs.message = body;
        }
      }
      return attrs;
    });

    api.listen.on('createMessageStanza', (chat, data) => {
      const state = rooms.get(chat.get?.('jid'));
      if (state?.status !== 'relaxed' || !state.active || data.message.get('type') !== 'groupchat') return data;
      const el = data.stanza.tree?.() ?? data.stanza;
      const body = el.querySelector('body');
      if (!body) return data;
      for (const t of tagging(state, body.textContent, data.message.get('fallback')).topics) {
        const topic = el.ownerDocument.createElementNS(NS.RECONMUC, 'topic');
        // Strophe writes a namespace only as an xmlns attribute: without it the element went out as
        // jabber:client's <topic/>, which the room does not read (§5.3 rule 1; only the hashtag counted).
        topic.setAttributeNS('http://www.w3.org/2000/xmlns/', 'xmlns', NS.RECONMUC);
        topic.textContent = t;
        el.appendChild(topic);
      }
      data.stanza = el;
      return data;
    });

    // ---- the look: classes on messages, the topic bar ------------------------------------------
    customElements.whenDefined('converse-chat-message').then(() => {
      const Message = customElements.get('converse-chat-message');
      const extra = Message.prototype.getExtraMessageClasses;
      Message.prototype.getExtraMessageClasses = function reconmucClasses() {
        const m = this.model;
        return [extra.call(this),
          m.get('reconmuc_delayed') ? 'reconmuc-delayed' : '',
          m.get('reconmuc_reply_to_me') ? 'reconmuc-reply-to-me' : '',
          m.get('reconmuc_mention') ? 'reconmuc-mention' : '',
        ].filter(Boolean).join(' ');
      };
    });

    function render(muc) {
      const jid = muc.get('jid');
      const state = rooms.get(jid);
      const view = document.querySelector(`converse-muc[jid="${CSS.escape(jid)}"]`);
      if (!view || !state) return;
      // Under the room's heading: lit renders the heading and the body as one template instance,
      // and leaves a node placed between them alone.
      const heading = view.querySelector(':scope > .flyout > converse-muc-heading');
      if (!heading) return;
      let bar = view.querySelector(':scope > .flyout > .reconmuc-bar');
      if (!bar) {
        bar = document.createElement('div');
        bar.className = 'reconmuc-bar';
        bar.dataset.room = jid;
        heading.after(bar);
      }
      bar.dataset.status = state.status;
      bar.replaceChildren();
      if (state.status !== 'relaxed') {
        bar.classList.toggle('reconmuc-bar--quiet', true);
        bar.textContent = state.status === 'standard' ? 'Standard room: every message at once'
          : state.status === 'error' ? `ReConMUC: ${state.error}` : 'ReConMUC: asking the room…';
        return;
      }
      bar.classList.toggle('reconmuc-bar--quiet', false);
      const topics = document.createElement('div');
      topics.className = 'reconmuc-topics';
      for (const [name, c] of state.topics) {
        const b = document.createElement('button');
        b.type = 'button';
        b.className = `reconmuc-topic${name === state.active ? ' reconmuc-topic--active' : ''}`;
        b.dataset.topic = name;
        b.dataset.unread = String(c.unread);
        b.title = name === state.active ? 'The topic you follow: its messages come at once'
          : `Follow #${name}: its retained messages come now, and the next ones at once`;
        b.append(`#${name}`);
        if (c.unread > 0 && name !== state.active) {
          const u = document.createElement('span');
          u.className = 'reconmuc-unread';
          u.textContent = String(c.unread);
          b.append(u);
        }
        b.addEventListener('click', () => switchTopic(muc, name));
        topics.append(b);
      }
      const form = document.createElement('form');
      form.className = 'reconmuc-new-topic';
      const input = document.createElement('input');
      input.placeholder = 'follow a topic…';
      input.name = 'topic';
      form.append(input);
      form.addEventListener('submit', (ev) => { ev.preventDefault(); switchTopic(muc, input.value); });
      topics.append(form);
      const r = state.requirements || {};
      const status = document.createElement('div');
      status.className = 'reconmuc-status';
      const b = bigRooms.get(jid);
      status.textContent = `${b ? `Big room, presences of ${b.level === 'none' ? 'nobody' : 'moderators'} only · ` : ''}`
        + `${state.active ? `#${state.active} at once` : 'No topic followed'}; the rest within `
        + `${r.time}s or ${r.volume} messages (${r.aggregation}) · ${state.batches.length} batches, `
        + `${state.delayed} delayed${state.refused.length ? ` · ${state.refused.length} refused` : ''}`;
      bar.append(topics, status);
    }

    // ---- a big room: joined at a presence level, its occupants listed a page at a time ------------
    // Converse reads the room's disco#info before it builds the join presence (MUC.join): its
    // muc#roominfo_occupants is the room's size, and its features say whether it honours levels.
    api.listen.on('constructedMUCPresence', (muc, stanza) => {
      const jid = muc.get('jid');
      const size = muc.config?.get('occupants');
      const level = P.bigRoomLevel(size, Boolean(muc.features?.get(P.FEATURE_PRESENCES)),
        api.settings.get('reconmuc_big_room'), api.settings.get('reconmuc_big_room_level'));
      if (!level) {
        bigRooms.delete(jid);
        return stanza;
      }
      const el = stanza.tree?.() ?? stanza;
      el.appendChild(el.ownerDocument.importNode(toElement(P.presencesElement(level)), true));
      bigRooms.set(jid, { level, pages: new OccupantPages(Number.parseInt(size, 10)) });
      log('info', `${jid} has ${size} occupants: joining at presence level ${level}, the occupant list a page at a time`);
      document.querySelector(`converse-muc-occupants[jid="${CSS.escape(jid)}"]`)?.requestUpdate();
      return el;
    });

    /** Loads the next page of a big room's occupants while the end of the list is in view (and then checks again). */
    async function loadOccupantsInView(el, big) {
      const list = el.querySelector('.reconmuc-occupant-pages');
      if (!list || list.clientHeight === 0 || list.scrollTop + list.clientHeight < list.scrollHeight - list.clientHeight / 2) return;
      const next = big.pages.next();
      if (!next || big.pages.failed || !api.connection.connected()) return;
      big.pages.loading = true;
      el.requestUpdate();
      const jid = el.jid;
      const result = await api.sendIQ(toElement(P.occupantPageRequest(jid, api.connection.get().getUniqueId('occupants'),
        next.after, next.max)), 10000, false);
      if (bigRooms.get(jid) !== big) return; // left or joined again meanwhile
      if (result?.getAttribute('type') === 'result') {
        big.pages.accept(P.readOccupantPage(toTree(result)), next.max);
      } else if (result?.querySelector('item-not-found') && next.after != null) {
        big.pages.missing();
      } else if (result?.querySelector('error[type="wait"], policy-violation, resource-constraint') && big.pages.retries < 5) {
        // Too many requests for the room's liking at once (its per-sender rate, e.g. Converse's vCard queries): again in a moment.
        big.pages.loading = false;
        big.pages.retries += 1;
        setTimeout(() => el.requestUpdate(), 1000 * big.pages.retries);
        return;
      } else {
        big.pages.loading = false;
        big.pages.failed = result?.querySelector('text')?.textContent || 'no answer';
        log('warn', `could not list the occupants of ${jid}: ${big.pages.failed}`);
      }
      el.requestUpdate(); // its update calls this again: one more page if the end is still in view
    }

    const count = (n) => (Number.isFinite(n) ? n.toLocaleString('en') : '?');

    /** The occupant list of a big room: its size, the moderators (whose presences come), and everyone, as loaded. */
    function bigOccupantList(el, big) {
      const { html } = converse.env;
      const muc = el.model;
      const { pages } = big;
      const moderators = muc.occupants.models.filter((o) => o.get('role') === 'moderator');
      const more = pages.failed ? `Could not load more: ${pages.failed}` : pages.complete ? ''
        : pages.loading ? 'Loading…' : 'Scroll for more';
      return html`
        <div class="occupants reconmuc-big-occupants">
          <div class="occupants-header">
            <div class="occupants-header--title">
              <span class="occupants-heading sidebar-heading reconmuc-occupant-count">${count(pages.count)} participants</span>
              <i class="hide-occupants" @click=${(ev) => el.closeSidebar(ev)}>
                <converse-icon class="fa fa-times" size="1em"></converse-icon></i>
            </div>
          </div>
          <ul class="items-list occupant-list reconmuc-occupant-pages" @scroll=${() => loadOccupantsInView(el, big)}>
            <li class="reconmuc-occupants-section">${big.level === 'none' ? 'You' : 'Moderators'}</li>
            ${(big.level === 'none' ? muc.occupants.models.filter((o) => o === muc.getOwnOccupant()) : moderators)
              .map((occ) => html`<converse-muc-occupant-list-item .muc=${muc} .model=${occ}></converse-muc-occupant-list-item>`)}
            <li class="reconmuc-occupants-section">Everyone · ${count(pages.nicks.length)} of ${count(pages.count)} listed</li>
            ${pages.nicks.map((nick) => html`<li class="list-item reconmuc-occupant">${nick}</li>`)}
            <li class="reconmuc-occupants-more">${more}</li>
          </ul>
        </div>`;
    }

    customElements.whenDefined('converse-muc-occupants').then(() => {
      const Occupants = customElements.get('converse-muc-occupants');
      const { render: renderAll, updated } = Occupants.prototype;
      Occupants.prototype.render = function reconmucOccupants() {
        const big = bigRooms.get(this.jid);
        return big ? bigOccupantList(this, big) : renderAll.call(this);
      };
      Occupants.prototype.updated = function reconmucOccupantsUpdated(...args) {
        updated?.apply(this, args);
        const big = bigRooms.get(this.jid);
        if (big) loadOccupantsInView(this, big);
      };
    });

    api.listen.on('chatRoomInitialized', (muc) => {
      const check = () => {
        if (muc.session.get('connection_status') === converse.ROOMSTATUS.ENTERED) {
          if (!rooms.has(muc.get('jid'))) onEntered(muc);
        } else if (rooms.has(muc.get('jid'))) {
          rooms.delete(muc.get('jid')); // left or disconnected: a new occupant on return (§5.10)
        }
      };
      muc.session.on('change:connection_status', check);
      check();
    });
    api.listen.on('chatRoomViewInitialized', (view) => view.model && render(view.model));
  },
});
