package org.reconmuc.component.muc.messages;

import static org.assertj.core.api.Assertions.assertThat;
import static org.reconmuc.component.muc.MucBench.ROOM;
import static org.reconmuc.component.muc.MucBench.errorCondition;

import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;
import org.dom4j.Element;
import org.dom4j.QName;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.reconmuc.component.muc.DurableRoomTest;
import org.reconmuc.component.muc.MucBench;
import org.reconmuc.component.muc.Namespaces;
import org.xmpp.packet.IQ;
import org.xmpp.packet.Message;
import org.xmpp.packet.Packet;

/**
 * XEP-0313 on a room: Romeo queries the archive of a room where Juliet and he talked, by time,
 * by sender, page by page; what he may see and what he is refused. (The same queries on a
 * persistent room answered from the store: {@link DurableRoomTest}.)
 */
public class ArchiveTest {
    public static final String ROMEO = "romeo@montague.lit/phone";
    public static final String JULIET = "juliet@capulet.lit/balcony";
    public static final String MAM = "urn:xmpp:mam:2";

    private MucBench muc;

    @BeforeEach
    void julietAndRomeoTalkAMinuteApart() {
        muc = new MucBench();
        muc.join(JULIET, ROOM, "Juliet");
        muc.join(ROMEO, ROOM, "Romeo");
        talk(muc);
    }

    /** Six lines, one a minute from 10:00: Juliet's are j1..j3, Romeo's r1..r3, alternating. */
    public static void talk(MucBench muc) {
        for (int i = 1; i <= 3; i++) {
            muc.say(JULIET, ROOM, "j" + i);
            muc.clock.advance(Duration.ofMinutes(1));
            muc.say(ROMEO, ROOM, "r" + i);
            muc.clock.advance(Duration.ofMinutes(1));
        }
        muc.commit();
        muc.clear();
    }

    public static String query(String id, String form, String rsm) {
        return "<iq type='set' id='" + id + "' from='" + ROMEO + "' to='" + ROOM + "'><query xmlns='" + MAM
                + "' queryid='q-" + id + "'>"
                + (form == null ? "" : "<x xmlns='jabber:x:data' type='submit'><field var='FORM_TYPE' type='hidden'>"
                + "<value>" + MAM + "</value></field>" + form + "</x>")
                + (rsm == null ? "" : "<set xmlns='http://jabber.org/protocol/rsm'>" + rsm + "</set>") + "</query></iq>";
    }

    public static String field(String var, String value) {
        return "<field var='" + var + "'><value>" + value + "</value></field>";
    }

    /** The bodies of the results {@code user} received for query {@code id}, and its fin. */
    public record Answer(List<String> bodies, List<Message> results, Element fin, Packet reply) {
        String first() {
            return fin.element("set").elementText("first");
        }

        public String last() {
            return fin.element("set").elementText("last");
        }

        int count() {
            return Integer.parseInt(fin.element("set").elementText("count"));
        }

        boolean complete() {
            return "true".equals(fin.attributeValue("complete"));
        }
    }

    public static Answer answer(MucBench muc, String user, String id) {
        Packet reply = muc.replyTo(user, id);
        List<Message> results = muc.receivedBy(user).stream()
                .filter(p -> p instanceof Message m && m.getChildElement("result", MAM) != null)
                .map(p -> (Message) p).collect(Collectors.toList());
        List<String> bodies = results.stream().map(ArchiveTest::forwardedMessage).map(m -> m.elementText("body"))
                .collect(Collectors.toList());
        Element fin = reply.getElement().element(QName.get("fin", MAM));
        return new Answer(bodies, results, fin, reply);
    }

    public static Element forwardedMessage(Message result) {
        return result.getChildElement("result", MAM).element("forwarded").element("message");
    }

    @Test
    void romeoReadsTheWholeArchiveInOrderWithDelaysAndTheRoomsIds() {
        muc.send(query("a1", null, null));
        Answer a = answer(muc, ROMEO, "a1");
        assertThat(a.bodies()).containsExactly("j1", "r1", "j2", "r2", "j3", "r3");
        assertThat(a.complete()).isTrue();
        assertThat(a.count()).isEqualTo(6);
        Message first = a.results().get(0);
        assertThat(first.getFrom().toString()).isEqualTo(ROOM);
        Element result = first.getChildElement("result", MAM);
        assertThat(result.attributeValue("queryid")).isEqualTo("q-a1");
        Element forwarded = result.element("forwarded");
        assertThat(forwarded.element("delay").attributeValue("stamp")).isEqualTo("2026-01-01T10:00:00Z");
        Element message = forwarded.element("message");
        assertThat(message.attributeValue("from")).isEqualTo(ROOM + "/Juliet");
        assertThat(message.attributeValue("to")).as("XEP-0313 §6.1.2: no 'to'").isNull();
        assertThat(message.element("stanza-id").attributeValue("id")).isEqualTo(result.attributeValue("id"));
        assertThat(a.first()).isEqualTo(result.attributeValue("id"));
        assertThat(message.element(QName.get("x", Namespaces.MUC_USER)))
                .as("a semi-anonymous room shows no real JIDs").isNull();
    }

