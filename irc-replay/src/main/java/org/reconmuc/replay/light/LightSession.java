package org.reconmuc.replay.light;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Base64;
import java.util.List;
import org.reconmuc.codec.XmlNamespaces;
import org.reconmuc.codec.batch.BatchDecoder;
import org.reconmuc.codec.batch.DecodedBatch;
import org.reconmuc.codec.batch.MalformedBatchException;
import org.reconmuc.replay.DeliveryLog;
import org.reconmuc.replay.MessageIds;

/**
 * One light bot: a non-blocking client stream (RFC 6120) that logs in with SASL PLAIN, binds a
 * resource, joins the room (XEP-0045 §7.2) with its presence level, states its requirements if it
 * is relaxed, sends its lines of the logs and accounts for every message it receives, at once or in
 * a batch, as the Smack bots do. It holds a few hundred bytes between reads: its state, its
 * delivery log, the bytes of a stanza not yet complete, what the socket would not take yet.
 * Everything runs on its worker's one thread.
 */
final class LightSession implements StreamFrames.Handler {
    enum State { CONNECTING, FEATURES, AUTH, BOUND_FEATURES, BIND, SESSION, READY, JOINING, JOINED, FAILED }

    private static final String MUC = "http://jabber.org/protocol/muc";
    private static final String MUC_USER = MUC + "#user";

    final int index;
    final String nick;
    final boolean relaxed;
    private final LightWorker worker;
    SocketChannel channel;
    SelectionKey key;
    State state = State.CONNECTING;
    /** The bytes of an element not yet complete (null: none), and whether the stream is open. */
    byte[] pending;
    boolean streamOpen;
    private ArrayDeque<ByteBuffer> unsent;
    private boolean sessionRequired;
    /** When the login or the join started (System.nanoTime). */
    long phaseStart;
    boolean requirementsStated;
    final DeliveryLog log;
    /** The session's batch decoder (a deflate stream's inflater lives there): made on its first batch. */
    private BatchDecoder decoder;

    LightSession(LightWorker worker, int index, String nick, boolean relaxed, int[] parents) {
        this.worker = worker;
        this.index = index;
        this.nick = nick;
        this.relaxed = relaxed;
        this.log = new DeliveryLog(parents);
    }

    // ---- the stream --------------------------------------------------------------------------

    /** The TCP connection is up: open the stream. */
    void connected() {
        state = State.FEATURES;
        sendHeader();
    }

    private void sendHeader() {
        send("<?xml version='1.0'?><stream:stream to='" + worker.plan.loginDomain()
                + "' xmlns='jabber:client' xmlns:stream='http://etherx.jabber.org/streams' version='1.0'>");
    }

    @Override
    public void streamOpened(byte[] buf, int from, int to) {
        // The features follow as an element.
    }

    @Override
    public void streamClosed() {
        fail("the server closed the stream");
    }

    @Override
    public boolean element(byte[] buf, int from, int to) {
        String xml = new String(buf, from, to - from, StandardCharsets.UTF_8);
        // The fill's stanzas are those of the joins and requirements, not the login's stream negotiation.
        worker.meters.count(worker.measuring() ? "stanzas" : state.ordinal() < State.READY.ordinal() ? "login-stanzas" : "fill-stanzas", 1);
        try {
            return handle(xml);
        } catch (RuntimeException e) {
            worker.meters.count("unreadable-stanzas", 1);
            worker.note("bot " + index + ": cannot read " + abbreviate(xml) + ": " + e);
            return false;
        }
    }

    private boolean handle(String xml) {
        String name = StanzaText.name(xml);
        switch (state) {
            case FEATURES -> {
                if (name.equals("stream:features")) {
                    String auth = "\0" + worker.userOf(index) + "\0pw";
                    state = State.AUTH;
                    send("<auth xmlns='urn:ietf:params:xml:ns:xmpp-sasl' mechanism='PLAIN'>"
                            + Base64.getEncoder().encodeToString(auth.getBytes(StandardCharsets.UTF_8)) + "</auth>");
                }
                return false;
            }
            case AUTH -> {
                if (name.equals("success")) {
                    state = State.BOUND_FEATURES;
                    sendHeader();
                    return true;
                }
                fail("authentication: " + abbreviate(xml));
                return false;
            }
            case BOUND_FEATURES -> {
                if (name.equals("stream:features")) {
                    int session = StanzaText.element(xml, 0, "session", "urn:ietf:params:xml:ns:xmpp-session");
                    sessionRequired = session >= 0 && StanzaText.element(xml, session, "optional", null) < 0;
                    state = State.BIND;
                    send("<iq type='set' id='bind'><bind xmlns='urn:ietf:params:xml:ns:xmpp-bind'><resource>bot</resource></bind></iq>");
                }
                return false;
            }
            case BIND -> {
                if (name.equals("iq") && "bind".equals(StanzaText.attribute(xml, "id"))) {
                    if (!"result".equals(StanzaText.attribute(xml, "type"))) {
                        fail("bind: " + abbreviate(xml));
                    } else if (sessionRequired) {
                        state = State.SESSION;
                        send("<iq type='set' id='sess'><session xmlns='urn:ietf:params:xml:ns:xmpp-session'/></iq>");
                    } else {
                        ready();
                    }
                }
                return false;
            }
            case SESSION -> {
                if (name.equals("iq") && "sess".equals(StanzaText.attribute(xml, "id"))) {
                    ready();
                }
                return false;
            }
            default -> {
                stanza(name, xml);
                return false;
            }
        }
    }

