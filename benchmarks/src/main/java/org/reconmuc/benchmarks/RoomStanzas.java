package org.reconmuc.benchmarks;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.Function;
import java.util.zip.Deflater;
import org.dom4j.DocumentException;
import org.dom4j.DocumentHelper;
import org.dom4j.Element;
import org.dom4j.QName;
import org.reconmuc.codec.XmlNamespaces;
import org.reconmuc.codec.batch.Batch;
import org.reconmuc.codec.batch.CompactItem;
import org.reconmuc.codec.batch.DeflateStream;
import org.reconmuc.component.protocol.CompactItems;
import org.reconmuc.component.protocol.ForwardedItems;
import org.xmpp.packet.JID;
import org.xmpp.packet.Message;

/**
 * Groupchat messages as a room broadcasts and stores them, and the stanzas it sends for them —
 * built the way {@code muc.RoomMessages}, {@code muc.History} and {@code muc.RoomFanout}
 * build them (those are package-private to the room, so this mirrors them step by step):
 *
 * <ol>
 *   <li>the client's {@code <message type='groupchat'>} with a {@code <body/>} and a
 *       {@code <topic xmlns='urn:reconmuc:0'/>} (what Joom sends);</li>
 *   <li>the room's copy from {@code room@service/nick}, with an XEP-0359 {@code <stanza-id/>};</li>
 *   <li>the history's copy without {@code to}, and its cached {@code <forwarded/>} form and XML
 *       and compact item;</li>
 *   <li>per recipient: the broadcast with {@code to} set, serialised ({@code packet.toXML()}); a
 *       delayed copy in "no aggregation" mode; or a batch message carrying many, in any form.</li>
 * </ol>
 */
public final class RoomStanzas {
    public static final String ROOM = "lobby@reconmuc.example.org";
    /** A recipient's full JID: what {@code sendToAllSessions} puts in {@code to}. */
    public static final JID RECIPIENT = new JID("reader42", "example.org", "laptop-3f9a");
    private static final JID ROOM_JID = new JID(ROOM);
    private static final long START = 1_700_000_000_000L;
    /** As a room mints its stanza-ids ({@code RoomIds}): a random 12-character prefix, then a counter in base 36. */
    private static final String STANZA_ID_PREFIX = "Vq0cT3xk9aPz";
    /** The room's batch-id counter (benchmarks run on one thread per trial). */
    private static long batchIds;

    private RoomStanzas() {
    }

    /** One history entry with the forms the room caches for it. */
    public record Entry(Message broadcast, Instant at, Element forwarded, String forwardedXml, CompactItem compactItem) {
    }

    /** History entries for the lines, one every ~167 ms (6 messages a second). */
    public static List<Entry> history(List<IrcCorpus.Line> lines) {
        List<Entry> entries = new ArrayList<>(lines.size());
        for (int i = 0; i < lines.size(); i++) {
            IrcCorpus.Line line = lines.get(i);
            Message stored = stored(line, i);
            Instant at = Instant.ofEpochMilli(START + i * 1000L / 6);
            String forwardedXml = ForwardedItems.xml(stored.getElement(), at, ROOM);
            entries.add(new Entry(stored, at, parse(forwardedXml), forwardedXml, CompactItems.of(stored.getElement(), at, ROOM)));
        }
        return entries;
    }

