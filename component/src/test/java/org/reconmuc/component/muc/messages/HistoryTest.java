package org.reconmuc.component.muc.messages;

import static org.assertj.core.api.Assertions.assertThat;
import static org.reconmuc.component.muc.MucBench.ROOM;
import static org.reconmuc.component.muc.MucBench.errorCondition;

import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;
import org.dom4j.Element;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.reconmuc.codec.XmlNamespaces;
import org.reconmuc.component.config.ServiceConfig;
import org.reconmuc.component.muc.MucBench;
import org.xmpp.packet.Message;
import org.xmpp.packet.Packet;

class HistoryTest {
    private MucBench muc;

    @BeforeEach
    void fiveMessagesAMinuteApart() {
        ServiceConfig c = ServiceConfig.defaults().withDomainAndSecret(MucBench.SERVICE, "x");
        muc = new MucBench(c.toBuilder().historySize(4).build());
        muc.join("romeo@montague.lit/phone", ROOM, "Romeo");
        for (int i = 1; i <= 5; i++) {
            muc.say("romeo@montague.lit/phone", ROOM, "line " + i);
            muc.clock.advance(Duration.ofMinutes(1));
        }
        muc.clear();
    }

    private List<String> historyBodies(String historyElement) {
        muc.send("<presence from='juliet@capulet.lit/b' to='" + ROOM + "/Juliet'><x xmlns='http://jabber.org/protocol/muc'>"
                + historyElement + "</x></presence>");
        return muc.receivedBy("juliet@capulet.lit/b").stream()
                .filter(p -> p instanceof Message m && m.getBody() != null)
                .map(p -> ((Message) p).getBody()).collect(Collectors.toList());
    }

    @Test
    void theRoomKeepsTheConfiguredNumberOfMessagesWithDelayAndStanzaId() {
        muc.send("<presence from='juliet@capulet.lit/b' to='" + ROOM + "/Juliet'><x xmlns='http://jabber.org/protocol/muc'/></presence>");
        List<Packet> juliet = muc.receivedBy("juliet@capulet.lit/b");
        List<Message> history = juliet.stream().filter(p -> p instanceof Message m && m.getBody() != null)
                .map(p -> (Message) p).collect(Collectors.toList());
        assertThat(history).extracting(Message::getBody).containsExactly("line 2", "line 3", "line 4", "line 5");
        Element delay = history.get(0).getChildElement("delay", XmlNamespaces.DELAY);
        assertThat(delay.attributeValue("stamp")).isEqualTo("2026-01-01T10:01:00Z");
        assertThat(delay.attributeValue("from")).isEqualTo(ROOM);
        assertThat(history.get(0).getChildElement("stanza-id", XmlNamespaces.STANZA_ID)).isNotNull();
        assertThat(history.get(0).getFrom().toString()).isEqualTo(ROOM + "/Romeo");
        Message last = (Message) juliet.get(juliet.size() - 1);
        assertThat(last.getElement().element("subject")).as("the subject closes the history").isNotNull();
    }

    @Test
    void maxstanzasKeepsTheNewest() {
        assertThat(historyBodies("<history maxstanzas='2'/>")).containsExactly("line 4", "line 5");
    }

    @Test
    void maxstanzasZeroMeansNoHistory() {
        assertThat(historyBodies("<history maxstanzas='0'/>")).isEmpty();
    }

    @Test
    void secondsCountsBackFromNow() {
        // now is 10:05; messages at 10:01..10:04 are kept; 150 s back is 10:02:30
        assertThat(historyBodies("<history seconds='150'/>")).containsExactly("line 4", "line 5");
    }

    @Test
    void sinceIsExclusive() {
        assertThat(historyBodies("<history since='2026-01-01T10:03:00Z'/>")).containsExactly("line 5");
    }

    @Test
    void maxcharsCountsWholeStanzas() {
        assertThat(historyBodies("<history maxchars='0'/>")).isEmpty();
        assertThat(historyBodies("<history maxchars='100000'/>")).hasSize(4);
    }

    @Test
    void oddValuesAreReadAsProsodyReadsThemAndNeverRefuseTheJoin() {
        // Juliet asks for a negative number of stanzas: she is in the room, with no history (Prosody).
        muc.send("<presence from='juliet@capulet.lit/b' to='" + ROOM + "/Juliet'><x xmlns='http://jabber.org/protocol/muc'>"
                + "<history maxstanzas='-1'/></x></presence>");
        List<Packet> joined = muc.receivedBy("juliet@capulet.lit/b");
        assertThat(joined).noneMatch(p -> errorCondition(p) != null);
        assertThat(joined).anyMatch(p -> MucBench.statusCodes(p).contains("110"));
        assertThat(joined).noneMatch(p -> p instanceof Message m && m.getBody() != null);

        // history.lib.lua: tonumber() of each value, nothing if it is not a number; a negative count asks for none.
        assertThat(historyBodies("<history maxchars='-5'/>")).isEmpty();
        assertThat(historyBodies("<history seconds='-60'/>")).as("a window that starts in the future").isEmpty();
        assertThat(historyBodies("<history maxstanzas='two'/>")).hasSize(4);
        assertThat(historyBodies("<history maxstanzas='2.9'/>")).containsExactly("line 4", "line 5");
        assertThat(historyBodies("<history maxstanzas=' 0x2 '/>")).containsExactly("line 4", "line 5");
        assertThat(historyBodies("<history seconds='soon' since='yesterday' maxchars=''/>")).hasSize(4);
        // util.datetime.parse: an offset, or no zone at all (UTC), is a date-time too.
        assertThat(historyBodies("<history since='2026-01-01T11:03:00+01:00'/>")).containsExactly("line 5");
        assertThat(historyBodies("<history since='20260101T10:03:00'/>")).containsExactly("line 5");
        assertThat(historyBodies("<history seconds='150.5' maxstanzas='1e1'/>")).containsExactly("line 4", "line 5");
        assertThat(historyBodies("<history seconds='1e999' maxchars='1e999'/>")).hasSize(4);
    }
}
