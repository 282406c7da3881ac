package org.reconmuc.component.muc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.reconmuc.component.muc.MucBench.ROOM;
import static org.reconmuc.component.muc.MucBench.errorCondition;
import static org.reconmuc.component.muc.MucBench.statusCodes;

import java.time.Duration;
import java.util.List;
import org.dom4j.Element;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.reconmuc.codec.XmlNamespaces;
import org.xmpp.packet.Message;
import org.xmpp.packet.Packet;

/** XEP-0045 details that real clients and compliance suites check, as conversations. */
class Xep0045DetailsTest {
    private static final String ROMEO = "romeo@montague.lit/phone";
    private static final String JULIET = "juliet@capulet.lit/balcony";
    private static final String NURSE = "nurse@capulet.lit/x";

    private final MucBench muc = new MucBench();

    @BeforeEach
    void romeoOwnsTheRoomJulietIsIn() {
        muc.join(ROMEO, ROOM, "Romeo");
        muc.join(JULIET, ROOM, "Juliet");
    }

    private void submit(String fields) {
        muc.send("<iq from='" + ROMEO + "' to='" + ROOM + "' type='set' id='c1'><query xmlns='http://jabber.org/protocol/muc#owner'>"
                + "<x xmlns='jabber:x:data' type='submit'>" + fields + "</x></query></iq>");
    }

    private static List<Packet> notices(List<Packet> received) {
        return received.stream().filter(p -> p instanceof Message m && m.getBody() == null && !statusCodes(p).isEmpty()).toList();
    }

    @Test
    void romeoAcceptsTheInstantRoomAndNobodyIsToldOfAChange() {
        // §10.1.2: the empty submit accepts the default configuration; §10.2.1: 104 is for changes.
        submit("");
        assertThat(muc.replyTo(ROMEO, "c1").getElement().attributeValue("type")).isEqualTo("result");
        assertThat(notices(muc.receivedBy(JULIET))).isEmpty();

        submit("<field var='FORM_TYPE'><value>http://jabber.org/protocol/muc#roomconfig</value></field>"
                + "<field var='muc#roomconfig_roomname'><value>Verona</value></field>");
        List<Packet> toJuliet = notices(muc.receivedBy(JULIET));
        assertThat(toJuliet).hasSize(1);
        assertThat(statusCodes(toJuliet.get(0))).containsExactly("104");

        // The same values again change nothing.
        submit("<field var='muc#roomconfig_roomname'><value>Verona</value></field>");
        assertThat(notices(muc.receivedBy(JULIET))).isEmpty();
    }

    @Test
    void theNurseListsThePublicRoomsOccupantsButNotAHiddenRooms() {
        // §6.5: occupant JIDs and nicks, never real JIDs.
        muc.send("<iq from='" + NURSE + "' to='" + ROOM + "' type='get' id='i1'><query xmlns='" + Namespaces.DISCO_ITEMS + "'/></iq>");
        List<Element> items = muc.replyTo(NURSE, "i1").getElement().element("query").elements("item");
        assertThat(items).extracting(i -> i.attributeValue("jid")).containsExactly(ROOM + "/Romeo", ROOM + "/Juliet");
        assertThat(items).extracting(i -> i.attributeValue("name")).containsExactly("Romeo", "Juliet");

        submit("<field var='muc#roomconfig_publicroom'><value>0</value></field>");
        muc.send("<iq from='" + NURSE + "' to='" + ROOM + "' type='get' id='i2'><query xmlns='" + Namespaces.DISCO_ITEMS + "'/></iq>");
        assertThat(muc.replyTo(NURSE, "i2").getElement().element("query").elements("item")).isEmpty();
        muc.send("<iq from='" + JULIET + "' to='" + ROOM + "' type='get' id='i3'><query xmlns='" + Namespaces.DISCO_ITEMS + "'/></iq>");
        assertThat(muc.replyTo(JULIET, "i3").getElement().element("query").elements("item")).hasSize(2);
    }

