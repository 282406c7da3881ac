package org.reconmuc.joom.session;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.ConnectException;
import java.net.UnknownHostException;
import org.jivesoftware.smack.SmackException;
import org.jivesoftware.smack.XMPPException;
import org.jivesoftware.smack.packet.StanzaError;
import org.junit.jupiter.api.Test;

/** Each refusal of a room, and each failure to log in, in the words a user can act on. */
class ErrorWordsTest {
    private static final String ROOM = "lobby@reconmuc.example.org";

    private static XMPPException.XMPPErrorException refused(StanzaError.Condition c, String text) {
        return new XMPPException.XMPPErrorException(null, StanzaError.from(c, text).build());
    }

    @Test
    void aRoomsRefusalsSayWhatToDo() {
        assertThat(ErrorWords.join(refused(StanzaError.Condition.registration_required, null), ROOM))
                .isEqualTo("The room " + ROOM + " is members-only, and you are not a member.");
        assertThat(ErrorWords.join(refused(StanzaError.Condition.not_authorized, null), ROOM)).contains("needs a password");
        assertThat(ErrorWords.join(refused(StanzaError.Condition.forbidden, null), ROOM)).contains("banned");
        assertThat(ErrorWords.join(refused(StanzaError.Condition.conflict, null), ROOM)).contains("nick is already taken");
        assertThat(ErrorWords.join(refused(StanzaError.Condition.service_unavailable, null), ROOM)).contains("is full");
        assertThat(ErrorWords.join(refused(StanzaError.Condition.item_not_found, null), ROOM)).contains("does not exist");
        assertThat(ErrorWords.join(refused(StanzaError.Condition.policy_violation, "Too many presences"), ROOM))
                .endsWith("refused you: Too many presences");
    }

    @Test
    void loginFailuresNameTheServer() {
        assertThat(ErrorWords.login(new RuntimeException(new ConnectException("Connection refused")), "xmpp.example.org", 5222))
                .isEqualTo("The server xmpp.example.org:5222 is unreachable: it is down, or the address or port is wrong.");
        assertThat(ErrorWords.login(new RuntimeException(new UnknownHostException("nowhere")), "nowhere", 5222))
                .contains("is unknown");
        assertThat(ErrorWords.login(SmackException.NoResponseException.newWith(10_000, (org.jivesoftware.smack.filter.StanzaFilter) s -> true, false), "x", 5222))
                .contains("did not answer in time");
        assertThat(ErrorWords.general(new IllegalStateException("odd"))).isEqualTo("Something went wrong: odd");
    }
}
