package org.reconmuc.component.relaxed;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.dom4j.Element;
import org.reconmuc.codec.XmlNamespaces;
import org.reconmuc.codec.batch.CompactItem;
import org.reconmuc.component.protocol.CompactItems;
import org.reconmuc.component.protocol.ForwardedItems;
import org.xmpp.packet.JID;
import org.xmpp.packet.Message;

/**
 * The room's message log: the last {@code capacity} groupchat messages as broadcast, indexed by
 * sequence number. It is what retained pointers point into, and what a join replays (at most
 * the room's configured history length of it). Its capacity is the service's history size.
 *
 * @param <A> who may author a message (the room's occupant type)
 */
public final class MessageLog<A> {

    /** One message as broadcast, with what delivery and batching need; rendered forms are cached. */
    public static final class Entry<A> {
        private final long seq;
        private final Instant at;
        private final Message broadcast;
        /** What holders get after a correction (reconmuc.md §5.14 rule 2); null: the message as broadcast. */
        private final Message finalForm;
        private final A author;
        /** For a message restored from the store (no {@code author}): its author's real bare JID, if archived. */
        private final JID restoredAuthor;
        private final String stanzaId;
        private final int chars;
        private final Form form;
        private String forwardedXml;
        private CompactItem compactItem;
        /**
         * Occupants this message must not reach: relaxed ones never (it takes back one they never
         * got), those it is held back from until its release (moderation delay); null: none.
         */
        private Set<A> withheldFrom;

        Entry(long seq, Instant at, Message broadcast, Message finalForm, A author, JID restoredAuthor, String stanzaId,
              Form form) {
            this.seq = seq;
            this.at = at;
            this.broadcast = broadcast;
            this.finalForm = finalForm;
            this.author = author;
            this.restoredAuthor = restoredAuthor;
            this.stanzaId = stanzaId;
            this.form = form;
            this.chars = broadcast.toXML().length();
        }

        /** True if the message was retracted: the entry holds its tombstone, and it is never sent again. */
        public boolean retracted() {
            return form == Form.RETRACTED;
        }

        /** True if {@code occupant} must never be sent this message. */
        public boolean withheldFrom(A occupant) {
            return withheldFrom != null && withheldFrom.contains(occupant);
        }

        /**
         * This message takes back one that {@code occupants} still hold and will now never get
         * (or get in its final form): they must not get this one either (reconmuc.md §5.14).
         */
        public void withholdFrom(Collection<A> occupants) {
            if (!occupants.isEmpty()) {
                if (withheldFrom == null) {
                    withheldFrom = new HashSet<>();
                }
                withheldFrom.addAll(occupants);
            }
        }

        /** This message was held back from {@code occupants} (moderation delay): it may reach them now. */
        void releaseTo(Collection<A> occupants) {
            if (withheldFrom != null) {
                withheldFrom.removeAll(occupants);
            }
        }

        public long seq() {
            return seq;
        }

        public Instant at() {
            return at;
        }

        /**
         * The message as broadcast, without a recipient, or its tombstone: what discussion history
         * and the archive show (a correction is a message of its own there). Do not modify.
         */
        public Message broadcast() {
            return broadcast;
        }

        /** The message as its holders get it: its final form if it was corrected while held. Do not modify. */
        public Message held() {
            return finalForm == null ? broadcast : finalForm;
        }

        /** The occupant who sent it; null for a message restored from the store. */
        public A author() {
            return author;
        }

        /** The real bare JID of the author of a message restored from the store, if it was archived; else null. */
        public JID restoredAuthor() {
            return restoredAuthor;
        }

        /** The room's XEP-0359 stanza-id of this message (its archive id). */
        public String stanzaId() {
            return stanzaId;
        }

        public int chars() {
            return chars;
        }

        /** Compact form for batches: rendered once, shared by every batch that carries it. */
        CompactItem compactItem(String roomJid) {
            if (compactItem == null) {
                compactItem = CompactItems.of(held().getElement(), at, roomJid);
            }
            return compactItem;
        }

        /** The message as discussion history replays it: with an XEP-0203 delay saying when {@code roomJid} received it. */
        public Message delayed(String roomJid) {
            return withDelay(broadcast, roomJid);
        }

        /** The message as a holder gets it one by one, later: {@link #held()} with the same delay. */
        public Message heldDelayed(String roomJid) {
            return withDelay(held(), roomJid);
        }

        private Message withDelay(Message message, String roomJid) {
            Message m = message.createCopy();
            Element delay = m.getElement().addElement("delay", XmlNamespaces.DELAY);
            delay.addAttribute("from", roomJid);
            delay.addAttribute("stamp", at.toString());
            return m;
        }

