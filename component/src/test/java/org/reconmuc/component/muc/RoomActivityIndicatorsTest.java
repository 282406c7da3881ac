package org.reconmuc.component.muc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.dom4j.Element;
import org.dom4j.QName;
import org.junit.jupiter.api.Test;
import org.reconmuc.component.activity.RaiElement;
import org.reconmuc.component.config.ServiceConfig;
import org.xmpp.packet.IQ;
import org.xmpp.packet.Packet;

/**
 * XEP-0437 room activity indicators as conversations, as Prosody's mod_muc_rai behaves: Juliet
 * subscribes with a presence to the service, leaves the room, and is told once that something
 * happened there, until she joins again.
 */
class RoomActivityIndicatorsTest {
    private static final String SERVICE = MucBench.SERVICE;
    private static final String ROOM = MucBench.ROOM;
    private static final String ROMEO = "romeo@montague.lit/garden";
    private static final String JULIET = "juliet@capulet.lit/balcony";
    private static final String MERCUTIO = "mercutio@verona.lit/street";

    private final MucBench muc = new MucBench();

    private void subscribe(MucBench bench, String session) {
        bench.send("<presence from='" + session + "' to='" + SERVICE + "' id='rai1'><rai xmlns='urn:xmpp:rai:0'/></presence>");
    }

    /** {@code session} leaves the room; what it receives meanwhile. */
    private List<Packet> leave(String session, String nick) {
        muc.send("<presence from='" + session + "' to='" + ROOM + "/" + nick + "' type='unavailable'/>");
        return muc.receivedBy(session);
    }

    private void setAffiliation(String owner, String user, String affiliation) {
        muc.send("<iq from='" + owner + "' to='" + ROOM + "' type='set' id='aff'><query xmlns='" + Namespaces.MUC_ADMIN
                + "'><item affiliation='" + affiliation + "' jid='" + user + "'/></query></iq>");
        muc.clear();
    }

    /** The rooms named by the activity notices among {@code received}, one list per notice. */
    private static List<List<String>> notices(List<Packet> received) {
        return received.stream()
                .map(p -> p.getElement().element(QName.get(RaiElement.ELEMENT, RaiElement.NAMESPACE)))
                .filter(rai -> rai != null)
                .map(rai -> rai.elements(RaiElement.ACTIVITY).stream().map(Element::getText).toList())
                .toList();
    }

    @Test
    void julietWhoLeftIsToldOnceOfWhatIsSaidUntilSheJoinsAgain() {
        muc.join(ROMEO, ROOM, "Romeo");
        muc.join(JULIET, ROOM, "Juliet");
        subscribe(muc, JULIET);
        muc.say(ROMEO, ROOM, "Juliet is in the room: no notice");
        assertEquals(List.of(), notices(muc.receivedBy(JULIET)));

        leave(JULIET, "Juliet");
        muc.say(ROMEO, ROOM, "Is she gone?");
        List<Packet> received = muc.receivedBy(JULIET);
        assertEquals(List.of(List.of(ROOM)), notices(received));
        assertEquals(SERVICE, received.get(0).getFrom().toString(), "the notice comes from the service");

        muc.say(ROMEO, ROOM, "Still talking");
        assertEquals(List.of(), notices(muc.receivedBy(JULIET)), "one notice per room, however much is said");

        muc.join(JULIET, ROOM, "Juliet");
        leave(JULIET, "Juliet");
        muc.say(ROMEO, ROOM, "She came and went");
        assertEquals(List.of(List.of(ROOM)), notices(muc.receivedBy(JULIET)), "joining again earns a new notice");
    }

    @Test
    void aMemberWhoSubscribesIsToldAtOnceOfWhatWasSaidSinceSheLeftAndLaterOfTheRest() {
        muc.join(ROMEO, ROOM, "Romeo");
        setAffiliation(ROMEO, "juliet@capulet.lit", "member");
        muc.join(JULIET, ROOM, "Juliet");
        leave(JULIET, "Juliet");
        subscribe(muc, JULIET);
        assertEquals(List.of(), notices(muc.receivedBy(JULIET)), "nothing was said since she left");

        muc.say(ROMEO, ROOM, "Now something is");
        assertEquals(List.of(List.of(ROOM)), notices(muc.receivedBy(JULIET)));

        muc.send("<presence from='" + JULIET + "' to='" + SERVICE + "' type='unavailable'/>");
        muc.say(ROMEO, ROOM, "And more");
        subscribe(muc, JULIET);
        assertEquals(List.of(List.of(ROOM)), notices(muc.receivedBy(JULIET)),
                "a new subscription names the room at once: it had messages since she was last in");
    }

    @Test
    void aUserWithoutAffiliationIsToldOnlyOfRoomsSheLeftWhileSubscribed() {
        muc.join(ROMEO, ROOM, "Romeo");
        muc.say(ROMEO, ROOM, "Before anyone subscribed");
        subscribe(muc, MERCUTIO);
        muc.say(ROMEO, ROOM, "Mercutio was never here");
        assertEquals(List.of(), notices(muc.receivedBy(MERCUTIO)));
    }

    @Test
    void anUnavailablePresenceToTheServiceEndsTheSubscription() {
        muc.join(ROMEO, ROOM, "Romeo");
        muc.join(JULIET, ROOM, "Juliet");
        subscribe(muc, JULIET);
        leave(JULIET, "Juliet");
        muc.send("<presence from='" + JULIET + "' to='" + SERVICE + "' type='unavailable'/>");
        muc.say(ROMEO, ROOM, "Nobody is listening");
        assertEquals(List.of(), muc.receivedBy(JULIET));
    }

