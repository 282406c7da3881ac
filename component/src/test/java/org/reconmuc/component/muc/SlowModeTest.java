package org.reconmuc.component.muc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.reconmuc.component.muc.MucBench.ROOM;
import static org.reconmuc.component.muc.MucBench.errorCondition;
import static org.reconmuc.component.muc.MucBench.errorText;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.dom4j.Element;
import org.dom4j.QName;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.reconmuc.codec.XmlNamespaces;
import org.reconmuc.component.RoomFeatures;
import org.reconmuc.component.config.ServiceConfig;
import org.reconmuc.component.muc.slowmode.SlowModeOption;
import org.reconmuc.component.store.Store;
import org.reconmuc.component.config.StoreLocation;
import org.xmpp.packet.Message;
import org.xmpp.packet.Packet;

/**
 * XEP-0500 slow mode: Romeo, the owner, makes his room slow; Juliet must wait between her
 * messages, from any of her devices and under any nick, and is told how long; Romeo, a moderator,
 * is not held to it.
 */
class SlowModeTest {
    private static final String ROMEO = "romeo@montague.lit/phone";
    private static final String JULIET = "juliet@capulet.lit/balcony";
    private static final String JULIET_TABLET = "juliet@capulet.lit/tablet";
    private static final String NURSE = "nurse@capulet.lit/x";

    private MucBench muc = new MucBench();

    @BeforeEach
    void romeoOwnsTheRoomAndJulietAndTheNurseAreIn() {
        muc.join(ROMEO, ROOM, "Romeo");
        muc.join(JULIET, ROOM, "Juliet");
        muc.join(NURSE, ROOM, "Nurse");
    }

    private Packet configure(String value) {
        muc.send("<iq from='" + ROMEO + "' to='" + ROOM + "' type='set' id='c'><query xmlns='" + Namespaces.MUC_OWNER + "'>"
                + "<x xmlns='jabber:x:data' type='submit'><field var='muc#roomconfig_slow_mode_duration'><value>" + value
                + "</value></field></x></query></iq>");
        Packet reply = muc.replyTo(ROMEO, "c");
        muc.clear();
        return reply;
    }

    private static Map<String, String> roomInfo(MucBench muc) {
        muc.send("<iq from='" + NURSE + "' to='" + ROOM + "' type='get' id='i'><query xmlns='" + Namespaces.DISCO_INFO + "'/></iq>");
        Element form = muc.replyTo(NURSE, "i").getElement().element("query").element("x");
        return form.elements("field").stream().collect(Collectors.toMap(f -> f.attributeValue("var"), f -> String.valueOf(f.elementText("value"))));
    }

    private List<String> bodiesReceivedBy(String jid) {
        return muc.receivedBy(jid).stream().filter(p -> p instanceof Message m && m.getType() == Message.Type.groupchat)
                .map(p -> ((Message) p).getBody()).toList();
    }

    @Test
    void julietWaitsTwentySecondsBetweenHerMessagesAndIsToldHowLongIsLeft() {
        assertThat(roomInfo(muc)).containsEntry("muc#roominfo_slow_mode_duration", "0");
        muc.send("<iq from='" + ROMEO + "' to='" + ROOM + "' type='set' id='c'><query xmlns='" + Namespaces.MUC_OWNER + "'>"
                + "<x xmlns='jabber:x:data' type='submit'><field var='muc#roomconfig_slow_mode_duration'><value>20</value>"
                + "</field></x></query></iq>");
        assertThat(muc.replyTo(ROMEO, "c").getElement().attributeValue("type")).isEqualTo("result");
        assertThat(muc.receivedBy(JULIET)).as("XEP-0500 §5.2: status 104 tells of the change")
                .anyMatch(p -> MucBench.statusCodes(p).contains("104"));
        muc.clear();
        assertThat(roomInfo(muc)).containsEntry("muc#roominfo_slow_mode_duration", "20");

        muc.say(JULIET, ROOM, "Wherefore art thou Romeo?");
        assertThat(bodiesReceivedBy(NURSE)).containsExactly("Wherefore art thou Romeo?");

        muc.advance(Duration.ofSeconds(5));
        muc.say(JULIET, ROOM, "Deny thy father");
        Packet refusal = muc.lastReceivedBy(JULIET);
        assertThat(errorCondition(refusal)).isEqualTo("policy-violation");
        assertThat(refusal.getElement().element("error").attributeValue("type")).isEqualTo("wait");
        assertThat(errorText(refusal)).contains("slow mode").contains("wait 20 seconds between messages").contains("try again in 15 seconds");
        assertThat(bodiesReceivedBy(NURSE)).as("the refused message reaches nobody").isEmpty();

        // From her tablet, under another nick: the same Juliet, the same wait (XEP-0500 §8).
        muc.join(JULIET_TABLET, ROOM, "JulietToo");
        muc.advance(Duration.ofSeconds(14));
        muc.say(JULIET_TABLET, ROOM, "and refuse thy name");
        assertThat(errorText(muc.lastReceivedBy(JULIET_TABLET))).contains("try again in 1 second.");

        // Chat states carry no body: never held to the slow mode.
        muc.send("<message from='" + JULIET + "' to='" + ROOM + "' type='groupchat' id='cs'>"
                + "<composing xmlns='http://jabber.org/protocol/chatstates'/></message>");
        assertThat(muc.receivedBy(NURSE)).hasSize(1);

        // Romeo is a moderator: he may talk as fast as he likes.
        muc.say(ROMEO, ROOM, "I take thee at thy word");
        muc.say(ROMEO, ROOM, "Call me but love");
        assertThat(bodiesReceivedBy(NURSE)).containsExactly("I take thee at thy word", "Call me but love");

        muc.advance(Duration.ofSeconds(1));
        muc.say(JULIET, ROOM, "Deny thy father");
        assertThat(bodiesReceivedBy(NURSE)).containsExactly("Deny thy father");

        assertThat(configure("0").getElement().attributeValue("type")).isEqualTo("result");
        muc.say(JULIET, ROOM, "and refuse thy name");
        assertThat(bodiesReceivedBy(NURSE)).as("slow mode off").containsExactly("and refuse thy name");
    }