    @Test
    void theNurseListsACrowdedRoomAPageAtATime() {
        for (int i = 0; i < 248; i++) {
            // The citizens take nobody's presence (level none): a crowd of plain joins costs N².
            muc.send("<presence from='citizen" + i + "@verona.lit/street' to='" + ROOM + "/Citizen" + i + "'>"
                    + "<x xmlns='http://jabber.org/protocol/muc'/><presences xmlns='urn:reconmuc:0' level='none'/></presence>");
            muc.clear();
        }
        String page = "<iq from='" + NURSE + "' to='" + ROOM + "' type='get' id='%s'><query xmlns='" + Namespaces.DISCO_ITEMS
                + "'>%s</query></iq>";
        muc.send(String.format(page, "p1", ""));
        Element first = muc.replyTo(NURSE, "p1").getElement().element("query");
        assertThat(first.elements("item")).hasSize(100);
        assertThat(first.elements("item").get(0).attributeValue("name")).isEqualTo("Romeo");
        Element set = first.element("set");
        assertThat(set.elementText("count")).isEqualTo("250");
        assertThat(set.element("first").attributeValue("index")).isEqualTo("0");
        assertThat(set.elementText("last")).isEqualTo("Citizen97");

        String after = "<set xmlns='http://jabber.org/protocol/rsm'><max>200</max><after>%s</after></set>";
        muc.send(String.format(page, "p2", String.format(after, "Citizen97")));
        Element second = muc.replyTo(NURSE, "p2").getElement().element("query");
        assertThat(second.elements("item")).as("never more than a page").hasSize(100);
        assertThat(second.element("set").element("first").attributeValue("index")).isEqualTo("100");
        muc.send(String.format(page, "p3", String.format(after, "Citizen197")));
        assertThat(muc.replyTo(NURSE, "p3").getElement().element("query").elements("item")).hasSize(50)
                .last().extracting(i -> i.attributeValue("name")).isEqualTo("Citizen247");

        muc.send(String.format(page, "p4", String.format(after, "Tybalt")));
        assertThat(errorCondition(muc.replyTo(NURSE, "p4"))).isEqualTo("item-not-found");
    }

    @Test
    void theNurseMayNotQueryAnOccupantsDiscoWithoutJoining() {
        // §6.6: bad-request; a self-ping from outside stays not-acceptable (XEP-0410).
        muc.send("<iq from='" + NURSE + "' to='" + ROOM + "/Juliet' type='get' id='o1'><query xmlns='" + Namespaces.DISCO_INFO + "'/></iq>");
        Packet error = muc.replyTo(NURSE, "o1");
        assertThat(errorCondition(error)).isEqualTo("bad-request");
        assertThat(error.getError().getText()).contains("occupants");
        muc.send("<iq from='" + NURSE + "' to='" + ROOM + "/Nurse' type='get' id='p1'><ping xmlns='urn:xmpp:ping'/></iq>");
        assertThat(errorCondition(muc.replyTo(NURSE, "p1"))).isEqualTo("not-acceptable");
    }

    @Test
    void aNewcomerSeesWhenAndByWhomTheSubjectWasSet() {
        muc.send("<message from='" + ROMEO + "' to='" + ROOM + "' type='groupchat'><subject>Verona</subject></message>");
        String setAt = muc.clock.instant().toString();
        muc.clock.advance(Duration.ofMinutes(5));

        muc.send("<presence from='" + NURSE + "' to='" + ROOM + "/Nurse'><x xmlns='http://jabber.org/protocol/muc'/></presence>");
        Message subject = (Message) muc.lastReceivedBy(NURSE);
        assertThat(subject.getSubject()).isEqualTo("Verona");
        Element delay = subject.getChildElement("delay", XmlNamespaces.DELAY);
        assertThat(delay).as("XEP-0203 delay on the subject").isNotNull();
        assertThat(delay.attributeValue("stamp")).isEqualTo(setAt);
        assertThat(delay.attributeValue("from")).isEqualTo(ROOM + "/Romeo");

        // Those in the room when it was set got it live, without a delay.
        muc.send("<message from='" + ROMEO + "' to='" + ROOM + "' type='groupchat'><subject>Mantua</subject></message>");
        assertThat(((Message) muc.lastReceivedBy(JULIET)).getChildElement("delay", XmlNamespaces.DELAY)).isNull();
    }

    private static String occupantId(Packet p) {
        Element id = p.getElement().element(org.dom4j.QName.get("occupant-id", "urn:xmpp:occupant-id:0"));
        return id == null ? null : id.attributeValue("id");
    }

