package org.reconmuc.component.muc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.reconmuc.component.muc.MucBench.ROOM;
import static org.reconmuc.component.muc.MucBench.SERVICE;
import static org.reconmuc.component.muc.MucBench.errorCondition;
import static org.reconmuc.component.muc.MucBench.errorText;
import static org.reconmuc.component.muc.MucBench.item;
import static org.reconmuc.component.muc.MucBench.statusCodes;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.reconmuc.component.config.ServiceConfig;
import org.xmpp.packet.IQ;
import org.xmpp.packet.Packet;
import org.xmpp.packet.Presence;

/**
 * The service follows a real-time block list (XEP-0060 node of SHA-256 hashes of bare JIDs, as
 * xmppbl.org publishes it) as Prosody's and ejabberd's mod_muc_rtbl: listed users may not enter
 * nor speak, those in are removed, a retraction unlists.
 */
class RealTimeBlockListTest {
    private static final String LIST = "rtbl.example";
    private static final String SUBSCRIBER = SERVICE + "/rtbl";
    private static final String NODE = "muc_bans_sha256";
    private static final String ROMEO = "romeo@montague.lit/phone";
    private static final String JULIET = "juliet@capulet.lit/balcony";
    /** As the spammer's client writes its address; the room answers the prepared one, {@link #SPAMMER}. */
    private static final String SPAMMER_AS_WRITTEN = "Spammer@Evil.Example/bot";
    private static final String SPAMMER = "spammer@evil.example/bot";
    /** sha256sum of "spammer@evil.example": the bare JID as stringprep leaves it, not as the client wrote it. */
    private static final String SPAMMER_HASH = "3854fff008077013f4d9535f5d84dc7bdeb5db3ed92a1e06ca943888ee65a093";
    /** sha256sum of "evil.example": a whole server listed. */
    private static final String EVIL_DOMAIN_HASH = "9c180de0cd699ee78897c47cfdb3e7ee1d75906e31b7746a4747dea536909837";

    private final MucBench muc = new MucBench(ServiceConfig.defaults().toBuilder().domain(SERVICE).secret("x")
            .rtbl(LIST, NODE).build());

    @BeforeEach
    void romeoOpensTheRoom() {
        muc.join(ROMEO, ROOM, "Romeo");
    }

    /** The service connects: it subscribes, then fetches the items; returns the fetch's id. */
    private String serviceConnectsAndSubscribes() {
        muc.service.connected();
        List<Packet> requests = muc.receivedBy(LIST);
        assertThat(requests).hasSize(2);
        IQ subscribe = (IQ) requests.get(0);
        assertThat(subscribe.getType()).isEqualTo(IQ.Type.set);
        assertThat(subscribe.getFrom().toString()).isEqualTo(SUBSCRIBER);
        assertThat(subscribe.getChildElement().element("subscribe").attributeValue("node")).isEqualTo(NODE);
        assertThat(subscribe.getChildElement().element("subscribe").attributeValue("jid")).isEqualTo(SUBSCRIBER);
        IQ fetch = (IQ) requests.get(1);
        assertThat(fetch.getType()).isEqualTo(IQ.Type.get);
        assertThat(fetch.getChildElement().element("items").attributeValue("node")).isEqualTo(NODE);
        muc.send("<iq from='" + LIST + "' to='" + SUBSCRIBER + "' type='result' id='" + subscribe.getID() + "'/>");
        return fetch.getID();
    }

    private void listAnswers(String fetchId, String... hashes) {
        StringBuilder items = new StringBuilder();
        for (String h : hashes) {
            items.append("<item id='").append(h).append("'><report xmlns='urn:xmpp:reporting:1' reason='urn:xmpp:reporting:spam'/></item>");
        }
        muc.send("<iq from='" + LIST + "' to='" + SUBSCRIBER + "' type='result' id='" + fetchId + "'>"
                + "<pubsub xmlns='http://jabber.org/protocol/pubsub'><items node='" + NODE + "'>" + items
                + "</items></pubsub></iq>");
    }

