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
 *
 * <p>With it, {@code reconmuc#roomconfig_presencebroadcast_largeroom}: while the room has more
 * occupants than the service's {@code large-room-occupants}, whoever enters is shown to the others
 * only if a moderator, and is sent only the moderators' presences and its own (Jitsi's rooms with
 * visitors broadcast no visitor's presence; ejabberd stops broadcasting above its
 * {@code max_users_presence}). On by
 * default; an owner who submits the roles without it (a Prosody or ejabberd form, the replay's
 * {@code --presence-broadcast}) has chosen them for every size, and an owner's choice wins.
 * Crossing the size sends nothing to everyone, in either direction: whoever the others see stays
 * seen until it leaves, and its leaving reaches everyone (also those who entered after the room
 * grew and never saw it), so nobody is left believing someone is present who left; whoever entered
 * unseen stays unseen until its next status or role change in a room no longer large.
 */
public final class PresenceBroadcastOption extends RoomOption<PresenceBroadcastOption.Broadcast> {
    /** Declared first: the singleton's construction reads it. */
    private static final List<Role> BROADCASTABLE = List.of(Role.MODERATOR, Role.PARTICIPANT, Role.VISITOR);
    static final PresenceBroadcastOption PRESENCE_BROADCAST = new PresenceBroadcastOption();
    public static final String LARGE_ROOM_VAR = "reconmuc#roomconfig_presencebroadcast_largeroom";

    /** The roles broadcast, and whether a large room shows only its moderators among newcomers. */
    record Broadcast(Set<Role> roles, boolean moderatorsOnlyWhenLarge) {
    }

    private PresenceBroadcastOption() {
        super("muc#roomconfig_presencebroadcast", "Roles whose presence is broadcast to the room",
                new Broadcast(Set.copyOf(BROADCASTABLE), true));
    }

    /**
     * Whether the others in a room of {@code occupants} are to see an occupant in {@code role}
     * from now on; {@code seenNow} is whether they see it now. In a large room only a moderator's
     * visibility may change.
     */
    public static boolean shows(RoomConfig config, Role role, boolean seenNow, int occupants, int largeRoomOccupants) {
        return config.get(PRESENCE_BROADCAST).roles().contains(role)
                && (role == Role.MODERATOR || seenNow || !large(config, occupants, largeRoomOccupants));
    }

    /**
     * Whether someone entering a room of {@code occupants} is sent the presence of an occupant in
     * {@code role} whom the others see: in a large room only moderators' (those seen since before
     * the room grew stay unknown to it, and their leaving reaches it all the same).
     */
    public static boolean showsNewcomers(RoomConfig config, Role role, int occupants, int largeRoomOccupants) {
        return role == Role.MODERATOR || !large(config, occupants, largeRoomOccupants);
    }

    private static boolean large(RoomConfig config, int occupants, int largeRoomOccupants) {
        return config.get(PRESENCE_BROADCAST).moderatorsOnlyWhenLarge() && largeRoomOccupants > 0
                && occupants > largeRoomOccupants;
    }

    @Override
    Broadcast read(Map<String, List<String>> submitted, Broadcast current, RoomConfig.Limits limits) {
        List<String> values = submitted.get(var);
        Boolean largeRoom = bool(submitted, LARGE_ROOM_VAR);
        if (values == null && largeRoom == null) {
            return current;
        }
        Set<Role> roles = current.roles();
        if (values != null) {
            EnumSet<Role> chosen = EnumSet.noneOf(Role.class);
            for (String v : values) {
                chosen.add(Role.parse(v.trim()).filter(BROADCASTABLE::contains).orElseThrow(() -> new IllegalArgumentException(
                        var + " lists roles among moderator, participant and visitor, not '" + v.trim() + "'")));
            }
            roles = Set.copyOf(chosen);
        }
        // Roles submitted without the large-room field are the owner's choice for every size.
        return new Broadcast(roles, Boolean.TRUE.equals(largeRoom));
    }

    @Override
    void render(Element form, Broadcast value, RoomConfig.Limits limits) {
        Element f = field(form, var, "list-multi", label, null);
        for (Role r : BROADCASTABLE) {
            if (value.roles().contains(r)) {
                f.addElement("value").setText(r.xmlValue());
            }
        }
        for (Role r : BROADCASTABLE) {
            choice(f, r.xmlValue(), r.xmlValue());
        }
        field(form, LARGE_ROOM_VAR, "boolean", "While the room is larger than the service's large-room size,"
                + " show only moderators among those who enter", value.moderatorsOnlyWhenLarge() ? "1" : "0");
    }

    @Override
    public void changed(Room room, Broadcast before, Broadcast after) {
        for (Occupant o : room.occupants()) {
            if (room.presence().showsToOthers(o) != o.shownToOthers()) {
                room.presence().broadcastPresence(o, Set.of());
            }
        }
    }
}
