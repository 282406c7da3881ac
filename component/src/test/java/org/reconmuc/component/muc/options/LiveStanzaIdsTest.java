package org.reconmuc.component.muc.options;

import static org.assertj.core.api.Assertions.assertThat;
import static org.reconmuc.component.muc.MucBench.ROOM;

import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.reconmuc.codec.XmlNamespaces;
import org.reconmuc.component.muc.MucBench;
import org.reconmuc.component.muc.Namespaces;
import org.reconmuc.component.testing.Dom4jBatches;
import org.xmpp.packet.IQ;
import org.xmpp.packet.Message;
import org.xmpp.packet.Packet;

/**
 * Live copies without the stanza-id nobody needs ({@code reconmuc#roomconfig_livestanzaids}): in
 * an unlogged room, standard participants' live copies go without it; moderators and relaxed
 * occupants keep it; replies by the parent's own id still reach its author at once.
 */
class LiveStanzaIdsTest {
    private static final String JULIET = "juliet@capulet.lit/balcony";
    private static final String ROMEO = "romeo@montague.lit/orchard";
    private static final String NURSE = "nurse@capulet.lit/x";

    private final MucBench muc = new MucBench();

    @BeforeEach
    void julietOwnsAnUnloggedRoomRomeoAndTheNurseAreIn() {
        muc.join(JULIET, ROOM, "Juliet");
        configure("<field var='muc#roomconfig_enablelogging'><value>0</value></field>");
        muc.join(ROMEO, ROOM, "Romeo");
        muc.join(NURSE, ROOM, "Nurse");
        muc.clear();
    }

    private void configure(String fields) {
        muc.send("<iq type='set' id='cfg' from='" + JULIET + "' to='" + ROOM + "'><query xmlns='" + Namespaces.MUC_OWNER
                + "'><x xmlns='jabber:x:data' type='submit'>" + fields + "</x></query></iq>");
        muc.clear();
    }

    private static boolean hasStanzaId(Packet p) {
        return ((Message) p).getChildElement("stanza-id", XmlNamespaces.STANZA_ID) != null;
    }

    private List<String> features() {
        muc.send("<iq type='get' id='info' from='" + NURSE + "' to='" + ROOM + "'><query xmlns='" + Namespaces.DISCO_INFO + "'/></iq>");
        IQ info = (IQ) muc.replyTo(NURSE, "info");
        return info.getChildElement().elements("feature").stream().map(f -> f.attributeValue("var")).collect(Collectors.toList());
    }

    @Test
    void inAnUnloggedRoomOnlyTheModeratorsLiveCopyCarriesTheStanzaId() {
        assertThat(features()).doesNotContain(XmlNamespaces.STANZA_ID);
        muc.say(ROMEO, ROOM, "hello");
        assertThat(hasStanzaId(muc.lastReceivedBy(ROMEO))).as("Romeo's echo").isFalse();
        assertThat(hasStanzaId(muc.lastReceivedBy(NURSE))).isFalse();
        assertThat(hasStanzaId(muc.lastReceivedBy(JULIET))).as("a moderator may moderate it").isTrue();

        configure("<field var='reconmuc#roomconfig_livestanzaids'><value>always</value></field>");
        assertThat(features()).contains(XmlNamespaces.STANZA_ID);
        muc.say(ROMEO, ROOM, "hello again");
        assertThat(hasStanzaId(muc.lastReceivedBy(NURSE))).isTrue();
    }

    @Test
    void aReplyByTheParentsOwnIdReachesItsRelaxedAuthorAtOnceAndTheBatchKeepsTheIds() throws Exception {
        muc.send("<iq from='" + NURSE + "' to='" + ROOM + "' type='set' id='req'><consistency-requirements xmlns='"
                + XmlNamespaces.RECONMUC + "'><time>600</time></consistency-requirements></iq>");
        muc.send("<message from='" + NURSE + "' to='" + ROOM + "' type='groupchat' id='n1'><body>Where is Romeo?</body></message>");
        Message echo = (Message) muc.lastReceivedBy(NURSE);
        assertThat(hasStanzaId(echo)).as("a relaxed occupant keeps the ids").isTrue();
        muc.say(JULIET, ROOM, "unrelated");
        muc.clear();

        // Romeo's client saw no stanza-id: it replies by the nurse's own message id.
        muc.send("<message from='" + ROMEO + "' to='" + ROOM + "' type='groupchat' id='r1'><body>Here</body>"
                + "<reply xmlns='" + XmlNamespaces.REPLY + "' to='" + ROOM + "/Nurse' id='n1'/></message>");
        List<Packet> toNurse = muc.receivedBy(NURSE);
        assertThat(toNurse).extracting(p -> ((Message) p).getBody()).containsExactly("Here");
        assertThat(hasStanzaId(toNurse.get(0))).isTrue();
        // The retained message still comes with its stanza-id in the batch.
        muc.advance(java.time.Duration.ofMinutes(10));
        Packet batch = muc.lastReceivedBy(NURSE);
        assertThat(Dom4jBatches.items(batch.getElement().element(org.dom4j.QName.get("batch", XmlNamespaces.RECONMUC))))
                .allMatch(f -> f.element("message").element(org.dom4j.QName.get("stanza-id", XmlNamespaces.STANZA_ID)) != null);
    }
}
