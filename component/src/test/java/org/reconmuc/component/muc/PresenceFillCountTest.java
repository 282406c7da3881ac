package org.reconmuc.component.muc;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.dom4j.DocumentException;
import org.dom4j.DocumentHelper;
import org.junit.jupiter.api.Test;
import org.reconmuc.component.RoomFeatures;
import org.reconmuc.component.config.ServiceConfig;
import org.reconmuc.component.transport.OutgoingStanza;
import org.reconmuc.component.transport.Outbox;
import org.reconmuc.component.transport.RenderedStanza;
import org.xmpp.packet.IQ;
import org.xmpp.packet.Presence;

/**
 * The presence stanzas a room of N costs to fill, one occupant after the other, counted per
 * recipient (the copies a server parses), with no sockets: the goal (issue 35) is a room
 * of 5,000 filled with at most 10 % of a full broadcast's presences. The owner enters first; each
 * other occupant asks for the level named, or for nothing. A full broadcast costs N² (the k-th
 * entrant gets k−1 presences and its own, the k−1 others get its one): counted at 800, that
 * figure holds at 5,000 as well (25,000,000, too many copies to render here on a shared machine).
 */
class PresenceFillCountTest {
    private static final String ROOM = "fill@chat.example";

    /** Presences sent while {@code occupants} enter; {@code level} null: they ask for nothing. */
    private static long fill(int occupants, int largeRoomOccupants, String level) {
        long[] presences = {0};
        Outbox counting = new Outbox() {
            @Override
            public void send(OutgoingStanza stanza) {
                if (stanza.name().equals("presence")) {
                    presences[0]++;
                }
            }

            @Override
            public void broadcast(RenderedStanza stanza, List<String> recipients) {
                if (stanza.name().equals("presence")) {
                    presences[0] += recipients.size();
                }
            }
        };
        ServiceConfig config = ServiceConfig.defaults().toBuilder().domain("chat.example").secret("x")
                .largeRoomOccupants(largeRoomOccupants).build();
        MucService service = new MucService(config, Clock.fixed(Instant.parse("2026-01-01T10:00:00Z"), ZoneOffset.UTC),
                Runnable::run, counting, (delay, task) -> { }, RoomFeatures.ALL);
        for (int i = 0; i < occupants; i++) {
            String asks = i == 0 || level == null ? "" : "<presences xmlns='urn:reconmuc:0' level='" + level + "'/>";
            service.processPacket(new Presence(parse("<presence from='bot" + i + "@example.org/r' to='" + ROOM + "/bot" + i + "'>"
                    + "<x xmlns='http://jabber.org/protocol/muc'/>" + asks + "</presence>")));
            if (i == 0) {
                service.processPacket(new IQ(parse("<iq from='bot0@example.org/r' to='" + ROOM + "' type='set' id='instant'>"
                        + "<query xmlns='http://jabber.org/protocol/muc#owner'><x xmlns='jabber:x:data' type='submit'/></query></iq>")));
            }
        }
        return presences[0];
    }

    private static org.dom4j.Element parse(String xml) {
        try {
            return DocumentHelper.parseText(xml).getRootElement();
        } catch (DocumentException e) {
            throw new IllegalArgumentException(e);
        }
    }

    @Test
    void aFullBroadcastCostsNSquared() {
        assertThat(fill(800, 0, null)).isEqualTo(800L * 800);
    }

    @Test
    void at800AndAt5000OccupantsWhoAskForNoneOrTheModeratorsCostAboutOnePresenceOrTwoEach() {
        long full800 = 800L * 800;
        long full5000 = 5000L * 5000;
        long bigRoom800 = fill(800, 500, null);
        long bigRoom5000 = fill(5000, 500, null);
        long none800 = fill(800, 0, "none");
        long none5000 = fill(5000, 0, "none");
        long moderators800 = fill(800, 0, "moderators");
        long moderators5000 = fill(5000, 0, "moderators");
        System.out.printf("presences to fill a room: 800 -> full %d, big-room default %d, none %d, moderators %d;"
                        + " 5000 -> full %d, big-room default %d, none %d, moderators %d%n",
                full800, bigRoom800, none800, moderators800, full5000, bigRoom5000, none5000, moderators5000);

        // Each entrant's own presence; the owner, who asked for everyone, sees each enter.
        assertThat(none800).isEqualTo(800 + 799);
        assertThat(none5000).isEqualTo(5000 + 4999);
        // ... and each is sent the owner's, the one moderator.
        assertThat(moderators5000).isEqualTo(none5000 + 4999);
        assertThat(moderators800).isEqualTo(none800 + 799);
        assertThat(moderators5000).as("the issue's goal: at most 10 %% of a full broadcast").isLessThanOrEqualTo(full5000 / 10);
        assertThat(bigRoom5000).as("the big-room default: full up to 500, then the moderator and oneself")
                .isEqualTo(500L * 500 + 4500L * 2);
    }
}
