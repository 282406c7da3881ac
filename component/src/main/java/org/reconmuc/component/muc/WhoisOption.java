package org.reconmuc.component.muc;

import java.util.Set;
import org.dom4j.Element;
import org.reconmuc.component.jid.RealJid;

/**
 * {@code muc#roomconfig_whois} (XEP-0045 §7.2.3): whether anyone, or only moderators, may see
 * occupants' real JIDs. Entering a non-anonymous room says so (100), a change says which way
 * (172, 173), and an invitation from it names the inviter's real JID.
 */
public final class WhoisOption extends RoomOption.Choice<WhoisOption.Whois> {
    static final WhoisOption WHOIS = new WhoisOption();
    static final int NOW_NON_ANONYMOUS = 172;
    static final int NOW_SEMI_ANONYMOUS = 173;

    enum Whois { MODERATORS, ANYONE }

    private WhoisOption() {
        super("muc#roomconfig_whois", "Who may discover occupants' real JIDs", Whois.class, Whois.MODERATORS);
    }

    /** Whether everyone in the room sees everyone's real JID. */
    public static boolean nonAnonymous(RoomConfig config) {
        return config.get(WHOIS) == Whois.ANYONE;
    }

    @Override
    String labelOf(Whois value) {
        return value == Whois.ANYONE ? "Anyone" : "Moderators only";
    }

    @Override
    public void describe(RoomConfig config, Element query, Element roomInfo) {
        feature(query, nonAnonymous(config) ? "muc_nonanonymous" : "muc_semianonymous");
    }

    @Override
    public void addEntryCodes(Whois value, Set<Integer> codes) {
        if (value == Whois.ANYONE) {
            codes.add(MucPresences.NON_ANONYMOUS);
        }
    }

    @Override
    public void addChangeCodes(Whois before, Whois after, Set<Integer> codes) {
        codes.add(after == Whois.ANYONE ? NOW_NON_ANONYMOUS : NOW_SEMI_ANONYMOUS);
    }

    @Override
    public void inviting(Room room, Occupant inviter, RealJid invitee, Element x) {
        x.element("invite").addAttribute("from",
                nonAnonymous(room.config()) ? inviter.bareJid().toString() : inviter.jid().toString());
    }
}
