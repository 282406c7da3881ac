package org.reconmuc.component.muc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.reconmuc.component.muc.MucBench.ROOM;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.dom4j.Element;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.reconmuc.codec.XmlNamespaces;
import org.reconmuc.codec.batch.BatchDecoder;
import org.reconmuc.component.config.ServiceConfig;
import org.reconmuc.component.muc.messages.ArchiveTest;
import org.reconmuc.component.store.Store;
import org.reconmuc.component.config.StoreLocation;
import org.xmpp.packet.Packet;

/**
 * Whether someone entering starts the deflate streams anew (reconmuc.md §5.9 rule 8.4, §8.1): only
 * a stream that may still refer to a message the newcomer cannot read in the room's archive. So in
 * a logged room that keeps its whole archive, people coming and going cost the streams nothing;
 * in an unlogged room every entry starts them anew, as does any change of configuration.
 */
class StreamsOnEntryTest {
    private static final String ROMEO = "romeo@montague.lit/orchard";
    private static final String JULIET = "juliet@capulet.lit/laptop";
    private static final String BENVOLIO = "benvolio@montague.lit/street";
    private static final String TYBALT = "tybalt@capulet.lit/street";

    @TempDir
    Path dir;

    private final BatchDecoder julietsClient = new BatchDecoder();

    /** Romeo creates the room (he owns it); Juliet takes her topic at once, in her live stream. */
    private static void romeoAndJuliet(MucBench muc) {
        muc.join(ROMEO, ROOM, "Romeo");
        muc.join(JULIET, ROOM, "Juliet");
        muc.send("<iq from='" + JULIET + "' to='" + ROOM + "' type='set' id='req'><consistency-requirements xmlns='"
                + XmlNamespaces.RECONMUC + "'><filter><filter-entry element='topic' value='balcony'/></filter>"
                + "<time>600</time><volume>3</volume><aggregation>compact-deflate-live</aggregation>"
                + "</consistency-requirements></iq>");
        muc.commit();
        assertThat(muc.replyTo(JULIET, "req").getElement().attributeValue("type")).isEqualTo("result");
        muc.clear();
    }

    private static void configure(MucBench muc, String fields) {
        muc.send("<iq type='set' id='cfg' from='" + ROMEO + "' to='" + ROOM + "'><query xmlns='" + Namespaces.MUC_OWNER
                + "'><x xmlns='jabber:x:data' type='submit'>" + fields + "</x></query></iq>");
        muc.commit();
        muc.clear();
    }

    private static void enter(MucBench muc, String user, String nick) {
        muc.join(user, ROOM, nick);
        muc.commit();
        muc.clear();
    }

    /**
     * Romeo says something on Juliet's topic; returns the number of the batch of her stream that
     * carries it, after her client inflated it (so the stream is whole).
     */
    private int romeoOnTheBalcony(MucBench muc, String body) throws Exception {
        muc.say(ROMEO, ROOM, body + " #balcony");
        muc.commit();
        List<Packet> got = muc.receivedBy(JULIET);
        assertThat(got).as("one batch").hasSize(1);
        Element batch = got.get(0).getElement().element(org.dom4j.QName.get("batch", XmlNamespaces.RECONMUC));
        assertThat(julietsClient.decode(batch.asXML(), ROOM).items()).last().asString().contains(body);
        muc.clear();
        return Integer.parseInt(batch.attributeValue("n"));
    }

    @Test
    void benvolioEntersALoggedRoomWhoseArchiveHoldsAllJulietsStreamHoldsAndHerStreamGoesOn() throws Exception {
        MucBench muc = new MucBench();
        romeoAndJuliet(muc);
        assertThat(romeoOnTheBalcony(muc, "But soft, what light")).isEqualTo(1);
        enter(muc, BENVOLIO, "Benvolio");
        assertThat(romeoOnTheBalcony(muc, "It is the east")).as("Benvolio may read it all in the archive").isEqualTo(2);
        enter(muc, TYBALT, "Tybalt");
        assertThat(romeoOnTheBalcony(muc, "and Juliet is the sun")).isEqualTo(3);
    }

