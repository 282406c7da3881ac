package org.reconmuc.component.muc.options;

import static org.assertj.core.api.Assertions.assertThat;
import static org.reconmuc.component.muc.messages.ArchiveTest.JULIET;
import static org.reconmuc.component.muc.messages.ArchiveTest.MAM;
import static org.reconmuc.component.muc.messages.ArchiveTest.ROMEO;
import static org.reconmuc.component.muc.messages.ArchiveTest.answer;
import static org.reconmuc.component.muc.messages.ArchiveTest.field;
import static org.reconmuc.component.muc.messages.ArchiveTest.query;
import static org.reconmuc.component.muc.MucBench.ROOM;
import static org.reconmuc.component.muc.MucBench.errorCondition;
import static org.reconmuc.component.muc.MucBench.statusCodes;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;
import org.dom4j.Element;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.reconmuc.component.config.ServiceConfig;
import org.reconmuc.component.muc.MucBench;
import org.reconmuc.component.muc.Namespaces;
import org.reconmuc.component.store.Store;
import org.reconmuc.component.config.StoreLocation;
import org.xmpp.packet.IQ;
import org.xmpp.packet.Message;
import org.xmpp.packet.Packet;
import org.xmpp.packet.Presence;

/**
 * XEP-0045 room logging ({@code muc#roomconfig_enablelogging}): a logged room says so on entry
 * (status 170), in disco (the MAM feature, the room info form) and when it changes (170/171); an
 * unlogged room archives nothing and answers no archive query, but keeps its discussion history.
 */
class LoggingTest {
    private static final String NURSE = "nurse@capulet.lit/x";

    @TempDir
    Path dir;

    private static void configure(MucBench muc, String fields) {
        muc.send("<iq type='set' id='cfg' from='" + JULIET + "' to='" + ROOM + "'><query xmlns='" + Namespaces.MUC_OWNER
                + "'><x xmlns='jabber:x:data' type='submit'>" + fields + "</x></query></iq>");
        muc.commit();
    }

    /** {@code user} enters as {@code nick}; what the room sends stays in the outbox (unlike {@link MucBench#join}). */
    private static void enter(MucBench muc, String user, String nick) {
        muc.send("<presence from='" + user + "' to='" + ROOM + "/" + nick + "'><x xmlns='http://jabber.org/protocol/muc'/></presence>");
    }

    private static Presence selfPresence(MucBench muc, String user) {
        return (Presence) muc.receivedBy(user).stream()
                .filter(p -> p instanceof Presence && statusCodes(p).contains("110")).findFirst().orElseThrow();
    }

    private static IQ discoInfo(MucBench muc, String user) {
        muc.send("<iq type='get' id='info' from='" + user + "' to='" + ROOM + "'><query xmlns='" + Namespaces.DISCO_INFO + "'/></iq>");
        return (IQ) muc.replyTo(user, "info");
    }

    private static List<String> features(IQ info) {
        return info.getChildElement().elements("feature").stream().map(f -> f.attributeValue("var")).collect(Collectors.toList());
    }

    private static String roomInfoField(IQ info, String var) {
        for (Element form : info.getChildElement().elements("x")) {
            for (Element f : form.elements("field")) {
                if (var.equals(f.attributeValue("var"))) {
                    return f.elementText("value");
                }
            }
        }
        return null;
    }

    private static List<String> bodies(List<Packet> packets) {
        return packets.stream().filter(p -> p instanceof Message m && m.getBody() != null)
                .map(p -> ((Message) p).getBody()).collect(Collectors.toList());
    }

    @Test
    void aNewRoomIsLoggedAndSaysSoOnEntryAndInDisco() {
        MucBench muc = new MucBench();
        muc.join(JULIET, ROOM, "Juliet");
        enter(muc, ROMEO, "Romeo");
        // Romeo receives his own presence with 170: the discussion is logged.
        assertThat(statusCodes(selfPresence(muc, ROMEO))).contains("110", "170");
        IQ info = discoInfo(muc, ROMEO);
        assertThat(features(info)).contains(MAM);
        assertThat(roomInfoField(info, "muc#roomconfig_enablelogging")).isEqualTo("1");
        // The owner's form shows the option, on.
        muc.send("<iq from='" + JULIET + "' to='" + ROOM + "' type='get' id='g'><query xmlns='" + Namespaces.MUC_OWNER + "'/></iq>");
        Element form = muc.replyTo(JULIET, "g").getElement().element("query").element("x");
        Element logging = form.elements("field").stream()
                .filter(f -> "muc#roomconfig_enablelogging".equals(f.attributeValue("var"))).findFirst().orElseThrow();
        assertThat(logging.attributeValue("type")).isEqualTo("boolean");
        assertThat(logging.elementText("value")).isEqualTo("1");
    }

