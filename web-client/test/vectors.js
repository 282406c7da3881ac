// The protocol's test vectors (xep-spec/src/main/resources/reconmuc/vectors/), read from the repository.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

export const VECTORS = path.resolve(path.dirname(fileURLToPath(import.meta.url)),
  '../../xep-spec/src/main/resources/reconmuc/vectors');

/** The names an index.txt lists (comments and blank lines skipped). */
export function list(dir = VECTORS) {
  return readFileSync(path.join(dir, 'index.txt'), 'utf8').split('\n').map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
}

/** A vector file: its leading comment and the stanza after it. */
export function read(name, dir = VECTORS) {
  const text = readFileSync(path.join(dir, name.endsWith('.xml') ? name : `${name}.xml`), 'utf8');
  const m = /^\s*<!--([\s\S]*?)-->\s*([\s\S]*)$/.exec(text);
  if (!m) throw new Error(`${name}: no leading comment`);
  return { comment: m[1], stanza: m[2].trim() };
}

/** The text of the <batch .../> element inside a vector's stanza (as a client's serialiser would give it). */
export function batchText(stanza) {
  const start = stanza.indexOf('<batch');
  const end = stanza.lastIndexOf('</batch>');
  if (start < 0 || end < 0) throw new Error('no batch element');
  return stanza.slice(start, end + '</batch>'.length);
}