    private void ready() {
        state = State.READY;
        worker.loggedIn(this);
    }

    // ---- the room ----------------------------------------------------------------------------

    /** Sends the join presence (history: none, as the Smack bots ask). */
    void join() {
        state = State.JOINING;
        phaseStart = System.nanoTime();
        String level = worker.plan.presenceLevel() == null ? ""
                : "<presences xmlns='" + XmlNamespaces.RECONMUC + "' level='" + worker.plan.presenceLevel() + "'/>";
        send("<presence to='" + worker.plan.room() + "/" + StanzaText.escape(nick) + "' id='join'><x xmlns='" + MUC
                + "'><history maxstanzas='0'/></x>" + level + "</presence>");
    }

    /** A relaxed bot's requirements: no filter, the plan's time and volume and aggregation. */
    void stateRequirements() {
        LightPlan p = worker.plan;
        send("<iq type='set' id='req' to='" + p.room() + "'><consistency-requirements xmlns='" + XmlNamespaces.RECONMUC
                + "'><time>" + p.timeSeconds() + "</time><volume>" + p.volume() + "</volume><aggregation>"
                + p.aggregation() + "</aggregation></consistency-requirements></iq>");
    }

    /** Sends one groupchat message of the logs. */
    void say(String id, String body, String topic, String replyTo, String parentId) {
        StringBuilder m = new StringBuilder(body.length() + 200);
        m.append("<message to='").append(worker.plan.room()).append("' type='groupchat' id='").append(id).append("'><body>")
                .append(StanzaText.escape(body)).append("</body><topic xmlns='").append(XmlNamespaces.RECONMUC).append("'>")
                .append(StanzaText.escape(topic)).append("</topic>");
        if (parentId != null) {
            m.append("<reply xmlns='urn:xmpp:reply:0' to='").append(worker.plan.room()).append('/')
                    .append(StanzaText.escape(replyTo)).append("' id='").append(StanzaText.escape(parentId)).append("'/>");
        }
        send(m.append("</message>").toString());
    }

    private void stanza(String name, String xml) {
        switch (name) {
            case "message" -> message(xml);
            case "presence" -> presence(xml);
            case "iq" -> iq(xml);
            default -> {
                if (name.startsWith("stream:error")) {
                    fail("stream error: " + abbreviate(xml));
                }
            }
        }
    }

    private void presence(String xml) {
        worker.meters.count(worker.measuring() ? "presences" : "fill-presences", 1);
        String from = StanzaText.attribute(xml, "from");
        if (state != State.JOINING || from == null || !from.equals(worker.plan.room() + "/" + nick)) {
            return;
        }
        if ("error".equals(StanzaText.attribute(xml, "type"))) {
            fail("join refused: " + abbreviate(xml));
            return;
        }
        int x = StanzaText.element(xml, 0, "x", MUC_USER);
        if (x < 0 || !hasStatus(xml, x, "110")) {
            return;
        }
        state = State.JOINED;
        worker.joined(this, hasStatus(xml, x, "201"));
    }

    private static boolean hasStatus(String xml, int from, String code) {
        int i = from;
        while ((i = StanzaText.element(xml, i + 1, "status", null)) >= 0) {
            if (code.equals(StanzaText.attribute(xml, i, "code"))) {
                return true;
            }
        }
        return false;
    }

    private void iq(String xml) {
        String type = StanzaText.attribute(xml, "type");
        String id = StanzaText.attribute(xml, "id");
        if ("get".equals(type) || "set".equals(type)) {
            // A server's or room's ping (XEP-0199, XEP-0410) is answered; nothing else is known here.
            boolean ping = StanzaText.element(xml, 0, "ping", "urn:xmpp:ping") >= 0;
            String to = StanzaText.attribute(xml, "from");
            send("<iq type='" + (ping ? "result" : "error") + "' id='" + StanzaText.escape(id == null ? "" : id) + "'"
                    + (to == null ? "" : " to='" + StanzaText.escape(to) + "'") + ">"
                    + (ping ? "" : "<error type='cancel'><service-unavailable xmlns='urn:ietf:params:xml:ns:xmpp-stanzas'/></error>")
                    + "</iq>");
            return;
        }
        if ("req".equals(id)) {
            if ("result".equals(type)) {
                requirementsStated = true;
                worker.requirementsStated(this);
            } else {
                fail("requirements refused: " + abbreviate(xml));
            }
        } else if ("config".equals(id)) {
            worker.configured(this, "result".equals(type) ? null : abbreviate(xml));
        }
    }

