package org.reconmuc.component.muc;

import java.util.List;
import java.util.Map;
import org.dom4j.Element;
import org.reconmuc.component.jid.RealJid;
import org.reconmuc.component.muc.StanzaErrors.Condition;
import org.reconmuc.component.muc.RoomAccess.Refusal;

/**
 * The room's password (XEP-0045 §7.2.6), "" for none: two form fields,
 * {@code muc#roomconfig_passwordprotectedroom} and {@code muc#roomconfig_roomsecret}. Everyone
 * entering gives it, owners and admins too (as in Prosody); invitations carry it. The archive
 * and the occupant list are read only from inside the room ({@link RoomAccess}).
 */
public final class PasswordOption extends RoomOption<String> {
    public static final PasswordOption PASSWORD = new PasswordOption();
    static final String PROTECTED = "muc#roomconfig_passwordprotectedroom";

    private PasswordOption() {
        super("muc#roomconfig_roomsecret", "Password", "");
    }

    @Override
    String read(Map<String, List<String>> submitted, String current, RoomConfig.Limits limits) {
        Boolean protectedValue = bool(submitted, PROTECTED);
        boolean protectedRoom = protectedValue == null ? !current.isEmpty() : protectedValue;
        String secret = text(submitted, var);
        String password = secret == null ? current : secret;
        if (!protectedRoom) {
            return "";
        }
        if (password.isEmpty()) {
            throw new IllegalArgumentException(PROTECTED + " is set but " + var + " is empty");
        }
        return password;
    }

    @Override
    void render(Element form, String value, RoomConfig.Limits limits) {
        field(form, PROTECTED, "boolean", "A password is required to join", value.isEmpty() ? "0" : "1");
        field(form, var, "text-private", label, value);
    }

    @Override
    public void describe(RoomConfig config, Element query, Element roomInfo) {
        feature(query, config.get(this).isEmpty() ? "muc_unsecured" : "muc_passwordprotected");
    }

    @Override
    Refusal refuses(RoomConfig config, RoomAccess.Asking asking) {
        String password = config.get(this);
        if (password.isEmpty()) {
            return null;
        }
        return switch (asking.act()) {
            case ENTER -> password.equals(asking.password()) ? null : new Refusal(Condition.NOT_AUTHORIZED,
                    asking.password() == null ? "This room requires a password" : "The password is not correct");
            case READ_ARCHIVE -> asking.occupant() != null ? null
                    : new Refusal(Condition.FORBIDDEN, "This room is password-protected: join it to read its archive");
            case SEE_OCCUPANTS -> asking.occupant() != null ? null
                    : new Refusal(Condition.FORBIDDEN, "This room is password-protected: join it to see who is in it");
            default -> null;
        };
    }

    @Override
    public void inviting(Room room, Occupant inviter, RealJid invitee, Element x) {
        String password = room.config().get(this);
        if (!password.isEmpty()) {
            x.addElement("password").setText(password);
        }
    }
}
