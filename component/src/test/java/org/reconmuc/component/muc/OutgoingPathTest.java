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

    /** Dave enters: Bob and Carol, who see no real JIDs, get his presence as one broadcast; Alice, the moderator, her view of it. */
    @Test
    void aNewcomersPresenceLeavesAsOneBroadcastPerView() {
        muc.broadcasts.clear();
        muc.send("<presence from='dave@wonderland.lit/den' to='" + ROOM + "/Dave'><x xmlns='http://jabber.org/protocol/muc'/></presence>");
        assertThat(muc.broadcasts).filteredOn(b -> b.stanza().name().equals("presence")).singleElement()
                .satisfies(b -> assertThat(b.recipients()).containsExactlyInAnyOrder(BOB, CAROL));
        assertThat(handedOverWith("jid=\"dave@wonderland.lit/den\"")).filteredOn(s -> s.name().equals("presence"))
                .extracting(OutgoingStanza::to).contains(ALICE).doesNotContain(BOB, CAROL);
    }

    private void relaxed(String who, int volume, String aggregation) {
        muc.send("<iq from='" + who + "' to='" + ROOM + "' type='set' id='req'><consistency-requirements xmlns='"
                + XmlNamespaces.RECONMUC + "'><volume>" + volume + "</volume><aggregation>" + aggregation
                + "</aggregation></consistency-requirements></iq>");
    }

    /**
     * Alice and Carol ask for the same (volume 2, plain batches): Bob's two lines reach both as one
     * batch handed over once for the two of them, so the server's multicast carries it once.
     */
    @Test
    void occupantsDueTheSameBatchShareOneBroadcast() {
        relaxed(ALICE, 2, "plain");
        relaxed(CAROL, 2, "plain");
        muc.clear();
        muc.broadcasts.clear();
        muc.say(BOB, ROOM, "first");
        muc.say(BOB, ROOM, "second");
        assertThat(muc.broadcasts).filteredOn(b -> b.stanza().to((String) null).xml().contains("urn:xmpp:forward:0"))
                .singleElement().satisfies(b -> assertThat(b.recipients()).containsExactlyInAnyOrder(ALICE, CAROL));
        assertThat(handedOverWith("urn:xmpp:forward:0")).extracting(OutgoingStanza::to).containsExactlyInAnyOrder(ALICE, CAROL);
    }

    /** Alice wants plain batches, Carol compact ones: due the same lines, each still gets her own form. */
    @Test
    void occupantsInDifferentFormsGetTheirOwnBatches() {
        relaxed(ALICE, 2, "plain");
        relaxed(CAROL, 2, "compact");
        muc.clear();
        muc.say(BOB, ROOM, "first");
        muc.say(BOB, ROOM, "second");
        List<OutgoingStanza> batches = handedOverWith("<batch ");
        assertThat(batches).extracting(OutgoingStanza::to).containsExactlyInAnyOrder(ALICE, CAROL);
        assertThat(batches.get(0).rendered()).isNotSameAs(batches.get(1).rendered());
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
    void aPresenceIsRenderedOncePerViewWithOrWithoutTheRealJid() {
        String dave = "dave@example.lit/pc";
        muc.send("<presence from='" + ALICE_PHONE + "' to='" + ROOM + "/Alice'><x xmlns='http://jabber.org/protocol/muc'/></presence>");
        muc.join(dave, ROOM, "Dave");

        muc.send("<presence from='" + BOB + "' to='" + ROOM + "/Bob'><show>away</show></presence>");
        List<OutgoingStanza> copies = handedOverWith("<show>away</show>");
        assertThat(copies).extracting(OutgoingStanza::to).containsExactlyInAnyOrder(ALICE, ALICE_PHONE, BOB, CAROL, dave);
        OutgoingStanza toAlice = copyTo(copies, ALICE);
        OutgoingStanza toCarol = copyTo(copies, CAROL);
        assertThat(toAlice.xml()).as("Alice moderates: she sees Bob's real JID").contains("jid=\"" + BOB + "\"");
        assertThat(copyTo(copies, ALICE_PHONE).rendered()).isNotNull().isSameAs(toAlice.rendered());
        assertThat(toCarol.xml()).doesNotContain("jid=");
        assertThat(copyTo(copies, dave).rendered()).isNotNull().isSameAs(toCarol.rendered()).isNotSameAs(toAlice.rendered());
        assertThat(copyTo(copies, dave).xml()).isEqualTo(toCarol.xml().replace(CAROL, dave));

        muc.clear();
        muc.send("<presence from='eve@example.lit/pc' to='" + ROOM + "/Eve'><x xmlns='http://jabber.org/protocol/muc'/></presence>");
        List<OutgoingStanza> entry = handedOverWith("from=\"" + ROOM + "/Eve\"").stream()
                .filter(s -> !s.to().startsWith("eve@")).toList();
        assertThat(entry).extracting(OutgoingStanza::to).containsExactlyInAnyOrder(ALICE, ALICE_PHONE, BOB, CAROL, dave);
        assertThat(copyTo(entry, BOB).rendered()).isNotNull().isSameAs(copyTo(entry, CAROL).rendered())
                .isSameAs(copyTo(entry, dave).rendered());
    }

    private static OutgoingStanza copyTo(List<OutgoingStanza> copies, String to) {
        return copies.stream().filter(s -> to.equals(s.to())).findFirst().orElseThrow();
    }

    @Test
    void aSubjectChangeIsRenderedOnceForEveryone() {
        muc.send("<message from='" + ALICE + "' to='" + ROOM + "' type='groupchat'><subject>Balconies</subject></message>");
        List<OutgoingStanza> copies = handedOverWith("Balconies");
        assertThat(copies).hasSize(3);
        assertThat(copies).extracting(OutgoingStanza::rendered).containsOnly(copies.get(0).rendered());
    }
}