    private static Element parse(String xml) {
        try {
            return DocumentHelper.parseText(xml).getRootElement();
        } catch (DocumentException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Steps 1–3: the message as the history stores it (the broadcast, no {@code to}). */
    static Message stored(IrcCorpus.Line line, int i) {
        Message client = new Message();
        client.setType(Message.Type.groupchat);
        client.setTo(ROOM_JID);
        client.setFrom(new JID(line.nick().toLowerCase(java.util.Locale.ROOT), "example.org", "desktop"));
        client.setID("Wq3Zk-" + i);
        client.setBody(line.body());
        client.getElement().addElement("topic", XmlNamespaces.RECONMUC).setText(line.topic());

        Message out = client.createCopy();
        out.setFrom(new JID(ROOM_JID.getNode(), ROOM_JID.getDomain(), line.nick()));
        Element id = out.getElement().addElement("stanza-id", XmlNamespaces.STANZA_ID);
        id.addAttribute("id", STANZA_ID_PREFIX + "-" + Long.toString(i + 1, 36));
        id.addAttribute("by", ROOM);

        Message stored = out.createCopy();
        stored.setTo((String) null);
        return stored;
    }

    /** Standard delivery of one message to one recipient: set {@code to}, serialise (the room reuses the packet). */
    public static String oneByOne(Entry e) {
        Message m = e.broadcast();
        m.setTo(RECIPIENT);
        String xml = m.toXML();
        m.setTo((String) null);
        return xml;
    }

    /** "No aggregation" flush of one message ({@code Room.delayed}): a copy with a delay, to one recipient. */
    public static String oneByOneDelayed(Entry e) {
        Message m = e.broadcast().createCopy();
        Element delay = m.getElement().addElement("delay", XmlNamespaces.DELAY);
        delay.addAttribute("from", ROOM);
        delay.addAttribute("stamp", e.at().toString());
        m.setTo(RECIPIENT);
        return m.toXML();
    }

    /** The stanza a flush sends ({@code ForwardedFlush}), serialised for one recipient. */
    public static String batchStanza(Element batch) {
        Message m = new Message();
        m.setType(Message.Type.groupchat);
        m.setFrom(ROOM_JID);
        m.setID(UUID.randomUUID().toString());
        m.getElement().add(batch);
        m.setTo(RECIPIENT);
        return m.toXML();
    }

    /**
     * The plain batch stanza as the room sends it ({@code ForwardedFlush}): the cached item
     * XML concatenated by the codec's {@code Batch.plain}, spliced into the message (PrerenderedMessage).
     */
    public static String plainBatch(List<Entry> entries) {
        return batchMessage(Batch.plain(items(entries, Entry::forwardedXml)), nextBatchId());
    }

    /** What each entry caches for a batch form, in room order. */
    private static <T> List<T> items(List<Entry> entries, Function<Entry, T> cached) {
        List<T> items = new ArrayList<>(entries.size());
        for (Entry e : entries) {
            items.add(cached.apply(e));
        }
        return items;
    }

    /** A forwarded batch's id, as the room mints them ({@code RoomIds.messageId}). */
    private static String nextBatchId() {
        return STANZA_ID_PREFIX + "-b" + Long.toString(++batchIds, 36);
    }

    /**
     * A batch message as {@code FlushForm.batchMessage} and {@code PrerenderedMessage} write it: the
     * batch's text spliced into the stanza; compact forms carry no id ({@code id} null).
     */
    private static String batchMessage(String batchXml, String id) {
        return "<message type=\"groupchat\" from=\"" + ROOM + "\"" + (id == null ? "" : " id=\"" + id + "\"")
                + " to=\"" + RECIPIENT + "\">" + batchXml + "</message>";
    }

    /**
     * The plain batch as the room built it before 2026-11-21 (kept as the baseline of that fix):
     * every cached {@code <forwarded/>} element deep-copied into a new DOM, then serialised.
     */
    public static String plainBatchDom(List<Entry> entries) {
        Element batch = DocumentHelper.createElement(QName.get(Batch.ELEMENT, Batch.NAMESPACE));
        batch.addAttribute(Batch.COUNT, Integer.toString(entries.size()));
        for (Entry e : entries) {
            batch.add(e.forwarded().createCopy());
        }
        return batchStanza(batch);
    }

    /** The compact batch stanza as {@code CompactFlush} sends it: the cached compact items, no message id. */
    public static String compactBatch(List<Entry> entries) {
        return batchMessage(Batch.compact(items(entries, Entry::compactItem)), null);
    }

    /**
     * The next batch of one session's deflate stream as {@code StreamFlush} sends it: the compact
     * items compressed against the stream's previous batches, with a shared {@code deflater}.
     */
    public static String compactStreamBatch(List<Entry> entries, DeflateStream stream, Deflater deflater) {
        return batchMessage(Batch.compactDeflateStream(items(entries, Entry::compactItem), stream, deflater), null);
    }

    /** The deflate batch stanza as the room sends it: the codec's {@code Batch.deflate} of the cached item XML, spliced. */
    public static String deflateBatch(List<Entry> entries, int level) {
        return batchMessage(Batch.deflate(items(entries, Entry::forwardedXml), level), nextBatchId());
    }
}
