package org.reconmuc.component.muc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.reconmuc.component.muc.MucBench.ROOM;
import static org.reconmuc.component.muc.MucBench.errorCondition;
import static org.reconmuc.component.muc.MucBench.errorText;
import static org.reconmuc.component.muc.MucBench.statusCodes;

import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import org.dom4j.Element;
import org.dom4j.QName;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.reconmuc.component.config.ServiceConfig;
import org.reconmuc.component.store.Store;
import org.reconmuc.component.config.StoreLocation;
import org.xmpp.packet.IQ;
import org.xmpp.packet.Message;
import org.xmpp.packet.Packet;
import org.xmpp.packet.Presence;

/**
 * Room avatars (XEP-0486) as Prosody 13's MUC serves them: Romeo, the owner, sets the room's vCard;
 * Juliet, inside, is told its hash by a presence from the room (and a status 104 message); whoever
 * asks reads the vCard and sees the hash in disco#info; a newcomer is told on entering.
 */
class RoomAvatarTest {
    private static final String ROMEO = "romeo@montague.lit/phone";
    private static final String JULIET = "juliet@capulet.lit/balcony";
    private static final String BENVOLIO = "benvolio@montague.lit/pda";
    private static final String STRANGER = "stranger@elsewhere.lit/x";
    /** A few bytes standing for a PNG: what matters is that the hash is of them, not of their base64. */
    private static final byte[] IMAGE = {(byte) 0x89, 'P', 'N', 'G', 13, 10, 26, 10, 0, 0, 0, 13, 'I', 'H', 'D', 'R'};
    private static final String IMAGE_SHA1 = sha1(IMAGE);

    @TempDir
    Path dir;
    private Store store;
    private MucBench muc = new MucBench();

    @AfterEach
    void closeStore() {
        if (store != null) {
            store.close();
        }
    }

    private static String vcard(byte[] image) {
        return "<vCard xmlns='vcard-temp'><FN>The Lobby</FN><PHOTO><TYPE>image/png</TYPE><BINVAL>"
                + Base64.getEncoder().encodeToString(image) + "</BINVAL></PHOTO></vCard>";
    }

    private void setVcard(String user, String vcard) {
        muc.send("<iq type='set' id='av' from='" + user + "' to='" + ROOM + "'>" + vcard + "</iq>");
    }

    private IQ getVcard(String user) {
        muc.send("<iq type='get' id='get-av' from='" + user + "' to='" + ROOM + "'><vCard xmlns='vcard-temp'/></iq>");
        return (IQ) muc.replyTo(user, "get-av");
    }

    private static String photoHash(Packet presence) {
        Element x = presence.getElement().element(QName.get("x", "vcard-temp:x:update"));
        return x == null ? null : x.elementText("photo");
    }

    private List<String> discoAvatarHash(String user) {
        muc.send("<iq type='get' id='disco' from='" + user + "' to='" + ROOM + "'>"
                + "<query xmlns='http://jabber.org/protocol/disco#info'/></iq>");
        Element query = ((IQ) muc.replyTo(user, "disco")).getChildElement();
        assertThat(query.elements("feature")).anyMatch(f -> "vcard-temp".equals(f.attributeValue("var")));
        for (Element form : query.elements("x")) {
            for (Element field : form.elements("field")) {
                if ("muc#roominfo_avatarhash".equals(field.attributeValue("var"))) {
                    assertThat(field.attributeValue("type")).isEqualTo("text-multi");
                    return field.elements("value").stream().map(Element::getText).toList();
                }
            }
        }
        throw new AssertionError("no muc#roominfo_avatarhash in " + query.asXML());
    }

    /** The field of Prosody's mod_vcard_muc, which Gajim reads. */
    private String legacyDiscoAvatarHash(String user) {
        muc.send("<iq type='get' id='disco' from='" + user + "' to='" + ROOM + "'>"
                + "<query xmlns='http://jabber.org/protocol/disco#info'/></iq>");
        Element query = ((IQ) muc.replyTo(user, "disco")).getChildElement();
        return query.elements("x").stream().flatMap(form -> form.elements("field").stream())
                .filter(f -> "{http://modules.prosody.im/mod_vcard_muc}avatar#sha1".equals(f.attributeValue("var")))
                .map(f -> f.elementText("value")).findFirst().orElseThrow();
    }