    @Test
    void romeoAsksForTheFieldsAndTheRoomAdvertisesTheArchive() {
        muc.send("<iq type='get' id='f1' from='" + ROMEO + "' to='" + ROOM + "'><query xmlns='" + MAM + "'/></iq>");
        IQ form = (IQ) muc.replyTo(ROMEO, "f1");
        List<String> vars = form.getChildElement().element("x").elements("field").stream()
                .map(f -> f.attributeValue("var")).collect(Collectors.toList());
        assertThat(vars).containsExactly("FORM_TYPE", "with", "start", "end");
        muc.send("<iq type='get' id='d1' from='" + ROMEO + "' to='" + ROOM + "'><query xmlns='"
                + Namespaces.DISCO_INFO + "'/></iq>");
        IQ info = (IQ) muc.replyTo(ROMEO, "d1");
        assertThat(info.getChildElement().elements("feature").stream().map(f -> f.attributeValue("var")))
                .contains(MAM);
    }

    @Test
    void romeoQueriesByTimeAndByOccupant() {
        muc.send(query("t1", field("start", "2026-01-01T10:01:00Z") + field("end", "2026-01-01T10:03:00Z"), null));
        assertThat(answer(muc, ROMEO, "t1").bodies()).containsExactly("r1", "j2", "r2");
        muc.send(query("t2", field("start", "2026-01-01T11:02:00+01:00"), null));
        assertThat(answer(muc, ROMEO, "t2").bodies()).containsExactly("j2", "r2", "j3", "r3");
        muc.send(query("w1", field("with", ROOM + "/Juliet"), null));
        Answer juliet = answer(muc, ROMEO, "w1");
        assertThat(juliet.bodies()).containsExactly("j1", "j2", "j3");
        assertThat(juliet.count()).isEqualTo(3);
    }

    @Test
    void romeoPagesForwardThenAsksForTheLastPageAndPagesBack() {
        muc.send(query("p1", null, "<max>2</max>"));
        Answer page1 = answer(muc, ROMEO, "p1");
        assertThat(page1.bodies()).containsExactly("j1", "r1");
        assertThat(page1.complete()).isFalse();
        assertThat(page1.count()).isEqualTo(6);
        muc.send(query("p2", null, "<max>2</max><after>" + page1.last() + "</after>"));
        assertThat(answer(muc, ROMEO, "p2").bodies()).containsExactly("j2", "r2");
        muc.send(query("p3", null, "<max>4</max><after>" + page1.last() + "</after>"));
        Answer rest = answer(muc, ROMEO, "p3");
        assertThat(rest.bodies()).containsExactly("j2", "r2", "j3", "r3");
        assertThat(rest.complete()).isTrue();

        muc.send(query("l1", null, "<max>2</max><before/>"));
        Answer last = answer(muc, ROMEO, "l1");
        assertThat(last.bodies()).containsExactly("j3", "r3");
        assertThat(last.complete()).isFalse();
        muc.send(query("l2", null, "<max>3</max><before>" + last.first() + "</before>"));
        Answer earlier = answer(muc, ROMEO, "l2");
        assertThat(earlier.bodies()).containsExactly("r1", "j2", "r2");
        assertThat(earlier.complete()).isFalse();
        muc.send(query("l3", null, "<max>3</max><before>" + earlier.first() + "</before>"));
        Answer oldest = answer(muc, ROMEO, "l3");
        assertThat(oldest.bodies()).containsExactly("j1");
        assertThat(oldest.complete()).as("the beginning of the archive").isTrue();
    }

    @Test
    void maxZeroOnlyCounts() {
        muc.send(query("c1", field("with", ROOM + "/Romeo"), "<max>0</max>"));
        Answer a = answer(muc, ROMEO, "c1");
        assertThat(a.bodies()).isEmpty();
        assertThat(a.count()).isEqualTo(3);
        assertThat(a.fin().element("set").element("first")).isNull();
    }

