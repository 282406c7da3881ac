package org.reconmuc.component.muc;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.reconmuc.component.jid.RealJid;
import org.xmpp.packet.JID;

class OccupantIdsTest {
    private static RealJid user(int i) {
        return new RealJid(new JID("user" + i + "@example.org"));
    }

    @Test
    void aRoomThatSawManyUsersKeepsABoundedCacheAndGivesEachTheSameIdAsBefore() {
        OccupantIds ids = new OccupantIds();
        String first = ids.of(user(0));
        for (int i = 1; i <= 3 * OccupantIds.IDS_CACHED; i++) {
            ids.of(user(i));
        }
        assertThat(ids.cached()).isEqualTo(OccupantIds.IDS_CACHED);
        assertThat(ids.of(user(0))).as("recomputed after it left the cache").isEqualTo(first);
    }

    @Test
    void theSameKeyGivesTheSameIdsAfterARestartAndAnotherRoomsKeyOthers() {
        OccupantIds room = new OccupantIds();
        assertThat(OccupantIds.withKey(room.key()).of(user(7))).isEqualTo(room.of(user(7)));
        assertThat(new OccupantIds().of(user(7))).isNotEqualTo(room.of(user(7)));
        assertThat(room.of(user(7))).isNotEqualTo(room.of(user(8))).hasSize(24);
    }
}