    @Test
    void romeoSetsTheAvatarAndJulietInsideIsToldItsHash() {
        muc.join(ROMEO, ROOM, "Romeo");
        muc.join(JULIET, ROOM, "Juliet");

        setVcard(ROMEO, vcard(IMAGE));

        assertThat(((IQ) muc.replyTo(ROMEO, "av")).getType()).isEqualTo(IQ.Type.result);
        List<Packet> juliet = muc.receivedBy(JULIET);
        Presence fromRoom = (Presence) juliet.stream().filter(p -> p instanceof Presence).findFirst().orElseThrow();
        assertThat(fromRoom.getFrom().toString()).isEqualTo(ROOM);
        assertThat(fromRoom.isAvailable()).isTrue();
        assertThat(photoHash(fromRoom)).isEqualTo(IMAGE_SHA1);
        Message notice = (Message) juliet.stream().filter(p -> p instanceof Message).findFirst().orElseThrow();
        assertThat(notice.getType()).isEqualTo(Message.Type.groupchat);
        assertThat(statusCodes(notice)).containsExactly("104");
    }

    @Test
    void aStrangerReadsTheVcardAndSeesTheHashInDiscoBeforeEntering() {
        muc.join(ROMEO, ROOM, "Romeo");
        assertThat(discoAvatarHash(STRANGER)).isEmpty();
        assertThat(errorCondition(getVcard(STRANGER))).isEqualTo("item-not-found");
        setVcard(ROMEO, vcard(IMAGE));

        assertThat(discoAvatarHash(STRANGER)).containsExactly(IMAGE_SHA1);
        assertThat(legacyDiscoAvatarHash(STRANGER)).isEqualTo(IMAGE_SHA1);
        Element vcard = getVcard(STRANGER).getChildElement();
        assertThat(vcard.getQName()).isEqualTo(QName.get("vCard", "vcard-temp"));
        assertThat(Base64.getDecoder().decode(vcard.element("PHOTO").elementText("BINVAL"))).isEqualTo(IMAGE);
        assertThat(vcard.elementText("FN")).isEqualTo("The Lobby");
    }

    @Test
    void benvolioEnteringIsToldTheHashAfterHisOwnPresence() {
        muc.join(ROMEO, ROOM, "Romeo");
        setVcard(ROMEO, vcard(IMAGE));
        muc.clear();

        muc.send("<presence from='" + BENVOLIO + "' to='" + ROOM + "/Benvolio'><x xmlns='http://jabber.org/protocol/muc'/></presence>");

        List<Packet> benvolio = muc.receivedBy(BENVOLIO);
        int self = indexOf(benvolio, p -> statusCodes(p).contains("110"));
        int avatar = indexOf(benvolio, p -> p instanceof Presence && photoHash(p) != null);
        assertThat(avatar).isGreaterThan(self);
        assertThat(benvolio.get(avatar).getFrom().toString()).isEqualTo(ROOM);
        assertThat(photoHash(benvolio.get(avatar))).isEqualTo(IMAGE_SHA1);
    }

    @Test
    void withoutAnAvatarNewcomersAreToldNothing() {
        muc.join(ROMEO, ROOM, "Romeo");
        muc.send("<presence from='" + BENVOLIO + "' to='" + ROOM + "/Benvolio'><x xmlns='http://jabber.org/protocol/muc'/></presence>");
        List<Packet> benvolio = muc.receivedBy(BENVOLIO);
        // He is in: Romeo's presence, then his own (110), as in a room with an avatar...
        assertThat(benvolio).anyMatch(p -> p instanceof Presence && p.getFrom().toString().equals(ROOM + "/Romeo"));
        assertThat(indexOf(benvolio, p -> statusCodes(p).contains("110"))).isNotNegative();
        // ...but no presence from the room with a hash, and the room says it has no vCard.
        assertThat(benvolio).noneMatch(p -> photoHash(p) != null);
        assertThat(errorCondition(getVcard(BENVOLIO))).isEqualTo("item-not-found");
        assertThat(discoAvatarHash(BENVOLIO)).isEmpty();
    }

    @Test
    void julietWhoIsNoOwnerMayNotSetIt() {
        muc.join(ROMEO, ROOM, "Romeo");
        muc.join(JULIET, ROOM, "Juliet");

        setVcard(JULIET, vcard(IMAGE));

        Packet refusal = muc.replyTo(JULIET, "av");
        assertThat(errorCondition(refusal)).isEqualTo("forbidden");
        assertThat(errorText(refusal)).isEqualTo("Only the room's owners may set its vCard");
        assertThat(discoAvatarHash(JULIET)).isEmpty();
    }

