package org.reconmuc.component.muc.messages;

import static org.assertj.core.api.Assertions.assertThat;
import static org.reconmuc.component.muc.messages.ArchiveTest.JULIET;
import static org.reconmuc.component.muc.messages.ArchiveTest.MAM;
import static org.reconmuc.component.muc.messages.ArchiveTest.ROMEO;
import static org.reconmuc.component.muc.MucBench.ROOM;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import org.dom4j.DocumentHelper;
import org.dom4j.Element;
import org.dom4j.QName;
import org.reconmuc.component.config.ServiceConfig;
import org.reconmuc.component.muc.MucBench;
import org.reconmuc.component.muc.Namespaces;
import org.reconmuc.component.muc.PersistentOption;
import org.reconmuc.component.muc.RoomArchive;
import org.reconmuc.component.store.Store;
import org.reconmuc.component.config.StoreLocation;
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
public class RoomArchiveFuzzTest {
    private static final Set<String> EARNED = Set.of("bad-request", "forbidden", "feature-not-implemented", "item-not-found");

    /** A room that talked, and the archive ids of its six lines. */
    private record TalkedRoom(MucBench bench, List<String> ids) {
        static TalkedRoom of(MucBench bench, boolean persistent) {
            bench.join(JULIET, ROOM, "Juliet");
            bench.join(ROMEO, ROOM, "Romeo");
            if (persistent) {
                // Juliet, who made the room, keeps it: its archive is read from the store.
                bench.send("<iq type='set' id='cfg' from='" + JULIET + "' to='" + ROOM + "'><query xmlns='"
                        + Namespaces.MUC_OWNER + "'><x xmlns='jabber:x:data' type='submit'><field var='"
                        + PersistentOption.PERSISTENT.var + "'><value>1</value></field></x></query></iq>");
                bench.commit();
            }
            ArchiveTest.talk(bench);
            bench.send(ArchiveTest.query("ids", null, null));
            List<String> ids = ArchiveTest.answer(bench, ROMEO, "ids").results().stream()
                    .map(m -> m.getChildElement("result", MAM).attributeValue("id")).toList();
            assertThat(ids).hasSize(6);
            return new TalkedRoom(bench, ids);
        }
    }

    /**
     * One room for every input (a query changes nothing in it), so the fuzzer runs hundreds of
     * times faster: its archive in memory, or in a store (SQLite in a temporary file).
     */
    private static final TalkedRoom IN_MEMORY = TalkedRoom.of(new MucBench(), false);
    private static TalkedRoom inStore;

    @FuzzTest(maxDuration = "60s")
    void answersOrRefuses(FuzzedDataProvider data) {
        answersOrRefuses(IN_MEMORY, data);
    }

    @FuzzTest(maxDuration = "60s")
    void answersOrRefusesFromTheStore(FuzzedDataProvider data) throws Exception {
        if (inStore == null) {
            Path dir = Files.createTempDirectory("archive-fuzz");
            dir.toFile().deleteOnExit();
            dir.resolve("rooms.db").toFile().deleteOnExit();
            Store store = Store.openWithoutThreads(StoreLocation.parse("sqlite:" + dir.resolve("rooms.db")));
            inStore = TalkedRoom.of(new MucBench(ServiceConfig.defaults().withDomainAndSecret(MucBench.SERVICE, "x"),
                    Instant.parse("2026-01-01T10:00:00Z"), store), true);
        }
        answersOrRefuses(inStore, data);
    }

    private static void answersOrRefuses(TalkedRoom room, FuzzedDataProvider data) {
        MucBench bench = room.bench();
        // An hour between queries: Romeo is never over the room's rate of requests.
        bench.clock.advance(Duration.ofHours(1));
        bench.clear();
        HostileXml x = new HostileXml(data);
        Element iq = DocumentHelper.createElement("iq");
        iq.addAttribute("type", x.chance() ? "set" : "get");
        iq.addAttribute("id", "q");
        iq.addAttribute("from", ROMEO);
        iq.addAttribute("to", ROOM);
        iq.add(query(x, room.ids()));
        bench.service.processPacket(new IQ(HostileXml.asReceived(iq)));

        List<Packet> received = bench.receivedBy(ROMEO);
        List<Packet> replies = received.stream().filter(p -> p instanceof IQ && "q".equals(p.getID())).toList();
        assertThat(replies).as("one answer to the query: %s", received).hasSize(1);
        IQ reply = (IQ) replies.get(0);
        if (reply.getType() == IQ.Type.error) {
            assertThat(MucBench.errorCondition(reply)).as("%s", reply).isIn(EARNED);
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
