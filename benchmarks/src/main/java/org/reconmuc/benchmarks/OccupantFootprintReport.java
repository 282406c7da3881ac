package org.reconmuc.benchmarks;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.PriorityQueue;
import java.util.SplittableRandom;
import org.dom4j.DocumentException;
import org.dom4j.DocumentHelper;
import org.dom4j.Element;
import org.openjdk.jol.info.GraphLayout;
import org.openjdk.jol.vm.VM;
import org.reconmuc.codec.XmlNamespaces;
import org.reconmuc.component.RoomFeatures;
import org.reconmuc.component.config.ServiceConfig;
import org.reconmuc.component.muc.MucService;
import org.xmpp.packet.IQ;
import org.xmpp.packet.Message;
import org.xmpp.packet.Packet;
import org.xmpp.packet.Presence;

/**
 * What a relaxed occupant costs the service, all of it: the whole {@link MucService} is measured
 * with JOL (every object reachable from it) with N occupants in one room after the IRC logs were
 * replayed into it, once with everyone in standard mode and once with everyone relaxed
 * (compact-deflate unless {@code -Dfootprint.aggregation} says otherwise, volume 30, time 30 s, one
 * topic each), and the difference is divided by N.
 * It holds the engine's reader, the requirements and the deflate stream's window of each
 * occupant ({@code -Dfootprint.classes=true} prints every class's count and bytes; JOL needs
 * {@code -Djol.magicFieldOffset=true} for records on JDK 17). The room shows only moderators' presences, as big rooms are run (and as the replay's
 * 5,000-occupant phase does).
 *
 * <pre>java -Djol.magicFieldOffset=true -cp benchmarks/target/benchmarks.jar org.reconmuc.benchmarks.OccupantFootprintReport [N ...]</pre>
 */
public final class OccupantFootprintReport {
    private static final String SERVICE = "muc.example";
    private static final String ROOM = "lobby@" + SERVICE;
    private static final String[] TOPICS = {"gossip", "movies", "music", "sports", "tech", "travel"};
    /** The relaxed occupants' aggregation ({@code -Dfootprint.aggregation=compact-deflate-live}, for instance). */
    private static final String AGGREGATION = System.getProperty("footprint.aggregation", "compact-deflate");

    private OccupantFootprintReport() {
    }

    public static void main(String[] args) throws Exception {
        List<Integer> sizes = new ArrayList<>();
        for (String a : args) {
            sizes.add(Integer.parseInt(a));
        }
        if (sizes.isEmpty()) {
            sizes = List.of(800, 5000);
        }
        System.out.println(VM.current().details());
        List<IrcCorpus.Line> lines = IrcCorpus.load(90);
        System.out.printf(Locale.ROOT, "%d messages of the IRC logs, %d topics, relaxed in %s%n%n", lines.size(), TOPICS.length,
                AGGREGATION);
        System.out.println("| occupants | service, all standard (bytes) | service, all relaxed (bytes) | per relaxed occupant (bytes) |");
        System.out.println("|---:|---:|---:|---:|");
        for (int n : sizes) {
            long standard = measure(n, lines, false);
            long relaxed = measure(n, lines, true);
            System.out.printf(Locale.ROOT, "| %,d | %,d | %,d | %,.0f |%n", n, standard, relaxed, (relaxed - standard) / (double) n);
        }
    }