    @Test
    void julietTurnsLoggingOffAndOnAndTheRoomSaysSo() {
        MucBench muc = new MucBench();
        muc.join(JULIET, ROOM, "Juliet");
        muc.join(ROMEO, ROOM, "Romeo");
        muc.clear();

        configure(muc, field("muc#roomconfig_enablelogging", "0"));
        // Romeo receives the configuration change: 104, and 171 — no longer logged.
        assertThat(statusCodes(muc.lastReceivedBy(ROMEO))).containsExactlyInAnyOrder("104", "171");
        // The nurse enters: no 170; disco shows no archive.
        enter(muc, NURSE, "Nurse");
        assertThat(statusCodes(selfPresence(muc, NURSE))).doesNotContain("170");
        IQ info = discoInfo(muc, NURSE);
        assertThat(features(info)).doesNotContain(MAM);
        assertThat(roomInfoField(info, "muc#roomconfig_enablelogging")).isEqualTo("0");
        muc.clear();

        configure(muc, field("muc#roomconfig_enablelogging", "1"));
        assertThat(statusCodes(muc.lastReceivedBy(NURSE))).containsExactlyInAnyOrder("104", "170");
    }

    @Test
    void anUnloggedRoomKeepsItsHistoryButAnswersNoArchiveQuery() {
        MucBench muc = new MucBench();
        muc.join(JULIET, ROOM, "Juliet");
        configure(muc, field("muc#roomconfig_enablelogging", "0"));
        muc.say(JULIET, ROOM, "not for the record");
        muc.clock.advance(Duration.ofMinutes(1));

        // Romeo enters and receives the discussion history: history is the room, not a log.
        enter(muc, ROMEO, "Romeo");
        assertThat(bodies(muc.receivedBy(ROMEO))).containsExactly("not for the record");
        muc.clear();
        // Romeo asks for the archive: there is none.
        muc.send(query("q", null, null));
        Packet reply = muc.replyTo(ROMEO, "q");
        assertThat(errorCondition(reply)).isEqualTo("feature-not-implemented");
        assertThat(reply.getElement().element("error").elementText("text")).contains("not logged");
        assertThat(muc.receivedBy(ROMEO)).noneMatch(p -> p instanceof Message m && m.getChildElement("result", MAM) != null);
    }

    @Test
    void aPersistentUnloggedRoomStoresNoMessagesAndALoggedOneDoes() throws Exception {
        ServiceConfig config = ServiceConfig.defaults().withDomainAndSecret(MucBench.SERVICE, "x");
        Store store = Store.openWithoutThreads(StoreLocation.parse("sqlite:" + dir.resolve("rooms.db")));
        MucBench muc = new MucBench(config, java.time.Instant.parse("2026-01-01T10:00:00Z"), store);
        muc.join(JULIET, ROOM, "Juliet");
        configure(muc, field("muc#roomconfig_persistentroom", "1") + field("muc#roomconfig_enablelogging", "0"));
        muc.say(JULIET, ROOM, "off the record");
        // Nothing waits for the store: an unlogged message is sent at once.
        assertThat(bodies(muc.receivedBy(JULIET))).contains("off the record");
        configure(muc, field("muc#roomconfig_enablelogging", "1"));
        muc.say(JULIET, ROOM, "on the record");
        muc.commit();
        store.close();

        // The service restarts: the archive has only what was said while the room was logged.
        store = Store.openWithoutThreads(StoreLocation.parse("sqlite:" + dir.resolve("rooms.db")));
        try {
            muc = new MucBench(config, java.time.Instant.parse("2026-01-01T10:05:00Z"), store);
            muc.send(query("q", null, null));
            assertThat(answer(muc, ROMEO, "q").bodies()).containsExactly("on the record");
        } finally {
            store.close();
        }
    }
}
