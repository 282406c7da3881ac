// The occupant list of a big room, loaded a page at a time as the user scrolls (XEP-0045 §6.5 with
// XEP-0059 paging; Converse.js issue #3778: "only load what is in view"). Pure: no DOM, no XMPP.

/** The most a page holds: the room answers at most 100 (reconmuc component's RoomDisco.PAGE). */
export const PAGE = 100;

/**
 * What is loaded of one room's occupant list: the nicks in the room's order, without duplicates,
 * the room's size as last stated, and what to ask for next.
 */
export class OccupantPages {
  constructor(count = null) {
    this.count = count; // the room's size: its disco#info before joining, then each page's <count/>
    this.nicks = [];
    this.seen = new Set();
    this.complete = false;
    this.loading = false;
    this.pages = 0;
    this.back = 0; // how far before the last nick the next page starts (occupants that left, see missing())
    this.retries = 0; // requests the room asked to try again later, since the last page
    this.failed = null; // why no more can be loaded, or null
  }

  /** The next page to ask for, { after, max } (after null: from the start), or null when complete or loading. */
  next() {
    if (this.complete || this.loading) return null;
    const i = this.nicks.length - 1 - this.back;
    return { after: i >= 0 ? this.nicks[i] : null, max: PAGE };
  }

  /** A page arrived ({ items, count }, as readOccupantPage): its new nicks are appended; fewer than asked is the end. */
  accept(page, max = PAGE) {
    this.loading = false;
    this.pages += 1;
    this.back = 0;
    this.retries = 0;
    if (page.count != null) this.count = page.count;
    for (const { nick } of page.items) {
      if (!this.seen.has(nick)) {
        this.seen.add(nick);
        this.nicks.push(nick);
      }
    }
    this.complete = page.items.length < max;
  }

  /**
   * The room knows no occupant `after` any more (item-not-found: he left between two pages): the next
   * page starts after the one before him, and the nicks already shown are not shown twice.
   */
  missing() {
    this.loading = false;
    this.back += 1;
  }
}