    private void listNotifies(String from, String change) {
        muc.send("<message from='" + from + "' to='" + SUBSCRIBER + "'>"
                + "<event xmlns='http://jabber.org/protocol/pubsub#event'><items node='" + NODE + "'>" + change
                + "</items></event></message>");
    }

    private void refusedAsListed(Packet p) {
        assertThat(errorCondition(p)).isEqualTo("forbidden");
        assertThat(p.getElement().element("error").attributeValue("type")).isEqualTo("cancel");
        assertThat(errorText(p)).isEqualTo("You are banned from this service");
    }

    @Test
    void theSpammerListedAtTheFetchIsRefusedEntryWhileJulietEnters() {
        listAnswers(serviceConnectsAndSubscribes(), SPAMMER_HASH);

        muc.send("<presence from='" + SPAMMER_AS_WRITTEN + "' to='" + ROOM + "/Spam'><x xmlns='http://jabber.org/protocol/muc'/></presence>");
        refusedAsListed(muc.lastReceivedBy(SPAMMER));
        muc.join(JULIET, ROOM, "Juliet");
        assertThat(muc.service.roomCount()).isEqualTo(1);

        // Nor may it speak to the room or to an occupant from outside, nor open a room of its own.
        muc.send("<message from='" + SPAMMER + "' to='" + ROOM + "' type='groupchat'><body>buy</body></message>");
        refusedAsListed(muc.lastReceivedBy(SPAMMER));
        muc.send("<message from='" + SPAMMER + "' to='" + ROOM + "/Juliet' type='chat'><body>buy</body></message>");
        refusedAsListed(muc.lastReceivedBy(SPAMMER));
        assertThat(muc.receivedBy(JULIET)).isEmpty();
        muc.send("<presence from='" + SPAMMER + "' to='spam@" + SERVICE + "/Spam'><x xmlns='http://jabber.org/protocol/muc'/></presence>");
        refusedAsListed(muc.lastReceivedBy(SPAMMER));
        assertThat(muc.service.roomCount()).isEqualTo(1);
    }

    @Test
    void aListedDomainKeepsOutEveryoneOfThatServer() {
        listAnswers(serviceConnectsAndSubscribes(), EVIL_DOMAIN_HASH);

        muc.send("<presence from='other@evil.example/x' to='" + ROOM + "/Other'><x xmlns='http://jabber.org/protocol/muc'/></presence>");
        refusedAsListed(muc.lastReceivedBy("other@evil.example/x"));
    }

    @Test
    void aNotificationRemovesTheSpammerWhoIsInButNeitherTheModeratorNorAMember() {
        String fetch = serviceConnectsAndSubscribes();
        listAnswers(fetch);
        muc.join(JULIET, ROOM, "Juliet");
        muc.join(SPAMMER, ROOM, "Spam");
        muc.clear();

        listNotifies(LIST, "<item id='" + SPAMMER_HASH.toUpperCase() + "'/>");

        Presence spammerGone = (Presence) muc.lastReceivedBy(SPAMMER);
        assertThat(spammerGone.getType()).isEqualTo(Presence.Type.unavailable);
        assertThat(statusCodes(spammerGone)).contains("307", "110");
        assertThat(item(spammerGone).elementText("reason")).isEqualTo("Banned by RTBL");
        Presence julietSees = (Presence) muc.lastReceivedBy(JULIET);
        assertThat(julietSees.getFrom().toString()).isEqualTo(ROOM + "/Spam");
        assertThat(statusCodes(julietSees)).contains("307");

        // Romeo, the owner (a moderator), stays though his server is listed next; so does a member.
        muc.send("<iq from='" + ROMEO + "' to='" + ROOM + "' type='set' id='member'>"
                + "<query xmlns='http://jabber.org/protocol/muc#admin'><item affiliation='member' jid='juliet@capulet.lit'/></query></iq>");
        muc.clear();
        listNotifies(LIST, "<item id='" + sha256("montague.lit") + "'/><item id='" + sha256("capulet.lit") + "'/>");
        assertThat(muc.receivedBy(ROMEO)).isEmpty();
        muc.say(JULIET, ROOM, "still here");
        assertThat(muc.receivedBy(ROMEO)).hasSize(1);
    }