    @Test
    void badQueriesGetTheRightErrors() {
        muc.send(query("e1", null, "<after>no-such-id</after>"));
        assertThat(errorCondition(muc.replyTo(ROMEO, "e1"))).isEqualTo("item-not-found");
        muc.send(query("e2", null, "<before>no-such-id</before>"));
        assertThat(errorCondition(muc.replyTo(ROMEO, "e2"))).isEqualTo("item-not-found");
        muc.send(query("e3", field("start", "yesterday"), null));
        Packet badTime = muc.replyTo(ROMEO, "e3");
        assertThat(errorCondition(badTime)).isEqualTo("bad-request");
        assertThat(MucBench.errorText(badTime)).contains("start");
        muc.send(query("e4", field("with", "@@"), null));
        assertThat(errorCondition(muc.replyTo(ROMEO, "e4"))).isEqualTo("bad-request");
        muc.send(query("e5", field("{urn:example}full-text", "love"), null));
        assertThat(errorCondition(muc.replyTo(ROMEO, "e5"))).isEqualTo("feature-not-implemented");
        muc.send(query("e6", null, "<max>-1</max>"));
        assertThat(errorCondition(muc.replyTo(ROMEO, "e6"))).isEqualTo("bad-request");
        muc.send(query("e7", null, "<index>2</index>"));
        assertThat(errorCondition(muc.replyTo(ROMEO, "e7"))).isEqualTo("feature-not-implemented");
        muc.send(query("e8", field("start", "2026-01-01T11:00:00Z") + field("end", "2026-01-01T10:00:00Z"), null));
        assertThat(errorCondition(muc.replyTo(ROMEO, "e8"))).isEqualTo("bad-request");
    }

    @Test
    void realJidsOnlyWhereTheReaderCouldSeeThem() {
        // Semi-anonymous: Romeo (a participant) may not search by real JID.
        muc.send(query("s1", field("with", "juliet@capulet.lit"), null));
        assertThat(errorCondition(muc.replyTo(ROMEO, "s1"))).isEqualTo("forbidden");
        // Juliet, the owner and a moderator, may, and sees real JIDs.
        muc.send("<iq type='set' id='s2' from='" + JULIET + "' to='" + ROOM + "'><query xmlns='" + MAM + "'>"
                + "<x xmlns='jabber:x:data' type='submit'>" + field("with", "romeo@montague.lit") + "</x></query></iq>");
        Answer a = answer(muc, JULIET, "s2");
        assertThat(a.bodies()).containsExactly("r1", "r2", "r3");
        assertThat(forwardedMessage(a.results().get(0)).element(QName.get("x", Namespaces.MUC_USER)).element("item")
                .attributeValue("jid")).isEqualTo("romeo@montague.lit");
    }

    @Test
    void aNonAnonymousRoomShowsEveryoneTheRealJids() {
        muc.send("<iq type='set' id='c' from='" + JULIET + "' to='" + ROOM + "'><query xmlns='"
                + Namespaces.MUC_OWNER + "'><x xmlns='jabber:x:data' type='submit'>"
                + field("muc#roomconfig_whois", "anyone") + "</x></query></iq>");
        muc.clear();
        muc.send(query("n1", field("with", "juliet@capulet.lit"), null));
        Answer a = answer(muc, ROMEO, "n1");
        assertThat(a.bodies()).containsExactly("j1", "j2", "j3");
        assertThat(forwardedMessage(a.results().get(0)).element(QName.get("x", Namespaces.MUC_USER)).element("item")
                .attributeValue("jid")).isEqualTo("juliet@capulet.lit");
    }

    @Test
    void outsidersOfAMembersOnlyRoomAndOutcastsAreRefused() {
        muc.send("<iq type='set' id='b' from='" + JULIET + "' to='" + ROOM + "'><query xmlns='" + Namespaces.MUC_ADMIN
                + "'><item affiliation='outcast' jid='tybalt@capulet.lit'/></query></iq>");
        muc.send("<iq type='set' id='x1' from='tybalt@capulet.lit/sword' to='" + ROOM + "'><query xmlns='" + MAM
                + "'/></iq>");
        assertThat(errorCondition(muc.replyTo("tybalt@capulet.lit/sword", "x1"))).isEqualTo("forbidden");
        // An open room's archive is open to anyone else, joined or not.
        muc.send("<iq type='set' id='x2' from='benvolio@montague.lit/a' to='" + ROOM + "'><query xmlns='" + MAM
                + "'/></iq>");
        assertThat(answer(muc, "benvolio@montague.lit/a", "x2").bodies()).hasSize(6);
        muc.send("<iq type='set' id='m' from='" + JULIET + "' to='" + ROOM + "'><query xmlns='" + Namespaces.MUC_OWNER
                + "'><x xmlns='jabber:x:data' type='submit'>" + field("muc#roomconfig_membersonly", "1") + "</x></query></iq>");
        muc.send("<iq type='set' id='x3' from='benvolio@montague.lit/a' to='" + ROOM + "'><query xmlns='" + MAM
                + "'/></iq>");
        Packet refused = muc.replyTo("benvolio@montague.lit/a", "x3");
        assertThat(errorCondition(refused)).isEqualTo("forbidden");
        assertThat(MucBench.errorText(refused)).contains("members-only");
    }
}