    @Test
    void julietKeepsOneOccupantIdAcrossHerMessagesAndNickChangesAndCannotForgeIt() {
        // XEP-0421: Romeo can tell Juliet apart whatever she calls herself; her real JID stays hidden.
        muc.send("<message from='" + JULIET + "' to='" + ROOM + "' type='groupchat'><body>hello</body>"
                + "<occupant-id xmlns='urn:xmpp:occupant-id:0' id='i-am-romeo'/></message>");
        Message hello = (Message) muc.lastReceivedBy(ROMEO);
        String julietsId = occupantId(hello);
        assertThat(julietsId).isNotNull().isNotEqualTo("i-am-romeo").doesNotContain("capulet");
        assertThat(hello.getElement().elements(org.dom4j.QName.get("occupant-id", "urn:xmpp:occupant-id:0"))).hasSize(1);

        muc.send("<presence from='" + JULIET + "' to='" + ROOM + "/Jules'/>");
        List<Packet> nickChange = muc.receivedBy(ROMEO);
        assertThat(nickChange).extracting(Xep0045DetailsTest::occupantId).containsOnly(julietsId);

        muc.send("<message from='" + ROMEO + "' to='" + ROOM + "' type='groupchat'><body>who?</body></message>");
        assertThat(occupantId(muc.lastReceivedBy(JULIET))).isNotNull().isNotEqualTo(julietsId);

        muc.send("<iq from='" + NURSE + "' to='" + ROOM + "' type='get' id='f'><query xmlns='" + Namespaces.DISCO_INFO + "'/></iq>");
        assertThat(muc.replyTo(NURSE, "f").getElement().element("query").elements("feature"))
                .extracting(f -> f.attributeValue("var")).contains("urn:xmpp:occupant-id:0");
    }

    @Test
    void aServiceWithoutOccupantIdsStripsForgedOnes() {
        MucBench plain = new MucBench(org.reconmuc.component.config.ServiceConfig.defaults()
                .toBuilder().domain(MucBench.SERVICE).secret("x").occupantIds(false).build());
        plain.join(ROMEO, ROOM, "Romeo");
        plain.join(JULIET, ROOM, "Juliet");
        plain.send("<message from='" + JULIET + "' to='" + ROOM + "' type='groupchat'><body>hello</body>"
                + "<occupant-id xmlns='urn:xmpp:occupant-id:0' id='i-am-romeo'/></message>");
        assertThat(occupantId(plain.lastReceivedBy(ROMEO))).isNull();
    }

    private static String jidMulti(String var, String... jids) {
        StringBuilder b = new StringBuilder("<field var='" + var + "'>");
        for (String j : jids) {
            b.append("<value>").append(j).append("</value>");
        }
        return b.append("</field>").toString();
    }

    @Test
    void romeoMakesJulietCoOwnerAndTheNurseAdminThroughTheForm() {
        muc.send("<iq from='" + ROMEO + "' to='" + ROOM + "' type='get' id='g'><query xmlns='http://jabber.org/protocol/muc#owner'/></iq>");
        Element form = muc.replyTo(ROMEO, "g").getElement().element("query").element("x");
        Element owners = form.elements("field").stream()
                .filter(f -> "muc#roomconfig_roomowners".equals(f.attributeValue("var"))).findFirst().orElseThrow();
        assertThat(owners.attributeValue("type")).isEqualTo("jid-multi");
        assertThat(owners.elements("value")).extracting(Element::getText).containsExactly("romeo@montague.lit");

        submit(jidMulti("muc#roomconfig_roomowners", "romeo@montague.lit", "juliet@capulet.lit")
                + jidMulti("muc#roomconfig_roomadmins", "nurse@capulet.lit"));
        assertThat(muc.replyTo(ROMEO, "c1").getElement().attributeValue("type")).isEqualTo("result");
        Packet julietNow = muc.receivedBy(ROMEO).stream()
                .filter(p -> p.getFrom().toString().equals(ROOM + "/Juliet")).reduce((a, b) -> b).orElseThrow();
        assertThat(MucBench.item(julietNow).attributeValue("affiliation")).isEqualTo("owner");
        assertThat(MucBench.item(julietNow).attributeValue("role")).isEqualTo("moderator");

        // Juliet, now an owner, hands the room over: Romeo is left out of the owners.
        muc.send("<iq from='" + JULIET + "' to='" + ROOM + "' type='set' id='c2'><query xmlns='http://jabber.org/protocol/muc#owner'>"
                + "<x xmlns='jabber:x:data' type='submit'>" + jidMulti("muc#roomconfig_roomowners", "juliet@capulet.lit")
                + "</x></query></iq>");
        assertThat(muc.replyTo(JULIET, "c2").getElement().attributeValue("type")).isEqualTo("result");
        Packet romeoNow = muc.receivedBy(JULIET).stream()
                .filter(p -> p.getFrom().toString().equals(ROOM + "/Romeo")).reduce((a, b) -> b).orElseThrow();
        assertThat(MucBench.item(romeoNow).attributeValue("affiliation")).isEqualTo("none");
    }

