package org.reconmuc.component.relaxed;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.dom4j.Element;
import org.reconmuc.codec.XmlNamespaces;
import org.reconmuc.codec.batch.CompactItem;
import org.reconmuc.component.protocol.CompactItems;
import org.reconmuc.component.protocol.ForwardedItems;
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
        private final A author;
        private final String stanzaId;
        private final int chars;
        private String forwardedXml;
        private CompactItem compactItem;

        Entry(long seq, Instant at, Message broadcast, A author, String stanzaId) {
            this.seq = seq;
            this.at = at;
            this.broadcast = broadcast;
            this.author = author;
            this.stanzaId = stanzaId;
            this.chars = broadcast.toXML().length();
        }

        public long seq() {
            return seq;
        }

        public Instant at() {
            return at;
        }

        /** The message as broadcast, without a recipient. Do not modify. */
        public Message broadcast() {
            return broadcast;
        }

        /** The occupant who sent it; null for a message restored from the store. */
        public A author() {
            return author;
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
                compactItem = CompactItems.of(broadcast.getElement(), at, roomJid);
            }
            return compactItem;
        }

        /** The message as sent later: with an XEP-0203 delay saying when {@code roomJid} received it. */
        public Message delayed(String roomJid) {
            Message m = broadcast.createCopy();
            Element delay = m.getElement().addElement("delay", XmlNamespaces.DELAY);
            delay.addAttribute("from", roomJid);
            delay.addAttribute("stamp", at.toString());
            return m;
        }

        /** XEP-0297 form for batches, as XML text: rendered once, shared by every batch that carries it. */
        public String forwardedXml(String roomJid) {
            if (forwardedXml == null) {
                forwardedXml = ForwardedItems.xml(broadcast.getElement(), at, roomJid);
            }
            return forwardedXml;
        }
    }

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
        append(broadcast, at, author, stanzaId);
        return ring[(int) (seq % ring.length)];
    }

    /** Stores a copy of the broadcast message; returns its sequence number. */
    private long append(Message broadcast, Instant at, A author, String stanzaId) {
        Message stored = broadcast.createCopy();
        stored.setTo((String) null);
        long seq = ++head;
        int slot = (int) (seq % ring.length);
        Entry<A> evicted = ring[slot];
        if (evicted != null && evicted.stanzaId != null) {
            seqByStanzaId.remove(evicted.stanzaId);
        }
        ring[slot] = new Entry<>(seq, at, stored, author, stanzaId);
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

    /** The compact form of a logged entry for batches: rendered once, and kept for deflate streams' windows. */
    CompactItem compactItem(Entry<A> entry) {
        CompactItem item = entry.compactItem(roomJid);
        int slot = (int) (entry.seq() % items.length);
        items[slot] = item;
        itemSeqs[slot] = entry.seq();
        return item;
    }

    /**
     * The compact item of message {@code seq} as a batch carried it, if it is still known: the
     * entry's, or the one kept after the entry left the log; null otherwise.
     */
    CompactItem compactItem(long seq) {
        Entry<A> e = get(seq);
        if (e != null) {
            return compactItem(e);
        }
        if (seq < 1 || seq <= head - items.length) {
            return null;
        }
        int slot = (int) (seq % items.length);
        return itemSeqs[slot] == seq ? items[slot] : null;
    }

    /** Puts back a message of a restored room under its old sequence number (oldest first). */
    public void restore(long seq, Instant at, Message broadcast, String stanzaId) {
        head = seq - 1;
        append(broadcast, at, null, stanzaId);
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
     * kept when a limit cuts.
     */
    public List<Entry<A>> newest(int max, Integer maxChars, Instant notBefore, Instant after) {
        List<Entry<A>> picked = new ArrayList<>();
        int chars = 0;
        for (long seq = head; seq > 0 && seq > head - ring.length; seq--) {
            Entry<A> e = get(seq);
            if (e == null) {
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
