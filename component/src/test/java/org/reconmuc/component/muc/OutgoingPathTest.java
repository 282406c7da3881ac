package org.reconmuc.component.muc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.reconmuc.component.muc.RelaxedConsistencyTest.ALICE;
import static org.reconmuc.component.muc.RelaxedConsistencyTest.BOB;
import static org.reconmuc.component.muc.RelaxedConsistencyTest.CAROL;

import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.reconmuc.codec.XmlNamespaces;
import org.reconmuc.component.transport.OutgoingStanza;

/** What leaves a room: each stanza rendered once, whoever and however many receive it. */
class OutgoingPathTest {
    private static final String ROOM = "lobby@" + MucBench.SERVICE;
    private static final String ALICE_PHONE = "alice@wonderland.lit/phone";

    private final MucBench muc = new MucBench();

    @BeforeEach
    void aliceBobAndCarolAreIn() {
        muc.join(ALICE, ROOM, "Alice");
        muc.join(BOB, ROOM, "Bob");
        muc.join(CAROL, ROOM, "Carol");
    }

    private List<OutgoingStanza> handedOverWith(String text) {
        return muc.handedOver.stream().filter(s -> s.xml().contains(text)).toList();
    }

    @Test
    void aGroupchatMessageIsRenderedOnceForEveryone() {
        muc.say(BOB, ROOM, "one rendering");
        List<OutgoingStanza> copies = handedOverWith("one rendering");
        assertThat(copies).extracting(OutgoingStanza::to).containsExactlyInAnyOrder(ALICE, BOB, CAROL);
        assertThat(copies).extracting(OutgoingStanza::rendered).doesNotContainNull().containsOnly(copies.get(0).rendered());
    }

    /**
     * Bob's message leaves the room as one broadcast to the three sessions, so that a server with
     * XEP-0033 multicast gets it once; a lone session's stanza (Carol's own echo of a private
     * message, a self-presence) goes alone.
     */
    @Test
    void aGroupchatMessageLeavesAsOneBroadcastToEverySession() {
        muc.clear();
        muc.broadcasts.clear();
        muc.say(BOB, ROOM, "once for all");
        assertThat(muc.broadcasts).hasSize(1);
        assertThat(muc.broadcasts.get(0).recipients()).containsExactlyInAnyOrder(ALICE, BOB, CAROL);
        assertThat(muc.broadcasts.get(0).stanza().to((String) null).xml()).contains("once for all");
    }

    @Test
    void aBatchIsRenderedOnceForEverySessionOfItsOccupant() {
        muc.send("<presence from='" + ALICE_PHONE + "' to='" + ROOM + "/Alice'><x xmlns='http://jabber.org/protocol/muc'/></presence>");
        muc.send("<iq from='" + ALICE + "' to='" + ROOM + "' type='set' id='req'><consistency-requirements xmlns='"
                + XmlNamespaces.RECONMUC + "'><volume>2</volume><aggregation>compact</aggregation></consistency-requirements></iq>");
        muc.clear();
        muc.say(BOB, ROOM, "first");
        muc.say(CAROL, ROOM, "second");
        List<OutgoingStanza> batches = handedOverWith("<batch ");
        assertThat(batches).extracting(OutgoingStanza::to).containsExactlyInAnyOrder(ALICE, ALICE_PHONE);
        assertThat(batches.get(0).rendered()).isNotNull().isSameAs(batches.get(1).rendered());
        assertThat(batches.get(0).xml()).contains("first").contains("second");
    }

    @Test
    void aSubjectChangeIsRenderedOnceForEveryone() {
        muc.send("<message from='" + ALICE + "' to='" + ROOM + "' type='groupchat'><subject>Balconies</subject></message>");
        List<OutgoingStanza> copies = handedOverWith("Balconies");
        assertThat(copies).hasSize(3);
        assertThat(copies).extracting(OutgoingStanza::rendered).containsOnly(copies.get(0).rendered());
    }
}
