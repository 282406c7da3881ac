package org.reconmuc.component.muc;

import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.dom4j.Element;

/**
 * {@code muc#roomconfig_presencebroadcast}: the roles whose presence the others in the room are
 * sent (an occupant's own sessions always are); every role's by default, as in Prosody and
 * ejabberd. A big room broadcasting only its moderators' presences saves the N² presences of
 * everyone entering. When it changes, occupants whose role is now broadcast appear to the
 * others, and those whose role no longer is leave their view.
 */
final class PresenceBroadcastOption extends RoomOption<Set<Role>> {
    /** Declared first: the singleton's construction reads it. */
    private static final List<Role> BROADCASTABLE = List.of(Role.MODERATOR, Role.PARTICIPANT, Role.VISITOR);
    static final PresenceBroadcastOption PRESENCE_BROADCAST = new PresenceBroadcastOption();

    private PresenceBroadcastOption() {
        super("muc#roomconfig_presencebroadcast", "Roles whose presence is broadcast to the room", Set.copyOf(BROADCASTABLE));
    }

    /** Whether the others in the room are sent the presence of an occupant in {@code role}. */
    static boolean broadcasts(RoomConfig config, Role role) {
        return config.get(PRESENCE_BROADCAST).contains(role);
    }

    @Override
    Set<Role> read(Map<String, List<String>> submitted, Set<Role> current, RoomConfig.Limits limits) {
        List<String> values = submitted.get(var);
        if (values == null) {
            return current;
        }
        Set<Role> roles = EnumSet.noneOf(Role.class);
        for (String v : values) {
            roles.add(Role.parse(v.trim()).filter(BROADCASTABLE::contains).orElseThrow(() -> new IllegalArgumentException(
                    var + " lists roles among moderator, participant and visitor, not '" + v.trim() + "'")));
        }
        return Set.copyOf(roles);
    }

    @Override
    void render(Element form, Set<Role> value, RoomConfig.Limits limits) {
        Element f = field(form, var, "list-multi", label, null);
        for (Role r : BROADCASTABLE) {
            if (value.contains(r)) {
                f.addElement("value").setText(r.xmlValue());
            }
        }
        for (Role r : BROADCASTABLE) {
            choice(f, r.xmlValue(), r.xmlValue());
        }
    }

    @Override
    void changed(Room room, Set<Role> before, Set<Role> after) {
        for (Occupant o : room.occupants()) {
            if (after.contains(o.role()) != o.shownToOthers()) {
                room.presence().broadcastPresence(o, Set.of());
            }
        }
    }
}