    @Test
    void aRoomWithoutOwnersOrWithAnOwnerWhoIsAlsoAdminIsRefusedAndNothingChanges() {
        submit(jidMulti("muc#roomconfig_roomowners"));
        Packet empty = muc.replyTo(ROMEO, "c1");
        assertThat(errorCondition(empty)).isEqualTo("not-acceptable");
        assertThat(empty.getError().getText()).contains("at least one owner");

        submit(jidMulti("muc#roomconfig_roomowners", "romeo@montague.lit", "juliet@capulet.lit")
                + jidMulti("muc#roomconfig_roomadmins", "juliet@capulet.lit")
                + "<field var='muc#roomconfig_roomname'><value>Changed</value></field>");
        assertThat(errorCondition(muc.replyTo(ROMEO, "c1"))).isEqualTo("not-acceptable");
        muc.send("<iq from='" + ROMEO + "' to='" + ROOM + "' type='get' id='g'><query xmlns='http://jabber.org/protocol/muc#owner'/></iq>");
        Element form = muc.replyTo(ROMEO, "g").getElement().element("query").element("x");
        assertThat(form.elements("field").stream().filter(f -> "muc#roomconfig_roomname".equals(f.attributeValue("var")))
                .findFirst().orElseThrow().elementText("value")).isEmpty();
    }

    private static String voiceRequest() {
        return "<x xmlns='jabber:x:data' type='submit'><field var='FORM_TYPE'><value>http://jabber.org/protocol/muc#request</value></field>"
                + "<field var='muc#role' type='list-single'><value>participant</value></field></x>";
    }

    @Test
    void julietAsksForVoiceInAModeratedRoomAndRomeoGrantsIt() {
        submit("<field var='muc#roomconfig_moderatedroom'><value>1</value></field>");
        muc.clear();
        muc.say(JULIET, ROOM, "may I?");
        assertThat(errorCondition(muc.lastReceivedBy(JULIET))).isEqualTo("forbidden");

        muc.send("<message from='" + JULIET + "' to='" + ROOM + "'>" + voiceRequest() + "</message>");
        Message approval = (Message) muc.lastReceivedBy(ROMEO);
        Element form = approval.getElement().element(org.dom4j.QName.get("x", "jabber:x:data"));
        assertThat(form.attributeValue("type")).isEqualTo("form");
        java.util.Map<String, String> fields = new java.util.HashMap<>();
        for (Element f : form.elements("field")) {
            fields.put(f.attributeValue("var"), f.elementText("value"));
        }
        assertThat(fields).containsEntry("FORM_TYPE", "http://jabber.org/protocol/muc#request")
                .containsEntry("muc#roomnick", "Juliet").containsEntry("muc#jid", "juliet@capulet.lit")
                .containsEntry("muc#request_allow", "false");
        assertThat(muc.receivedBy(JULIET)).as("visitors do not see requests").isEmpty();

        // Juliet cannot approve herself.
        String allow = "<x xmlns='jabber:x:data' type='submit'><field var='FORM_TYPE'><value>http://jabber.org/protocol/muc#request</value></field>"
                + "<field var='muc#roomnick'><value>Juliet</value></field><field var='muc#request_allow'><value>true</value></field></x>";
        muc.send("<message from='" + JULIET + "' to='" + ROOM + "'>" + allow + "</message>");
        assertThat(errorCondition(muc.lastReceivedBy(JULIET))).isEqualTo("forbidden");

        muc.send("<message from='" + ROMEO + "' to='" + ROOM + "'>" + allow + "</message>");
        Packet voiced = muc.lastReceivedBy(JULIET);
        assertThat(voiced.getFrom().toString()).isEqualTo(ROOM + "/Juliet");
        assertThat(MucBench.item(voiced).attributeValue("role")).isEqualTo("participant");
        muc.say(JULIET, ROOM, "thank you");
        assertThat(((Message) muc.lastReceivedBy(ROMEO)).getBody()).isEqualTo("thank you");

        // Now she has voice: asking again is a bad request.
        muc.send("<message from='" + JULIET + "' to='" + ROOM + "'>" + voiceRequest() + "</message>");
        assertThat(errorCondition(muc.lastReceivedBy(JULIET))).isEqualTo("bad-request");
    }