    /** Everything the service holds after the replay, in bytes. */
    private static long measure(int occupants, List<IrcCorpus.Line> lines, boolean relaxed) throws DocumentException {
        ManualTime time = new ManualTime(Instant.parse("2026-11-24T12:00:00Z"));
        ServiceConfig config = ServiceConfig.defaults().withDomainAndSecret(SERVICE, "s");
        MucService service = new MucService(config, time, Runnable::run, stanza -> { }, time::schedule, RoomFeatures.ALL);
        service.processPacket(parse("<presence from='" + user(0) + "' to='" + ROOM + "/u0'><x xmlns='http://jabber.org/protocol/muc'/></presence>"));
        service.processPacket(parse("<iq from='" + user(0) + "' to='" + ROOM + "' type='set' id='cfg'><query xmlns='http://jabber.org/protocol/muc#owner'>"
                + "<x xmlns='jabber:x:data' type='submit'><field var='FORM_TYPE'><value>http://jabber.org/protocol/muc#roomconfig</value></field>"
                + "<field var='muc#roomconfig_presencebroadcast'><value>moderator</value></field></x></query></iq>"));
        for (int i = 1; i < occupants; i++) {
            service.processPacket(parse("<presence from='" + user(i) + "' to='" + ROOM + "/u" + i + "'><x xmlns='http://jabber.org/protocol/muc'/></presence>"));
        }
        if (relaxed) {
            for (int i = 0; i < occupants; i++) {
                service.processPacket(parse("<iq from='" + user(i) + "' to='" + ROOM + "' type='set' id='r" + i + "'>"
                        + "<consistency-requirements xmlns='" + XmlNamespaces.RECONMUC + "'><filter><filter-entry element='topic' value='"
                        + TOPICS[i % TOPICS.length] + "' active='true'/></filter><time>30</time><volume>30</volume>"
                        + "<aggregation>" + AGGREGATION + "</aggregation></consistency-requirements></iq>"));
            }
        }
        SplittableRandom random = new SplittableRandom(1);
        for (IrcCorpus.Line line : lines) {
            time.advance(167);   // 6 messages a second, as the replay
            Message m = new Message();
            m.setType(Message.Type.groupchat);
            m.setFrom(user(random.nextInt(occupants)));
            m.setTo(ROOM);
            m.setBody(line.body());
            m.getElement().addElement("topic", XmlNamespaces.RECONMUC).setText(line.topic());
            service.processPacket(m);
        }
        System.gc();
        // A Deflater reaches the JVM's list of every cleanable object (jar files' directories
        // among them): what one of our own reaches is not the service's, and is taken out.
        java.util.zip.Deflater probe = new java.util.zip.Deflater();
        GraphLayout layout = GraphLayout.parseInstance(service).subtract(GraphLayout.parseInstance(probe));
        probe.end();
        if (Boolean.getBoolean("footprint.classes")) {
            System.out.println((relaxed ? "relaxed" : "standard") + ", " + occupants + " occupants:\n" + layout.toFootprint());
        }
        return layout.totalSize();
    }

    private static String user(int i) {
        return "user" + i + "@example.com/bot";
    }

    private static Packet parse(String xml) throws DocumentException {
        Element e = DocumentHelper.parseText(xml).getRootElement();
        return switch (e.getName()) {
            case "presence" -> new Presence(e, true);
            case "iq" -> new IQ(e, true);
            default -> new Message(e, true);
        };
    }

    /** A clock the report moves, running the rooms' timers (time bounds) in order as it goes. */
    private static final class ManualTime extends Clock {
        private record Timer(long due, long order, Runnable task) {
        }

        private final PriorityQueue<Timer> timers = new PriorityQueue<>(
                Comparator.comparingLong(Timer::due).thenComparingLong(Timer::order));
        private long millis;
        private long order;

        ManualTime(Instant start) {
            this.millis = start.toEpochMilli();
        }

        void schedule(long delayMillis, Runnable task) {
            timers.add(new Timer(millis + delayMillis, order++, task));
        }

        void advance(long by) {
            long target = millis + by;
            while (!timers.isEmpty() && timers.peek().due() <= target) {
                Timer t = timers.poll();
                millis = Math.max(millis, t.due());
                t.task().run();
            }
            millis = target;
        }

        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public long millis() {
            return millis;
        }

        @Override
        public Instant instant() {
            return Instant.ofEpochMilli(millis);
        }
    }
}
