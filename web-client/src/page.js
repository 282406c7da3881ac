// The page: Converse.js 14 with the ReConMUC plugin, over Prosody's WebSocket on the same origin.
// Query parameters (all optional): jid, password (both: log in at once), room (joined at once),
// nick, topic (the topic followed on join), plugin=off (plain Converse, for comparison),
// time, volume, aggregation (auto|plain|deflate|compact|compact-live|compact-deflate|compact-deflate-live), smacks=off (no XEP-0198:
// the browser test puts forged stanzas on the socket, which stream management would count), rai=on (Converse's
// muc_subscribe_to_rai: a room of the user's that is not shown is left, and marked when the service says it had activity),
// bookmarks=off (Converse opens a room from the address's #converse/room?jid=… only once bookmarks are read, if it reads them),
// big (a room of more occupants is big: joined at a presence level, its occupant list a page at a time; 1000),
// level (the presence level of a big room: moderators or none).
import converse from 'converse.js';
import './reconmuc-plugin.js';

const q = new URLSearchParams(location.search);
const plugin = q.get('plugin') !== 'off';
const jid = q.get('jid') || undefined;
const password = q.get('password') || undefined;
const room = q.get('room');
const num = (name) => (q.get(name) ? Number.parseInt(q.get(name), 10) : undefined);

converse.initialize({
  websocket_url: `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/xmpp-websocket`,
  discover_connection_methods: false,
  view_mode: 'fullscreen',
  assets_path: new URL('../node_modules/converse.js/dist/', import.meta.url).href.replace(/\/$/, ''),
  whitelisted_plugins: plugin ? ['reconmuc'] : [],
  // OMEMO loads a WebAssembly module and asks the server for device lists: not needed in a public room.
  blacklisted_plugins: ['converse-omemo', 'converse-omemo-views'],
  authentication: 'login',
  jid,
  password,
  auto_login: Boolean(jid && password),
  auto_reconnect: true,
  enable_smacks: q.get('smacks') !== 'off',
  auto_join_rooms: room ? [room] : [],
  muc_subscribe_to_rai: q.get('rai') === 'on',
  allow_bookmarks: q.get('bookmarks') !== 'off',
  nickname: q.get('nick') || undefined,
  muc_nickname_from_jid: true,
  muc_instant_rooms: true,
  muc_show_logs_before_join: false,
  show_controlbox_by_default: !room,
  play_sounds: false,
  show_desktop_notifications: false,
  persistent_store: 'sessionStorage',
  loglevel: q.get('loglevel') || 'warn',
  reconmuc_topic: q.get('topic') || null,
  reconmuc_time: num('time'),
  reconmuc_volume: num('volume'),
  reconmuc_aggregation: q.get('aggregation') || 'auto',
  ...(q.get('big') ? { reconmuc_big_room: num('big') } : {}),
  ...(q.get('level') ? { reconmuc_big_room_level: q.get('level') } : {}),
});
