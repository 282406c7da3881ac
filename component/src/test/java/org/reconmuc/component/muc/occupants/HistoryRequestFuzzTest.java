package org.reconmuc.component.muc.occupants;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import java.time.Duration;
import java.util.List;
import org.dom4j.DocumentHelper;
import org.dom4j.Element;
import org.dom4j.QName;
import org.reconmuc.component.muc.HistoryRequest;
import org.reconmuc.component.muc.MucBench;
import org.reconmuc.component.muc.Namespaces;
import org.reconmuc.component.testing.HostileXml;
import org.xmpp.packet.Message;
import org.xmpp.packet.Packet;
import org.xmpp.packet.Presence;

/**
 * Coverage-guided fuzzing (Jazzer) of a join's XEP-0045 {@code <history/>} (§7.2.15): whatever
 * attributes come, {@link HistoryRequest#parse} returns counts that are none or not negative and
 * throws nothing (no value refuses a join, as in Prosody); and through a room
 * ({@link #joinEntersWithNoMoreThanAsked}), a join with any {@code <history/>} enters with no more
 * history than it asked for, never with an error. {@code mvn test} replays the inputs under
 * {@code src/test/resources/.../HistoryRequestFuzzTestInputs}; {@code JAZZER_FUZZ=1} fuzzes.
 */
class HistoryRequestFuzzTest {
    private static final String ROMEO = "romeo@montague.lit/phone";
    private static final String JULIET = "juliet@capulet.lit/balcony";
    /** One room for every input: Romeo said five lines a minute apart, and stays; Juliet joins and leaves. */
    private static final MucBench BENCH = new MucBench();

    static {
        BENCH.join(ROMEO, MucBench.ROOM, "Romeo");
        for (int i = 1; i <= 5; i++) {
            BENCH.say(ROMEO, MucBench.ROOM, "line " + i);
            BENCH.clock.advance(Duration.ofMinutes(1));
        }
        BENCH.clear();
    }

    @FuzzTest(maxDuration = "60s")
    void parsesAnyValue(FuzzedDataProvider data) {
        Element history = history(new HostileXml(data));
        // As Prosody reads it, no value refuses: whatever comes parses, and counts are never negative.
        HistoryRequest parsed = HistoryRequest.parse(HostileXml.asReceived(history));
        for (Integer limit : new Integer[] {parsed.maxChars(), parsed.maxStanzas()}) {
            if (limit != null) {
                assertThat(limit).isNotNegative();
            }
        }
    }

    @FuzzTest(maxDuration = "60s")
    void joinEntersWithNoMoreThanAsked(FuzzedDataProvider data) {
        // An hour between joins: Juliet is never over the room's rate of presences.
        BENCH.clock.advance(Duration.ofHours(1));
        HostileXml x = new HostileXml(data);
        Element history = history(x);
        // The room reads the first <history/> (any namespace) in the join's <x/>; other elements ask for nothing.
        HistoryRequest asked = history.getName().equals("history") ? HistoryRequest.parse(HostileXml.asReceived(history)) : HistoryRequest.ALL;
        Element presence = DocumentHelper.createElement("presence");
        presence.addAttribute("from", JULIET);
        presence.addAttribute("to", MucBench.ROOM + "/Juliet");
        presence.addElement(QName.get("x", Namespaces.MUC)).add(history);
        BENCH.service.processPacket(new Presence(HostileXml.asReceived(presence)));

        List<Packet> received = BENCH.receivedBy(JULIET);
        BENCH.clear();
        assertThat(received).as("no history value refuses a join").noneMatch(p -> p.getError() != null);
        BENCH.send("<presence type='unavailable' from='" + JULIET + "' to='" + MucBench.ROOM + "/Juliet'/>");
        BENCH.clear();
        long lines = received.stream().filter(p -> p instanceof Message m && m.getBody() != null).count();
        assertThat(lines).isLessThanOrEqualTo(asked.maxStanzas() == null ? 5 : Math.min(5, asked.maxStanzas()));
    }

    private static Element history(HostileXml x) {
        Element history = DocumentHelper.createElement(QName.get(x.name("history"), x.name(Namespaces.MUC, "")));
        for (int i = x.count(6); i > 0; i--) {
            history.addAttribute(x.name("maxchars", "maxstanzas", "seconds", "since"), x.value());
        }
        x.junk(history);
        return history;
    }
}
