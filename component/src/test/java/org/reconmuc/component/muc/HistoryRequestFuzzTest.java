package org.reconmuc.component.muc;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import java.time.Duration;
import java.util.List;
import org.dom4j.DocumentHelper;
import org.dom4j.Element;
import org.dom4j.QName;
import org.reconmuc.component.testing.HostileXml;
import org.xmpp.packet.Message;
import org.xmpp.packet.Packet;
import org.xmpp.packet.Presence;

/**
 * Coverage-guided fuzzing (Jazzer) of a join's XEP-0045 {@code <history/>} (§7.2.15): whatever
 * attributes come, {@link HistoryRequest#parse} returns limits that are none or not negative, or
 * refuses with an IllegalArgumentException (which the join turns into bad-request); nothing else
 * escapes; and through a room ({@link #joinEntersOrIsRefused}), a join with any {@code <history/>}
 * enters with no more history than it asked for, or is refused with bad-request, never with
 * internal-server-error. {@code mvn test} replays the inputs under
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
    void parsesOrRefuses(FuzzedDataProvider data) {
        Element history = history(new HostileXml(data));
        HistoryRequest parsed;
        try {
            parsed = HistoryRequest.parse(HostileXml.asReceived(history));
        } catch (IllegalArgumentException refused) {
            assertThat(refused.getMessage()).isNotBlank();
            return;
        }
        for (Integer limit : new Integer[] {parsed.maxChars(), parsed.maxStanzas(), parsed.seconds()}) {
            if (limit != null) {
                assertThat(limit).isNotNegative();
            }
        }
    }

    @FuzzTest(maxDuration = "60s")
    void joinEntersOrIsRefused(FuzzedDataProvider data) {
        // An hour between joins: Juliet is never over the room's rate of presences.
        BENCH.clock.advance(Duration.ofHours(1));
        HostileXml x = new HostileXml(data);
        Element history = history(x);
        HistoryRequest asked;
        try {
            // The room reads the first <history/> (any namespace) in the join's <x/>; other elements ask for nothing.
            asked = history.getName().equals("history") ? HistoryRequest.parse(HostileXml.asReceived(history)) : HistoryRequest.ALL;
        } catch (IllegalArgumentException refused) {
            asked = null;
        }
        Element presence = DocumentHelper.createElement("presence");
        presence.addAttribute("from", JULIET);
        presence.addAttribute("to", MucBench.ROOM + "/Juliet");
        presence.addElement(QName.get("x", Namespaces.MUC)).add(history);
        BENCH.service.processPacket(new Presence(HostileXml.asReceived(presence)));

        List<Packet> received = BENCH.receivedBy(JULIET);
        BENCH.clear();
        Packet error = received.stream().filter(p -> p.getError() != null).findFirst().orElse(null);
        if (error != null) {
            assertThat(MucBench.errorCondition(error)).as("%s", received).isEqualTo("bad-request");
            return;
        }
        BENCH.send("<presence type='unavailable' from='" + JULIET + "' to='" + MucBench.ROOM + "/Juliet'/>");
        BENCH.clear();
        assertThat(asked).as("a join the room took has a history request that parses: %s", history.asXML()).isNotNull();
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
