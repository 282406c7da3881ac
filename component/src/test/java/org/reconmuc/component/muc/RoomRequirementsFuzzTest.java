package org.reconmuc.component.muc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.reconmuc.component.muc.MucBench.ROOM;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.dom4j.DocumentHelper;
import org.dom4j.Element;
import org.reconmuc.codec.XmlNamespaces;
import org.reconmuc.component.config.ServiceConfig;
import org.reconmuc.component.muc.messages.ArchiveTest;
import org.reconmuc.component.protocol.RequirementsRequest;
import org.reconmuc.component.protocol.RequirementsRequestFuzzTest;
import org.reconmuc.component.testing.HostileXml;
import org.xmpp.packet.IQ;
import org.xmpp.packet.Packet;

/**
 * Coverage-guided fuzzing (Jazzer) of consistency requirements through a room: Romeo, an occupant,
 * states whatever {@code <consistency-requirements/>} comes ({@link RequirementsRequestFuzzTest#request});
 * he gets one answer: his effective requirements, within the service's bounds (time, volume, number
 * of filters), or the error his request earned (bad-request, policy-violation) — never
 * internal-server-error, and nothing escapes the room while Juliet's messages are held and flushed.
 * {@code mvn test} replays the inputs under {@code src/test/resources/.../RoomRequirementsFuzzTestInputs};
 * {@code JAZZER_FUZZ=1} fuzzes.
 */
class RoomRequirementsFuzzTest {
    private static final String ROMEO = ArchiveTest.ROMEO;
    private static final String JULIET = ArchiveTest.JULIET;
    private static final ServiceConfig CONFIG = ServiceConfig.defaults().withDomainAndSecret(MucBench.SERVICE, "x");
    private static final Set<String> EARNED = Set.of("bad-request", "policy-violation");
    /** One room for every input: Romeo returns to standard after each. */
    private static final MucBench BENCH = new MucBench(CONFIG);

    static {
        BENCH.join(ROMEO, ROOM, "Romeo");
        BENCH.join(JULIET, ROOM, "Juliet");
    }

    @FuzzTest(maxDuration = "60s")
    void answersWithinBoundsOrRefuses(FuzzedDataProvider data) {
        // Ten seconds between requests: Romeo is never over the room's rate of requests.
        BENCH.advance(Duration.ofSeconds(10));
        BENCH.clear();
        HostileXml x = new HostileXml(data);
        Element iq = DocumentHelper.createElement("iq");
        iq.addAttribute("type", x.data().consumeInt(0, 3) == 0 ? "get" : "set");
        iq.addAttribute("id", "r");
        iq.addAttribute("from", ROMEO);
        iq.addAttribute("to", ROOM);
        Element request = RequirementsRequestFuzzTest.request(x);
        // Another element is another request: one the room does not serve (RFC 6120 §8.4).
        boolean requirements = request.getName().equals(RequirementsRequest.ELEMENT)
                && XmlNamespaces.isRequirementsNamespace(request.getNamespaceURI());
        iq.add(request);
        BENCH.service.processPacket(new IQ(HostileXml.asReceived(iq)));
        BENCH.say(JULIET, ROOM, "a line Romeo may get now or later");

        List<Packet> replies = BENCH.receivedBy(ROMEO).stream().filter(p -> p instanceof IQ && "r".equals(p.getID())).toList();
        BENCH.send("<iq type='set' id='back' from='" + ROMEO + "' to='" + ROOM + "'>"
                + "<consistency-requirements xmlns='urn:reconmuc:0'><standard/></consistency-requirements></iq>");
        assertThat(replies).as("one answer").hasSize(1);
        IQ reply = (IQ) replies.get(0);
        if (reply.getType() == IQ.Type.error) {
            assertThat(MucBench.errorCondition(reply)).isIn(requirements ? EARNED : Set.of("service-unavailable", "bad-request"));
            assertThat(MucBench.errorText(reply)).isNotBlank();
            return;
        }
        assertThat(reply.getType()).isEqualTo(IQ.Type.result);
        Element effective = reply.getChildElement();
        if (effective.element("standard") != null) {
            return;
        }
        assertThat(Long.parseLong(effective.elementText("time"))).isBetween(1L, (long) CONFIG.maxTimeSeconds());
        assertThat(Integer.parseInt(effective.elementText("volume"))).isBetween(1, CONFIG.historySize());
        List<Element> filters = effective.element("filter").elements("filter-entry");
        assertThat(filters.size()).isLessThanOrEqualTo(CONFIG.maxFilterEntries());
        for (Element f : filters) {
            assertThat(f.attributeValue("value")).isNotBlank().hasSizeLessThanOrEqualTo(1023);
        }
    }
}