        /** XEP-0297 form of {@link #held()} for batches, as XML text: rendered once, shared by every batch that carries it. */
        public String forwardedXml(String roomJid) {
            if (forwardedXml == null) {
                forwardedXml = ForwardedItems.xml(held().getElement(), at, roomJid);
            }
            return forwardedXml;
        }
    }

    /** What an entry holds: the message as it was sent, its final form after a correction, or its tombstone. */
    private enum Form { AS_SENT, CORRECTED, RETRACTED }

    /**
     * Compact items a deflate stream's window may still point at ({@link StreamWindow}): an
     * entry's item stays here after the entry itself has left the log, for the newest
     * {@link #STREAM_ITEMS} numbers (or the log's capacity, if larger).
     */
    static final int STREAM_ITEMS = 512;

    private final Entry<A>[] ring;
    private final CompactItem[] items;
    private final long[] itemSeqs;
    private final Map<String, Long> seqByStanzaId = new HashMap<>();
    private final StanzaIds ids;
    private final String roomJid;
    private long head;

    /** A log of {@code capacity} messages whose stanza-ids {@code ids} mints, stamped {@code by} the room. */
    @SuppressWarnings("unchecked")
    public MessageLog(int capacity, StanzaIds ids, String roomJid) {
        this.ring = (Entry<A>[]) new Entry<?>[Math.max(1, capacity)];
        this.items = new CompactItem[Math.max(ring.length, STREAM_ITEMS)];
        this.itemSeqs = new long[items.length];
        this.ids = ids;
        this.roomJid = roomJid;
    }

    public int capacity() {
        return ring.length;
    }

    public long head() {
        return head;
    }

    /**
     * Logs a groupchat message as the room broadcasts it, the one place messages get their
     * numbers: the next sequence number, and the room's XEP-0359 stanza-id for it, stamped on
     * {@code broadcast} before a copy (without {@code to}) is kept. Returns the entry.
     */
    public Entry<A> log(Message broadcast, Instant at, A author) {
        long seq = head + 1;
        String stanzaId = ids.stanzaId(seq);
        Element id = broadcast.getElement().addElement("stanza-id", XmlNamespaces.STANZA_ID);
        id.addAttribute("id", stanzaId);
        id.addAttribute("by", roomJid);
        append(broadcast, at, author, null, stanzaId);
        return ring[(int) (seq % ring.length)];
    }

    /** Stores a copy of the broadcast message; returns its sequence number. */
    private long append(Message broadcast, Instant at, A author, JID restoredAuthor, String stanzaId) {
        Message stored = broadcast.createCopy();
        stored.setTo((String) null);
        long seq = ++head;
        int slot = (int) (seq % ring.length);
        Entry<A> evicted = ring[slot];
        if (evicted != null && evicted.stanzaId != null) {
            seqByStanzaId.remove(evicted.stanzaId);
        }
        ring[slot] = new Entry<>(seq, at, stored, null, author, restoredAuthor, stanzaId, Form.AS_SENT);
        if (stanzaId != null) {
            seqByStanzaId.put(stanzaId, seq);
        }
        return seq;
    }

    /** The entry with this sequence number, if the log still holds it. */
    public Entry<A> get(long seq) {
        if (seq < 1 || seq > head || seq <= head - ring.length) {
            return null;
        }
        Entry<A> e = ring[(int) (seq % ring.length)];
        return e != null && e.seq == seq ? e : null;   // a restored log may have gaps
    }

    /**
     * The compact form of a logged entry for batches: rendered once, and kept for deflate streams'
     * windows — unless the entry was changed since it was logged, when a window cannot know which
     * form a batch carried.
     */
    CompactItem compactItem(Entry<A> entry) {
        CompactItem item = entry.compactItem(roomJid);
        if (entry.form == Form.AS_SENT) {
            int slot = (int) (entry.seq() % items.length);
            items[slot] = item;
            itemSeqs[slot] = entry.seq();
        }
        return item;
    }

    /**
     * The compact item of message {@code seq} as a batch carried it, if it is still known: the
     * entry's, or the one kept after the entry left the log; null otherwise, and for a message
     * corrected or retracted since (a stream's window drops the batches that may have carried it).
     */
    CompactItem compactItem(long seq) {
        Entry<A> e = get(seq);
        if (e != null) {
            return e.form == Form.AS_SENT ? compactItem(e) : null;
        }
        if (seq < 1 || seq <= head - items.length) {
            return null;
        }
        int slot = (int) (seq % items.length);
        return itemSeqs[slot] == seq ? items[slot] : null;
    }

