// A small, strict XML reader and writer for batches (reconmuc.md §5.9, §5.13): plain JS, no DOM,
// so the same code runs in the browser and under Node. It reads elements, attributes, text, the
// five predefined entities, character references and CDATA sections, resolves namespaces, and
// refuses what XMPP forbids in stanzas (RFC 6120 §11): DTDs, comments, processing instructions,
// and any other entity reference. It is not a general XML parser: it reads what a batch holds.

export const XML_NS = 'http://www.w3.org/XML/1998/namespace';

/** A refusal of the XML itself. */
export class XmlError extends Error {}

const NAME = /[^\s/>=<'"&]+/y;
const WS = /\s*/y;

const PREDEFINED = { lt: '<', gt: '>', amp: '&', apos: "'", quot: '"' };

function decodeEntities(text) {
  if (text.indexOf('&') < 0) return text;
  return text.replace(/&([^;&\s]*);?/g, (all, ref) => {
    if (!all.endsWith(';')) throw new XmlError(`an unterminated reference '&${ref}'`);
    if (Object.hasOwn(PREDEFINED, ref)) return PREDEFINED[ref];
    let code = NaN;
    if (/^#[0-9]+$/.test(ref)) code = parseInt(ref.slice(1), 10);
    else if (/^#x[0-9a-fA-F]+$/.test(ref)) code = parseInt(ref.slice(2), 16);
    else throw new XmlError(`an entity reference '&${ref};' (XMPP allows only the predefined ones)`);
    if (!(code === 0x9 || code === 0xa || code === 0xd || (code >= 0x20 && code <= 0xd7ff)
          || (code >= 0xe000 && code <= 0xfffd) || (code >= 0x10000 && code <= 0x10ffff))) {
      throw new XmlError(`a character reference to an illegal character '&${ref};'`);
    }
    return String.fromCodePoint(code);
  });
}

/**
 * Parses one element (white space around it allowed) into
 * `{ local, ns, prefix, attrs: [{ local, ns, prefix, value }], children: [element | string] }`.
 * Namespace declarations are resolved, not kept as attributes. `defaultNs`: the default namespace
 * around the element (a stanza read from a stream: 'jabber:client').
 */
export function parseXml(text, { defaultNs = '' } = {}) {
  let pos = 0;
  const fail = (what) => { throw new XmlError(`${what} (at ${pos})`); };
  const skipWs = () => { WS.lastIndex = pos; WS.exec(text); pos = WS.lastIndex; };
  const name = () => {
    NAME.lastIndex = pos;
    const m = NAME.exec(text);
    if (!m) fail('a name was expected');
    pos = NAME.lastIndex;
    return m[0];
  };
  const refuseMarkup = () => {
    if (text.startsWith('<!--', pos)) fail('a comment');
    if (text.startsWith('<?', pos)) fail('a processing instruction');
    if (text.startsWith('<!DOCTYPE', pos) || text.startsWith('<!', pos)) fail('a DTD or declaration');
  };

  function element(scope) {
    pos++; // '<'
    const qname = name();
    const raw = [];
    const seen = new Set();
    for (;;) {
      const before = pos;
      skipWs();
      if (text.startsWith('/>', pos) || text[pos] === '>') break;
      if (pos === before) fail('white space was expected between attributes');
      const an = name();
      skipWs();
      if (text[pos] !== '=') fail(`'=' was expected after '${an}'`);
      pos++;
      skipWs();
      const quote = text[pos];
      if (quote !== '"' && quote !== "'") fail(`a quoted value was expected for '${an}'`);
      const end = text.indexOf(quote, pos + 1);
      if (end < 0) fail('an unterminated attribute value');
      const rawValue = text.slice(pos + 1, end);
      if (rawValue.includes('<')) fail(`'<' in the value of '${an}'`);
      pos = end + 1;
      if (seen.has(an)) fail(`the attribute '${an}' twice`);
      seen.add(an);
      raw.push([an, decodeEntities(rawValue).replace(/[\t\n\r]/g, ' ')]);
    }
    const inner = Object.create(scope);
    for (const [an, value] of raw) {
      if (an === 'xmlns') inner[''] = value;
      else if (an.startsWith('xmlns:')) {
        const p = an.slice(6);
        if (!value) fail(`the prefix '${p}' undeclared`);
        if (p === 'xml' || p === 'xmlns') fail(`the prefix '${p}' redeclared`);
        inner[p] = value;
      }
    }
    const split = (q) => { const i = q.indexOf(':'); return i < 0 ? ['', q] : [q.slice(0, i), q.slice(i + 1)]; };
    const [prefix, local] = split(qname);
    if (prefix && inner[prefix] === undefined) fail(`the prefix '${prefix}' is not declared`);
    const el = { local, ns: inner[prefix] || '', prefix, attrs: [], children: [] };
    const expanded = new Set();
    for (const [an, value] of raw) {
      if (an === 'xmlns' || an.startsWith('xmlns:')) continue;
      const [ap, al] = split(an);
      let ans = null;
      if (ap) {
        ans = inner[ap];
        if (ans === undefined) fail(`the prefix '${ap}' is not declared`);
      }
      const key = `{${ans || ''}}${al}`;
      if (expanded.has(key)) fail(`the attribute ${key} twice`);
      expanded.add(key);
      el.attrs.push({ local: al, ns: ans, prefix: ap, value });
    }
    if (text.startsWith('/>', pos)) {
      pos += 2;
      return el;
    }
    pos++; // '>'
    for (;;) {
      if (pos >= text.length) fail(`the element '${qname}' is not closed`);
      if (text[pos] === '<') {
        if (text.startsWith('</', pos)) {
          pos += 2;
          const closing = name();
          if (closing !== qname) fail(`'</${closing}>' closes '<${qname}>'`);
          skipWs();
          if (text[pos] !== '>') fail("'>' was expected");
          pos++;
          return el;
        }
        if (text.startsWith('<![CDATA[', pos)) {
          const end = text.indexOf(']]>', pos + 9);
          if (end < 0) fail('an unterminated CDATA section');
          pushText(el, text.slice(pos + 9, end));
          pos = end + 3;
          continue;
        }
        refuseMarkup();
        el.children.push(element(inner));
        continue;
      }
      const next = text.indexOf('<', pos);
      const chunk = text.slice(pos, next < 0 ? text.length : next);
      if (chunk.includes(']]>')) fail("']]>' in text");
      pushText(el, decodeEntities(chunk));
      pos += chunk.length;
    }
  }

  skipWs();
  refuseMarkup();
  if (text[pos] !== '<') fail('an element was expected');
  const root = element({ xml: XML_NS, '': defaultNs });
  skipWs();
  if (pos < text.length) {
    refuseMarkup();
    fail('content after the element');
  }
  return root;
}

function pushText(el, s) {
  if (!s) return;
  const last = el.children.length - 1;
  if (last >= 0 && typeof el.children[last] === 'string') el.children[last] += s;
  else el.children.push(s);
}

/** The child elements of an element. */
export function elements(el, local, ns) {
  return el.children.filter((c) => typeof c !== 'string'
    && (local === undefined || c.local === local) && (ns === undefined || c.ns === ns));
}

/** The value of an unqualified attribute (or one in `ns`), or null. */
export function attr(el, local, ns = null) {
  const a = el.attrs.find((x) => x.local === local && (x.ns || null) === ns);
  return a ? a.value : null;
}

/** The text content of an element. */
export function textOf(el) {
  return el.children.map((c) => (typeof c === 'string' ? c : textOf(c))).join('');
}

/** A new element. */
export function element(local, ns, attrs = [], children = []) {
  return { local, ns, prefix: '', attrs: attrs.map(([l, v]) => ({ local: l, ns: null, prefix: '', value: v })), children };
}

const escText = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const escAttr = (s) => escText(s).replace(/"/g, '&quot;').replace(/\t/g, '&#9;').replace(/\n/g, '&#10;').replace(/\r/g, '&#13;');

/**
 * Writes an element as XML text, declaring each namespace where it first differs from the
 * parent's (`parentNs`: the default namespace in scope around it).
 */
export function serialize(el, parentNs = null, parentPrefixes = {}) {
  let out = '<';
  const prefixes = Object.create(parentPrefixes);
  const decls = [];
  const tag = el.prefix ? `${el.prefix}:${el.local}` : el.local;
  let defaultNs = parentNs;
  if (el.prefix) {
    if (prefixes[el.prefix] !== el.ns) { prefixes[el.prefix] = el.ns; decls.push(` xmlns:${el.prefix}="${escAttr(el.ns)}"`); }
  } else if (el.ns !== parentNs) {
    defaultNs = el.ns;
    decls.push(` xmlns="${escAttr(el.ns)}"`);
  }
  out += tag + decls.join('');
  for (const a of el.attrs) {
    let qn = a.local;
    if (a.ns === XML_NS) qn = `xml:${a.local}`;
    else if (a.ns) {
      const p = a.prefix || 'ns';
      if (prefixes[p] !== a.ns) { prefixes[p] = a.ns; out += ` xmlns:${p}="${escAttr(a.ns)}"`; }
      qn = `${p}:${a.local}`;
    }
    out += ` ${qn}="${escAttr(a.value)}"`;
  }
  if (!el.children.length) return `${out}/>`;
  out += '>';
  for (const c of el.children) out += typeof c === 'string' ? escText(c) : serialize(c, defaultNs, prefixes);
  return `${out}</${tag}>`;
}

/** A copy without white-space-only text (for comparing documents that differ only in indentation). */
export function withoutIndentation(el) {
  return {
    ...el,
    children: el.children.filter((c) => typeof c !== 'string' || c.trim() !== '')
      .map((c) => (typeof c === 'string' ? c : withoutIndentation(c))),
  };
}
