package org.reconmuc.component.muc.iq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.reconmuc.component.muc.MucBench.ROOM;
import static org.reconmuc.component.muc.MucBench.errorCondition;

import java.util.List;
import org.dom4j.Element;
import org.junit.jupiter.api.Test;
import org.reconmuc.codec.XmlNamespaces;
import org.reconmuc.component.muc.MucBench;
import org.reconmuc.component.muc.Namespaces;
import org.xmpp.packet.Packet;

class DiscoTest {
    private final MucBench muc = new MucBench();

    private Element query(String from, String to, String ns) {
        muc.send("<iq from='" + from + "' to='" + to + "' type='get' id='d'><query xmlns='" + ns + "'/></iq>");
        return muc.lastReceivedBy(from).getElement().element("query");
    }

    @Test
    void theServiceIsAConferenceServiceListingItsPublicRooms() {
        muc.join("romeo@montague.lit/phone", ROOM, "Romeo");
        muc.join("juliet@capulet.lit/b", "secret@chat.example", "Juliet");
        muc.send("<iq from='juliet@capulet.lit/b' to='secret@chat.example' type='set' id='c'><query xmlns='http://jabber.org/protocol/muc#owner'>"
                + "<x xmlns='jabber:x:data' type='submit'><field var='muc#roomconfig_publicroom'><value>0</value></field></x></query></iq>");

        Element info = query("nurse@capulet.lit/x", "chat.example", Namespaces.DISCO_INFO);
        assertThat(info.element("identity").attributeValue("category")).isEqualTo("conference");
        assertThat(info.elements("feature")).extracting(f -> f.attributeValue("var")).contains(Namespaces.MUC);

        Element items = query("nurse@capulet.lit/x", "chat.example", Namespaces.DISCO_ITEMS);
        assertThat(items.elements("item")).extracting(i -> i.attributeValue("jid")).containsExactly(ROOM);
    }

    @Test
    void roomInfoTellsFeaturesAndOccupantCount() {
        muc.join("romeo@montague.lit/phone", ROOM, "Romeo");
        muc.join("juliet@capulet.lit/b", ROOM, "Juliet");
        Element info = query("nurse@capulet.lit/x", ROOM, Namespaces.DISCO_INFO);
        List<String> features = info.elements("feature").stream().map(f -> f.attributeValue("var")).toList();
        assertThat(features).contains(Namespaces.MUC, "muc_public", "muc_temporary", "muc_open", "muc_unmoderated",
                "muc_semianonymous", "muc_unsecured", XmlNamespaces.STANZA_ID);
        Element form = info.element("x");
        String occupants = form.elements("field").stream()
                .filter(f -> "muc#roominfo_occupants".equals(f.attributeValue("var")))
                .map(f -> f.elementText("value")).findFirst().orElseThrow();
        assertThat(occupants).isEqualTo("2");
    }

    @Test
    void aMissingRoomIsItemNotFoundAndAnUnknownQueryIsServiceUnavailable() {
        muc.send("<iq from='nurse@capulet.lit/x' to='nowhere@chat.example' type='get' id='d'><query xmlns='" + Namespaces.DISCO_INFO + "'/></iq>");
        assertThat(errorCondition(muc.lastReceivedBy("nurse@capulet.lit/x"))).isEqualTo("item-not-found");
        assertThat(muc.service.roomCount()).isZero();

        muc.send("<iq from='nurse@capulet.lit/x' to='chat.example' type='get' id='u'><query xmlns='urn:example:unknown'/></iq>");
        Packet error = muc.lastReceivedBy("nurse@capulet.lit/x");
        assertThat(errorCondition(error)).isEqualTo("service-unavailable");
        assertThat(error.getID()).isEqualTo("u");
    }
}