    @Test
    void anAvatarOverTheBoundOrNotBase64IsRefusedWithWhy() {
        muc = new MucBench(ServiceConfig.defaults().toBuilder().domain(MucBench.SERVICE).secret("x")
                .maxAvatarBytes(IMAGE.length - 1).build());
        muc.join(ROMEO, ROOM, "Romeo");

        setVcard(ROMEO, vcard(IMAGE));
        Packet tooLarge = muc.replyTo(ROMEO, "av");
        assertThat(errorCondition(tooLarge)).isEqualTo("not-acceptable");
        assertThat(errorText(tooLarge)).isEqualTo("The avatar has 16 bytes; this service takes room avatars of at most"
                + " 15 bytes (max-avatar-bytes)");

        setVcard(ROMEO, "<vCard xmlns='vcard-temp'><PHOTO><TYPE>image/png</TYPE><BINVAL>not*base64</BINVAL></PHOTO></vCard>");
        assertThat(errorCondition(muc.replyTo(ROMEO, "av"))).isEqualTo("bad-request");
        assertThat(errorCondition(getVcard(ROMEO))).isEqualTo("item-not-found");
    }

    @Test
    void anEmptyVcardTakesTheAvatarAwayAndOccupantsAreToldSo() {
        muc.join(ROMEO, ROOM, "Romeo");
        muc.join(JULIET, ROOM, "Juliet");
        setVcard(ROMEO, vcard(IMAGE));
        muc.clear();

        setVcard(ROMEO, "<vCard xmlns='vcard-temp'/>");

        Presence fromRoom = (Presence) muc.receivedBy(JULIET).stream().filter(p -> p instanceof Presence).findFirst().orElseThrow();
        assertThat(photoHash(fromRoom)).isEmpty();
        assertThat(discoAvatarHash(JULIET)).isEmpty();
        assertThat(errorCondition(getVcard(JULIET))).isEqualTo("item-not-found");
    }

    @Test
    void aServiceWithoutAvatarsSaysSo() {
        muc = new MucBench(ServiceConfig.defaults().toBuilder().domain(MucBench.SERVICE).secret("x")
                .maxAvatarBytes(0).build());
        muc.join(ROMEO, ROOM, "Romeo");
        setVcard(ROMEO, vcard(IMAGE));
        assertThat(errorCondition(muc.replyTo(ROMEO, "av"))).isEqualTo("service-unavailable");
    }

    @Test
    void aPersistentRoomKeepsItsAvatarAcrossARestart() throws Exception {
        ServiceConfig config = ServiceConfig.defaults().withDomainAndSecret(MucBench.SERVICE, "x");
        store = Store.openWithoutThreads(StoreLocation.parse("sqlite:" + dir.resolve("rooms.db")));
        muc = new MucBench(config, Instant.parse("2026-01-01T10:00:00Z"), store);
        muc.join(ROMEO, ROOM, "Romeo");
        muc.send("<iq type='set' id='cfg' from='" + ROMEO + "' to='" + ROOM + "'><query xmlns='" + Namespaces.MUC_OWNER
                + "'><x xmlns='jabber:x:data' type='submit'><field var='muc#roomconfig_persistentroom'><value>1</value>"
                + "</field></x></query></iq>");
        setVcard(ROMEO, vcard(IMAGE));
        muc.commit();

        store.close();
        store = Store.openWithoutThreads(StoreLocation.parse("sqlite:" + dir.resolve("rooms.db")));
        muc = new MucBench(config, Instant.parse("2026-01-01T11:00:00Z"), store);

        assertThat(discoAvatarHash(STRANGER)).containsExactly(IMAGE_SHA1);
        assertThat(Base64.getDecoder().decode(getVcard(STRANGER).getChildElement().element("PHOTO").elementText("BINVAL")))
                .isEqualTo(IMAGE);
    }

    private static int indexOf(List<Packet> packets, java.util.function.Predicate<Packet> which) {
        for (int i = 0; i < packets.size(); i++) {
            if (which.test(packets.get(i))) {
                return i;
            }
        }
        throw new AssertionError("not among " + packets);
    }

    private static String sha1(byte[] data) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1").digest(data));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new AssertionError(e);
        }
    }
}