    /**
     * Message {@code seq} was corrected (XEP-0308) by its author while some occupants still held
     * it: they get {@code finalForm} (same number, time, author and stanza-id), as it ended up.
     * History and the archive keep the message as it was sent, the correction being a message of
     * its own there (reconmuc.md §5.14 rule 2). Returns the new entry, or null if the log no longer holds it.
     */
    public Entry<A> correct(long seq, Message finalForm) {
        Entry<A> old = get(seq);
        return old == null ? null : replace(old, old.broadcast, withoutRecipient(finalForm), Form.CORRECTED);
    }

    /**
     * Message {@code seq} was retracted (XEP-0424) or moderated (XEP-0425): the entry becomes
     * {@code tombstone} (what archive queries return), no flush carries it and no join replays it.
     */
    public Entry<A> retract(long seq, Message tombstone) {
        Entry<A> old = get(seq);
        return old == null ? null : replace(old, withoutRecipient(tombstone), null, Form.RETRACTED);
    }

    private static Message withoutRecipient(Message message) {
        Message stored = message.createCopy();
        stored.setTo((String) null);
        return stored;
    }

    private Entry<A> replace(Entry<A> old, Message broadcast, Message finalForm, Form form) {
        long seq = old.seq;
        Entry<A> entry = new Entry<>(seq, old.at, broadcast, finalForm, old.author, old.restoredAuthor, old.stanzaId, form);
        entry.withheldFrom = old.withheldFrom;
        ring[(int) (seq % ring.length)] = entry;
        int slot = (int) (seq % items.length);
        if (itemSeqs[slot] == seq) {
            items[slot] = null;
            itemSeqs[slot] = 0;
        }
        return entry;
    }

    /**
     * The newest logged message that {@code from} (an occupant JID) sent with the stanza id or the
     * XEP-0359 origin-id {@code id} — what an XEP-0461 reply names when the room gave its client no
     * stanza-id — or 0.
     */
    public long seqOfSent(JID from, String id) {
        return sentWithId(id).stream().filter(e -> from.equals(e.broadcast.getFrom()))
                .mapToLong(Entry::seq).findFirst().orElse(0);
    }

    private static String originId(Message m) {
        Element originId = m.getChildElement("origin-id", XmlNamespaces.STANZA_ID);
        return originId == null ? null : originId.attributeValue("id");
    }

    /**
     * Entries still in the log whose own {@code id} or XEP-0359 origin-id is {@code id}, newest
     * first, whoever sent them: what an XEP-0308 correction or an XEP-0424 retraction by message id
     * may name.
     */
    public List<Entry<A>> sentWithId(String id) {
        List<Entry<A>> named = new ArrayList<>();
        if (id == null) {
            return named;
        }
        for (long seq = head; seq > 0 && seq > head - ring.length; seq--) {
            Entry<A> e = get(seq);
            if (e != null && (id.equals(e.broadcast.getID()) || id.equals(originId(e.broadcast)))) {
                named.add(e);
            }
        }
        return named;
    }

    /**
     * Puts back a message of a restored room under its old sequence number (oldest first);
     * {@code author} is its author's real bare JID as archived, or null if the archive has none.
     */
    public void restore(long seq, Instant at, Message broadcast, String stanzaId, JID author) {
        head = seq - 1;
        append(broadcast, at, null, author, stanzaId);
    }

    /** A restored room's log goes on after {@code lastSeq}, the newest number it ever gave. */
    public void restoreHead(long lastSeq) {
        head = Math.max(head, lastSeq);
    }

    /** The sequence number of the message with this room stanza-id, or 0. */
    public long seqOf(String stanzaId) {
        Long seq = stanzaId == null ? null : seqByStanzaId.get(stanzaId);
        return seq == null ? 0 : seq;
    }

    /**
     * The newest entries, oldest first: at most {@code max} of them, at most {@code maxChars}
     * characters (null: no limit), none before {@code notBefore} and none at or before
     * {@code after} (null: no limit) — what a join asks for (XEP-0045 §7.2.15). The newest are
     * kept when a limit cuts. Retracted messages are left out.
     */
    public List<Entry<A>> newest(int max, Integer maxChars, Instant notBefore, Instant after) {
        List<Entry<A>> picked = new ArrayList<>();
        int chars = 0;
        for (long seq = head; seq > 0 && seq > head - ring.length; seq--) {
            Entry<A> e = get(seq);
            if (e == null || e.retracted()) {
                continue;
            }
            if (picked.size() >= max
                    || (notBefore != null && e.at().isBefore(notBefore))
                    || (after != null && !e.at().isAfter(after))
                    || (maxChars != null && chars + e.chars() > maxChars)) {
                break;
            }
            chars += e.chars();
            picked.add(e);
        }
        Collections.reverse(picked);
        return picked;
    }
}