    private void register(String from, String id, String nick) {
        muc.send("<iq from='" + from + "' to='" + ROOM + "' type='set' id='" + id + "'><query xmlns='jabber:iq:register'>"
                + "<x xmlns='jabber:x:data' type='submit'><field var='FORM_TYPE'><value>http://jabber.org/protocol/muc#register</value></field>"
                + "<field var='muc#register_roomnick'><value>" + nick + "</value></field></x></query></iq>");
    }

    @Test
    void julietReservesJulesAndNobodyElseMayTakeIt() {
        // Romeo lets users without an affiliation register (Prosody's allow_unaffiliated_register).
        submit("<field var='reconmuc#roomconfig_allowregister'><value>1</value></field>");
        muc.clear();
        muc.send("<iq from='" + JULIET + "' to='" + ROOM + "' type='get' id='r0'><query xmlns='jabber:iq:register'/></iq>");
        Element query = muc.replyTo(JULIET, "r0").getElement().element("query");
        assertThat(query.element("registered")).isNull();
        assertThat(query.element("x").elements("field")).extracting(f -> f.attributeValue("var"))
                .contains("FORM_TYPE", "muc#register_roomnick");

        register(JULIET, "r1", "Jules");
        assertThat(muc.replyTo(JULIET, "r1").getElement().attributeValue("type")).isEqualTo("result");
        Packet member = muc.receivedBy(ROMEO).stream().filter(p -> p.getFrom().toString().equals(ROOM + "/Juliet"))
                .reduce((a, b) -> b).orElseThrow();
        assertThat(MucBench.item(member).attributeValue("affiliation")).isEqualTo("member");

        // §7.12: Juliet asks which nickname she reserved.
        muc.send("<iq from='" + JULIET + "' to='" + ROOM + "' type='get' id='n'><query xmlns='" + Namespaces.DISCO_INFO
                + "' node='x-roomuser-item'/></iq>");
        assertThat(muc.replyTo(JULIET, "n").getElement().element("query").element("identity").attributeValue("name"))
                .isEqualTo("Jules");

        muc.send("<presence from='" + NURSE + "' to='" + ROOM + "/Jules'><x xmlns='http://jabber.org/protocol/muc'/></presence>");
        Packet refused = muc.lastReceivedBy(NURSE);
        assertThat(errorCondition(refused)).isEqualTo("conflict");
        assertThat(refused.getError().getText()).contains("reserved");
        muc.send("<presence from='" + ROMEO + "' to='" + ROOM + "/Jules'/>");
        assertThat(errorCondition(muc.lastReceivedBy(ROMEO))).isEqualTo("conflict");

        // The nurse cannot reserve the nick Juliet is using either.
        register(NURSE, "r2", "Juliet");
        assertThat(errorCondition(muc.replyTo(NURSE, "r2"))).isEqualTo("conflict");

        // Juliet herself takes her reserved nick; then she gives it up and the nurse may have it.
        muc.send("<presence from='" + JULIET + "' to='" + ROOM + "/Jules'/>");
        assertThat(muc.lastReceivedBy(ROMEO).getFrom().toString()).isEqualTo(ROOM + "/Jules");
        muc.send("<presence from='" + JULIET + "' to='" + ROOM + "/Jules' type='unavailable'/>");
        muc.send("<iq from='" + JULIET + "' to='" + ROOM + "' type='set' id='r3'><query xmlns='jabber:iq:register'><remove/></query></iq>");
        assertThat(muc.replyTo(JULIET, "r3").getElement().attributeValue("type")).isEqualTo("result");
        muc.send("<presence from='" + NURSE + "' to='" + ROOM + "/Jules'><x xmlns='http://jabber.org/protocol/muc'/></presence>");
        Packet in = muc.receivedBy(NURSE).stream().filter(p -> p instanceof org.xmpp.packet.Presence)
                .reduce((a, b) -> b).orElseThrow();
        assertThat(errorCondition(in)).isNull();
        assertThat(in.getFrom().toString()).isEqualTo(ROOM + "/Jules");
        assertThat(statusCodes(in)).contains("110");
    }
}