    @Test
    void julietsLaptopReconnectsAndJoinsAgainAndHerStreamStartsAnewForHerNewClient() throws Exception {
        MucBench muc = new MucBench();
        romeoAndJuliet(muc);
        assertThat(romeoOnTheBalcony(muc, "But soft, what light")).isEqualTo(1);
        assertThat(romeoOnTheBalcony(muc, "It is the east")).isEqualTo(2);
        // The room never saw her leave; her client, reconnected, joins again with a new inflater.
        muc.send("<presence from='" + JULIET + "' to='" + ROOM + "/Juliet'><x xmlns='http://jabber.org/protocol/muc'/></presence>");
        muc.clear();
        BatchDecoder newClient = new BatchDecoder();
        muc.say(ROMEO, ROOM, "and Juliet is the sun #balcony");
        Element batch = muc.receivedBy(JULIET).get(0).getElement().element(org.dom4j.QName.get("batch", XmlNamespaces.RECONMUC));
        assertThat(batch.attributeValue("n")).isEqualTo("1");
        assertThat(newClient.decode(batch.asXML(), ROOM).items()).last().asString().contains("Juliet is the sun");
    }

    @Test
    void inAnUnloggedRoomEveryEntryStartsTheStreamsAnew() throws Exception {
        MucBench muc = new MucBench();
        romeoAndJuliet(muc);
        configure(muc, ArchiveTest.field("muc#roomconfig_enablelogging", "0"));
        assertThat(romeoOnTheBalcony(muc, "But soft, what light")).isEqualTo(1);
        assertThat(romeoOnTheBalcony(muc, "It is the east")).isEqualTo(2);
        enter(muc, BENVOLIO, "Benvolio");
        assertThat(romeoOnTheBalcony(muc, "and Juliet is the sun")).as("no archive: Benvolio could read none of it").isEqualTo(1);
    }

    @Test
    void aChangeOfConfigurationStartsEveryStreamAnew() throws Exception {
        MucBench muc = new MucBench();
        romeoAndJuliet(muc);
        assertThat(romeoOnTheBalcony(muc, "But soft, what light")).isEqualTo(1);
        configure(muc, ArchiveTest.field("muc#roomconfig_roomname", "The orchard"));
        assertThat(romeoOnTheBalcony(muc, "It is the east")).isEqualTo(1);
    }

    @Test
    void aRoomThatKeepsOnlyItsNewestMessagesStartsAnewTheStreamsThatReachOlderOnes() throws Exception {
        MucBench muc = new MucBench(ServiceConfig.defaults().toBuilder().domain(MucBench.SERVICE).secret("x").historySize(3).build());
        romeoAndJuliet(muc);
        assertThat(romeoOnTheBalcony(muc, "But soft, what light")).isEqualTo(1);
        enter(muc, BENVOLIO, "Benvolio");
        assertThat(romeoOnTheBalcony(muc, "It is the east")).as("the archive holds everything so far").isEqualTo(2);
        assertThat(romeoOnTheBalcony(muc, "Arise, fair sun")).isEqualTo(3);
        assertThat(romeoOnTheBalcony(muc, "and kill the envious moon")).isEqualTo(4);
        enter(muc, TYBALT, "Tybalt");
        assertThat(romeoOnTheBalcony(muc, "who is already sick")).as("the archive lost the first line").isEqualTo(1);
    }

    @Test
    void aPersistentRoomsArchiveKeepsEverythingSoEntriesNeverStartTheStreamsAnew() throws Exception {
        Store store = Store.openWithoutThreads(StoreLocation.parse("sqlite:" + dir.resolve("rooms.db")));
        try {
            MucBench muc = new MucBench(ServiceConfig.defaults().toBuilder().domain(MucBench.SERVICE).secret("x").historySize(3).build(),
                    Instant.parse("2026-01-01T10:00:00Z"), store);
            romeoAndJuliet(muc);
            configure(muc, ArchiveTest.field("muc#roomconfig_persistentroom", "1"));
            int n = 0;
            for (String line : List.of("But soft, what light", "Arise, fair sun", "and kill the envious moon", "who is already sick")) {
                assertThat(romeoOnTheBalcony(muc, line)).isEqualTo(++n);
            }
            enter(muc, TYBALT, "Tybalt");
            assertThat(romeoOnTheBalcony(muc, "and pale with grief")).as("the store's archive holds the first line").isEqualTo(5);
        } finally {
            store.close();
        }
    }
}
