package org.reconmuc.component.muc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.reconmuc.component.muc.MucBench.ROOM;
import static org.reconmuc.component.muc.MucBench.errorCondition;

import org.junit.jupiter.api.Test;
import org.reconmuc.codec.XmlNamespaces;
import org.reconmuc.component.config.ServiceConfig;
import org.xmpp.packet.IQ;
import org.xmpp.packet.Packet;

/**
 * What a room keeps of the requirement sets its occupants state is bounded in bytes, whatever
 * they send; a nick filter names at most what a nick can be.
 */
class RequirementSetBoundsTest {
    private static final String MALLORY = "mallory@evil.lit/script";
    private static final String ALICE = "alice@wonderland.lit/laptop";
    private static final String BOB = "bob@builder.lit/phone";
    private static final long CACHE = 1024 * 1024;

    private final MucBench muc = new MucBench(ServiceConfig.defaults().toBuilder().domain(MucBench.SERVICE).secret("x")
            .presencesAndIqsPerSecond(1_000_000).presenceAndIqBurst(1_000_000).requirementsCacheBytes(CACHE).build());

    private Packet require(String who, String id, String filters) {
        muc.send("<iq from='" + who + "' to='" + ROOM + "' type='set' id='" + id + "'><consistency-requirements xmlns='"
                + XmlNamespaces.RECONMUC + "'><filter>" + filters + "</filter></consistency-requirements></iq>");
        return muc.replyTo(who, id);
    }

    private static String nick(String value, boolean active) {
        return "<filter-entry element='nick' value='" + value + "' active='" + active + "'/>";
    }

    private RoomRequirements requirements() {
        return muc.service.snapshot().get(0).room().requirements();
    }

    @Test
    void malloryStatingHundredsOfSetsOfLongNickFiltersLeavesTheRoomKeepingAtMostItsBound() {
        muc.join(MALLORY, ROOM, "Mallory");
        // 200 sets of 32 nicks of 1,000 characters: ~13 MB kept before the bound, one set after another.
        StringBuilder previous = new StringBuilder();
        for (int set = 0; set < 200; set++) {
            StringBuilder filters = new StringBuilder(previous);
            previous.setLength(0);
            for (int f = 0; f < 32; f++) {
                String value = String.format("%04d-%02d-", set, f) + "m".repeat(992);
                filters.append(nick(value, true));
                previous.append(nick(value, false));
            }
            Packet answer = require(MALLORY, "set" + set, filters.toString());
            assertThat(((IQ) answer).getType()).isEqualTo(IQ.Type.result);
        }
        assertThat(requirements().keptBytes()).isPositive().isLessThanOrEqualTo(CACHE);
    }

    @Test
    void aliceAndBobStatingTheSameFiltersShareOneSet() {
        muc.join(ALICE, ROOM, "Alice");
        muc.join(BOB, ROOM, "Bob");
        require(ALICE, "a", nick("Carol", true));
        long afterAlice = requirements().keptBytes();
        require(BOB, "b", nick("Carol", true));
        assertThat(requirements().keptBytes()).isEqualTo(afterAlice);
    }

    @Test
    void aNickFilterLongerThanANickCanBeIsAPolicyViolationAndChangesNothing() {
        muc.join(MALLORY, ROOM, "Mallory");
        // 600 characters, 1,200 bytes in UTF-8: no resourcepart (RFC 7622: 1,023 bytes) is that long.
        Packet refused = require(MALLORY, "long", nick("é".repeat(600), true));
        assertThat(errorCondition(refused)).isEqualTo("policy-violation");
        assertThat(refused.getElement().element("error").attributeValue("type")).isEqualTo("modify");
        assertThat(refused.getElement().element("error").elementText("text")).contains("1023 bytes");
        Packet accepted = require(MALLORY, "longest", nick("é".repeat(511) + "x", true));
        assertThat(((IQ) accepted).getType()).isEqualTo(IQ.Type.result);
        assertThat(accepted.toXML()).contains("é".repeat(511) + "x").doesNotContain("é".repeat(600));
    }
}
