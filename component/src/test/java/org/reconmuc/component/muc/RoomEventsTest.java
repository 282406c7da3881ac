package org.reconmuc.component.muc;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.dom4j.DocumentException;
import org.dom4j.DocumentHelper;
import org.dom4j.Element;
import org.junit.jupiter.api.Test;
import org.reconmuc.component.RoomFeatures;
import org.reconmuc.component.config.ServiceConfig;
import org.reconmuc.component.jid.RealJid;
import org.reconmuc.component.jid.RoomJid;
import org.reconmuc.component.muc.StanzaErrors.Condition;
import org.reconmuc.component.relaxed.RelaxedCounters;
import org.reconmuc.component.store.RoomJournal;
import org.reconmuc.component.store.Store;
import org.reconmuc.component.transport.Outbox;
import org.xmpp.packet.IQ;
import org.xmpp.packet.JID;
import org.xmpp.packet.Message;
import org.xmpp.packet.Packet;
import org.xmpp.packet.Presence;

/**
 * The events a room fires, as a feature that is no option sees them: a "one message each" rule
 * (as a slow mode would be) that sees who enters and leaves, counts the occupants, refuses a second message from the same
 * sender, hears what is broadcast and tells disco#info about itself. Romeo and Juliet talk; the
 * Nurse asks what the room does.
 */
class RoomEventsTest {
    private static final String ROOM = "lobby@chat.example";
    private static final String ROMEO = "romeo@montague.lit/phone";
    private static final String JULIET = "juliet@capulet.lit/balcony";
    private static final String NURSE = "nurse@capulet.lit/x";
    private static final String ONE_EACH = "urn:example:one-message-each";

    private static final ServiceConfig CONFIG = ServiceConfig.defaults().withDomainAndSecret("chat.example", "x");
    /** A service that does nothing on its own: the room alone is under test. */
    private static final ServiceHooks SERVICE = new ServiceHooks() {
        @Override
        public ServiceConfig config() {
            return CONFIG;
        }

        @Override
        public void beforeRouting(Predicate<Packet> handler) {
        }

        @Override
        public void toService(Predicate<Packet> handler) {
        }

        @Override
        public void onConnected(Runnable action) {
        }

        @Override
        public void onConnectionsChanged(Runnable action) {
        }

        @Override
        public void onShutdown(Runnable action) {
        }

        @Override
        public void send(Packet packet) {
        }

        @Override
        public void schedule(long delayMillis, Runnable task) {
        }

        @Override
        public void eachRoom(Predicate<RoomJid> which, Consumer<Room> task) {
        }

        @Override
        public void discoFeature(String var) {
        }

        @Override
        public void publish(Object kept) {
        }
    };

    private final List<String> heard = new ArrayList<>();
    private final List<Packet> sent = new ArrayList<>();

    /** The rule under test: attached after every room option, as a line in {@link RoomFeatures#ALL} would. */
    private final RoomFeature oneMessageEach = events -> {
        Set<String> spoke = new HashSet<>();
        events.on(RoomEvent.ENTERED, entered -> heard.add("entered " + entered.occupant().nick()));
        events.on(RoomEvent.LEAVING, leaving -> heard.add("leaving " + leaving.occupant().nick()));
        events.on(RoomEvent.OCCUPANT_COUNT, count -> heard.add("occupants " + count.before() + " -> " + count.after()));
        events.on(RoomEvent.SPEAKING, speaking -> {
            if (!spoke.add(speaking.sender().nick())) {
                speaking.refuse(Condition.POLICY_VIOLATION, "wait", "One message each in this room");
            }
        });
        events.on(RoomEvent.BROADCAST, b -> heard.add("broadcast " + b.message().broadcast().getBody()));
        events.on(RoomEvent.DISCO_INFO, info -> info.query().addElement("feature").addAttribute("var", ONE_EACH));
    };

    private final Room room = new Room(new RoomJid(new JID(ROOM)), new RoomContext() {
        private final RoomEvents events = RoomEvents.attach(Stream.of(RoomOptions.ALL, RoomFeatures.ALL, List.of(oneMessageEach))
                .flatMap(List::stream).toList(), SERVICE);
        private final Outbox outbox = stanza -> sent.add(stanza.toPacket());
        private final RoomJournal journal = RoomJournal.memoryOnly(outbox);

        @Override
        public ServiceConfig config() {
            return CONFIG;
        }

        @Override
        public Clock clock() {
            return Clock.fixed(Instant.parse("2026-01-01T10:00:00Z"), ZoneOffset.UTC);
        }

        @Override
        public RoomJournal journal() {
            return journal;
        }

        @Override
        public Store store() {
            return Store.NONE;
        }

        @Override
        public void schedule(long delayMillis, Runnable task) {
        }

        @Override
        public void discard(Room r) {
        }

        @Override
        public RelaxedCounters counters() {
            return new RelaxedCounters();
        }

        @Override
        public String admitCreation(Room r, RealJid creator) {
            return null;
        }

        @Override
        public RoomEvents events() {
            return events;
        }
    });