    @Test
    void anAddressStringprepRefusesIsCheckedAndEntersUnlisted() {
        listAnswers(serviceConnectsAndSubscribes(), SPAMMER_HASH);

        muc.send("<presence from='Spam mer@evil.example/x' to='" + ROOM + "/Odd'><x xmlns='http://jabber.org/protocol/muc'/></presence>");

        // It is not listed (nothing could list it), so it enters as it would without a list.
        assertThat(muc.service.occupantCount()).isEqualTo(2);
    }

    @Test
    void aRetractionLetsTheUserInAgain() {
        listAnswers(serviceConnectsAndSubscribes(), SPAMMER_HASH);
        listNotifies(LIST, "<retract id='" + SPAMMER_HASH + "'/>");

        muc.send("<presence from='" + SPAMMER + "' to='" + ROOM + "/Reformed'><x xmlns='http://jabber.org/protocol/muc'/></presence>");
        assertThat(muc.receivedBy(SPAMMER)).anyMatch(p -> statusCodes(p).contains("110"));
    }

    @Test
    void theFetchAtTheNextConnectionReplacesTheListAndRemovesWhoIsNewlyOnIt() {
        listAnswers(serviceConnectsAndSubscribes(), SPAMMER_HASH);
        muc.join(JULIET, ROOM, "Juliet");
        muc.clear();

        // While the service was away the spammer was unlisted and Juliet listed.
        listAnswers(serviceConnectsAndSubscribes(), sha256("juliet@capulet.lit"));

        assertThat(statusCodes(muc.lastReceivedBy(JULIET))).contains("307");
        muc.send("<presence from='" + SPAMMER + "' to='" + ROOM + "/Reformed'><x xmlns='http://jabber.org/protocol/muc'/></presence>");
        assertThat(muc.receivedBy(SPAMMER)).anyMatch(p -> statusCodes(p).contains("110"));
    }

    @Test
    void aNotificationFromAnyoneButTheListsServiceChangesNothing() {
        listAnswers(serviceConnectsAndSubscribes());
        listNotifies("evil.example", "<item id='" + sha256("juliet@capulet.lit") + "'/>");

        muc.join(JULIET, ROOM, "Juliet");
        assertThat(muc.service.occupantCount()).isEqualTo(2);
        // A made-up answer to the fetch, from someone else, is not taken either.
        muc.send("<iq from='evil.example' to='" + SUBSCRIBER + "' type='result' id='rtbl-2'>"
                + "<pubsub xmlns='http://jabber.org/protocol/pubsub'><items node='" + NODE + "'><item id='"
                + sha256("romeo@montague.lit") + "'/></items></pubsub></iq>");
        muc.say(ROMEO, ROOM, "fine");
        assertThat(errorCondition(muc.lastReceivedBy(ROMEO))).isNull();
    }

    @Test
    void aFetchTheListRefusesIsTriedAgainAMinuteLater() {
        String fetch = serviceConnectsAndSubscribes();
        muc.send("<iq from='" + LIST + "' to='" + SUBSCRIBER + "' type='error' id='" + fetch + "'>"
                + "<error type='cancel'><item-not-found xmlns='urn:ietf:params:xml:ns:xmpp-stanzas'/></error></iq>");
        muc.advance(Duration.ofSeconds(59));
        assertThat(muc.receivedBy(LIST)).isEmpty();

        muc.advance(Duration.ofSeconds(1));
        List<Packet> again = muc.receivedBy(LIST);
        assertThat(again).hasSize(2);
        listAnswers(again.get(1).getID(), SPAMMER_HASH);
        muc.send("<presence from='" + SPAMMER_AS_WRITTEN + "' to='" + ROOM + "/Spam'><x xmlns='http://jabber.org/protocol/muc'/></presence>");
        refusedAsListed(muc.lastReceivedBy(SPAMMER));
    }

    private static String sha256(String text) {
        try {
            return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256")
                    .digest(text.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new AssertionError(e);
        }
    }
}
