package org.reconmuc.component.muc;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.dom4j.Element;
import org.reconmuc.component.jid.RealJid;

/**
 * {@code muc#roomconfig_whois} (XEP-0045 §7.2.3): whether anyone, or only moderators, may see
 * occupants' real JIDs; the value is true for a non-anonymous room ({@code anyone}). Entering a
 * non-anonymous room says so (100), a change says which way (172, 173), and an invitation from
 * it names the inviter's real JID.
 */
final class WhoisOption extends RoomOption<Boolean> {
    static final WhoisOption NON_ANONYMOUS = new WhoisOption();
    static final int NOW_NON_ANONYMOUS = 172;
    static final int NOW_SEMI_ANONYMOUS = 173;

    private WhoisOption() {
        super("muc#roomconfig_whois", "Who may discover occupants' real JIDs");
    }

    @Override
    Boolean defaultValue(RoomConfig.Limits limits) {
        return false;
    }

    @Override
    Boolean read(Map<String, List<String>> submitted, Boolean current, RoomConfig.Limits limits) {
        String v = text(submitted, var);
        if (v == null) {
            return current;
        }
        if (!v.equals("anyone") && !v.equals("moderators")) {
            throw new IllegalArgumentException(var + " must be 'moderators' or 'anyone'");
        }
        return v.equals("anyone");
    }

    @Override
    void render(Element form, Boolean value, RoomConfig.Limits limits) {
        Element f = field(form, var, "list-single", label, value ? "anyone" : "moderators");
        choice(f, "Moderators only", "moderators");
        choice(f, "Anyone", "anyone");
    }

    @Override
    void describe(RoomConfig config, Element query, Element roomInfo) {
        feature(query, config.get(this) ? "muc_nonanonymous" : "muc_semianonymous");
    }

    @Override
    void addEntryCodes(Boolean value, Set<Integer> codes) {
        if (value) {
            codes.add(MucPresences.NON_ANONYMOUS);
        }
    }

    @Override
    void addChangeCodes(Boolean before, Boolean after, Set<Integer> codes) {
        codes.add(after ? NOW_NON_ANONYMOUS : NOW_SEMI_ANONYMOUS);
    }

    @Override
    void inviting(Room room, Occupant inviter, RealJid invitee, Element x) {
        x.element("invite").addAttribute("from",
                room.config().get(this) ? inviter.bareJid().toString() : inviter.jid().toString());
    }
}