    private void message(String xml) {
        if ("error".equals(StanzaText.attribute(xml, "type"))) {
            worker.meters.count("errors-received", 1);
            worker.note("bot " + index + " got an error: " + abbreviate(xml));
            return;
        }
        int batch = StanzaText.element(xml, 0, "batch", XmlNamespaces.RECONMUC);
        if (batch >= 0) {
            batch(xml, batch);
            return;
        }
        if (StanzaText.element(xml, 0, "body", null) < 0) {
            return;
        }
        String id = StanzaText.attribute(xml, "id");
        long[] parsed = MessageIds.parse(id);
        if (parsed == null) {
            return;
        }
        int sid = StanzaText.element(xml, 0, "stanza-id", XmlNamespaces.STANZA_ID);
        String stanzaId = sid < 0 ? null : StanzaText.attribute(xml, sid, "id");
        boolean delayed = StanzaText.element(xml, 0, "delay", XmlNamespaces.DELAY) >= 0;
        worker.delivered(this, (int) parsed[0], parsed[1], delayed, id, stanzaId, System.nanoTime());
    }

    private void batch(String xml, int batchStart) {
        long now = System.nanoTime();
        int end = xml.lastIndexOf("</batch>");
        String batchXml = end < 0 ? xml.substring(batchStart, StanzaText.tagEnd(xml, batchStart) + 1)
                : xml.substring(batchStart, end + "</batch>".length());
        List<CompactItems.Item> items;
        try {
            items = CompactItems.read(batchXml);
            if (items == null || worker.checkWithCodec()) {
                List<CompactItems.Item> decoded = decode(batchXml);
                if (items != null && !items.equals(decoded)) {
                    throw new IllegalArgumentException("the codec reads " + decoded + ", the light reading " + items);
                }
                items = decoded;
            }
        } catch (MalformedBatchException | RuntimeException e) {
            worker.meters.count("batch-errors", 1);
            worker.note("bot " + index + ": malformed batch: " + e.getMessage());
            return;
        }
        boolean anyDelayed = false;
        for (CompactItems.Item item : items) {
            long[] parsed = MessageIds.parse(item.id());
            anyDelayed |= !item.live();
            if (parsed != null) {
                worker.delivered(this, (int) parsed[0], parsed[1], !item.live(), item.id(), null, now);
            }
        }
        if (anyDelayed) {
            worker.meters.count("batches", 1);
        }
    }

    /** The batch's items as the codec reads them (strictly, every form, this session's deflate stream). */
    private List<CompactItems.Item> decode(String batchXml) throws MalformedBatchException {
        if (decoder == null) {
            decoder = new BatchDecoder();
        }
        DecodedBatch decoded = decoder.decode(batchXml, worker.plan.room());
        List<CompactItems.Item> items = new java.util.ArrayList<>(decoded.items().size());
        for (String item : decoded.items()) {
            int message = StanzaText.element(item, 0, "message", null);
            if (message >= 0) {
                items.add(new CompactItems.Item(StanzaText.attribute(item, message, "id"),
                        StanzaText.element(item, 0, "delay", XmlNamespaces.DELAY) < 0));
            }
        }
        return items;
    }

    // ---- the socket --------------------------------------------------------------------------

    void send(String text) {
        if (state == State.FAILED || channel == null) {
            return;
        }
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        worker.meters.count(worker.measuring() ? "bytes-sent" : "fill-bytes-sent", bytes.length);
        ByteBuffer b = ByteBuffer.wrap(bytes);
        try {
            if (unsent == null) {
                channel.write(b);
                if (!b.hasRemaining()) {
                    return;
                }
                unsent = new ArrayDeque<>(2);
                key.interestOps(key.interestOps() | SelectionKey.OP_WRITE);
            }
            unsent.addLast(b);
        } catch (IOException e) {
            fail("write: " + e.getMessage());
        }
    }

    /** The socket takes more: writes what waited. */
    void writable() throws IOException {
        while (unsent != null && !unsent.isEmpty()) {
            ByteBuffer b = unsent.peekFirst();
            channel.write(b);
            if (b.hasRemaining()) {
                return;
            }
            unsent.pollFirst();
        }
        unsent = null;
        key.interestOps(key.interestOps() & ~SelectionKey.OP_WRITE);
    }

    void fail(String why) {
        if (state == State.FAILED) {
            return;
        }
        State was = state;
        state = State.FAILED;
        worker.failed(this, was, why);
        close();
    }

    void close() {
        if (key != null) {
            key.cancel();
        }
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException ignored) {
                // closing anyway
            }
        }
        pending = null;
        unsent = null;
    }

    static String abbreviate(String xml) {
        return xml.length() <= 300 ? xml : xml.substring(0, 300) + "…";
    }
}