    private void send(String xml) {
        Element e;
        try {
            e = DocumentHelper.parseText(xml).getRootElement();
        } catch (DocumentException ex) {
            throw new AssertionError(ex);
        }
        room.handle(switch (e.getName()) {
            case "presence" -> new Presence(e);
            case "message" -> new Message(e);
            default -> new IQ(e);
        });
    }

    private List<Packet> receivedBy(String jid) {
        return sent.stream().filter(p -> jid.equals(p.getTo().toString())).toList();
    }

    private List<String> bodiesReceivedBy(String jid) {
        return receivedBy(jid).stream().filter(p -> p instanceof Message m && m.getBody() != null)
                .map(p -> ((Message) p).getBody()).toList();
    }

    private void say(String user, String body) {
        send("<message from='" + user + "' to='" + ROOM + "' type='groupchat'><body>" + body + "</body></message>");
    }

    @Test
    void julietSaysOneThingAndIsToldToWaitWithTheNextWhileRomeoHearsOnlyTheFirst() {
        send("<presence from='" + ROMEO + "' to='" + ROOM + "/Romeo'/>");
        send("<presence from='" + JULIET + "' to='" + ROOM + "/Juliet'/>");

        say(JULIET, "Good morrow");
        say(JULIET, "And again");

        assertThat(bodiesReceivedBy(ROMEO)).containsExactly("Good morrow");
        Packet refusal = receivedBy(JULIET).get(receivedBy(JULIET).size() - 1);
        assertThat(MucBench.errorCondition(refusal)).isEqualTo("policy-violation");
        assertThat(refusal.getElement().element("error").attributeValue("type")).isEqualTo("wait");
        assertThat(MucBench.errorText(refusal)).isEqualTo("One message each in this room");

        send("<presence from='" + ROMEO + "' to='" + ROOM + "/Romeo' type='unavailable'/>");

        assertThat(heard).containsExactly("entered Romeo", "occupants 0 -> 1", "entered Juliet", "occupants 1 -> 2",
                "broadcast Good morrow", "leaving Romeo", "occupants 2 -> 1");
    }

    @Test
    void theNurseSeesTheRuleInTheRoomsDiscoInfo() {
        send("<presence from='" + ROMEO + "' to='" + ROOM + "/Romeo'/>");
        send("<iq from='" + NURSE + "' to='" + ROOM + "' type='get' id='i'><query xmlns='" + Namespaces.DISCO_INFO + "'/></iq>");

        Packet info = receivedBy(NURSE).get(0);
        List<String> features = info.getElement().element("query").elements("feature").stream().map(f -> f.attributeValue("var")).toList();
        assertThat(features).contains(ONE_EACH, Namespaces.MUC);
    }

    // ---- the events themselves, without a room ----

    private RoomFeature doorman(String name, boolean refuses) {
        return events -> events.on(RoomEvent.ENTERING, entering -> {
            heard.add(name);
            if (refuses) {
                entering.refuse(Condition.NOT_ALLOWED, name + " says no");
            }
        });
    }

    private RoomEvent.Entering romeoEnters(RoomEvents events) {
        return events.fire(null, RoomEvent.ENTERING,
                new RoomEvent.Entering(null, new RealJid(new JID(ROMEO)), new Presence(), Affiliation.NONE, true));
    }

    @Test
    void everyFeatureHearsRomeoEnterInTheOrderTheyWereAttached() {
        RoomEvents events = RoomEvents.attach(List.of(doorman("guest list", false), doorman("doorman", false), doorman("greeter", false)), SERVICE);

        assertThat(romeoEnters(events).refused()).isFalse();
        assertThat(heard).containsExactly("guest list", "doorman", "greeter");
    }

    @Test
    void theFirstFeatureThatRefusesRomeoIsTheLastToHearOfHim() {
        RoomEvents events = RoomEvents.attach(List.of(doorman("guest list", false), doorman("doorman", true), doorman("greeter", true)), SERVICE);

        assertThat(romeoEnters(events).refused()).isTrue();
        assertThat(heard).containsExactly("guest list", "doorman");
    }

    @Test
    void aQuestionNoFeatureAnswersKeepsTheRoomsOwnAnswer() {
        RoomEvents events = RoomEvents.attach(List.of(doorman("doorman", true)), SERVICE);

        assertThat(events.fire(null, RoomEvent.ARCHIVING, new RoomEvent.Question(null, true)).answer()).isTrue();
        assertThat(events.fire(null, RoomEvent.PERSISTENT, new RoomEvent.Question(null, false)).answer()).isFalse();
        assertThat(heard).isEmpty();
    }
}
