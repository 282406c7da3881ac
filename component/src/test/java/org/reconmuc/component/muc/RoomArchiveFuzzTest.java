package org.reconmuc.component.muc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.reconmuc.component.muc.ArchiveTest.JULIET;
import static org.reconmuc.component.muc.ArchiveTest.MAM;
import static org.reconmuc.component.muc.ArchiveTest.ROMEO;
import static org.reconmuc.component.muc.MucBench.ROOM;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.dom4j.DocumentHelper;
import org.dom4j.Element;
import org.dom4j.QName;
import org.reconmuc.component.testing.HostileXml;
import org.xmpp.packet.IQ;
import org.xmpp.packet.Message;
import org.xmpp.packet.Packet;

/**
 * Coverage-guided fuzzing (Jazzer) of XEP-0313 queries on a room's archive, through the room:
 * Romeo, an occupant of a room where Juliet and he talked, sends whatever query comes (form
 * fields repeated, without var or unknown, dates past what java.time holds, JIDs that are not,
 * XEP-0059 paging with overflowing or negative max, unknown ids, both after and before). He
 * gets one answer: results within the page size and a fin, or an error the query earned
 * (bad-request, forbidden, feature-not-implemented, item-not-found) — never internal-server-error,
 * and nothing escapes the room. {@code mvn test} replays the inputs under
 * {@code src/test/resources/.../RoomArchiveFuzzTestInputs}; {@code JAZZER_FUZZ=1} fuzzes.
 */
class RoomArchiveFuzzTest {
    private static final Set<String> EARNED = Set.of("bad-request", "forbidden", "feature-not-implemented", "item-not-found");

    /** One room for every input (a query changes nothing in it): the fuzzer runs hundreds of times faster. */
    private static final MucBench BENCH = new MucBench();
    private static final List<String> IDS;

    static {
        BENCH.join(JULIET, ROOM, "Juliet");
        BENCH.join(ROMEO, ROOM, "Romeo");
        ArchiveTest.talk(BENCH);
        BENCH.send(ArchiveTest.query("ids", null, null));
        IDS = ArchiveTest.answer(BENCH, ROMEO, "ids").results().stream()
                .map(m -> m.getChildElement("result", MAM).attributeValue("id")).toList();
    }

    @FuzzTest(maxDuration = "60s")
    void answersOrRefuses(FuzzedDataProvider data) {
        // An hour between queries: Romeo is never over the room's rate of requests.
        BENCH.clock.advance(Duration.ofHours(1));
        BENCH.clear();
        HostileXml x = new HostileXml(data);
        Element iq = DocumentHelper.createElement("iq");
        iq.addAttribute("type", x.chance() ? "set" : "get");
        iq.addAttribute("id", "q");
        iq.addAttribute("from", ROMEO);
        iq.addAttribute("to", ROOM);
        iq.add(query(x, IDS));
        BENCH.service.processPacket(new IQ(HostileXml.asReceived(iq)));

        List<Packet> received = BENCH.receivedBy(ROMEO);
        List<Packet> replies = received.stream().filter(p -> p instanceof IQ && "q".equals(p.getID())).toList();
        assertThat(replies).as("one answer to the query: %s", received).hasSize(1);
        IQ reply = (IQ) replies.get(0);
        if (reply.getType() == IQ.Type.error) {
            assertThat(MucBench.errorCondition(reply)).isIn(EARNED);
            assertThat(MucBench.errorText(reply)).isNotBlank();
            return;
        }
        assertThat(reply.getType()).isEqualTo(IQ.Type.result);
        long results = received.stream().filter(p -> p instanceof Message m && m.getChildElement("result", MAM) != null)
                .count();
        assertThat(results).isLessThanOrEqualTo(RoomArchive.MAX_PAGE);
    }

    /** A {@code <query xmlns='urn:xmpp:mam:2'/>} as a hostile occupant might write it. */
    private static Element query(HostileXml x, List<String> ids) {
        Element query = DocumentHelper.createElement(QName.get("query", MAM));
        if (x.chance()) {
            query.addAttribute("queryid", x.value("q1"));
        }
        if (x.chance()) {
            Element form = query.addElement(QName.get("x", Namespaces.DATA_FORMS));
            form.addAttribute("type", x.name("submit"));
            for (int i = x.count(6); i > 0; i--) {
                Element f = form.addElement("field");
                if (x.data().consumeInt(0, 15) != 0) {
                    f.addAttribute("var", x.name("FORM_TYPE", "start", "end", "with"));
                }
                for (int v = x.count(2); v > 0; v--) {
                    f.addElement("value").setText(x.value(MAM, ROOM + "/Juliet", ROOM + "/", ROOM, JULIET,
                            "juliet@capulet.lit", "@capulet.lit", "a@b@c", "/x", ROOM + "/Juliet/x"));
                }
                x.junk(f);
            }
        }
        if (x.chance()) {
            Element set = query.addElement(QName.get("set", RoomArchive.RSM));
            for (int i = x.count(4); i > 0; i--) {
                Element e = set.addElement(x.name("max", "after", "before", "index"));
                if (x.data().consumeInt(0, 3) != 0) {
                    String[] known = ids.toArray(new String[0]);
                    e.setText(x.value(e.getName().equals("max") ? new String[] {"0", "2", "100", "101"} : known));
                }
            }
            x.junk(set);
        }
        x.junk(query);
        return query;
    }
}