    @Test
    void aNoticeBouncedByJulietsServerEndsHerSubscription() {
        MucBench bench = new MucBench(ServiceConfig.defaults().toBuilder().domain(SERVICE).secret("x")
                .raiMaxSubscribers(1).build());
        bench.join(ROMEO, ROOM, "Romeo");
        bench.join(JULIET, ROOM, "Juliet");
        subscribe(bench, JULIET);
        bench.send("<presence from='" + JULIET + "' to='" + ROOM + "/Juliet' type='unavailable'/>");
        bench.say(ROMEO, ROOM, "Is she gone?");
        assertEquals(List.of(List.of(ROOM)), notices(bench.receivedBy(JULIET)));
        // Her session went away without an unavailable presence to the service; her server bounces the notice.
        bench.send("<message from='" + JULIET + "' to='" + SERVICE + "' type='error'><rai xmlns='urn:xmpp:rai:0'>"
                + "<activity>" + ROOM + "</activity></rai><error type='cancel'>"
                + "<service-unavailable xmlns='urn:ietf:params:xml:ns:xmpp-stanzas'/></error></message>");
        subscribe(bench, MERCUTIO);
        assertEquals(List.of(), bench.receivedBy(MERCUTIO), "Juliet's place was given back: Mercutio is not refused");
        assertEquals(List.of(), bench.receivedBy(JULIET), "nothing is sent back for an error");
    }

    @Test
    void anotherSessionOfTheSameUserIsNotSubscribed() {
        muc.join(ROMEO, ROOM, "Romeo");
        muc.join(JULIET, ROOM, "Juliet");
        subscribe(muc, JULIET);
        leave(JULIET, "Juliet");
        muc.say(ROMEO, ROOM, "To the balcony only");
        assertEquals(List.of(List.of(ROOM)), notices(muc.receivedBy(JULIET)));
        assertEquals(List.of(), muc.receivedBy("juliet@capulet.lit/nurse"));
    }

    @Test
    void aBannedUserIsNotToldOfTheRoom() {
        muc.join(ROMEO, ROOM, "Romeo");
        muc.join(JULIET, ROOM, "Juliet");
        subscribe(muc, JULIET);
        leave(JULIET, "Juliet");
        setAffiliation(ROMEO, "juliet@capulet.lit", "outcast");
        muc.say(ROMEO, ROOM, "Banished");
        assertEquals(List.of(), notices(muc.receivedBy(JULIET)), "XEP-0437 §5: never from a room she may not join");
    }

    @Test
    void theServiceRefusesSubscribersPastItsLimitUntilOneGoes() {
        MucBench bench = new MucBench(ServiceConfig.defaults().toBuilder().domain(SERVICE).secret("x")
                .raiMaxSubscribers(1).build());
        subscribe(bench, JULIET);
        assertEquals(List.of(), bench.receivedBy(JULIET));
        subscribe(bench, MERCUTIO);
        Packet refusal = bench.replyTo(MERCUTIO, "rai1");
        assertEquals("error", refusal.getElement().attributeValue("type"));
        assertEquals("resource-constraint", MucBench.errorCondition(refusal));
        assertEquals("wait", refusal.getElement().element("error").attributeValue("type"));
        assertTrue(MucBench.errorText(refusal).contains("rai-max-subscribers"), MucBench.errorText(refusal));

        subscribe(bench, JULIET);
        assertEquals(List.of(), bench.receivedBy(JULIET), "subscribing again changes nothing and costs no place");
        bench.send("<presence from='" + JULIET + "' to='" + SERVICE + "' type='unavailable'/>");
        subscribe(bench, MERCUTIO);
        assertEquals(List.of(), bench.receivedBy(MERCUTIO), "Juliet's place is free again");
    }

    @Test
    void aRelaxedOccupantWhoLeavesWithMessagesStillRetainedIsToldAtOnce() {
        muc.join(ROMEO, ROOM, "Romeo");
        muc.join(JULIET, ROOM, "Juliet");
        muc.send("<iq from='" + JULIET + "' to='" + ROOM + "' type='set' id='req'><consistency-requirements xmlns='urn:reconmuc:0'>"
                + "<time>600</time><volume>10</volume></consistency-requirements></iq>");
        subscribe(muc, JULIET);
        muc.say(ROMEO, ROOM, "retained for Juliet");
        muc.receivedBy(JULIET);
        // Leaving discards the message she never got (reconmuc.md §5.10 rule 3): activity she has not seen.
        assertEquals(List.of(List.of(ROOM)), notices(leave(JULIET, "Juliet")));
        muc.say(ROMEO, ROOM, "after she left");
        assertEquals(List.of(), notices(muc.receivedBy(JULIET)), "the one notice went when she left");
    }

    @Test
    void theServiceAdvertisesActivityIndicators() {
        muc.send("<iq from='" + JULIET + "' to='" + SERVICE + "' type='get' id='d1'><query xmlns='" + Namespaces.DISCO_INFO + "'/></iq>");
        IQ info = (IQ) muc.replyTo(JULIET, "d1");
        assertNotNull(info.getChildElement().elements("feature").stream()
                .filter(f -> RaiElement.NAMESPACE.equals(f.attributeValue("var"))).findFirst().orElse(null));
    }
}