    @Test
    void theOwnersFormOffersTheFieldWithItsRangeAndRefusesWhatIsOutsideIt() {
        muc.send("<iq from='" + ROMEO + "' to='" + ROOM + "' type='get' id='g'><query xmlns='" + Namespaces.MUC_OWNER + "'/></iq>");
        Element field = muc.replyTo(ROMEO, "g").getElement().element("query").element("x").elements("field").stream()
                .filter(f -> "muc#roomconfig_slow_mode_duration".equals(f.attributeValue("var"))).findFirst().orElseThrow();
        assertThat(field.attributeValue("type")).isEqualTo("text-single");
        assertThat(field.elementText("value")).isEqualTo("0");
        Element validate = field.element(QName.get("validate", "http://jabber.org/protocol/xdata-validate"));
        assertThat(validate.attributeValue("datatype")).isEqualTo("xs:integer");
        assertThat(validate.element("range").attributeValue("min")).isEqualTo("0");

        for (String bad : List.of("-1", "86401", "soon")) {
            Packet error = configure(bad);
            assertThat(errorCondition(error)).as(bad).isEqualTo("not-acceptable");
            assertThat(errorText(error)).as(bad).contains("muc#roomconfig_slow_mode_duration");
        }
        assertThat(roomInfo(muc)).containsEntry("muc#roominfo_slow_mode_duration", "0");
    }

    @Test
    void aPersistentRoomKeepsItsSlowModeAcrossARestart(@TempDir Path dir) throws Exception {
        ServiceConfig config = ServiceConfig.defaults().withDomainAndSecret(MucBench.SERVICE, "x");
        Store store = Store.openWithoutThreads(StoreLocation.parse("sqlite:" + dir.resolve("rooms.db")));
        Instant start = Instant.parse("2026-01-01T10:00:00Z");
        muc = new MucBench(config, start, store);
        muc.join(ROMEO, ROOM, "Romeo");
        muc.join(NURSE, ROOM, "Nurse");
        muc.send("<iq from='" + ROMEO + "' to='" + ROOM + "' type='set' id='c'><query xmlns='" + Namespaces.MUC_OWNER + "'>"
                + "<x xmlns='jabber:x:data' type='submit'><field var='muc#roomconfig_persistentroom'><value>1</value></field>"
                + "<field var='muc#roomconfig_slow_mode_duration'><value>30</value></field></x></query></iq>");
        muc.commit();
        store.close();

        store = Store.openWithoutThreads(StoreLocation.parse("sqlite:" + dir.resolve("rooms.db")));
        muc = new MucBench(config, start.plus(Duration.ofMinutes(5)), store);
        try {
            muc.join(JULIET, ROOM, "Juliet");
            muc.join(NURSE, ROOM, "Nurse");
            assertThat(roomInfo(muc)).containsEntry("muc#roominfo_slow_mode_duration", "30");
            muc.say(JULIET, ROOM, "one");
            muc.say(JULIET, ROOM, "two");
            muc.commit();
            assertThat(errorText(muc.lastReceivedBy(JULIET))).contains("wait 30 seconds between messages");
        } finally {
            store.close();
        }
    }

    @Test
    void aTakingBackTheRoomRefusesDoesNotStartTheWait() {
        configure("20");
        muc.send("<message from='" + NURSE + "' to='" + ROOM + "' type='groupchat' id='nurse'><body>Madam!</body></message>");
        muc.clear();

        // Juliet tries to correct the Nurse's message: refused as not hers, before slow mode counts it.
        muc.send("<message from='" + JULIET + "' to='" + ROOM + "' type='groupchat' id='fix'><body>Anon!</body>"
                + "<replace xmlns='" + XmlNamespaces.CORRECT + "' id='nurse'/></message>");
        assertThat(errorCondition(muc.lastReceivedBy(JULIET))).isEqualTo("forbidden");
        muc.say(JULIET, ROOM, "Anon, good nurse!");
        assertThat(bodiesReceivedBy(NURSE)).containsExactly("Anon, good nurse!");
    }

    @Test
    void aServiceWithoutTheFeatureHasNoSlowModeAndTheRoomIsNoDifferentOtherwise() {
        MucBench without = new MucBench(ServiceConfig.defaults().withDomainAndSecret(MucBench.SERVICE, "x"),
                Instant.parse("2026-01-01T10:00:00Z"), Store.NONE, true,
                RoomFeatures.ALL.stream().filter(f -> f != SlowModeOption.SLOW_MODE).toList());
        muc = without;
        romeoOwnsTheRoomAndJulietAndTheNurseAreIn();
        assertThat(roomInfo(without)).doesNotContainKey("muc#roominfo_slow_mode_duration")
                .containsKey("muc#roominfo_moderation_delay");
        assertThat(errorCondition(configure("20"))).isNull();   // a field the form does not have is ignored
        muc.say(JULIET, ROOM, "Wherefore art thou Romeo?");
        muc.say(JULIET, ROOM, "Deny thy father");
        assertThat(bodiesReceivedBy(NURSE)).containsExactly("Wherefore art thou Romeo?", "Deny thy father");
    }
}
