package org.reconmuc.component.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jivesoftware.smack.StanzaCollector;
import org.jivesoftware.smack.XMPPException.XMPPErrorException;
import org.jivesoftware.smack.filter.AndFilter;
import org.jivesoftware.smack.filter.FromMatchesFilter;
import org.jivesoftware.smack.filter.StanzaFilter;
import org.jivesoftware.smack.filter.StanzaTypeFilter;
import org.jivesoftware.smack.packet.ExtensionElement;
import org.jivesoftware.smack.packet.IQ;
import org.jivesoftware.smack.packet.Stanza;
import org.jivesoftware.smack.packet.StanzaError;
import org.jivesoftware.smack.tcp.XMPPTCPConnection;
import org.jivesoftware.smackx.disco.ServiceDiscoveryManager;
import org.jivesoftware.smackx.disco.packet.DiscoverInfo;
import org.jivesoftware.smackx.muc.MultiUserChat;
import org.jivesoftware.smackx.muc.MultiUserChatManager;
import org.jivesoftware.smackx.vcardtemp.VCardManager;
import org.jivesoftware.smackx.vcardtemp.packet.VCard;
import org.jivesoftware.smackx.xdata.packet.DataForm;
import org.junit.jupiter.api.Test;
import org.jxmpp.jid.EntityBareJid;
import org.jxmpp.jid.impl.JidCreate;
import org.jxmpp.jid.parts.Resourcepart;

/**
 * Room avatars (XEP-0486) through a real server with real Smack clients, as Conversations, Gajim
 * and Monal use them: the owner sets the room's vCard, occupants get its hash in a presence from
 * the room, anyone reads it and sees the hash in disco#info. Each subclass names the server.
 */
abstract class RoomAvatarIT extends LiveServiceIT {
    private static final long WAIT_MS = 20_000;
    private static final Pattern PHOTO = Pattern.compile("<photo>([0-9a-f]*)</photo>|<photo/>");
    /** A real 1x1 PNG. */
    private static final byte[] PNG = java.util.Base64.getDecoder().decode(
            "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==");


    private static MultiUserChat muc(XMPPTCPConnection c, EntityBareJid room) {
        return MultiUserChatManager.getInstanceFor(c).getMultiUserChat(room);
    }

    /** Presences from the room's own bare JID that carry an XEP-0153 update. */
    private static StanzaCollector roomAvatarPresences(XMPPTCPConnection c, EntityBareJid room) {
        StanzaFilter fromRoom = new AndFilter(StanzaTypeFilter.PRESENCE, FromMatchesFilter.createFull(room),
                s -> s.getExtensionElement("x", "vcard-temp:x:update") != null);
        return c.createStanzaCollector(fromRoom);
    }

    private static String photoHash(Stanza presence) {
        ExtensionElement update = presence.getExtensionElement("x", "vcard-temp:x:update");
        Matcher m = PHOTO.matcher(update.toXML().toString());
        assertThat(m.find()).as(update.toXML().toString()).isTrue();
        return m.group(1) == null ? "" : m.group(1);
    }

    private static VCard roomVcard(EntityBareJid room) {
        VCard vcard = new VCard();
        vcard.setField("FN", "Verona square");
        vcard.setAvatar(PNG, "image/png");
        vcard.setTo(room);
        vcard.setType(IQ.Type.set);
        return vcard;
    }

    @Test
    void romeoSetsTheAvatarJulietIsToldStrangersReadItAndBenvolioIsToldOnEntering() throws Exception {
        EntityBareJid room = JidCreate.entityBareFrom("square-" + System.nanoTime() % 100000 + "@" + server.componentDomain());
        XMPPTCPConnection romeoC = server.newClient("romeo");
        muc(romeoC, room).createOrJoin(Resourcepart.from("Romeo")).makeInstant();
        XMPPTCPConnection julietC = server.newClient("juliet");
        muc(julietC, room).join(Resourcepart.from("Juliet"));
        StanzaCollector julietHears = roomAvatarPresences(julietC, room);
        String hash = roomVcard(room).getAvatarHash();   // Smack's SHA-1 of the image, as clients compute it

        romeoC.createStanzaCollectorAndSend(roomVcard(room)).nextResultOrThrow();

        Stanza told = julietHears.nextResult(WAIT_MS);
        julietHears.cancel();
        assertThat(told).as("Juliet hears of the avatar").isNotNull();
        assertThat(photoHash(told)).isEqualTo(hash);

        XMPPTCPConnection strangerC = server.newClient("stranger");
        VCard read = VCardManager.getInstanceFor(strangerC).loadVCard(room);
        assertThat(read.getAvatar()).isEqualTo(PNG);
        assertThat(read.getField("FN")).isEqualTo("Verona square");
        DiscoverInfo info = ServiceDiscoveryManager.getInstanceFor(strangerC).discoverInfo(room);
        assertThat(info.containsFeature("vcard-temp")).isTrue();
        DataForm roomInfo = DataForm.from(info, "http://jabber.org/protocol/muc#roominfo");
        assertThat(roomInfo.getField("muc#roominfo_avatarhash").getValuesAsString()).containsExactly(hash);

        XMPPTCPConnection benvolioC = server.newClient("benvolio");
        StanzaCollector benvolioHears = roomAvatarPresences(benvolioC, room);
        muc(benvolioC, room).join(Resourcepart.from("Benvolio"));
        Stanza onEntering = benvolioHears.nextResult(WAIT_MS);
        benvolioHears.cancel();
        assertThat(onEntering).as("Benvolio hears of the avatar on entering").isNotNull();
        assertThat(photoHash(onEntering)).isEqualTo(hash);

        assertThatThrownBy(() -> julietC.createStanzaCollectorAndSend(roomVcard(room)).nextResultOrThrow())
                .isInstanceOfSatisfying(XMPPErrorException.class, e ->
                        assertThat(e.getStanzaError().getCondition()).isEqualTo(StanzaError.Condition.forbidden));
    }

    @Test
    void aRoomWithoutAnAvatarHasNoVcardAndAnEmptyHashField() throws Exception {
        EntityBareJid room = JidCreate.entityBareFrom("bare-" + System.nanoTime() % 100000 + "@" + server.componentDomain());
        muc(server.newClient("romeo"), room).createOrJoin(Resourcepart.from("Romeo")).makeInstant();
        XMPPTCPConnection strangerC = server.newClient("stranger");

        DiscoverInfo info = ServiceDiscoveryManager.getInstanceFor(strangerC).discoverInfo(room);
        assertThat(DataForm.from(info, "http://jabber.org/protocol/muc#roominfo").getField("muc#roominfo_avatarhash")
                .getValuesAsString()).isEmpty();
        assertThatThrownBy(() -> VCardManager.getInstanceFor(strangerC).loadVCard(room))
                .isInstanceOfSatisfying(XMPPErrorException.class, e ->
                        assertThat(e.getStanzaError().getCondition()).isEqualTo(StanzaError.Condition.item_not_found));
    }
}
