package org.reconmuc.benchmarks;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.reconmuc.codec.XmlNamespaces;
import org.reconmuc.component.consistency.Aggregation;
import org.reconmuc.component.jid.RealJid;
import org.reconmuc.component.relaxed.DeflateStreams;
import org.reconmuc.component.relaxed.FanoutHost;
import org.reconmuc.component.relaxed.FlushForm;
import org.reconmuc.component.relaxed.MessageLog;
import org.reconmuc.component.relaxed.RelaxedCounters;
import org.reconmuc.component.relaxed.StanzaIds;
import org.reconmuc.component.transport.OutgoingStanza;
import org.reconmuc.component.transport.RenderedStanza;
import org.xmpp.packet.JID;
import org.xmpp.packet.Message;

/**
 * A room for the benchmarks that runs the service's own relaxed code ({@code component.relaxed}):
 * its {@link MessageLog} stamps and caches each message, its {@link FlushForm}s render flushes,
 * and what they send is addressed to one recipient's session as text, as the room's output does.
 * Nothing here renders a stanza the service's way by hand.
 */
public final class BenchRoom implements FanoutHost<Occupant> {
    public static final String ROOM = "lobby@reconmuc.example.org";
    /** The recipient of everything sent: one relaxed occupant with one session. */
    public static final Occupant RECIPIENT = new Occupant(42);
    private static final JID ROOM_JID = new JID(ROOM);
    private static final long START = 1_700_000_000_000L;

    private final MessageLog<Occupant> log;
    private final DeflateStreams streams;
    private final Map<Aggregation, FlushForm<Occupant>> forms;
    /** As a room mints them: a 12-character prefix (fixed here, so rooms of a benchmark agree), then base 36. */
    private final StanzaIds ids = new StanzaIds("Vq0cT3xk9aPz");
    private final RelaxedCounters counters = new RelaxedCounters();
    private final List<OutgoingStanza> sent = new ArrayList<>();
    private Instant now = Instant.ofEpochMilli(START);

    /** A room whose log keeps {@code capacity} messages. */
    public BenchRoom(int capacity) {
        this(capacity, new DeflateStreams());
    }

    /** A room whose log keeps {@code capacity} messages and whose deflate streams are {@code streams}. */
    public BenchRoom(int capacity, DeflateStreams streams) {
        this.log = new MessageLog<>(capacity, ids, ROOM);
        this.streams = streams;
        this.forms = FlushForm.forRoom(() -> streams);
    }

    /** The room's deflate streams (their pointers, for the size report). */
    public DeflateStreams streams() {
        return streams;
    }

    /** The lines logged as the room logs them, one every ~167 ms (6 messages a second). */
    public List<MessageLog.Entry<Occupant>> logAll(List<IrcCorpus.Line> lines) {
        List<MessageLog.Entry<Occupant>> entries = new ArrayList<>(lines.size());
        for (int i = 0; i < lines.size(); i++) {
            now = Instant.ofEpochMilli(START + i * 1000L / 6);
            entries.add(log.log(broadcast(lines.get(i), i), now, null));
        }
        return entries;
    }

    /**
     * The room's copy of what Joom sends (a body and a {@code <topic xmlns='urn:reconmuc:0'/>}):
     * from {@code room@service/nick}; the log adds the stanza-id.
     */
    static Message broadcast(IrcCorpus.Line line, int i) {
        Message out = new Message();
        out.setType(Message.Type.groupchat);
        out.setFrom(new JID(ROOM_JID.getNode(), ROOM_JID.getDomain(), line.nick()));
        out.setID("Wq3Zk-" + i);
        out.setBody(line.body());
        out.getElement().addElement("topic", XmlNamespaces.RECONMUC).setText(line.topic());
        return out;
    }

    /** The standard delivery of a logged message to one session: rendered, then addressed. */
    public static String standard(MessageLog.Entry<Occupant> e) {
        return RenderedStanza.of(e.broadcast()).to(RECIPIENT.session.jid()).xml();
    }

    /**
     * What the room sends {@link #RECIPIENT} when it flushes {@code entries} in {@code aggregation}
     * (the deflate stream runs on from the previous flush), as text, in order.
     */
    public List<String> flush(Aggregation aggregation, List<MessageLog.Entry<Occupant>> entries) {
        sent.clear();
        forms.get(aggregation).send(this, RECIPIENT, entries);
        streams.turnEnded();
        List<String> texts = new ArrayList<>(sent.size());
        for (OutgoingStanza s : sent) {
            texts.add(s.xml());
        }
        return texts;
    }

    /**
     * What the room sends {@code occupant} when the last of {@code entries} goes out to it at once
     * in {@code aggregation}, carrying the others along (a form whose batches carry live items):
     * the stanzas addressed to its sessions, not yet written as text. Part of a turn that
     * {@link #endTurn} ends, as the room's fan-out of one message is.
     */
    public List<OutgoingStanza> sendLive(Aggregation aggregation, Occupant occupant, List<MessageLog.Entry<Occupant>> entries) {
        sent.clear();
        forms.get(aggregation).sendLive(this, occupant, entries);
        return sent;
    }

    /** Every stream starts anew (as an entry into an unlogged room starts them). */
    public void startStreamsAnew() {
        streams.resetAll();
    }

    /** The room's turn is over (what a turn shares between streams alike is let go). */
    public void endTurn() {
        streams.turnEnded();
    }

    /** The one stanza a batch form sends for a flush. */
    public String batch(Aggregation aggregation, List<MessageLog.Entry<Occupant>> entries) {
        List<String> texts = flush(aggregation, entries);
        if (texts.size() != 1) {
            throw new IllegalStateException(aggregation.toString().toLowerCase(Locale.ROOT) + " sent " + texts.size());
        }
        return texts.get(0);
    }

    @Override
    public String roomJid() {
        return ROOM;
    }

    @Override
    public Instant now() {
        return now;
    }

    @Override
    public MessageLog<Occupant> log() {
        return log;
    }

    @Override
    public StanzaIds ids() {
        return ids;
    }

    @Override
    public RelaxedCounters counters() {
        return counters;
    }

    @Override
    public Occupant occupantByNick(String nick) {
        return RECIPIENT.nick().equals(nick) ? RECIPIENT : null;
    }

    @Override
    public Occupant occupantAddressedAs(String nick) {
        return RECIPIENT.nick().equalsIgnoreCase(nick) ? RECIPIENT : null;
    }

    @Override
    public Collection<Occupant> occupants() {
        return List.of(RECIPIENT);
    }

    @Override
    public boolean isPresent(Occupant occupant) {
        return occupant == RECIPIENT;
    }

    @Override
    public void wakeUpAfter(long delayMillis) {
        // flushes are driven by the benchmark
    }

    @Override
    public void send(Occupant occupant, RenderedStanza stanza) {
        for (RealJid s : occupant.sessions()) {
            sent.add(stanza.to(s.jid()));
        }
    }

    @Override
    public void send(RealJid session, RenderedStanza stanza) {
        sent.add(stanza.to(session.jid()));
    }
}
