package org.reconmuc.component.muc.options;

import static org.assertj.core.api.Assertions.assertThat;
import static org.reconmuc.component.muc.MucBench.ROOM;
import static org.reconmuc.component.muc.MucBench.errorCondition;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.reconmuc.component.muc.MucBench;
import org.reconmuc.component.muc.Namespaces;
import org.xmpp.packet.Message;
import org.xmpp.packet.Packet;

/**
 * {@code muc#roomconfig_changesubject} (XEP-0045 §8.1): in Romeo's room only moderators change the
 * subject, until he lets participants do it; a message with a body and a subject is a message.
 */
class ChangeSubjectOptionTest {
    private static final String ROMEO = "romeo@montague.lit/phone";
    private static final String JULIET = "juliet@capulet.lit/balcony";

    private final MucBench muc = new MucBench();

    @BeforeEach
    void romeoOwnsTheRoomAndJulietIsIn() {
        muc.join(ROMEO, ROOM, "Romeo");
        muc.join(JULIET, ROOM, "Juliet");
    }

    private void julietSays(String id, String content) {
        muc.send("<message from='" + JULIET + "' to='" + ROOM + "' type='groupchat' id='" + id + "'>" + content + "</message>");
    }

    private void allowParticipants(boolean on) {
        muc.send("<iq from='" + ROMEO + "' to='" + ROOM + "' type='set' id='c'><query xmlns='" + Namespaces.MUC_OWNER + "'>"
                + "<x xmlns='jabber:x:data' type='submit'><field var='muc#roomconfig_changesubject'><value>" + (on ? 1 : 0)
                + "</value></field></x></query></iq>");
        assertThat(muc.replyTo(ROMEO, "c").getElement().attributeValue("type")).isEqualTo("result");
        muc.clear();
    }

    @Test
    void aParticipantMayNotChangeTheSubjectUnlessTheOwnerAllowsIt() {
        julietSays("s1", "<subject>Balcony scene</subject>");
        Packet refused = muc.lastReceivedBy(JULIET);
        assertThat(errorCondition(refused)).isEqualTo("forbidden");
        assertThat(MucBench.errorText(refused)).isEqualTo("Only moderators may change the subject of this room");
        assertThat(muc.receivedBy(ROMEO)).as("Romeo hears nothing of it").isEmpty();

        allowParticipants(true);
        julietSays("s2", "<subject>Balcony scene</subject>");
        Message toRomeo = (Message) muc.lastReceivedBy(ROMEO);
        assertThat(toRomeo.getSubject()).isEqualTo("Balcony scene");
        assertThat(toRomeo.getFrom().getResource()).isEqualTo("Juliet");

        allowParticipants(false);
        julietSays("s3", "<subject>Tomb scene</subject>");
        assertThat(errorCondition(muc.lastReceivedBy(JULIET))).isEqualTo("forbidden");
    }

    @Test
    void aModeratorChangesTheSubjectWhateverTheOption() {
        muc.send("<message from='" + ROMEO + "' to='" + ROOM + "' type='groupchat' id='s'><subject>Verona</subject></message>");
        assertThat(((Message) muc.lastReceivedBy(JULIET)).getSubject()).isEqualTo("Verona");
    }

    @Test
    void aMessageWithABodyAndASubjectIsAMessageNotASubjectChange() {
        julietSays("m", "<subject>Balcony scene</subject><body>O Romeo, Romeo</body>");
        Message toRomeo = (Message) muc.lastReceivedBy(ROMEO);
        assertThat(toRomeo.getBody()).isEqualTo("O Romeo, Romeo");
        assertThat(toRomeo.getType()).isEqualTo(Message.Type.groupchat);
    }
}
